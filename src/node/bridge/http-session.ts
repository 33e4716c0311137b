import {
  isJsonRpcRequest,
  isJsonRpcResponse,
  JsonRpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../mcp/json-rpc.js";
import { SlotTable } from "../../collections/slot-table.js";
import type { BridgeContext } from "./bridge-context.js";
import { rpcErrorResponse } from "./messages.js";
import type { SessionSlot } from "./session-registry.js";
import { REQUESTS_IN_FLIGHT_PER_SESSION, UpstreamSession, type SessionEndCause } from "./upstream-session.js";
import { ignore } from "../../transport/transport-util.js";

/** A client request waiting for the daemon's answer. */
interface PendingRequest {
  id: JsonRpcId;
  settle(response: JsonRpcResponse): void;
}

/** What the daemon is told when it asks an HTTP client something (there is no stream to ask on). */
const NO_SERVER_REQUESTS =
  "method not found: this client reached the daemon through the bridge's HTTP endpoint, which has no server-to-client stream " +
  "and cannot relay requests to it (use the WebSocket endpoint for that)";

/**
 * An MCP Streamable HTTP session: created by `initialize`, named by its `Mcp-Session-Id`, backed
 * by its own daemon connection. Each POSTed request is forwarded with its id unchanged and answered
 * with the daemon's response to that id. There is no server-to-client stream, so the bridge answers
 * the daemon's own requests with -32601 itself (the daemon never waits) and drops its
 * notifications. When the daemon connection closes, pending requests get -32603 "the daemon
 * connection closed" and the session ends (later requests get 404, so clients start over).
 */
export class HttpSession extends UpstreamSession {
  readonly channel = "http";
  readonly #pending = new SlotTable<JsonRpcId, PendingRequest>();

  private constructor(context: BridgeContext, slot: SessionSlot, peer: string) {
    super(context, slot, peer);
  }

  /** Opens a session with its daemon connection; rejects (releasing the place) when the daemon cannot be reached. */
  static async open(context: BridgeContext, slot: SessionSlot, peer: string): Promise<HttpSession> {
    const session = new HttpSession(context, slot, peer);
    await session.connect();
    return session;
  }

  /**
   * Forwards a request and resolves with the daemon's response to it (never rejects: failures
   * become JSON-RPC errors). A second request with an id still in flight is refused with -32600;
   * past {@link REQUESTS_IN_FLIGHT_PER_SESSION} unanswered requests, or while more than
   * `maxBufferedBytes` of this session's messages wait to be written to the daemon, with -32000.
   * `bytes` (the body's size) counts toward that backlog until it is written.
   */
  request(message: JsonRpcRequest, bytes = 0): Promise<JsonRpcResponse> {
    this.touch();
    if (this.isEnded) return Promise.resolve(rpcErrorResponse(message.id, JsonRpcErrorCode.InternalError, "the session ended"));
    if (this.#pending.has(message.id)) {
      return Promise.resolve(
        rpcErrorResponse(message.id, JsonRpcErrorCode.InvalidRequest, `duplicate request id ${JSON.stringify(message.id)}: a request with this id is still in flight`),
      );
    }
    const limit = REQUESTS_IN_FLIGHT_PER_SESSION;
    if (this.#pending.size >= limit) {
      return Promise.resolve(rpcErrorResponse(message.id, JsonRpcErrorCode.Overloaded, `too many requests in flight in this session (${limit}): wait for answers before sending more`));
    }
    const { maxBufferedBytes } = this.context.options;
    if (this.upstreamBacklog > maxBufferedBytes) {
      return Promise.resolve(
        rpcErrorResponse(message.id, JsonRpcErrorCode.Overloaded, `the daemon is not reading: ${this.upstreamBacklog} bytes of this session wait to be written to it (over ${maxBufferedBytes}); retry later`),
      );
    }
    return new Promise<JsonRpcResponse>((resolve) => {
      const done = this.beginWork();
      this.#pending.set(message.id, {
        id: message.id,
        settle: (response) => {
          done();
          resolve(response);
        },
      });
      this.sendUpstream(message, bytes).catch((error: unknown) =>
        this.#settle(message.id, rpcErrorResponse(message.id, JsonRpcErrorCode.InternalError, `could not forward the request to the daemon: ${describe(error)}`)),
      );
    });
  }

  /**
   * Forwards a notification. `notifications/cancelled` also answers the cancelled request at once
   * with -32800 (the daemon's own -32800 that follows is dropped).
   */
  notify(message: JsonRpcNotification, bytes = 0): Promise<void> {
    this.touch();
    if (message.method === "notifications/cancelled") {
      const requestId = message.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        this.#settle(requestId, rpcErrorResponse(requestId, JsonRpcErrorCode.RequestCancelled, "request cancelled by the client"));
      }
    }
    return this.sendUpstream(message, bytes);
  }

  /**
   * The HTTP client went away before its request was answered: tell the daemon to stop
   * (`notifications/cancelled`) and forget the request.
   */
  abandon(id: JsonRpcId): void {
    if (!this.#pending.has(id)) return;
    this.#settle(id, rpcErrorResponse(id, JsonRpcErrorCode.RequestCancelled, "the HTTP client disconnected"));
    this.sendUpstream({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "the HTTP client disconnected" } }).catch(ignore);
  }

  /** Ends the session at the client's request (DELETE). */
  terminate(): Promise<void> {
    return this.end("closed by the client (DELETE)", "client");
  }

  protected onUpstreamMessage(message: JsonRpcMessage): void {
    this.touch();
    if (isJsonRpcResponse(message)) {
      if (message.id !== null) this.#settle(message.id, message);
      return;
    }
    if (isJsonRpcRequest(message)) {
      this.sendUpstream(rpcErrorResponse(message.id, JsonRpcErrorCode.MethodNotFound, NO_SERVER_REQUESTS)).catch(ignore);
    }
    // Notifications have nowhere to go without a server-to-client stream; the daemon sends none that matter.
  }

  protected onEnd(reason: string, cause: SessionEndCause): void {
    const message = cause === "upstream" ? "the daemon connection closed" : `the session was closed: ${reason}`;
    for (const pending of this.#pending.values()) this.#settle(pending.id, rpcErrorResponse(pending.id, JsonRpcErrorCode.InternalError, message));
  }

  #settle(id: JsonRpcId, response: JsonRpcResponse): void {
    this.#pending.take(id)?.settle(response);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
