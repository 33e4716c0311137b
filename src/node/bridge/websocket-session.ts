import type { RawData, WebSocket } from "ws";
import { SlotTable } from "../../collections/slot-table.js";
import { isJsonRpcResponse, JsonRpcErrorCode, type JsonRpcId, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import type { BridgeContext } from "./bridge-context.js";
import { parseClientMessage, rpcErrorResponse } from "./client-message.js";
import type { SessionSlot } from "./session-registry.js";
import { UpstreamSession, type SessionEndCause } from "./upstream-session.js";

/** WebSocket close codes the bridge uses. */
const CloseCode = { Normal: 1000, GoingAway: 1001, UnsupportedData: 1003, MessageTooBig: 1009, InternalError: 1011 } as const;
/** How long a client has to answer the bridge's close frame before the connection is dropped. */
const CLOSE_GRACE_MS = 1000;

/**
 * One WebSocket connection (subprotocol `mcp`) and its own daemon connection: every text frame is
 * one JSON-RPC message, relayed both ways as is. The daemon's requests (elicitation) go to the
 * client, which answers. When the daemon connection closes, the client's pending requests get
 * -32603 "the daemon connection closed" and the socket closes with 1011. Messages over the limit
 * close it with 1009 (the `ws` library's `maxPayload`), binary frames with 1003.
 */
export class WebSocketSession extends UpstreamSession {
  readonly channel = "websocket";
  #socket: WebSocket | undefined;
  /** Messages from the daemon that arrived before the socket was attached. */
  #queued: JsonRpcMessage[] = [];
  /** The client's requests the daemon has not answered yet, with their idle-timer hold. */
  readonly #pending = new SlotTable<JsonRpcId, { id: JsonRpcId; done: () => void }>();
  /** Why the socket failed, when it did (for the log line), and the close code the bridge sent for it. */
  #socketError: { message: string; code?: number } | undefined;

  private constructor(context: BridgeContext, slot: SessionSlot, peer: string) {
    super(context, slot, peer);
  }

  /** Opens the daemon connection for an upgrade about to complete; rejects (releasing the place) when the daemon cannot be reached. */
  static async open(context: BridgeContext, slot: SessionSlot, peer: string): Promise<WebSocketSession> {
    const session = new WebSocketSession(context, slot, peer);
    await session.connect();
    return session;
  }

  /** Attaches the upgraded socket and starts relaying. */
  attach(socket: WebSocket): void {
    this.#socket = socket;
    socket.on("message", (data, isBinary) => this.#onClientData(data, isBinary));
    socket.on("error", (error: Error & { code?: string }) => {
      this.#socketError =
        error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
          ? { message: `a message over the limit of ${this.context.options.maxMessageBytes} bytes`, code: CloseCode.MessageTooBig }
          : { message: error.message };
    });
    socket.on("close", (code: number) => {
      const failure = this.#socketError;
      const closeCode = failure?.code ?? code;
      void this.end(`the WebSocket closed (${closeCode})${failure === undefined ? "" : `: ${failure.message}`}`, "client");
    });
    if (this.isEnded) {
      socket.close(CloseCode.GoingAway, "the session ended");
      return;
    }
    for (const message of this.#queued.splice(0)) this.#toClient(message);
  }

  protected onUpstreamMessage(message: JsonRpcMessage): void {
    this.touch();
    if (isJsonRpcResponse(message) && message.id !== null) this.#answered(message.id);
    if (this.#socket === undefined) this.#queued.push(message);
    else this.#toClient(message);
  }

  protected onEnd(reason: string, cause: SessionEndCause): void {
    const pending = this.#pending.clear();
    for (const { id, done } of pending) {
      done();
      if (cause === "upstream") this.#toClient(rpcErrorResponse(id, JsonRpcErrorCode.InternalError, "the daemon connection closed"));
    }
    const socket = this.#socket;
    if (socket === undefined || cause === "client") return;
    if (cause === "upstream") socket.close(CloseCode.InternalError, "the daemon connection closed");
    else if (cause === "idle") socket.close(CloseCode.Normal, "idle timeout");
    else socket.close(CloseCode.GoingAway, closeReason(reason));
    // A client that never answers the close frame is cut off rather than waited for.
    const cutOff = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    cutOff.unref?.();
    socket.once("close", () => clearTimeout(cutOff));
  }

  #onClientData(data: RawData, isBinary: boolean): void {
    this.touch();
    if (isBinary) {
      this.#socketError = { message: "a binary frame (only text frames carry JSON-RPC)", code: CloseCode.UnsupportedData };
      this.#socket?.close(CloseCode.UnsupportedData, "binary frames are not supported: send JSON-RPC as text");
      return;
    }
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data));
    const parsed = parseClientMessage(bytes);
    switch (parsed.kind) {
      case "invalid":
        return this.#toClient(parsed.error);
      case "request": {
        const { id } = parsed.message;
        if (this.#pending.has(id)) {
          return this.#toClient(rpcErrorResponse(id, JsonRpcErrorCode.InvalidRequest, `duplicate request id ${JSON.stringify(id)}: a request with this id is still in flight`));
        }
        this.#pending.set(id, { id, done: this.beginWork() });
        this.sendUpstream(parsed.message).catch(() => {
          if (!this.#pending.has(id)) return;
          this.#answered(id);
          this.#toClient(rpcErrorResponse(id, JsonRpcErrorCode.InternalError, "could not forward the request to the daemon"));
        });
        return;
      }
      case "notification":
      case "response":
        this.sendUpstream(parsed.message).catch(() => undefined);
        return;
    }
  }

  #answered(id: JsonRpcId): void {
    this.#pending.take(id)?.done();
  }

  #toClient(message: JsonRpcMessage): void {
    const socket = this.#socket;
    if (socket !== undefined && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}

/** A close reason fits in 123 bytes. */
function closeReason(reason: string): string {
  const bytes = Buffer.from(reason, "utf8");
  return bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString("utf8").replace(/\uFFFD$/, "") + "...";
}
