import type { GlassErrorResponse, GlassRequest } from "../envelope/envelope-types.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { jsonByteLength } from "../validation/byte-length.js";

/** `details` of a Glass error may hold at most 16 KiB of JSON (§1). */
const MAX_DETAILS_BYTES = 16 * 1024;

/** The error code of a request the fixture has no answer for. */
export const UNMATCHED_CODE = "mock.unmatched";

/** What the replay engine knows when a request has no recorded answer. */
export interface UnmatchedContext {
  /** How many recorded answers the fixture has for the request's operation. */
  answersForOperation: number;
  /** The operations the fixture has answers for, sorted. */
  recordedOperations: readonly string[];
}

/**
 * The error response for a request the fixture has no answer for: code `mock.unmatched`, a message
 * saying whether the operation was recorded at all (≤ 512 UTF-8 bytes), nothing mutated, and the
 * advice to record a fixture. `details` carries the operation and the payload, or only the payload's
 * size when the payload would push `details` past 16 KiB.
 */
export function unmatchedResponse(request: GlassRequest, context: UnmatchedContext): GlassErrorResponse {
  const { operation, payload } = request;
  const { answersForOperation: count, recordedOperations } = context;
  const message =
    count > 0
      ? `no recorded answer for ${operation} with this payload; the fixture has ${count} ${count === 1 ? "answer" : "answers"} for ${operation}`
      : `no answers for ${operation} at all; recorded operations: ${recordedOperations.length === 0 ? "none" : recordedOperations.join(", ")}`;
  const payloadBytes = jsonByteLength(payload, MAX_DETAILS_BYTES);
  const details =
    payloadBytes + jsonByteLength(operation) + 32 <= MAX_DETAILS_BYTES
      ? { operation, payload }
      : { operation, payloadOmitted: "the payload is too large to repeat here (details are limited to 16 KiB)" };
  return {
    protocolVersion: 1,
    requestId: request.requestId,
    ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }),
    ok: false,
    error: {
      code: UNMATCHED_CODE,
      message: truncateUtf8(message, 512),
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "record_fixture" },
      details,
    },
  };
}
