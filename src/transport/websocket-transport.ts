import { requestInvalid, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import { SlotList } from "../collections/slot-list.js";
import type { GlassError } from "../errors/glass-error.js";
import type { JsonRpcMessage } from "../mcp/json-rpc.js";
import { describeError, quoteUntrusted, redactUrl } from "../errors/redact.js";
import { utf8Length } from "../validation/byte-length.js";
import { TransportLimits, type GlassTransport, type TransportHandlers } from "./transport.js";
import {
  callHandler,
  checkMaxInFlight,
  CLOSED_BEFORE_START,
  closed,
  encode,
  exceedsUtf8Bytes,
  messagesIn,
  NOT_SENT,
  peerNotReading,
  reportBadFrame,
  startedTwice,
  transportRedactor,
} from "./transport-util.js";

/** What the transport needs of a WebSocket: the browser's, Node's global one, and the `ws` package's all have it. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** The subprotocol the server selected. */
  readonly protocol: string;
  /** Bytes sent but not yet handed to the network (browsers and `ws` have it): what waits for a peer that does not read. */
  readonly bufferedAmount?: number;
  /** Sends a text frame. */
  send(data: string): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
}

/** A WebSocket class: `globalThis.WebSocket`, the `ws` package's `WebSocket`, or one with the same constructor and events. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

/** Where and how a {@link webSocketTransport} reaches the daemon. */
export interface WebSocketTransportOptions {
  /** The daemon's WebSocket endpoint, e.g. `ws://127.0.0.1:7341/mcp`. */
  url: string | URL;
  /**
   * The token the bridge prints in its startup line (base64url: letters, digits, `-`, `_`, `~`).
   * Browsers cannot set headers on a WebSocket, so it travels as the subprotocol `glass-bearer.<token>`.
   */
  token?: string;
  /**
   * The WebSocket class; default `globalThis.WebSocket`, but the `ws` package (loaded only then) where
   * there is none or it is Node's own (Node 22 and later), which hides why an upgrade was refused.
   */
  WebSocket?: WebSocketConstructor;
  /** Requests in flight at most; default 4. */
  maxInFlight?: number;
}

/** The subprotocol the daemon speaks: one JSON-RPC message per text frame. */
const MCP = "mcp";
const TOKEN_PREFIX = "glass-bearer.";
/** What a token may contain: base64url (and `~`), all of them characters a subprotocol name allows. */
const TOKEN = /^[A-Za-z0-9._~-]+$/;
const OPEN = 1;
/** How long `close()` waits for the closing handshake before it drops the connection. */
const CLOSE_TIMEOUT_MS = 2000;
/** The close code for a message too big to process (RFC 6455). */
const MESSAGE_TOO_BIG = 1009;
/**
 * What a `ws` package socket is built with: no permessage-deflate (a few KB on the wire can inflate
 * to gigabytes), and no message over the protocol's bound (`ws` refuses it from the frame header,
 * before buffering it, and closes with 1009).
 */
const WS_PACKAGE_OPTIONS = { perMessageDeflate: false, maxPayload: TransportLimits.maxMessageBytes };

/**
 * A transport that speaks MCP over a WebSocket (subprotocol `mcp`, one JSON-RPC message per text
 * frame), in browsers and in Node. The WebSocket class is found when connecting, not at import:
 * `options.WebSocket`, else `globalThis.WebSocket` unless it is Node's own (Node 22 and later), else
 * the `ws` package — so on every Node version the transport gives the same errors and bounds.
 *
 * `start()` resolves when the socket is open and rejects with a TransportUnavailableError naming
 * the URL and what to do. With the `ws` package a refused upgrade's HTTP answer is visible: the
 * error gives its status and quotes the bridge's reason (a 401 is the token; a 403 an Origin the
 * bridge does not allow, or a host name not its own). A browser hides that answer (close code
 * 1006, no reason), so the error lists the possible causes — no bridge at the URL, a wrong token,
 * this page's origin not allowed — and names `--allow-origin` with the page's origin. A frame that is
 * not a text JSON-RPC message goes to `onError` as a BadFrameError and the connection goes on. The
 * socket closing, for any reason, ends the transport with one `onClose(TransportClosedError)`
 * carrying the close code and reason; nothing is ever reconnected or sent again (a mutation must
 * never be repeated). `send()` resolves once the message is handed to the socket (with the `ws`
 * package, once it is written).
 *
 * Bounded both ways. A message from the peer is at most 32 MiB (the protocol's bound): the `ws`
 * package is told so (and offers no permessage-deflate, whose few KB can inflate to gigabytes), and
 * refuses a larger message before buffering it; with any other WebSocket (a browser's has no such
 * option) each message's size is checked on arrival. Past the bound the connection is closed (code
 * 1009) and the transport ends with a TransportClosedError saying so. At most 32 MiB wait for a
 * peer that stops reading (`bufferedAmount`): a send past that fails at once with OverloadedError,
 * unsent.
 *
 * @example
 * ```ts
 * import { Glass, webSocketTransport } from "glass-sdk";
 *
 * declare const token: string; // the bridge's token
 * const glass = await Glass.connect(webSocketTransport({ url: "ws://127.0.0.1:8787/mcp", token })); // the bridge's default address
 * ```
 */
