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
export type ServerStreamAttempt = (lastEventId: string, cursor: SseCursor, stop: AbortController) => Promise<ResumeAttempt>;

/**
 * The session's standalone GET stream. {@link ServerStream.open} starts listening (ending a stream
 * of an earlier session); a refusal ends it for the session; a stream that ends or drops is
 * reconnected after its `retry` time with `Last-Event-ID`, until
 * three reconnections in a row bring no new event id (`SseResumeLimits.maxIdleReconnects`).
 * {@link ServerStream.stop} aborts the GET or the wait. When the stream ends for the session other
 * than by `stop` or the transport's end, `ended` is told why (for the client's log).
 */
export class ServerStream {
  readonly #attempt: ServerStreamAttempt;
  readonly #ended: (why: string) => void;
  #stop: AbortController | undefined;

  constructor(attempt: ServerStreamAttempt, ended: (why: string) => void) {
    this.#attempt = attempt;
    this.#ended = ended;
  }

  /** Starts listening on the current session, after ending any stream opened before. */
  open(): void {
    this.stop();
    const stop = new AbortController();
    this.#stop = stop;
    const ended = (): void => {
      if (this.#stop === stop) this.#stop = undefined;
    };
    // Whatever ends the stream (a refusal, the bounds, an answer past the bound per message) ends
    // only the listening: the calls go on by POST.
    this.#listen(stop).then(ended, (error: unknown) => {
      ended();
      this.#ended(`failed: ${describeError(error)}`);
    });
  }

  /** Aborts the stream, its GET or the wait before a reconnection. */
  stop(): void {
    const stop = this.#stop;
    this.#stop = undefined;
    stop?.abort();
  }

  async #listen(stop: AbortController): Promise<void> {
    const cursor: SseCursor = { lastEventId: "", retryMs: undefined };
    const first = await this.#attempt("", cursor, stop);
    // Refused (405: the server offers no stream), or the transport ended: never tried again.
    if (first.outcome === "final") return this.#ended(`refused: ${first.why}`);
    if (first.outcome !== "read" && first.outcome !== "transient") return;
    const failure = await resumeSseStream(cursor, stop.signal, (from) => this.#attempt(from, cursor, stop));
    if (failure !== undefined) this.#ended(`given up: ${failure.why}`);
  }
}
