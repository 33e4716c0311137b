import type { GlassErrorResponse, GlassRequest } from "../envelope/envelope-types.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { jsonByteLength } from "../validation/byte-length.js";
import { previewJson, type PayloadDifference } from "./payload-difference.js";
import { recordedSecrets, shownDifference, withoutSecrets } from "./recorded-secrets.js";

/** `details` of a Glass error may hold at most 16 KiB of JSON (§1). */
const MAX_DETAILS_BYTES = 16 * 1024;
/** An error message is at most 512 UTF-8 bytes (§1). */
const MAX_MESSAGE_BYTES = 512;
/** In the message: the differences take at most this much, each value at most {@link MESSAGE_VALUE_BYTES}. */
const MESSAGE_DIFFERENCE_BYTES = 260;
const MESSAGE_VALUE_BYTES = 40;
/** In the message: each nearest recorded payload at most this much. */
const MESSAGE_PAYLOAD_BYTES = 160;
/** In `details`: the differences take at most this much, a value over {@link DETAILS_VALUE_BYTES} is previewed. */
const DETAILS_DIFFERENCE_BYTES = 6 * 1024;
const DETAILS_VALUE_BYTES = 1024;
/** In `details`: a nearest payload over this is previewed. */
const DETAILS_PAYLOAD_BYTES = 2 * 1024;
/** The size of a preview (of a value or payload too large to repeat) in `details`. */
const DETAILS_PREVIEW_BYTES = 256;

/** The error code of a request the fixture has no answer for. */
export const UNMATCHED_CODE = "mock.unmatched";

/** A recorded request near an unmatched one. */
export interface NearestRecording {
  /** The recorded request's id. */
  readonly requestId: string;
  /** The recorded payload. */
  readonly payload: unknown;
  /** How the sent payload differs from it, field by field (their count ranks the recordings). */
  readonly differences: readonly PayloadDifference[];
}

/** What the replay engine knows when a request has no recorded answer. */
export interface UnmatchedContext {
  /** How many recorded answers the fixture has for the request's operation. */
  answersForOperation: number;
  /** The operations the fixture has answers for, sorted. */
  recordedOperations: readonly string[];
  /** The recordings of the operation nearest to the request, nearest first (at most 3). */
  nearest?: readonly NearestRecording[];
}

/**
 * The error response for a request the fixture has no answer for: code `mock.unmatched`, nothing
 * mutated, and the advice to record a fixture. The message (≤ 512 UTF-8 bytes) says whether the
 * operation was recorded at all and, when it was, how the payload differs from the nearest
 * recording (`/expectedRevision: sent 7, recorded 3`) and what the nearest recorded payloads are,
 * compactly. `details` (≤ 16 KiB of JSON) holds the same in full as far as it fits: `operation`,
 * `payload` (or `payloadOmitted`), `answersForOperation`, `differences` (to the nearest:
 * `{path, sent?, recorded?}`, a value too large shown as `sentPreview`/`recordedPreview` text;
 * `differencesOmitted` counts those left out) and `nearest` (`{requestId, differenceCount,
 * payload}` or `payloadPreview`). Where a recording hides a secret (`[redacted]`, a fixture saved with
 * `redact`), the text the call sent in its place is `[redacted]` in both, and a sent value that
 * cannot be told apart from its secret is not shown at all.
 */
export function unmatchedResponse(live: GlassRequest, recordings: UnmatchedContext): GlassErrorResponse {
  const { request, context, payloadHidden } = withoutRecordedSecrets(live, recordings);
  return {
    protocolVersion: 1,
    requestId: request.requestId,
    ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }),
    ok: false,
    error: {
      code: UNMATCHED_CODE,
      message: truncateUtf8(unmatchedMessage(request.operation, context), MAX_MESSAGE_BYTES),
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "record_fixture" },
      details: unmatchedDetails(request, context, payloadHidden),
    },
  };
}

/**
 * The request and the recordings near it as a miss may show them: the secrets the call sent where
 * recordings hide one replaced by `[redacted]` (before anything is shortened, so no part of a
 * secret is left), and the payload hidden when a secret cannot be told apart from the rest.
 */
function withoutRecordedSecrets(
  request: GlassRequest,
  context: UnmatchedContext,
): { request: GlassRequest; context: UnmatchedContext; payloadHidden: boolean } {
  const nearest = context.nearest ?? [];
  const { secrets, unplaced } = recordedSecrets(nearest.flatMap((recording) => recording.differences));
  if (secrets.length === 0 && !unplaced) return { request, context, payloadHidden: false };
  const shown = nearest.map((recording) => ({
    ...recording,
    differences: recording.differences.map((difference) => withoutSecrets(shownDifference(difference), secrets)),
  }));
  return {
    request: { ...request, payload: withoutSecrets(request.payload, secrets) },
    context: { ...context, nearest: shown },
    payloadHidden: unplaced,
  };
}

/**
 * An unmatched response of a daemon that answers with handlers, saying first that no handler
 * answers the operation: `no handler for browser.scroll; no answers for browser.scroll at all; …`.
 */