export function webSocketTransport(options: WebSocketTransportOptions): GlassTransport {
  return new WebSocketTransport(options);
}

/** The events the transport listens to, as both browser and `ws` sockets deliver them. */
interface SocketEvent {
  data?: unknown;
  code?: number;
  reason?: string;
  message?: string;
  error?: unknown;
}

/** The parts of a WebSocket used internally (`ws` sockets also take a write callback and can be terminated). */
interface Socket extends WebSocketLike {
  addEventListener(type: "open" | "message" | "error" | "close", listener: (event: SocketEvent) => void): void;
  send(data: string, callback?: (error?: Error | null) => void): void;
  on?: unknown;
  terminate?: () => void;
}

/** The HTTP answer to a refused upgrade, as the `ws` package hands it to `unexpected-response` (a Node `IncomingMessage`). */
interface UpgradeResponse {
  readonly statusCode?: number;
  on(event: "data", listener: (chunk: Uint8Array) => void): void;
  on(event: "end" | "close" | "error", listener: () => void): void;
  destroy(): void;
}

/** A refused upgrade as the transport saw it: the HTTP status, and the reason its body gave (a bridge's JSON-RPC error message). */
interface RefusedUpgrade {
  status: number;
  reason: string | undefined;
}

/** How much of a refused upgrade's body is read for its reason, and for how long. */
const REFUSAL_BODY_BYTES = 4096;
const REFUSAL_BODY_MS = 2000;

class WebSocketTransport implements GlassTransport {
  readonly kind = "websocket";
  readonly maxInFlight: number;
  readonly #url: string;
  /** The URL as messages show it (credentials in it redacted). */
  readonly #shownUrl: string;
  readonly #protocols: string[];
  readonly #WebSocket: WebSocketConstructor | undefined;
  /** Settles each `send()` still waiting for its write callback (`ws` package sockets only). */
  readonly #writing = new SlotList<(error?: GlassError) => void>();
  #state: "new" | "connecting" | "open" | "closed" = "new";
  #socket: Socket | undefined;
  /** The owner's handlers, once the socket is open. */
  #handlers: TransportHandlers | undefined;
  /** Settles `start()`. */
  #opened: ((error?: GlassError) => void) | undefined;
  #closeRequested = false;
  #closing: Promise<void> | undefined;
  /** What the last `error` event said (the close that follows says less). */
  #lastError: string | undefined;
  /** Whether the socket itself refuses a message over the bound (a `ws` package socket, built with `maxPayload`). */
  #boundedBySocket = false;
  /** The HTTP answer that refused the upgrade, when the WebSocket class shows it (the `ws` package). */
  #refused: RefusedUpgrade | undefined;
  /** Why the transport ended the connection itself, when it did. */
  #ended: TransportClosedError | undefined;
  #markGone!: () => void;
  readonly #gone = new Promise<void>((resolve) => (this.#markGone = resolve));
  readonly #redact: (text: string) => string;

  constructor(options: WebSocketTransportOptions) {
    const { token } = options;
    this.#url = String(options.url);
    this.#shownUrl = redactUrl(this.#url);
    if (token !== undefined && !TOKEN.test(token)) {
      throw requestInvalid(
        `webSocketTransport: the token may hold only letters, digits, '.', '-', '_' and '~' (it travels as the subprotocol ${TOKEN_PREFIX}<token>); pass the bridge's token as it printed it`,
      );
    }
    this.#protocols = token === undefined ? [MCP] : [MCP, TOKEN_PREFIX + token];
    this.#redact = transportRedactor(this.#url, token);
    this.#WebSocket = options.WebSocket;
    this.maxInFlight = checkMaxInFlight(options.maxInFlight);
  }

