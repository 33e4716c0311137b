/**
 * The bridge's WebSocket side at `/mcp` (subprotocol `mcp`): the upgrade handler and its checks,
 * and the WebSocket session that relays JSON-RPC both ways with backpressure.
 */
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { RawData, WebSocket, WebSocketServer } from "ws";
import { SlotTable } from "../../collections/slot-table.js";
import { GlassError } from "../../errors/glass-error.js";
import {
  isJsonRpcRequest,
  isJsonRpcResponse,
  JsonRpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../../mcp/json-rpc.js";
import { ignore } from "../../transport/transport-util.js";
import { MAX_RELAYED_BYTES, parseClientMessage, relayText, rpcErrorResponse, unrelayableAnswer } from "./messages.js";
import { BRIDGE_DEFAULTS } from "./options.js";
import {
  admitRequest,
  checkToken,
  refusal,
  refusalBody,
  requestPath,
  subprotocols,
  webSocketTokens,
  type Refusal,
} from "./security.js";
import {
  daemonRefusalReason,
  REQUESTS_IN_FLIGHT_PER_SESSION,
  shortId,
  UpstreamSession,
  type BridgeContext,
  type SessionEndCause,
  type SessionSlot,
} from "./sessions.js";

/**
 * The bridge's WebSocket side, on the HTTP server's `upgrade` event: the same Host, Origin and path
 * checks as HTTP (browsers do not apply CORS to WebSockets, so the Origin check is what keeps other
 * pages out), the token (`Authorization`, a `glass-bearer.<token>` subprotocol entry, or
 * `?token=`), the `mcp` subprotocol (400 without it), the client cap (503, unless a session idle
 * long enough gives way), then a daemon connection (502 when it cannot be opened), and only then
 * the upgrade. A daemon that closes the new connection before answering, as it does past its own
 * client limit, refuses the session: 503 if that is known before the upgrade, else close code 1013.
 */
export function createUpgradeHandler(
  context: BridgeContext,
  server: WebSocketServer,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on("error", () => undefined);
    upgrade(context, server, req, socket, head).catch((error: unknown) => {
      context.log(`internal error on a WebSocket upgrade: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    });
  };
}

async function upgrade(
  context: BridgeContext,
  server: WebSocketServer,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const peer = (socket as { remoteAddress?: string }).remoteAddress ?? "unknown";
  const refuse = (refused: Refusal): void => {
    context.log(`refused WebSocket ${requestPath(req)} from ${peer}: ${refused.reason} (${refused.status})`);
    writeRefusal(socket, refused);
  };

  const admission = admitRequest(req, context.options, context.port);
  if (admission !== undefined) return refuse(admission);
  if (req.method !== "GET")
    return refuse(refusal(405, "Method not allowed: a WebSocket upgrade is a GET", { Allow: "GET" }));
  const tokenRefusal = checkToken(webSocketTokens(req), context.options.token, "websocket");
  if (tokenRefusal !== undefined) return refuse(tokenRefusal);
  context.connections.authenticated(req.socket);
  if (!subprotocols(req).includes(BRIDGE_DEFAULTS.subprotocol)) {
    return refuse(refusal(400, `Bad Request: the WebSocket subprotocol ${BRIDGE_DEFAULTS.subprotocol} is required`));
  }
  if (context.closing) return refuse(refusal(503, "Service Unavailable: the bridge is shutting down"));
  const slot = await context.sessions.reserve();
  if (slot === undefined) {
    const max = context.sessions.maxClients;
    return refuse(
      refusal(
        503,
        `Service Unavailable: the bridge already serves ${max} client session${max === 1 ? "" : "s"} (its limit), none idle long enough to give way; retry later`,
      ),
    );
  }
  if (socket.destroyed) {
    slot.release();
    return;
  }

  let session: WebSocketSession;
  try {
    session = await WebSocketSession.open(context, slot, peer);
  } catch (error) {
    context.log(
      `could not open a daemon connection for ${peer}: ${error instanceof GlassError ? error.rawMessage : String(error)}`,
    );
    return refuse(refusal(502, "Bad Gateway: the bridge could not reach the Glass daemon"));
  }
  if (session.refusedByDaemon)
    return refuse(refusal(503, `Service Unavailable: ${daemonRefusalReason(context.sessions.maxClients)}`));
  if (socket.destroyed) {
    await session.close("the client left before the WebSocket upgrade completed");
    return;
  }
  let upgraded = false;
  socket.once("close", () => {
    if (!upgraded) void session.close("the WebSocket upgrade failed");
  });
  server.handleUpgrade(req, socket, head, (ws) => {
    upgraded = true;
    session.attach(ws);
  });
}

/** Answers an upgrade request with an HTTP error and closes the connection. */
function writeRefusal(socket: Duplex, refused: Refusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = refusalBody(refused);
  const headers: Record<string, string> = {
    Connection: "close",
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    ...refused.headers,
  };
  const head = `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ""}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n")}\r\n\r\n`;
  socket.once("finish", () => socket.destroy());
  socket.end(head + body);
}

/** WebSocket close codes the bridge uses. */
const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  UnsupportedData: 1003,
  PolicyViolation: 1008,
  MessageTooBig: 1009,
  InternalError: 1011,
  TryAgainLater: 1013,
} as const;
/** How long a client has to answer the bridge's close frame before the connection is dropped. */
const CLOSE_GRACE_MS = 1000;

/** A message's text waiting for the socket to be attached. */
interface QueuedText {
  text: string;
  bytes: number;
}

/**
 * One WebSocket connection (subprotocol `mcp`) and its own daemon connection: every text frame is
 * one JSON-RPC message, relayed both ways as is. The daemon's requests (elicitation) go to the
 * client, which answers. When the daemon connection closes, the client's pending requests get
 * -32603 "the daemon connection closed" and the socket closes with 1011. Messages over the limit
 * close it with 1009 (the `ws` library's `maxPayload`), binary frames with 1003.
 *
 * A daemon message that cannot be relayed fails only what it belongs to (a request answered -32603
 * to the daemon, anything without an id closes this socket with 1011); backpressure and the
 * {@link REQUESTS_IN_FLIGHT_PER_SESSION} bound apply. See docs/browser-and-bridge.md, "The bridge
 * and its security model".
 */
class WebSocketSession extends UpstreamSession {
  readonly channel = "websocket";
  #socket: WebSocket | undefined;
  /** Messages from the daemon that arrived before the socket was attached (counted in `#outbound`). */
  #queued: QueuedText[] = [];
  /** The client's requests the daemon has not answered yet, with their idle-timer hold. */
  readonly #pending = new SlotTable<JsonRpcId, { id: JsonRpcId; done: () => void }>();
  /** Why the socket failed, when it did (for the log line), and the close code the bridge sent for it. */
  #socketError: { message: string; code?: number } | undefined;
  /** Bytes handed to the socket (or queued for it) that it has not written yet. */
  #outbound = 0;
  /** The most that ever waited for the client, and for the daemon: reported when the session ends if it fell behind. */
  #peakOutbound = 0;
  #peakBacklog = 0;
  /** Whether the client's messages are not being read (backpressure). */
  #paused = false;
  /** Whether reading was ever paused (logged once per session). */
  #fellBehind = false;
  /** How the socket is closed since the session ended (also when it ended before the socket was attached). */
  #endClose: { code: number; reason: string } | undefined;

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
    socket.on("message", (data, isBinary) => {
      try {
        this.#onClientData(data, isBinary);
      } catch (error) {
        // Whatever a client sends must not take the bridge down: this one socket closes instead.
        this.#closeSocket(
          CloseCode.InternalError,
          `internal bridge error: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    socket.on("error", (error: Error & { code?: string }) => {
      this.#socketError ??=
        error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
          ? {
              message: `a message over the limit of ${this.context.options.maxMessageBytes} bytes`,
              code: CloseCode.MessageTooBig,
            }
          : { message: error.message };
    });
    socket.on("close", (code: number) => {
      const failure = this.#socketError;
      const closeCode = failure?.code ?? code;
      void this.end(
        `the WebSocket closed (${closeCode})${failure === undefined ? "" : `: ${failure.message}`}`,
        "client",
      );
    });
    if (this.isEnded) {
      const { code, reason } = this.#endClose ?? { code: CloseCode.GoingAway, reason: "the session ended" };
      socket.close(code, reason);
      cutOffLater(socket);
      return;
    }
    for (const { text, bytes } of this.#queued.splice(0)) {
      this.#outbound -= bytes;
      this.#sendText(text, bytes);
    }
  }

  protected onUpstreamMessage(message: JsonRpcMessage): void {
    this.touch();
    if (isJsonRpcResponse(message) && message.id !== null) this.#answered(message.id);
    const relayed = relayText(message);
    if (relayed.ok) this.#sendText(relayed.text, relayed.bytes);
    else this.#unrelayable(message, relayed.problem);
  }

  protected override onUpstreamWritten(): void {
    this.#updateFlow();
  }

  protected onEnd(reason: string, cause: SessionEndCause): void {
    const refused = this.refusedByDaemon;
    const pending = this.#pending.clear();
    for (const { id, done } of pending) {
      done();
      // A refused session's requests fail with the close (1013) and its reason, not with -32603.
      if (cause === "upstream" && !refused)
        this.#send(rpcErrorResponse(id, JsonRpcErrorCode.InternalError, "the daemon connection closed"));
    }
    if (this.#fellBehind) {
      this.context.log(
        `session ${shortId(this.id)}: at most ${this.#peakOutbound} bytes waited to be sent to its client and ${this.#peakBacklog} to be written to its daemon ` +
          `(maxBufferedBytes ${this.context.options.maxBufferedBytes})`,
      );
    }
    this.#queued = [];
    if (cause === "client") return;
    this.#endClose = refused
      ? { code: CloseCode.TryAgainLater, reason: DAEMON_REFUSED_CLOSE_REASON }
      : closeFor(cause, reason);
    const socket = this.#socket;
    if (socket === undefined) return;
    socket.close(this.#endClose.code, this.#endClose.reason);
    cutOffLater(socket);
  }

  #onClientData(data: RawData, isBinary: boolean): void {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== socket.OPEN) return;
    this.touch();
    if (isBinary)
      return this.#closeSocket(
        CloseCode.UnsupportedData,
        "binary frames are not supported: send JSON-RPC as text",
        "a binary frame (only text frames carry JSON-RPC)",
      );
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(new Uint8Array(data));
    const parsed = parseClientMessage(bytes);
    switch (parsed.kind) {
      case "invalid":
        return this.#send(parsed.error);
      case "request": {
        const { id } = parsed.message;
        if (this.#pending.has(id)) {
          return this.#send(
            rpcErrorResponse(
              id,
              JsonRpcErrorCode.InvalidRequest,
              `duplicate request id ${JSON.stringify(id)}: a request with this id is still in flight`,
            ),
          );
        }
        const limit = REQUESTS_IN_FLIGHT_PER_SESSION;
        if (this.#pending.size >= limit) {
          return this.#send(
            rpcErrorResponse(
              id,
              JsonRpcErrorCode.Overloaded,
              `too many requests in flight in this session (${limit}): wait for answers before sending more`,
            ),
          );
        }
        this.#pending.set(id, { id, done: this.beginWork() });
        this.sendUpstream(parsed.message, bytes.length).catch((error: unknown) => {
          if (!this.#pending.has(id)) return;
          this.#answered(id);
          this.#send(
            rpcErrorResponse(
              id,
              JsonRpcErrorCode.InternalError,
              `could not forward the request to the daemon: ${reasonOf(error)}`,
            ),
          );
        });
        this.#updateFlow();
        return;
      }
      case "notification":
      case "response":
        this.sendUpstream(parsed.message, bytes.length).catch(ignore);
        this.#updateFlow();
        return;
    }
  }

  /** A daemon message with no JSON text within bounds: fail only what it belongs to. */
  #unrelayable(message: JsonRpcMessage, problem: string): void {
    this.context.log(`session ${shortId(this.id)}: a daemon message could not be relayed to the client: ${problem}`);
    if (isJsonRpcResponse(message) && message.id !== null) return this.#send(unrelayableAnswer(message.id, problem));
    if (isJsonRpcRequest(message)) {
      this.sendUpstream(
        rpcErrorResponse(
          message.id,
          JsonRpcErrorCode.InternalError,
          `the bridge could not relay this request to its client: ${problem}`,
        ),
      ).catch(ignore);
      return;
    }
    this.#closeSocket(CloseCode.InternalError, `a daemon message could not be relayed: ${problem}`);
  }

  #answered(id: JsonRpcId): void {
    this.#pending.take(id)?.done();
  }

  /** Sends one of the bridge's own messages (errors for a client request). */
  #send(message: JsonRpcMessage): void {
    const relayed = relayText(message);
    if (relayed.ok) this.#sendText(relayed.text, relayed.bytes);
  }

  /** Hands a text to the socket (or queues it until the socket is attached), counting what waits. */
  #sendText(text: string, bytes: number): void {
    const socket = this.#socket;
    // Once the session has ended nothing is queued; an open socket still gets the last answers.
    if (socket === undefined ? this.isEnded : socket.readyState !== socket.OPEN) return;
    const { maxBufferedBytes } = this.context.options;
    const hardLimit = maxBufferedBytes + MAX_RELAYED_BYTES;
    if (this.#outbound > maxBufferedBytes && this.#outbound + bytes > hardLimit) {
      return this.#closeSocket(
        CloseCode.PolicyViolation,
        "the client does not read its messages",
        `the client does not read its messages: ${this.#outbound} bytes wait to be sent to it and ${bytes} more would pass the limit of ${hardLimit} (maxBufferedBytes + 32 MiB)`,
      );
    }
    this.#outbound += bytes;
    this.#peakOutbound = Math.max(this.#peakOutbound, this.#outbound);
    if (socket === undefined) {
      this.#queued.push({ text, bytes });
      return;
    }
    socket.send(text, () => {
      this.#outbound -= bytes;
      this.#updateFlow();
    });
    this.#updateFlow();
  }

  /** Stops reading the client while too much waits (for it, or for the daemon); reads again once both drained to half. */
  #updateFlow(): void {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== socket.OPEN) return;
    const max = this.context.options.maxBufferedBytes;
    const backlog = this.upstreamBacklog;
    this.#peakBacklog = Math.max(this.#peakBacklog, backlog);
    if (!this.#paused && (this.#outbound > max || backlog > max)) {
      this.#paused = true;
      socket.pause();
      if (this.#fellBehind) return;
      this.#fellBehind = true;
      const why =
        this.#outbound > max
          ? `the client reads slower than it asks: ${this.#outbound} bytes wait to be sent to it`
          : `the daemon reads slower than the client sends: ${backlog} bytes wait to be written to it`;
      this.context.log(
        `session ${shortId(this.id)}: ${why} (over maxBufferedBytes, ${max}); the client's messages are not read until that drains to half (logged once per session)`,
      );
    } else if (this.#paused && this.#outbound <= max / 2 && backlog <= max / 2) {
      this.#paused = false;
      socket.resume();
    }
  }

  /** Closes this one socket with `code` (the session ends when it has closed); `why` goes to the log line. */
  #closeSocket(code: number, reason: string, why: string = reason): void {
    this.#socketError ??= { message: why, code };
    const socket = this.#socket;
    if (socket === undefined) {
      void this.end(why, "internal");
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    socket.close(code, closeReason(reason));
    cutOffLater(socket);
  }
}

