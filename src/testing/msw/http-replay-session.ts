import { idKey, type JsonRpcId, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import { isJsonObject } from "../../validation/json-value.js";
import type { DaemonContext } from "../../mock-daemon/daemon-context.js";
import { usableId, type DaemonMessage } from "../../mock-daemon/json-rpc-replies.js";
import { McpServerSession, type SessionConnection } from "../../mock-daemon/mcp-server-session.js";

/** What became of one POSTed message. */
export type HttpExchangeOutcome =
  /** The daemon answered it (a request's response, or an error about the message itself). */
  | { kind: "answer"; message: JsonRpcMessage }
  /** A notification or a response the daemon took without answering (HTTP 202). */
  | { kind: "accepted" }
  /** The session ended (deleted, or the daemon crashed) before the answer came. */
  | { kind: "gone" };

/** The framing the session is told messages arrived in (HTTP has none, so nothing depends on it). */
const FRAMING = "newline";

/** A POST being handled right now: answers written while the daemon handles it synchronously. */
interface Capture {
  /** The id key of the request being handled (`undefined` for a notification or response). */
  key: string | undefined;
  /** The answer addressed to it (or to id null), once written. */
  message?: JsonRpcMessage;
}

/**
 * One MCP Streamable HTTP session (one `Mcp-Session-Id`) of the in-process replay daemon: an
 * {@link McpServerSession} whose answers are routed back to the POST that asked. Each POST is one
 * message; a request's POST waits for the answer with its id (tool calls may answer later, after
 * `latencyMs`), and an answer about the message itself (id null) goes to the POST that sent it.
 * The daemon's own requests, and answers nobody waits for (duplicate or invented ones from faults,
 * answers to POSTs whose client went away), are dropped: this session offers no SSE stream.
 */
export class HttpReplaySession implements SessionConnection {
  /** No server stream: a handler's request to the client is refused at once (see {@link SessionConnection}). */
  readonly carriesServerRequests = false;
  readonly #session: McpServerSession;
  readonly #waiting = new Map<string, (outcome: HttpExchangeOutcome) => void>();
  #capture: Capture | undefined;
  #closed = false;

  constructor(context: DaemonContext, clientId: string) {
    this.#session = new McpServerSession(context, clientId, this);
  }

  /**
   * Hands one message to the daemon and resolves with what became of it. `signal` (the HTTP
   * request's) stops the wait when the client goes away.
   */
  exchange(message: unknown, signal?: AbortSignal): Promise<HttpExchangeOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "gone" });
    const id = requestIdOf(message);
    const capture: Capture = { key: id === undefined ? undefined : idKey(id) };
    this.#capture = capture;
    try {
      this.#session.handle(message, FRAMING);
    } finally {
      this.#capture = undefined;
    }
    if (capture.message !== undefined) return Promise.resolve({ kind: "answer", message: capture.message });
    if (capture.key === undefined) return Promise.resolve(this.#closed ? { kind: "gone" } : { kind: "accepted" });
    if (this.#closed) return Promise.resolve({ kind: "gone" });
    const key = capture.key;
    return new Promise((resolve) => {
      const settle = (outcome: HttpExchangeOutcome): void => {
        signal?.removeEventListener("abort", abandon);
        resolve(outcome);
      };
      const abandon = (): void => {
        if (this.#waiting.get(key) === settle) this.#waiting.delete(key);
        settle({ kind: "gone" });
      };
      this.#waiting.set(key, settle);
      if (signal?.aborted === true) abandon();
      else signal?.addEventListener("abort", abandon, { once: true });
    });
  }

  /** Ends the session: the daemon forgets it (releasing its lease), and waiting POSTs get `gone`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#session.close();
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const settle of waiting) settle({ kind: "gone" });
  }

  /** Called by the daemon's session: routes an answer to the POST waiting for it. */
  write(reply: DaemonMessage): void {
    if (this.#closed || "method" in reply) return; // a daemon-to-client request: no stream to carry it
    const message = reply as JsonRpcMessage; // an answer to a request with id null has id null
    const key = reply.id === null ? null : idKey(reply.id);
    const capture = this.#capture;
    if (capture !== undefined && capture.message === undefined && (key === null || key === capture.key)) {
      capture.message = message;
      return;
    }
    if (key === null) return;
    const settle = this.#waiting.get(key);
    if (settle === undefined) return;
    this.#waiting.delete(key);
    settle({ kind: "answer", message });
  }

  /** HTTP bodies are whole JSON documents: the frame faults have nothing to break. */
  writeGarbage(): void {}
}

/** The id of a message that is a request (a method and a string or number id), else `undefined`. */
function requestIdOf(message: unknown): JsonRpcId | undefined {
  return isJsonObject(message) && typeof message.method === "string" ? (usableId(message.id) ?? undefined) : undefined;
}
