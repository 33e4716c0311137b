import { TransportClosedError } from "../errors/error-classes.js";
import type { GlassError } from "../errors/glass-error.js";
import type { GlassTransport } from "../transport/transport.js";
import { SlotTable } from "../collections/slot-table.js";
import { isJsonObject } from "../validation/json-value.js";
import {
  JsonRpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./json-rpc.js";

/** Answers a request the daemon sends the client (e.g. form elicitation); may throw to answer with an error. */
export type ServerRequestHandler = (params: Record<string, unknown> | undefined, request: JsonRpcRequest) => unknown;

/** Something worth knowing that happened on the wire; the client's `logger` receives these. */
export type SessionEvent =
  | { type: "unknownResponse"; id: JsonRpcId | null }
  | { type: "serverRequest"; method: string; answered: "handler" | "methodNotFound" }
  | { type: "badFrame"; error: GlassError }
  | { type: "notification"; method: string };

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
  private readonly pending = new SlotTable<JsonRpcId, Pending>();
  private closedWith: GlassError | undefined;

  constructor(
    private readonly transport: GlassTransport,
    private readonly options: McpSessionOptions = {},
  ) {}

  /** Opens the transport. */
  async start(): Promise<void> {
    await this.transport.start({
      onMessage: (message) => this.receive(message),
      onClose: (error) => this.closed(error ?? new TransportClosedError({ message: "the connection to the daemon closed" })),
      onError: (error) => this.options.onEvent?.({ type: "badFrame", error }),
      onReset: () => this.options.onReset?.(),
    });
  }

  /** Whether the connection has ended (and why). */
  get closeReason(): GlassError | undefined {
    return this.closedWith;
  }

  /** Requests awaiting their answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Whether a request with this id is awaiting its answer. */
  isActive(id: JsonRpcId): boolean {
    return this.pending.has(id);
  }

  /**
   * Sends a request and resolves with the daemon's answer (a success or a JSON-RPC error — both
   * are answers). `onWritten` is called once the message is handed to the operating system. Rejects
   * with a GlassError when the message cannot be sent or the connection ends first; `forget(id)`
   * stops waiting (after a cancel).
   */
  request(message: JsonRpcRequest, onWritten?: () => void): Promise<JsonRpcResponse> {
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    const id = message.id;
    const answer = new Promise<JsonRpcResponse>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.transport.send(message).then(
      () => onWritten?.(),
      (error: GlassError) => {
        this.pending.take(id)?.reject(error);
      },
    );
    return answer;
  }

  /** Stops waiting for an answer to `id` (its late answer will be ignored). */
  forget(id: JsonRpcId): void {
    this.pending.take(id);
  }

  /** Sends a notification; resolves once written. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    return this.transport.send(message);
  }

  /** Closes the connection; everything pending is rejected with `reason`. */
  async close(reason: GlassError): Promise<void> {
    this.closed(reason);
    await this.transport.close();
  }

  private receive(message: JsonRpcMessage): void {
    if (!isJsonObject(message)) return;
    if (typeof message.method === "string") {
      if ("id" in message && message.id !== undefined && message.id !== null) this.answerServerRequest(message as JsonRpcRequest);
      else this.options.onEvent?.({ type: "notification", method: message.method });
      return;
    }
    const response = message as JsonRpcResponse;
    const id = response.id ?? null;
    const entry = id === null ? undefined : this.pending.take(id);
    if (entry === undefined) {
      this.options.onEvent?.({ type: "unknownResponse", id });
      return;
    }
    entry.resolve(response);
  }

  private answerServerRequest(request: JsonRpcRequest): void {
    const handler = this.options.serverRequestHandlers?.[request.method];
    const reply = (body: { result: unknown } | { error: { code: number; message: string } }): void => {
      this.transport.send({ jsonrpc: "2.0", id: request.id, ...body } as JsonRpcResponse).catch(() => undefined);
    };
    this.options.onEvent?.({ type: "serverRequest", method: request.method, answered: handler === undefined ? "methodNotFound" : "handler" });
    if (handler === undefined) {
      reply({ error: { code: JsonRpcErrorCode.MethodNotFound, message: `the client does not handle ${request.method}` } });
      return;
    }
    Promise.resolve()
      .then(() => handler(request.params, request))
      .then(
        (result) => reply({ result: result ?? {} }),
        (error: unknown) => reply({ error: { code: JsonRpcErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) } }),
      );
  }

  private closed(reason: GlassError): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = reason;
    for (const entry of this.pending.clear()) entry.reject(reason);
    this.options.onClose?.(reason);
  }
}
