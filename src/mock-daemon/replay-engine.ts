import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { canonicalJson } from "./canonical-json.js";
import { deepFreeze } from "./deep-freeze.js";
import type { GoldenFixture } from "./golden-fixture.js";
import { payloadDifferences } from "./payload-difference.js";
import { holdsRedacted, onlyHidden } from "./recorded-secrets.js";
import { readIgnoredFields, withoutIgnored, type ReplayMatchOptions } from "./replay-match.js";
import { unmatchedResponse, type NearestRecording } from "./unmatched-response.js";

/** How many recordings of an operation an unmatched request is compared with to find the nearest. */
const MAX_COMPARED = 1000;
/** How many nearest recordings an unmatched answer shows. */
const NEAREST_SHOWN = 3;
/** Differences are counted up to this many per recording; beyond, a recording is simply far. */
const MAX_COUNTED_DIFFERENCES = 200;

/** Options of {@link createReplayEngine}. */
export interface ReplayEngineOptions {
  /**
   * Asked for a request the fixture has no answer for, before the `mock.unmatched` error is made:
   * return a response to use it instead (it is sent as it is, with the ids rewritten), or
   * `undefined` to let the request fail as unmatched.
   */
  fallback?: (request: GlassRequest) => GlassResponse | undefined;
  /** How a recorded request is matched to a live one: fields to ignore, or a matcher of your own. */
  match?: ReplayMatchOptions;
}

/**
 * Answers Glass requests from a golden fixture. Platform-free. It remembers how many times each
 * recorded payload was answered (to answer in recorded order), so connections that share one share
 * that order: give each test its own.
 */
export interface ReplayEngine {
  /**
   * The recorded answer to a request with the same operation and payload, re-addressed to it
   * (`requestId`, and `correlationId` iff the live request has one), or a `mock.unmatched` error
   * response. See docs/testing.md, "How matching works" and "A miss". The `result`/`error` inside
   * is shared with the fixture and frozen: copy it before changing it.
   */
  answer(request: GlassRequest): GlassResponse;
  /** Whether the fixture has an answer for this operation and payload (matched as `answer` matches). */
  has(operation: string, payload: unknown): boolean;
  /** The operations the fixture has answers for, sorted. */
  operations(): string[];
  /** The recorded requests that have an answer, in fixture order. */
  requests(): GlassRequest[];
}

/** A recorded request that has an answer. */
interface Recording {
  readonly request: GlassRequest;
  readonly response: GlassResponse;
  /** The payload with the ignored fields left out (the payload itself when nothing is ignored). */
  readonly compared: unknown;
}

/**
 * Builds a replay engine over a fixture (see {@link parseFixture} to check one first); how it
 * matches: docs/testing.md, "How matching works". Requests are matched through precomputed maps: a
 * payload sent with the recorded key order costs one `JSON.stringify`, any other order one
 * canonical serialization. The responses are copied: changing the fixture later changes nothing here.
 * A miss names the nearest recordings (docs/testing.md, "A miss").
 */