/** How the bridge closes the socket of a session that ended for `cause` (other than the client's own close). */
function closeFor(cause: Exclude<SessionEndCause, "client">, reason: string): { code: number; reason: string } {
  switch (cause) {
    case "upstream":
      return { code: CloseCode.InternalError, reason: "the daemon connection closed" };
    case "internal":
      return { code: CloseCode.InternalError, reason: closeReason(reason) };
    case "idle":
      return { code: CloseCode.Normal, reason: "idle timeout" };
    case "evicted":
      return { code: CloseCode.Normal, reason: "idle session evicted: a new client needed its place" };
    case "bridge":
      return { code: CloseCode.GoingAway, reason: closeReason(reason) };
  }
}

/** The close reason (at most 123 bytes) when the daemon refused the session's connection; the log line has the whole story. */
const DAEMON_REFUSED_CLOSE_REASON =
  "the Glass daemon refused the connection (at its client limit?): lower --max-clients or close other clients";

/** A client that never answers the close frame is cut off rather than waited for. */
function cutOffLater(socket: WebSocket): void {
  const cutOff = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
  cutOff.unref?.();
  socket.once("close", () => clearTimeout(cutOff));
}

/** A close reason fits in 123 bytes. */
function closeReason(reason: string): string {
  const bytes = Buffer.from(reason, "utf8");
  return bytes.length <= 123
    ? reason
    : `${bytes
        .subarray(0, 120)
        .toString("utf8")
        .replace(/\uFFFD$/, "")}...`;
}

/** Why a send failed, in words. */
function reasonOf(error: unknown): string {
  return error instanceof GlassError ? error.rawMessage : error instanceof Error ? error.message : String(error);
}