  /**
   * The bytes given to `send` that the socket has not written yet (its `bufferedAmount`, at most
   * 32 MiB before a send fails with `overloaded`); 0 when the socket is not open.
   */
  get bufferedBytes(): number {
    const amount = this.#state === "open" ? this.#socket?.bufferedAmount : undefined;
    return typeof amount === "number" ? amount : 0;
  }

  /** `text` with the token (and the `glass-bearer.` subprotocol carrying it) and the URL's credentials replaced by `[redacted]`. */
  redact(text: string): string {
    return this.#redact(text);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    if (this.#closeRequested) throw closed(CLOSED_BEFORE_START);
    if (this.#state !== "new") throw startedTwice();
    this.#state = "connecting";
    let WebSocketClass: WebSocketConstructor | undefined;
    let socket: Socket | undefined;
    try {
      WebSocketClass = await resolveWebSocket(this.#WebSocket);
      if (!this.#closeRequested) {
        socket = connectSocket(WebSocketClass, this.#url, this.#protocols);
        this.#boundedBySocket = takesWsOptions(WebSocketClass);
      }
    } catch (error) {
      this.#finish();
      const why =
        WebSocketClass === undefined
          ? `this runtime has no WebSocket and the ws package could not be loaded (${describeError(error)}); install ws or pass the WebSocket option`
          : describeError(error);
      throw new TransportUnavailableError({
        message: `cannot open a WebSocket to ${this.#shownUrl}: ${why}`,
        cause: error,
      });
    }
    if (socket === undefined) {
      this.#finish();
      throw closed("the transport was closed before it opened");
    }
    this.#socket = socket;
    const opened = new Promise<void>(
      (resolve, reject) => (this.#opened = (error) => (error === undefined ? resolve() : reject(error))),
    );
    socket.addEventListener("open", () => this.#onOpen(handlers));
    socket.addEventListener("message", (event) => this.#onMessage(event.data));
    socket.addEventListener("error", (event) => this.#onError(event));
    socket.addEventListener("close", (event) => this.#onClose(event));
    if (isWsPackageSocket(socket)) this.#watchRefusal(socket);
    return opened;
  }

  send(message: JsonRpcMessage): Promise<void> {
    const socket = this.#socket;
    if (this.#state === "closed" || this.#closeRequested) return Promise.reject(closed(NOT_SENT));
    if (this.#state !== "open" || socket === undefined)
      return Promise.reject(closed(`the WebSocket to ${this.#shownUrl} is not open: call start() first`));
    return new Promise<void>((resolve, reject) => {
      const text = encode(message);
      if (socket.readyState !== OPEN)
        throw closed(`the WebSocket to ${this.#shownUrl} is closing; the message was not sent`);
      const buffered = typeof socket.bufferedAmount === "number" ? socket.bufferedAmount : 0;
      const max = TransportLimits.maxQueuedSendBytes;
      if (buffered > 0 && buffered + text.length * 3 > max && buffered + utf8Length(text) > max) {
        throw peerNotReading(`the WebSocket peer at ${this.#shownUrl}`, buffered, max);
      }
      const written = (error?: unknown): void =>
        settle(
          error
            ? new TransportClosedError({
                message: `could not write to the WebSocket to ${this.#shownUrl}: ${describeError(error)}`,
                cause: error,
              })
            : undefined,
        );
      const settle = (error?: GlassError): void => {
        if (!this.#writing.release(slot, settle)) return;
        if (error === undefined) resolve();
        else reject(error);
      };
      const slot = this.#writing.add(settle);
      try {
        if (isWsPackageSocket(socket)) {
          socket.send(text, written); // the ws package says when the frame is written
        } else {
          socket.send(text); // a browser WebSocket gives no write callback: handed to the socket is all we know
          written();
        }
      } catch (error) {
        written(error);
      }
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closeRequested = true;
    const socket = this.#socket;
    if (this.#state === "new") this.#finish();
    if (this.#state === "closed") return;
    if (socket === undefined) return this.#gone; // resolving the WebSocket class: start() sees the request and gives up
    closeSocket(socket, "the client closed the connection");
    const timer = setTimeout(() => {
      socket.terminate?.();
      this.#onClose({ code: 1006, reason: "the closing handshake timed out" });
    }, CLOSE_TIMEOUT_MS);
    await this.#gone;
    clearTimeout(timer);
  }

  #onOpen(handlers: TransportHandlers): void {
    const socket = this.#socket!;
    if (this.#state !== "connecting") return;
    const chosen = socket.protocol;
    if (chosen !== MCP) {
      const shown =
        chosen === "" ? "none" : JSON.stringify(chosen.startsWith(TOKEN_PREFIX) ? `${TOKEN_PREFIX}…` : chosen);
      this.#lastError = `the server did not select the ${MCP} subprotocol (it selected ${shown}): it refused the token or does not speak MCP there`;
      closeSocket(socket, "the mcp subprotocol is required"); // the close event rejects start()
      return;
    }
    this.#state = "open";
    this.#handlers = handlers;
    this.#opened?.();
    this.#opened = undefined;
  }

  #onMessage(data: unknown): void {
    const handlers = this.#handlers;
    if (handlers === undefined) return;
    const max = TransportLimits.maxMessageBytes;
    // A `ws` package socket refuses a message over the bound from its frame header (maxPayload), before
    // decoding it: measuring a text of tens of megabytes again would cost ~1 ms per megabyte.
    if (!this.#boundedBySocket && (typeof data === "string" ? exceedsUtf8Bytes(data, max) : binaryBytes(data) > max))
      return this.#tooBig(typeof data === "string" ? utf8Length(data) : binaryBytes(data));
    if (typeof data !== "string")
      return reportBadFrame(handlers, "a binary frame arrived; the daemon sends one JSON-RPC message per text frame");
    for (const message of messagesIn(data, "a text frame", handlers)) callHandler(() => handlers.onMessage(message));
  }

  #onError(event: SocketEvent): void {
    // The ws package refused a message over maxPayload: it closes with 1009, but waits up to 30 s
    // for the peer's side of the closing handshake. The transport ends now.
    if (
      this.#state === "open" &&
      (event.error as { code?: unknown } | undefined)?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
    )
      return this.#tooBig(undefined);
    this.#lastError = describeErrorEvent(event);
  }

  /**
   * The peer sent a message over the bound: the connection is closed and the transport ends at once
   * (a `ws` socket with 1009, "message too big", and dropped; a browser's, which may send no other
   * code, with 1000).
   */
  #tooBig(bytes: number | undefined): void {
    const socket = this.#socket!;
    const max = TransportLimits.maxMessageBytes;
    const code = socket.terminate === undefined ? 1000 : MESSAGE_TOO_BIG;
    closeSocket(socket, "message too big", code);
    socket.terminate?.();
    this.#ended = new TransportClosedError({
      message:
        `the WebSocket peer at ${this.#shownUrl} sent a message over the ${max}-byte limit per message${bytes === undefined ? "" : ` (${bytes} bytes)`}, ` +
        "so the connection was closed; calls in flight may have been carried out. Ask for less (a smaller region or clip, responseMode minimal) and connect again",
      details: { closeCode: code, maxBytes: max, ...(bytes === undefined ? {} : { messageBytes: bytes }) },
    });
    this.#onClose({ code, reason: "message too big" });
  }

  #onClose(event: SocketEvent): void {
    if (this.#state === "closed") return;
    const wasOpen = this.#state === "open";
    const handlers = this.#handlers;
    this.#finish();
    const code = typeof event.code === "number" ? event.code : 1006;
    const reason = typeof event.reason === "string" ? event.reason : "";
    if (!wasOpen) {
      this.#opened?.(
        this.#closeRequested ? closed("the transport was closed before it opened") : this.#unavailable(code, reason),
      );
      this.#opened = undefined;
      return;
    }
    const unsent = closed(`the WebSocket to ${this.#shownUrl} closed before the message was written`);
    for (const settle of this.#writing.values()) settle(unsent);
    const error = this.#closeRequested
      ? undefined
      : (this.#ended ??
        new TransportClosedError({
          message: `the WebSocket to ${this.#shownUrl} closed (code ${code}${reason === "" ? "" : `: ${reason}`})${this.#lastError === undefined ? "" : `; ${this.#lastError}`}`,
          details: { closeCode: code, closeReason: reason },
        }));
    if (handlers !== undefined) callHandler(() => handlers.onClose(error));
  }

  /**
   * With the `ws` package the HTTP answer to a refused upgrade is visible: its status and the reason
   * in its body (the bridge sends a JSON-RPC error) are kept for the error `start()` rejects with,
   * reading at most 4 KiB for at most 2 s, and then the attempt is ended.
   */
  #watchRefusal(socket: Socket): void {
    const on = socket.on as (
      event: "unexpected-response",
      listener: (request: unknown, response: UpgradeResponse) => void,
    ) => void;
    on.call(socket, "unexpected-response", (_request, response) => {
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.#refused = { status: response.statusCode ?? 0, reason: refusalReason(chunks) };
        response.destroy();
        socket.terminate?.(); // ends the handshake: the close event that follows rejects start()
      };
      const timer = setTimeout(finish, REFUSAL_BODY_MS);
      response.on("data", (chunk) => {
        if (done) return;
        chunks.push(chunk.subarray(0, REFUSAL_BODY_BYTES - bytes));
        bytes += chunk.length;
        if (bytes >= REFUSAL_BODY_BYTES) finish();
      });
      response.on("end", finish);
      response.on("close", finish);
      response.on("error", finish);
    });
  }

  /** Why the socket did not open, in words a person can act on. */
  #unavailable(code: number, reason: string): TransportUnavailableError {
    const refused = this.#refused;
    if (refused !== undefined) {
      const said = `the server refused the upgrade with HTTP ${refused.status}${refused.reason === undefined ? "" : `: ${quoteUntrusted(refused.reason, 512, { redact: this.#redact })}`}`;
      return new TransportUnavailableError({
        message: `cannot open a WebSocket to ${this.#shownUrl}: ${said}; ${refusalFix(refused)}`,
        details: { closeCode: code, status: refused.status },
      });
    }
    const said = this.#lastError ?? `it closed with code ${code}${reason === "" ? "" : `: ${reason}`}`;
    const fix = /\b401\b/.test(said)
      ? TOKEN_FIX
      : /\b403\b/.test(said)
        ? FORBIDDEN_FIX
        : /subprotocol/i.test(said)
          ? `the server refused the ${MCP} subprotocol or the token: check that the URL is the bridge's WebSocket endpoint and the token the one from its startup line`
          : this.#lastError === undefined
            ? browserFix()
            : "check that the bridge runs at this URL";
    return new TransportUnavailableError({
      message: `cannot open a WebSocket to ${this.#shownUrl}: ${said}; ${fix}`,
      details: { closeCode: code },
    });
  }

  /** The transport is over: no more messages reach the owner, and `close()` can return. */
  #finish(): void {
    this.#state = "closed";
    this.#handlers = undefined;
    this.#markGone();
  }
}

/** What to do about a refused token. */
const TOKEN_FIX = "the server refused the token: use the one from the bridge's startup line (new each time it starts)";
/** What to do about a 403 whose reason is not known. */
const FORBIDDEN_FIX =
  "a bridge answers 403 for an Origin it does not allow (start it with --allow-origin <origin>, or allowedOrigins in startBridge()) or a host name that is not its own (--allow-host); its log names which";

/** What to do about an upgrade refused with this status and reason (the bridge names the Origin or the Host it refused). */
function refusalFix(refused: RefusedUpgrade): string {
  if (refused.status === 401) return TOKEN_FIX;
  if (refused.status === 403 && refused.reason !== undefined && /^Origin\b/.test(refused.reason)) {
    return "the bridge does not allow this client's Origin: start it with --allow-origin <origin> (or allowedOrigins in startBridge())";
  }
  if (refused.status === 403 && refused.reason !== undefined && /^Host\b/.test(refused.reason)) {
    return "the bridge does not take this URL's host name: connect to a loopback address, or start it with --allow-host <name> (allowedHosts in startBridge())";
  }
  if (refused.status === 403) return FORBIDDEN_FIX;
  if (refused.status === 502)
    return "check that the Glass daemon runs where the bridge looks for it (its --socket, or the command after --)";
  if (refused.status === 503)
    return "retry later, or end another client session of the bridge (it serves --max-clients at once)";
  return "check that the URL is the bridge's WebSocket endpoint";
}

/**
 * What to do when a browser's WebSocket fails to open: browsers report every failed upgrade the
 * same way (close code 1006, no reason, the HTTP answer hidden), so the causes are only possible
 * ones. The page's origin is named when there is one.
 */
function browserFix(): string {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  const page = typeof origin === "string" && origin !== "null" ? origin : undefined;
  return (
    "the browser gives no reason (it hides the server's answer to a refused upgrade). Check that the bridge runs at this URL and that the token is the one " +
    `from its startup line; the bridge also refuses pages from an origin it was not told to allow: start it with --allow-origin ${page ?? "<this page's origin>"} ` +
    "(or allowedOrigins in startBridge()). The bridge logs the reason for every refusal"
  );
}

/** The reason a refused upgrade's body gives: a JSON-RPC error's message (what the bridge sends), or else undefined. */
function refusalReason(chunks: readonly Uint8Array[]): string | undefined {
  const text = new TextDecoder().decode(concatBytes(chunks));
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } } | null)?.error?.message;
    return typeof message === "string" && message !== "" ? message : undefined;
  } catch {
    return undefined;
  }
}

function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * The WebSocket class to use: the one given; else the `ws` package's (imported only then) where there
 * is no global `WebSocket` or the global one is Node's own; else the global one (a browser's, or one a
 * test put there, such as MSW's interceptor, which serves only the global one).
 *
 * Node's own global `WebSocket` (Node 22 and later) gives way to `ws`: it hides the HTTP answer to a
 * refused upgrade, so a wrong token, a refused Origin and an unreachable daemon (401, 403, 502) would
 * all read as close code 1006, and it takes no bound on a message's size, which `ws` enforces from the
 * frame header. So the transport says the same on every Node. If `ws` cannot be loaded, the global
 * one is used after all.
 */
async function resolveWebSocket(given: WebSocketConstructor | undefined): Promise<WebSocketConstructor> {
  if (given !== undefined) return given;
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global !== undefined && global !== nodeOwnWebSocket()) return global;
  try {
    return (await import("ws")).default;
  } catch (error) {
    if (global !== undefined) return global;
    throw error;
  }
}

/**
 * The WebSocket class Node itself provides (`http.WebSocket`, the same as its global one until
 * something replaces that), found without importing a `node:` module; undefined outside Node, and on
 * Node versions that do not expose it (before 22.5).
 */
function nodeOwnWebSocket(): unknown {
  type BuiltinModule = (id: string) => { WebSocket?: unknown } | undefined;
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: BuiltinModule } }).process?.getBuiltinModule;
  try {
    return typeof getBuiltinModule === "function" ? getBuiltinModule("http")?.WebSocket : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a WebSocket class is the `ws` package's (or made like it): it takes the options that bound a message. */
function takesWsOptions(WebSocketClass: WebSocketConstructor): boolean {
  return typeof (WebSocketClass as { prototype?: { terminate?: unknown } }).prototype?.terminate === "function";
}

/** Opens a socket; one of the `ws` package (or made like one) gets the options that bound it. */
function connectSocket(WebSocketClass: WebSocketConstructor, url: string, protocols: string[]): Socket {
  if (!takesWsOptions(WebSocketClass)) return new WebSocketClass(url, protocols) as Socket;
  const WsPackageSocket = WebSocketClass as unknown as new (
    url: string,
    protocols: string[],
    options: typeof WS_PACKAGE_OPTIONS,
  ) => Socket;
  return new WsPackageSocket(url, protocols, WS_PACKAGE_OPTIONS);
}

/** The size of a binary message (an ArrayBuffer, a view of one, or a Blob), 0 when it has none. */
function binaryBytes(data: unknown): number {
  const { byteLength, size } = (data ?? {}) as { byteLength?: unknown; size?: unknown };
  return typeof byteLength === "number" ? byteLength : typeof size === "number" ? size : 0;
}

/** A socket of the `ws` package (an EventEmitter with `terminate`), whose `send` takes a write callback. */
function isWsPackageSocket(socket: Socket): boolean {
  return typeof socket.on === "function" && typeof socket.terminate === "function";
}

/** Starts the closing handshake (normal closure, unless `code` says otherwise), unless the socket is closing already. */
function closeSocket(socket: Socket, reason: string, code = 1000): void {
  try {
    socket.close(code, reason);
  } catch {
    // already closing
  }
}

function describeErrorEvent(event: SocketEvent): string | undefined {
  const message = event.error instanceof Error && event.error.message !== "" ? event.error.message : event.message;
  return typeof message === "string" && message !== "" ? redactUrl(message) : undefined;
}