export function createReplayEngine(fixture: GoldenFixture, options: ReplayEngineOptions = {}): ReplayEngine {
  const ignored = readIgnoredFields(options.match?.ignore);
  const matcher = options.match?.matcher;
  const compared = (payload: unknown): unknown => (ignored === undefined ? payload : withoutIgnored(payload, ignored));
  const responsesById = new Map<string, GlassResponse>();
  for (const response of fixture.responses) {
    if (!responsesById.has(response.requestId))
      responsesById.set(response.requestId, deepFreeze(structuredClone(response)));
  }
  // Each recorded payload's answers in recorded order, and how many of them were given.
  const answers = new Map<string, RecordedAnswers>();
  const answersAsSent = new Map<string, RecordedAnswers>();
  const answered: GlassRequest[] = [];
  const byOperation = new Map<string, Recording[]>();
  // The recordings of each operation whose payload hides a secret (`[redacted]`), in fixture order.
  const hiding = new Map<string, Recording[]>();
  for (const request of fixture.requests) {
    const response = responsesById.get(request.requestId);
    if (response === undefined) continue;
    answered.push(request);
    const recording: Recording = {
      request: deepFreeze(structuredClone(request)),
      response,
      compared: compared(request.payload),
    };
    const recordings = byOperation.get(request.operation);
    if (recordings === undefined) byOperation.set(request.operation, [recording]);
    else recordings.push(recording);
    if (holdsRedacted(recording.compared)) {
      const hidingSecrets = hiding.get(request.operation);
      if (hidingSecrets === undefined) hiding.set(request.operation, [recording]);
      else hidingSecrets.push(recording);
    }
    const key = matchKey(request.operation, recording.compared);
    const known = answers.get(key);
    if (known !== undefined) {
      known.responses.push(response);
      continue;
    }
    const recorded: RecordedAnswers = { responses: [response], given: 0 };
    answers.set(key, recorded);
    // The same payload sent with the recorded key order is found without sorting keys.
    answersAsSent.set(sentKey(request.operation, recording.compared), recorded);
  }
  const recordedOperations = [...byOperation.keys()].sort();

  // A recording that differs from the payload only where it hides what the recorder was told to
  // redact: a session recorded with `redact` replays without ignoring those fields by hand.
  const hidden = (operation: string, comparable: unknown): RecordedAnswers | undefined => {
    for (const recording of hiding.get(operation) ?? []) {
      const differences = payloadDifferences(comparable, recording.compared, MAX_COUNTED_DIFFERENCES);
      if (differences.length < MAX_COUNTED_DIFFERENCES && differences.every(onlyHidden))
        return answers.get(matchKey(operation, recording.compared));
    }
    return undefined;
  };

  const find = (operation: string, payload: unknown): RecordedAnswers | GlassResponse | undefined => {
    const comparable = compared(payload);
    const exact =
      answersAsSent.get(sentKey(operation, comparable)) ??
      answers.get(matchKey(operation, comparable)) ??
      hidden(operation, comparable);
    if (exact !== undefined || matcher === undefined) return exact;
    return byOperation.get(operation)?.find((recording) => matcher(operation, payload, recording.request.payload))
      ?.response;
  };

  return {
    answer(request) {
      const found = find(request.operation, request.payload);
      const recorded =
        found !== undefined && "responses" in found ? nextAnswer(found) : (found ?? options.fallback?.(request));
      if (recorded === undefined) {
        const recordings = byOperation.get(request.operation) ?? [];
        return unmatchedResponse(request, {
          answersForOperation: recordings.length,
          recordedOperations,
          nearest: nearestRecordings(compared(request.payload), recordings),
        });
      }
      return withIds(recorded, request);
    },
    has: (operation, payload) => find(operation, payload) !== undefined,
    operations: () => [...recordedOperations],
    requests: () => [...answered],
  };
}

/** The answers recorded for one payload, in recorded order, and how many were given so far. */
interface RecordedAnswers {
  readonly responses: GlassResponse[];
  given: number;
}

/** The next answer in recorded order; the last one once all were given. */
function nextAnswer(recorded: RecordedAnswers): GlassResponse {
  const response = recorded.responses[Math.min(recorded.given, recorded.responses.length - 1)]!;
  recorded.given++;
  return response;
}

/** Up to {@link NEAREST_SHOWN} recordings nearest to the payload, nearest first, with their differences to it. */
function nearestRecordings(payload: unknown, recordings: readonly Recording[]): NearestRecording[] {
  const nearest: NearestRecording[] = [];
  for (const recording of recordings.slice(0, MAX_COMPARED)) {
    // Once three are kept, only a recording nearer than the farthest of them gets in: count no further.
    const full = nearest.length >= NEAREST_SHOWN;
    const limit = full ? nearest[nearest.length - 1]!.differences.length : MAX_COUNTED_DIFFERENCES;
    const differences = payloadDifferences(payload, recording.compared, limit);
    if (full && differences.length >= limit) continue;
    const at = nearest.findIndex((kept) => kept.differences.length > differences.length);
    nearest.splice(at === -1 ? nearest.length : at, 0, {
      requestId: recording.request.requestId,
      payload: recording.request.payload,
      differences,
    });
    if (nearest.length > NEAREST_SHOWN) nearest.pop();
  }
  return nearest;
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
