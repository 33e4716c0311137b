import { TransportClosedError } from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import { describeError } from "../errors/redact.js";
import type { GlassTransport } from "../transport/transport.js";
import { SlotTable } from "../collections/slot-table.js";
import { jsonByteLength, jsonStringLength } from "../validation/byte-length.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../validation/json-depth.js";
import { isJsonObject, ownProperty } from "../validation/json-value.js";
import { truncateUtf8 } from "./utf8-truncate.js";
import {
  JsonRpcErrorCode,
  jsonRpcFailure,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./json-rpc.js";

/**
 * Why the signal a {@link ServerRequestHandler} is given was aborted (its `reason`): the daemon
 * cancelled its request (`notifications/cancelled` naming its id; the client then sends no answer),
 * or the connection closed.
 */
export type ServerRequestAbortReason = "cancelledByDaemon" | "connectionClosed";

/** What a {@link ServerRequestHandler} is given besides the request. */
export interface ServerRequestContext {
  /** Aborted, with a {@link ServerRequestAbortReason}, when the daemon cancels its request or the connection closes. */
  readonly signal: AbortSignal;
}

/** Answers a request the daemon sends the client (e.g. form elicitation); may throw to answer with an error. */
export type ServerRequestHandler = (
  params: Record<string, unknown> | undefined,
  request: JsonRpcRequest,
  context: ServerRequestContext,
) => unknown;

/** Something worth knowing that happened on the wire; the client's `logger` receives these. */
export type SessionEvent =
  | { type: "unknownResponse"; id: JsonRpcId | null }
  | { type: "serverRequest"; method: string; answered: "handler" | "methodNotFound" }
  | { type: "serverRequestCancelled"; method: string }
  | { type: "badFrame"; error: GlassError }
  | { type: "notification"; method: string }
  | { type: "transportNotice"; detail: string };

/** Options of an {@link McpSession}. */
export interface McpSessionOptions {
  /** Handlers for requests the daemon sends the client, by method. Others are answered with -32601. */
  serverRequestHandlers?: Readonly<Record<string, ServerRequestHandler>>;
  /** Called for wire events worth logging. */
  onEvent?: (event: SessionEvent) => void;
  /** Called once when the connection ends, with why. */
  onClose?: (error: GlassError) => void;
  /** Called when the transport started a new daemon session under the same connection. */
  onReset?: () => void;
}

/**
 * The most the client keeps of its answers to the daemon's requests that the transport has not
 * written yet (4 MiB, the daemon's own bound on a request body): a peer that sends requests but
 * stops reading the answers makes the connection fail (`transport.closed`, `details.reason`
 * `peerNotReading`) rather than make the client queue without end.
 */
export const MAX_UNWRITTEN_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * What a transport that reports `bufferedBytes` may hold for a peer before the client stops
 * answering its requests and fails the connection: 64 MiB, twice the protocol's 32 MiB message
 * bound and above what the client's own requests (at most 4 MiB each, `maxInFlight` of them) queue.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** Daemon requests a registered handler works on at once; more are answered -32000 (overloaded), as the daemon answers its clients. */
export const MAX_HANDLED_REQUESTS = 16;

/** How much of a daemon request's method name an answer or a log event quotes (UTF-8 bytes). */
const MAX_QUOTED_METHOD_BYTES = 64;

/** A request in flight: settled by the daemon's answer, or by the connection closing. */
interface Pending {
  resolve(message: JsonRpcResponse): void;
  reject(error: GlassError): void;
}

/**
 * One MCP (JSON-RPC 2.0) connection: sends requests and matches their answers by id, sends
 * notifications, answers the daemon's own requests (with -32601 unless a handler is registered, so
 * the daemon never waits on us), and rejects everything pending when the connection ends.
 * Answers for unknown ids (late, duplicated, or invented) are ignored and reported as events.
 */
export class McpSession {
  /** Keyed by the id itself (`1` and `"1"` apart); a slot table, since entries churn once per call. */
  readonly #pending = new SlotTable<JsonRpcId, Pending>();
  #closedWith: GlassError | undefined;
  /** Answers to daemon requests handed to the transport and not yet written, and their size. */
  #unwrittenAnswers = 0;
  #unwrittenAnswerBytes = 0;
  /** Daemon requests a handler is working on, by id (`1` and `"1"` apart), with what aborts their signal. */
  readonly #handling = new Map<JsonRpcId, { method: string; abort: AbortController }>();

  readonly #transport: GlassTransport;
  readonly #options: McpSessionOptions;

  constructor(transport: GlassTransport, options: McpSessionOptions = {}) {
    this.#transport = transport;
    this.#options = options;
  }

  /** Opens the transport. */
  async start(): Promise<void> {
    await this.#transport.start({
      onMessage: (message) => this.#receive(message),
      onClose: (error) =>
        this.#end(error ?? new TransportClosedError({ message: "the connection to the daemon closed" })),
      onError: (error) => this.#options.onEvent?.({ type: "badFrame", error }),
      onReset: () => this.#options.onReset?.(),
      onNotice: (detail) => this.#options.onEvent?.({ type: "transportNotice", detail }),
    });
  }

  /** Whether the connection has ended (and why). */
  get closeReason(): GlassError | undefined {
    return this.#closedWith;
  }

  /** Requests awaiting their answer. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Whether a request with this id is awaiting its answer. */
  isActive(id: JsonRpcId): boolean {
    return this.#pending.has(id);
  }

  /**
   * Sends a request and resolves with the daemon's answer (a success or a JSON-RPC error — both
   * are answers). `onWritten` is called once the message is handed to the operating system. Rejects
   * with a GlassError when the message cannot be sent or the connection ends first; `forget(id)`
   * stops waiting (after a cancel).
   */
  request(message: JsonRpcRequest, onWritten?: () => void): Promise<JsonRpcResponse> {
    if (this.#closedWith !== undefined) return Promise.reject(this.#closedWith);
    const id = message.id;
    const answer = new Promise<JsonRpcResponse>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#sendSafely(message).then(
      () => onWritten?.(),
      (error: GlassError) => {
        this.#pending.take(id)?.reject(error);
      },
    );
    return answer;
  }

  /** Stops waiting for an answer to `id` (its late answer will be ignored). */
  forget(id: JsonRpcId): void {
    this.#pending.take(id);
  }

  /** Sends a notification; resolves once written. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#closedWith !== undefined) return Promise.reject(this.#closedWith);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    return this.#sendSafely(message);
  }

  /** `transport.send`, with a synchronous throw turned into a rejection. */
  #sendSafely(message: JsonRpcMessage): Promise<void> {
    try {
      return this.#transport.send(message);
    } catch (error) {
      return Promise.reject(
        error instanceof GlassError
          ? error
          : new TransportClosedError({
              message: `the message could not be sent: ${describeError(error)}`,
              cause: error,
            }),
      );
    }
  }

  /** Closes the connection; everything pending is rejected with `reason`. */
  async close(reason: GlassError): Promise<void> {
    this.#end(reason);
    await this.#transport.close();
  }

  #receive(message: JsonRpcMessage): void {
    // Once the session has ended (even while the transport winds down), nothing more is read.
    if (this.#closedWith !== undefined || !isJsonObject(message)) return;
    if (typeof message.method === "string") {
      if ("id" in message && message.id !== undefined && message.id !== null)
        this.#answerServerRequest(message as JsonRpcRequest);
      else {
        this.#options.onEvent?.({
          type: "notification",
          method: truncateUtf8(message.method, MAX_QUOTED_METHOD_BYTES),
        });
        if (message.method === "notifications/cancelled") this.#cancelServerRequest(message.params);
      }
      return;
    }
    const response = message as JsonRpcResponse;
    const id = response.id ?? null;
    const entry = id === null ? undefined : this.#pending.take(id);
    if (entry === undefined) {
      this.#options.onEvent?.({ type: "unknownResponse", id });
      return;
    }
    entry.resolve(response);
  }

  /**
   * Answers a request the daemon sent: with the registered handler's result (looked up as an own
   * property, so `constructor` or `__proto__` find nothing), else -32601 quoting at most 64 bytes of
   * the method name. A request id that is neither a string nor a number gets -32600 (id null);
   * params nested past the depth bound, -32602 (the handler never sees them); an id a handler is
   * still working on, -32600; past {@link MAX_HANDLED_REQUESTS} requests at a handler, -32000. The
   * handler's signal aborts when the daemon cancels the request (which then gets no answer) or the
   * connection closes. Answers are written as the transport takes them; a peer that stops reading
   * makes the connection fail (see {@link MAX_UNWRITTEN_ANSWER_BYTES}).
   */
  #answerServerRequest(request: JsonRpcRequest): void {
    const id: unknown = request.id;
    const method = truncateUtf8(request.method, MAX_QUOTED_METHOD_BYTES);
    if (request.method === "initialize") return this.#failPeerEchoes();
    if (typeof id !== "string" && typeof id !== "number") {
      this.#writeAnswer(
        jsonRpcFailure(null, JsonRpcErrorCode.InvalidRequest, "a request id must be a string or a number"),
      );
      return;
    }
    const handler = ownProperty(this.#options.serverRequestHandlers, request.method);
    const handled = typeof handler === "function";
    this.#options.onEvent?.({ type: "serverRequest", method, answered: handled ? "handler" : "methodNotFound" });
    if (!handled) {
      this.#writeAnswer(jsonRpcFailure(id, JsonRpcErrorCode.MethodNotFound, `the client does not handle ${method}`));
      return;
    }
    if (nestsDeeperThan(request.params)) {
      this.#writeAnswer(
        jsonRpcFailure(
          id,
          JsonRpcErrorCode.InvalidParams,
          `the params are nested more than ${MAX_JSON_DEPTH} levels deep`,
        ),
      );
      return;
    }
    if (this.#handling.has(id)) {
      this.#writeAnswer(
        jsonRpcFailure(id, JsonRpcErrorCode.InvalidRequest, "the client is already answering a request with this id"),
      );
      return;
    }
    if (this.#handling.size >= MAX_HANDLED_REQUESTS) {
      this.#writeAnswer(
        jsonRpcFailure(
          id,
          JsonRpcErrorCode.Overloaded,
          `the client is already answering ${MAX_HANDLED_REQUESTS} requests`,
        ),
      );
      return;
    }
    const abort = new AbortController();
    this.#handling.set(id, { method, abort });
    const params = isJsonObject(request.params) ? request.params : undefined;
    // An answer to a request the daemon cancelled is not sent (it no longer waits for one).
    const answer = (message: JsonRpcFailure | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }): void => {
      if (!abort.signal.aborted) this.#writeAnswer(message);
    };
    Promise.resolve()
      .then(() => handler(params, request, { signal: abort.signal }))
      .then(
        (result) => answer({ jsonrpc: "2.0", id, result: result ?? {} }),
        (error: unknown) =>
          answer(jsonRpcFailure(id, JsonRpcErrorCode.InternalError, truncateUtf8(describeError(error), 512))),
      )
      .finally(() => {
        if (this.#handling.get(id)?.abort === abort) this.#handling.delete(id);
      });
  }

  /**
   * `notifications/cancelled {requestId}` from the daemon for a request of its own a handler is
   * still answering (the id in its original JSON type): aborts the handler's signal; no answer is
   * sent. Unknown and finished ids are ignored.
   */
  #cancelServerRequest(params: unknown): void {
    const requestId = isJsonObject(params) ? params.requestId : undefined;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const entry = this.#handling.get(requestId);
    if (entry === undefined || entry.abort.signal.aborted) return;
    // It stays counted against MAX_HANDLED_REQUESTS until its handler settles.
    entry.abort.abort("cancelledByDaemon" satisfies ServerRequestAbortReason);
    this.#options.onEvent?.({ type: "serverRequestCancelled", method: entry.method });
  }

  /**
   * Writes one answer to a daemon request, counting it until the transport has written it. When
   * the answers already waiting would pass {@link MAX_UNWRITTEN_ANSWER_BYTES}, or the transport
   * holds more than {@link MAX_BUFFERED_BYTES} for the peer, the peer is not reading: the
   * connection fails instead of growing.
   */
  #writeAnswer(answer: JsonRpcFailure | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }): void {
    if (this.#closedWith !== undefined) return;
    // What the answer will weigh once encoded (a handler's result counted up to the bound: one that cannot be encoded fails on its own).
    const { id } = answer;
    const size =
      40 +
      (typeof id === "string" ? jsonStringLength(id) : 24) +
      ("result" in answer
        ? jsonByteLength(answer.result, MAX_UNWRITTEN_ANSWER_BYTES)
        : jsonStringLength(answer.error.message) + 24);
    const bytes = Math.min(size, MAX_UNWRITTEN_ANSWER_BYTES);
    const buffered = this.#transport.bufferedBytes;
    if (
      (this.#unwrittenAnswers > 0 && this.#unwrittenAnswerBytes + bytes > MAX_UNWRITTEN_ANSWER_BYTES) ||
      (typeof buffered === "number" && buffered > MAX_BUFFERED_BYTES)
    ) {
      this.#failPeerNotReading(buffered);
      return;
    }
    this.#unwrittenAnswers++;
    this.#unwrittenAnswerBytes += bytes;
    const written = (): void => {
      this.#unwrittenAnswers--;
      this.#unwrittenAnswerBytes -= bytes;
    };
    this.#sendSafely(answer as JsonRpcResponse).then(written, written);
  }

  /** Ends the connection to a peer that sends requests but does not read the answers. */
  #failPeerNotReading(buffered: number | undefined): void {
    const waiting = `${this.#unwrittenAnswers} answers to its requests (${this.#unwrittenAnswerBytes} bytes)${typeof buffered === "number" ? `, ${buffered} bytes in all` : ""}`;
    const reason = new TransportClosedError({
      message: `the daemon stopped reading what the client sends: ${waiting} are still waiting to be written, past the client's bound (${MAX_UNWRITTEN_ANSWER_BYTES} bytes of answers); the connection was closed`,
      details: {
        reason: "peerNotReading",
        unwrittenAnswers: this.#unwrittenAnswers,
        unwrittenAnswerBytes: this.#unwrittenAnswerBytes,
        maxUnwrittenAnswerBytes: MAX_UNWRITTEN_ANSWER_BYTES,
        ...(typeof buffered === "number" ? { bufferedBytes: buffered } : {}),
      },
    });
    this.close(reason).catch(() => undefined);
  }

  /**
   * The peer sent `initialize`, which only a client sends: it is sending the client's own messages
   * back (a command such as `cat` that echoes its input), not speaking MCP. Answering would only be
   * echoed too, so the connection ends, saying so.
   */
  #failPeerEchoes(): void {
    const reason = new TransportClosedError({
      message:
        "the daemon sent the client's own initialize back: it echoes what it reads (like cat) instead of answering MCP. " +
        "Start the daemon in its MCP mode (glass-browser: `--mcp`), or point the transport at the daemon's socket; the connection was closed",
      details: { reason: "peerEchoes" },
    });
    this.close(reason).catch(() => undefined);
  }

  /** Ends the session once: rejects what is pending, aborts the handlers at work, and tells `onClose`. */
  #end(reason: GlassError): void {
    if (this.#closedWith !== undefined) return;
    this.#closedWith = reason;
    for (const entry of this.#pending.clear()) entry.reject(reason);
    for (const { abort } of this.#handling.values()) abort.abort("connectionClosed" satisfies ServerRequestAbortReason);
    this.#handling.clear();
    this.#options.onClose?.(reason);
  }
}
