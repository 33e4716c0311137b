import { requestInvalid } from "../errors/error-classes.js";
import { REDACTED } from "../errors/redact.js";
import { describeIssues } from "../validation/issue.js";
import type { PayloadOf } from "../../generated/operation-map.js";
import type { GlassErrorObject, GlassMutationLease, GlassRequest, GlassResponse } from "./envelope-types.js";
import { validateRequest } from "./validate.js";

// Building envelopes: a request (createRequest, with a fresh id from newRequestId) and the response
// that answers one (responseEnvelope).

/** The optional envelope fields of {@link createRequest}. */
export interface CreateRequestOptions {
  /** The request id; a fresh UUID when absent. */
  requestId?: string;
  /** Groups the requests of one run or workflow. */
  correlationId?: string;
  /** The daemon session; must equal `mutationLease.sessionId` when both are given. */
  sessionId?: string;
  /** The mutation lease to send a mutating operation under. */
  mutationLease?: GlassMutationLease;
  /** How long the daemon may work on it, 1..900000 ms. */
  deadlineMs?: number;
}

/**
 * Builds a version 1 request envelope for `operation` with a fresh `requestId` (and the optional
 * fields given). The payload is typed by the catalog: `createRequest("webIr.diff", { before: 1 })`
 * does not compile. The envelope is validated (§1); invalid input throws a {@link GlassError} with
 * code `request.invalid` whose `details.issues` lists every problem. Payload rules beyond JSON are
 * checked by {@link validatePayload}, so deliberately invalid payloads can still be sent.
 */
export function createRequest<Op extends string>(
  operation: Op,
  payload: PayloadOf<Op>,
  options: CreateRequestOptions = {},
): GlassRequest<Op> {
  const request = assembleRequest(operation, payload, options);
  const checked = validateRequest(request);
  if (!checked.ok) {
    const issues = checked.issues.map((issue) => ({
      path: redactLease(issue.path, options.mutationLease),
      reason: redactLease(issue.reason, options.mutationLease),
    }));
    throw requestInvalid(`cannot build the request: ${describeIssues(issues, "request")}`, {
      details: { kind: "requestValidation", issues },
      operation: typeof operation === "string" ? operation : undefined,
      requestId: typeof request.requestId === "string" ? request.requestId : undefined,
    });
  }
  return request as GlassRequest<Op>;
}

/**
 * The request envelope of `operation` with the fields given, in the protocol's order (a fresh
 * `requestId` when none is given), not yet checked: {@link createRequest} checks all of it, the
 * client checks the ids itself and the payload in its preflight.
 */
export function assembleRequest(
  operation: string,
  payload: unknown,
  options: CreateRequestOptions,
): Record<string, unknown> {
  const request: Record<string, unknown> = {
    protocolVersion: 1,
    requestId: options.requestId ?? newRequestId(),
  };
  if (options.correlationId !== undefined) request.correlationId = options.correlationId;
  if (options.sessionId !== undefined) request.sessionId = options.sessionId;
  if (options.mutationLease !== undefined) request.mutationLease = options.mutationLease;
  request.operation = operation;
  request.payload = payload;
  if (options.deadlineMs !== undefined) request.deadlineMs = options.deadlineMs;
  return request;
}

/** Lease tokens never appear in messages. */
function redactLease(text: string, lease: GlassMutationLease | undefined): string {
  const token = lease?.token;
  return typeof token === "string" && token !== "" ? text.split(token).join(REDACTED) : text;
}

/** Random bytes fetched at once and handed out 16 at a time: one system call per 256 ids. */
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let next = POOL_IDS;
const HEX: string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * A fresh request id: a random UUID (version 4). Uses `crypto.getRandomValues`, which every
 * runtime the SDK supports has (Node 20, browsers on http and https pages, workers), drawing from a
 * pool so that an id costs no system call of its own.
 */
export function newRequestId(): string {
  if (next === POOL_IDS) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  const o = 16 * next++;
  const b = pool;
  return (
    HEX[b[o]!]! +
    HEX[b[o + 1]!]! +
    HEX[b[o + 2]!]! +
    HEX[b[o + 3]!]! +
    "-" +
    HEX[b[o + 4]!]! +
    HEX[b[o + 5]!]! +
    "-" +
    HEX[(b[o + 6]! & 0x0f) | 0x40]! +
    HEX[b[o + 7]!]! +
    "-" +
    HEX[(b[o + 8]! & 0x3f) | 0x80]! +
    HEX[b[o + 9]!]! +
    "-" +
    HEX[b[o + 10]!]! +
    HEX[b[o + 11]!]! +
    HEX[b[o + 12]!]! +
    HEX[b[o + 13]!]! +
    HEX[b[o + 14]!]! +
    HEX[b[o + 15]!]!
  );
}

/** The ids a response copies from the request it answers. */
export interface ResponseIds {
  readonly requestId: string;
  readonly correlationId?: string | undefined;
}

/**
 * The response envelope answering `ids` (a request, or another response): `ok` with `value` as its
 * result, or not `ok` with `value` as its error object. Built field by field (no spreads): it runs
 * once per call.
 */
export function responseEnvelope(ids: ResponseIds, ok: true, value: unknown): GlassResponse;
export function responseEnvelope(ids: ResponseIds, ok: false, value: GlassErrorObject): GlassResponse;
export function responseEnvelope(ids: ResponseIds, ok: boolean, value: unknown): GlassResponse {
  const response: Record<string, unknown> = { protocolVersion: 1, requestId: ids.requestId };
  if (ids.correlationId !== undefined) response.correlationId = ids.correlationId;
  response.ok = ok;
  if (ok) response.result = value;
  else response.error = value;
  return response as GlassResponse;
}
