// The standalone SSE stream an HTTP client may open to hear from the server outside its calls (MCP
// 2025-11-25, Streamable HTTP, "Listening for Messages from the Server"): after the session is
// initialized the client GETs the endpoint with `Accept: text/event-stream`, and the server answers
// with an SSE stream of its requests and notifications, or with 405 when it offers none. This module
// holds the stream's life — one at a time, opened once per session, resumed when it ends or drops
// with the rules of call streams (sse-resume.ts), given up for good when refused — while the HTTP
// transport supplies each GET and the reading of what it answers.

import { describeError } from "../errors/redact.js";
import { resumeSseStream, type ResumeAttempt, type SseCursor } from "./sse-resume.js";

/**
 * One GET of the stream, as the transport makes it: with `Last-Event-ID` when `lastEventId` is not
 * `""`, aborted by `stop`; it reads the answer's messages (delivering each, moving `cursor` on)
 * until the stream ends and says how it went. `final` means the server offers no stream (405, 404,
 * another status, not an SSE stream); `stopped`, that the transport ended or `stop` aborted.
 */
export type ServerStreamAttempt = (
  lastEventId: string,
  cursor: SseCursor,
  stop: AbortController,
) => Promise<ResumeAttempt>;

/**
 * The session's standalone GET stream. {@link ServerStream.open} starts listening (ending a stream
 * of an earlier session); a refusal ends it for the session; a stream that ends or drops is
 * reconnected after its `retry` time with `Last-Event-ID`, until
 * three reconnections in a row bring no new event id (`SseResumeLimits.maxIdleReconnects`).
 * {@link ServerStream.stop} aborts the GET or the wait. When the stream ends for the session other
 * than by `stop` or the transport's end, `reportEnd` gets a notice saying why (for the client's log).
 */
export class ServerStream {
  readonly #attempt: ServerStreamAttempt;
  readonly #reportEnd: (notice: string) => void;
  #stop: AbortController | undefined;

  constructor(attempt: ServerStreamAttempt, reportEnd: (notice: string) => void) {
    this.#attempt = attempt;
    this.#reportEnd = reportEnd;
  }

  /** Starts listening on the current session, after ending any stream opened before. */
  open(): void {
    this.stop();
    const stop = new AbortController();
    this.#stop = stop;
    const forget = (): void => {
      if (this.#stop === stop) this.#stop = undefined;
    };
    // Whatever ends the stream ends only the listening: the calls go on by POST. A report that
    // throws (the caller's logger) is dropped here rather than left an unhandled rejection.
    this.#listen(stop).then(forget, forget);
  }

  /** Aborts the stream, its GET or the wait before a reconnection. */
  stop(): void {
    const stop = this.#stop;
    this.#stop = undefined;
    stop?.abort();
  }

  /** Follows the stream until it ends, then reports why, unless it was stopped. */
  async #listen(stop: AbortController): Promise<void> {
    let why: string | undefined;
    try {
      why = await this.#follow(stop);
    } catch (error) {
      why = `failed: ${describeError(error)}`; // an answer past the bound per message
    }
    if (why !== undefined)
      this.#reportEnd(
        `the server's standalone SSE stream (serverStream) ended for this session, ${why}; what the server sends outside a call will not arrive until a new session`,
      );
  }

  /** The GET, then its reconnections; resolves why the stream ended for the session, or `undefined` when it was stopped. */
  async #follow(stop: AbortController): Promise<string | undefined> {
    const cursor: SseCursor = { lastEventId: "", retryMs: undefined };
    const first = await this.#attempt("", cursor, stop);
    // Refused (405: the server offers no stream): never tried again in the session.
    if (first.outcome === "final") return `refused: ${first.why}`;
    if (first.outcome !== "read" && first.outcome !== "transient") return undefined;
    const failure = await resumeSseStream(cursor, stop.signal, (from) => this.#attempt(from, cursor, stop));
    return failure === undefined ? undefined : `given up: ${failure.why}`;
  }
}
