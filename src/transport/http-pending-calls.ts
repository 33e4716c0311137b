// The calls of the HTTP transport that the client's cancel (`notifications/cancelled`) must reach:
// those whose answer is awaited (their POST, stream or resuming GET is aborted) and those waiting to
// be POSTed again after a refusal (the wait ends, and they are not sent again).

import { SlotTable } from "../collections/slot-table.js";
import { JsonRpcErrorCode, jsonRpcFailure, type JsonRpcResponse } from "../mcp/json-rpc.js";
import type { PendingAnswer } from "./http-answer-stream.js";
import { CancelledWhileWaiting } from "./http-errors.js";
import { ignore } from "./transport-util.js";

/** The calls in flight by `String(id)`, as a cancel finds them. */
export class PendingCalls {
  /** Calls whose answer is awaited: a cancel closes the call's stream. */
  readonly #answers = new SlotTable<string, PendingAnswer>();
  /** Requests waiting to be POSTed again after a refusal: a cancel ends the wait. */
  readonly #retryWaits = new SlotTable<string, AbortController>();

  /** The answer to `answer.id` is awaited from now on (its POST is about to go). */
  awaitAnswer(answer: PendingAnswer): void {
    this.#answers.set(String(answer.id), answer);
  }

  /** The request of `answer` is no longer awaited (its POST failed, or its answer was read or given up). */
  forgetAnswer(answer: PendingAnswer | undefined): void {
    if (answer !== undefined && this.#answers.get(String(answer.id)) === answer)
      this.#answers.delete(String(answer.id));
  }

  /** The request `key` (whose attempts `stop` aborts) waits to be POSTed again. */
  waitToRetry(key: string, stop: AbortController): void {
    this.#retryWaits.set(key, stop);
  }

  /** An attempt of the request `key` starts: its wait is over, so a cancel no longer ends it there. */
  retryStarts(key: string, stop: AbortController | undefined): void {
    if (this.#retryWaits.get(key) === stop) this.#retryWaits.delete(key);
  }

  /**
   * When the client cancels `requestId` (before its cancel is POSTed): a request of that id waiting
   * to be POSTed again is not sent again (its wait ends with {@link CancelledWhileWaiting}); a
   * request whose answer is awaited has its POST aborted if its status has not come, its answer
   * stream or resuming GET closed, and the wait before a reconnection ended — the daemon will not
   * answer it, and nothing of the call may outlive it. Returns the failure to deliver for it, if
   * its answer was awaited.
   */
  cancel(requestId: unknown): JsonRpcResponse | undefined {
    if (typeof requestId !== "string" && typeof requestId !== "number") return undefined;
    const key = String(requestId);
    const waiting = this.#retryWaits.get(key);
    if (waiting !== undefined) {
      this.#retryWaits.delete(key);
      waiting.abort(new CancelledWhileWaiting());
    }
    const answer = this.#answers.get(key);
    if (answer === undefined) return undefined;
    this.#answers.delete(key);
    answer.stop.abort();
    answer.reader?.cancel().catch(ignore);
    const why = "the request was cancelled; its HTTP answer stream was closed";
    return jsonRpcFailure(answer.id, JsonRpcErrorCode.RequestCancelled, why);
  }
}
