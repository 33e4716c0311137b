import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { validateRequest, validateResponse } from "../envelope/validate.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { GlassError } from "../errors/glass-error.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import type { ValidationIssue } from "../validation/issue.js";
import { isJsonObject } from "../validation/json-value.js";

/**
 * A golden fixture: Glass requests and the responses the daemon gave to them, matched by
 * `requestId` (a request may have no recorded response), plus responses that must be rejected.
 * `fixtures/protocol-golden-v1.json` is the package's own.
 */
export interface GoldenFixture {
  /** The fixture format version; always 1. */
  schemaVersion: 1;
  /** Recorded requests; their `requestId`s are unique. */
  requests: GlassRequest[];
  /** The daemon's answers, each to the request with the same `requestId`. */
  responses: GlassResponse[];
  /** Responses a client must reject (not used for replay). */
  invalidResponses?: unknown[];
}

/** A fixture with no answers: what a mock daemon given no fixture replays (its handlers and the simulated site answer). */
export const EMPTY_FIXTURE: GoldenFixture = { schemaVersion: 1, requests: [], responses: [] };

/**
 * Checks parsed JSON as a golden fixture and returns it typed: every request must be a valid
 * request envelope and every response a valid response envelope (§1), request ids must be unique,
 * and each response must answer a recorded request at most once. Throws a {@link GlassError} with
 * code `fixture.invalid` naming the first bad entry (`requests[3] (requestId "x")`). Platform-free;
 * to read a fixture file, use `loadFixture(path)`.
 */
export function parseFixture(json: unknown): GoldenFixture {
  const problem = fixtureShapeProblem(json);
  if (problem !== undefined) fail(problem);
  const { requests, responses } = json as { requests: unknown[]; responses: unknown[] };

  const requestIds = new Set<string>();
  requests.forEach((entry: unknown, index) => {
    const checked = validateRequest(entry);
    if (!checked.ok) fail(`${entryName("requests", index, entry)} is not a valid request: ${describe(checked.issues)}`);
    if (requestIds.has(checked.value.requestId))
      fail(`${entryName("requests", index, entry)} repeats a requestId of an earlier request`);
    requestIds.add(checked.value.requestId);
  });
  const answered = new Set<string>();
  responses.forEach((entry: unknown, index) => {
    const checked = validateResponse(entry);
    if (!checked.ok)
      fail(`${entryName("responses", index, entry)} is not a valid response: ${describe(checked.issues)}`);
    const { requestId } = checked.value;
    if (!requestIds.has(requestId)) fail(`${entryName("responses", index, entry)} answers no recorded request`);
    if (answered.has(requestId)) fail(`${entryName("responses", index, entry)} is a second answer to the same request`);
    answered.add(requestId);
  });
  return json as unknown as GoldenFixture;
}

/**
 * Why parsed JSON is not a golden fixture at all — not an object with `schemaVersion: 1` and the
 * `requests` and `responses` arrays — or `undefined` when it has that shape. The reason quotes
 * nothing of the value (it may be any file's content): it names the field and the kind of value.
 */
export function fixtureShapeProblem(json: unknown): string | undefined {
  if (!isJsonObject(json))
    return `the fixture must be a JSON object with schemaVersion, requests and responses (got ${kindOf(json)})`;
  const version = json.schemaVersion;
  if (version !== 1)
    return `schemaVersion must be 1 (got ${typeof version === "number" ? String(version) : kindOf(version)})`;
  if (!Array.isArray(json.requests))
    return `requests must be an array of request envelopes (got ${kindOf(json.requests)})`;
  if (!Array.isArray(json.responses))
    return `responses must be an array of response envelopes (got ${kindOf(json.responses)})`;
  if (json.invalidResponses !== undefined && !Array.isArray(json.invalidResponses))
    return `invalidResponses, when present, must be an array (got ${kindOf(json.invalidResponses)})`;
  return undefined;
}

/** The kind of a parsed JSON value, as a phrase: `an object`, `a string`, `nothing` (absent). */
function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function entryName(list: string, index: number, entry: unknown): string {
  const id =
    isJsonObject(entry) && typeof entry.requestId === "string" ? ` (requestId ${JSON.stringify(entry.requestId)})` : "";
  return `${list}[${index}]${id}`;
}

function describe(issues: readonly ValidationIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path === "" ? "the envelope" : issue.path} ${issue.reason}`)
    .join("; ");
}

function fail(message: string): never {
  throw fixtureInvalid(`the golden fixture is invalid: ${message}`);
}

/** The `fixture.invalid` error (not retryable: fix the fixture), its message cut to 512 UTF-8 bytes. */
export function fixtureInvalid(message: string, cause?: unknown): GlassError {
  return new GlassError({
    code: GlassErrorCode.FixtureInvalid,
    message: truncateUtf8(message, 512),
    retry: { classification: "notRetryable", recommendedOperation: "fix_fixture" },
    cause,
  });
}
