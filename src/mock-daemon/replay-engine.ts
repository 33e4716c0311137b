import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { canonicalJson } from "./canonical-json.js";
import { deepFreeze } from "./deep-freeze.js";
import type { GoldenFixture } from "./golden-fixture.js";
import { unmatchedResponse } from "./unmatched-response.js";

/** Options of {@link createReplayEngine}. */
export interface ReplayEngineOptions {
  /**
   * Asked for a request the fixture has no answer for, before the `mock.unmatched` error is made:
   * return a response to use it instead (it is sent as it is, with the ids rewritten), or
   * `undefined` to let the request fail as unmatched.
   */
  fallback?: (request: GlassRequest) => GlassResponse | undefined;
}

/** Answers Glass requests from a golden fixture. Platform-free; safe to share between connections. */
export interface ReplayEngine {
  /**
   * The recorded answer to a request with the same operation and payload (key order does not
   * matter), carrying the live request's `requestId` and its `correlationId` (present iff the live
   * request has one). A request with no recorded answer gets a `mock.unmatched` error response.
   * The `result`/`error` inside is shared with the fixture and frozen: copy it before changing it.
   */
  answer(request: GlassRequest): GlassResponse;
  /** Whether the fixture has an answer for this operation and payload. */
  has(operation: string, payload: unknown): boolean;
  /** The operations the fixture has answers for, sorted. */
  operations(): string[];
  /** The recorded requests that have an answer, in fixture order. */
  requests(): GlassRequest[];
}

/**
 * Builds a replay engine over a fixture (see {@link parseFixture} to check one first). Requests are
 * matched on operation and canonical payload through precomputed maps: a payload sent with the
 * recorded key order costs one `JSON.stringify`, any other order one canonical serialization. When two recorded requests have the same operation and
 * payload, the first one's answer is used. The responses are copied: changing the fixture later
 * changes nothing here.
 */
export function createReplayEngine(fixture: GoldenFixture, options: ReplayEngineOptions = {}): ReplayEngine {
  const responsesById = new Map<string, GlassResponse>();
  for (const response of fixture.responses) {
    if (!responsesById.has(response.requestId)) responsesById.set(response.requestId, deepFreeze(structuredClone(response)));
  }
  const answers = new Map<string, GlassResponse>();
  const answersAsSent = new Map<string, GlassResponse>();
  const answered: GlassRequest[] = [];
  const countByOperation = new Map<string, number>();
  for (const request of fixture.requests) {
    const response = responsesById.get(request.requestId);
    if (response === undefined) continue;
    answered.push(request);
    countByOperation.set(request.operation, (countByOperation.get(request.operation) ?? 0) + 1);
    const key = matchKey(request.operation, request.payload);
    if (answers.has(key)) continue;
    answers.set(key, response);
    // The same payload sent with the recorded key order is found without sorting keys.
    answersAsSent.set(sentKey(request.operation, request.payload), response);
  }
  const recordedOperations = [...countByOperation.keys()].sort();

  return {
    answer(request) {
      const recorded =
        answersAsSent.get(sentKey(request.operation, request.payload)) ??
        answers.get(matchKey(request.operation, request.payload)) ??
        options.fallback?.(request);
      if (recorded === undefined) {
        return unmatchedResponse(request, {
          answersForOperation: countByOperation.get(request.operation) ?? 0,
          recordedOperations,
        });
      }
      return withIds(recorded, request);
    },
    has: (operation, payload) => answers.has(matchKey(operation, payload)),
    operations: () => [...recordedOperations],
    requests: () => [...answered],
  };
}

function matchKey(operation: string, payload: unknown): string {
  return `${operation}\u0000${canonicalJson(payload)}`;
}

function sentKey(operation: string, payload: unknown): string {
  return `${operation}\u0000${JSON.stringify(payload)}`;
}

/** The recorded response, re-addressed to the live request. */
function withIds(recorded: GlassResponse, request: GlassRequest): GlassResponse {
  const { protocolVersion: _version, requestId: _id, correlationId: _correlation, ...rest } = recorded;
  return {
    protocolVersion: 1,
    requestId: request.requestId,
    ...(request.correlationId === undefined ? {} : { correlationId: request.correlationId }),
    ...rest,
  } as GlassResponse;
}
