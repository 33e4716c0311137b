// Resuming a request's SSE answer stream after it ended without the answer (MCP 2025-11-25,
// Streamable HTTP, "Resumability and Redelivery"): a server that gave an event id may close the
// stream at will (polling) or lose the connection; the client then waits the stream's `retry`
// time and GETs the endpoint with `Last-Event-ID`, and the server goes on with that stream there.
// The request itself is never POSTed again. This module holds the loop and its bounds; the HTTP
// transport supplies each attempt (the GET and the reading of its stream).

/** Where a request's SSE stream got to: what a reconnection resumes from. */
export interface SseCursor {
  /** The id of the last event the server finished (`""`: none, so the stream cannot be resumed). */
  lastEventId: string;
  /** The reconnection delay the server last asked for with `retry:`, in milliseconds. */
  retryMs: number | undefined;
}

/** The bounds of a resumption (the call's deadline and the caller's cancel bound it too). */
export const SseResumeLimits = {
  /** The wait before a reconnection when the server sent no `retry:` (1 s). */
  defaultWaitMs: 1_000,
  /** The shortest wait before a reconnection, whatever `retry:` says (100 ms): a server cannot make the client poll in a tight loop. */
  minWaitMs: 100,
  /** The longest wait before a reconnection (30 s): a longer `retry:` is shortened to it. */
  maxWaitMs: 30_000,
  /** Reconnections in a row that bring no new event (no new id) before the client gives up (3). */
  maxIdleReconnects: 3,
} as const;

/**
 * What one reconnection came to, as the transport tells it: the answer arrived; the stream was read
 * until it ended or dropped (`read`, `why` saying how); the GET failed in a way another may not
 * (`transient`: a network failure, 408, 429, 502, 503, 504); or resumption cannot go on (`final`:
 * 404, 405, another status, not an SSE stream). A transport that was closed or a call that was
 * cancelled meanwhile is `stopped`.
 */
export type ResumeAttempt =
  | { outcome: "answered" }
  | { outcome: "stopped" }
  | { outcome: "read"; why: string }
  | { outcome: "transient"; why: string }
  | { outcome: "final"; why: string; status?: number };

/** Why a resumption gave up: what to tell the caller, and the facts for the error's details. */
export interface ResumeFailure {
  why: string;
  details: { lastEventId: string; reconnects: number; httpStatus?: number };
}

/**
 * How long to wait before reconnecting: the stream's `retry:` within
 * [{@link SseResumeLimits.minWaitMs}, {@link SseResumeLimits.maxWaitMs}], else
 * {@link SseResumeLimits.defaultWaitMs}.
 */
export function reconnectWaitMs(retryMs: number | undefined): number {
  if (retryMs === undefined || Number.isNaN(retryMs)) return SseResumeLimits.defaultWaitMs;
  return Math.min(SseResumeLimits.maxWaitMs, Math.max(SseResumeLimits.minWaitMs, retryMs));
}

/** Waits `ms`; resolves true when the time passed, false at once when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (passed: boolean): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      resolve(passed);
    };
    const aborted = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", aborted, { once: true });
  });
}

/**
 * Resumes a stream that ended before the answer: waits the stream's `retry` time, then lets
 * `attempt` reconnect from `cursor.lastEventId` (which it moves on as it reads), and again while
 * the streams end without the answer — until the answer arrives, `signal` aborts (the call was
 * cancelled or the transport closed: resolves `undefined` too), or it gives up: after a `final`
 * attempt, or after {@link SseResumeLimits.maxIdleReconnects} reconnections in a row that brought
 * no new event id. Resolves the failure to report, or `undefined`. An error `attempt` throws is
 * not caught.
 */
export async function resumeSseStream(
  cursor: SseCursor,
  signal: AbortSignal,
  attempt: (lastEventId: string) => Promise<ResumeAttempt>,
): Promise<ResumeFailure | undefined> {
  let reconnects = 0;
  let idle = 0;
  for (;;) {
    if (!(await pause(reconnectWaitMs(cursor.retryMs), signal))) return undefined;
    const from = cursor.lastEventId;
    reconnects += 1;
    const result = await attempt(from);
    if (result.outcome === "answered" || result.outcome === "stopped") return undefined;
    const failure = (said: string, status?: number): ResumeFailure => ({
      why: `its SSE stream ended early and was resumed with GET ${reconnects === 1 ? "once" : `${reconnects} times`}, the last from event ${JSON.stringify(from)}: ${said}`,
      details: { lastEventId: from, reconnects, ...(status === undefined ? {} : { httpStatus: status }) },
    });
    if (result.outcome === "final") return failure(result.why, result.status);
    idle = cursor.lastEventId === from ? idle + 1 : 0;
    if (idle >= SseResumeLimits.maxIdleReconnects)
      return failure(`${result.why}; ${idle} reconnections in a row brought no new event, so the client stopped`);
  }
}