export function withoutHandler(response: GlassErrorResponse): GlassErrorResponse {
  const operation = (response.error.details as { operation?: unknown } | undefined)?.operation;
  const named = typeof operation === "string" ? operation : "this operation";
  return {
    ...response,
    error: {
      ...response.error,
      message: truncateUtf8(`no handler for ${named}; ${response.error.message}`, MAX_MESSAGE_BYTES),
    },
  };
}

function unmatchedMessage(operation: string, context: UnmatchedContext): string {
  const { answersForOperation: count, recordedOperations } = context;
  if (count === 0)
    return `no answers for ${operation} at all; recorded operations: ${recordedOperations.length === 0 ? "none" : recordedOperations.join(", ")}`;
  let message = `no recorded answer for ${operation} with this payload; the fixture has ${count} ${count === 1 ? "answer" : "answers"} for ${operation}`;
  const nearest = context.nearest ?? [];
  const closest = nearest[0];
  if (closest === undefined) return message;
  message += `. ${nearest.length === 1 ? "It" : "The nearest"} differs at ${listDifferences(closest.differences)}`;
  const budget = Math.min(
    MESSAGE_PAYLOAD_BYTES,
    Math.floor((MAX_MESSAGE_BYTES - message.length - 24) / nearest.length) - 3,
  );
  if (budget >= 16) {
    message += `. ${nearest.length === 1 ? "Recorded" : "Nearest recorded"}: ${nearest.map((recording) => previewJson(recording.payload, budget)).join(" | ")}`;
  }
  return message;
}

/** `/a: sent 1, recorded 2; /b: sent "x", not recorded; … 3 more`, within {@link MESSAGE_DIFFERENCE_BYTES}. */
function listDifferences(differences: readonly PayloadDifference[]): string {
  const shown: string[] = [];
  let bytes = 0;
  for (const difference of differences) {
    const text = describeDifference(difference);
    if (bytes + text.length + 2 > MESSAGE_DIFFERENCE_BYTES && shown.length > 0) break;
    shown.push(text);
    bytes += text.length + 2;
  }
  const left = differences.length - shown.length;
  return left > 0 ? `${shown.join("; ")}; … ${left} more` : shown.join("; ");
}

function describeDifference(difference: PayloadDifference): string {
  const path = difference.path === "" ? "(the payload)" : truncateUtf8(difference.path, 80);
  const side = (name: string, present: boolean, value: unknown): string =>
    present ? `${name} ${previewJson(value, MESSAGE_VALUE_BYTES)}` : `not ${name}`;
  return `${path}: ${side("sent", "sent" in difference, difference.sent)}, ${side("recorded", "recorded" in difference, difference.recorded)}`;
}

function unmatchedDetails(
  request: GlassRequest,
  context: UnmatchedContext,
  payloadHidden: boolean,
): Record<string, unknown> {
  const { operation, payload } = request;
  const details: Record<string, unknown> = { operation: truncateUtf8(operation, 256) };
  const nearest = context.nearest ?? [];
  const closest = nearest[0];
  if (closest !== undefined) {
    details.answersForOperation = context.answersForOperation;
    const differences: Record<string, unknown>[] = [];
    let bytes = 0;
    for (const difference of closest.differences) {
      const entry = differenceEntry(difference);
      const size = jsonByteLength(entry) + 1;
      if (bytes + size > DETAILS_DIFFERENCE_BYTES) break;
      differences.push(entry);
      bytes += size;
    }
    details.differences = differences;
    if (differences.length < closest.differences.length)
      details.differencesOmitted = closest.differences.length - differences.length;
    details.nearest = nearest.map((recording) => ({
      requestId: truncateUtf8(recording.requestId, 256),
      differenceCount: recording.differences.length,
      ...shownValue("payload", recording.payload, DETAILS_PAYLOAD_BYTES),
    }));
  }
  const room = MAX_DETAILS_BYTES - jsonByteLength(details) - 64;
  if (payloadHidden)
    details.payloadOmitted =
      "the payload differs from a recording that hides a secret ([redacted]) in a way that would show it";
  else if (jsonByteLength(payload, room) <= room) details.payload = payload;
  else details.payloadOmitted = "the payload is too large to repeat here (details are limited to 16 KiB)";
  return details;
}

function differenceEntry(difference: PayloadDifference): Record<string, unknown> {
  return {
    path: truncateUtf8(difference.path, 512),
    ...("sent" in difference ? shownValue("sent", difference.sent, DETAILS_VALUE_BYTES) : {}),
    ...("recorded" in difference ? shownValue("recorded", difference.recorded, DETAILS_VALUE_BYTES) : {}),
  };
}

/** `{ [name]: value }` when the value's JSON fits `maxBytes`, else `{ [name + "Preview"]: its beginning }`. */
function shownValue(name: string, value: unknown, maxBytes: number): Record<string, unknown> {
  if (jsonByteLength(value, maxBytes) <= maxBytes) return { [name]: value };
  return { [`${name}Preview`]: previewJson(value, DETAILS_PREVIEW_BYTES) };
}
