import { requestInvalid } from "../errors/error-classes.js";
import { REDACTED } from "../errors/redact.js";
import { describeIssues } from "../validation/issue.js";
import type { PayloadOf } from "../../generated/operation-map.js";
import type { GlassMutationLease, GlassRequest } from "./envelope-types.js";
import { newRequestId } from "./request-id.js";
import { validateRequest } from "./validate-envelope.js";

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
    const issues = checked.issues.map((issue) => ({ path: redactLease(issue.path, options.mutationLease), reason: redactLease(issue.reason, options.mutationLease) }));
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
export function assembleRequest(operation: string, payload: unknown, options: CreateRequestOptions): Record<string, unknown> {
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
