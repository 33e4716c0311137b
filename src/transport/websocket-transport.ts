import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import { redactUrl } from "./redact-url.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { GlassError } from "../errors/glass-error.js";
import type { JsonRpcMessage } from "../mcp/json-rpc.js";
import type { GlassTransport, TransportHandlers } from "./transport.js";

/** What the transport needs of a WebSocket: the browser's, Node's global one, and the `ws` package's all have it. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** The subprotocol the server selected. */
  readonly protocol: string;
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
  /** The WebSocket class; default `globalThis.WebSocket`, else the `ws` package (loaded only then). */
  WebSocket?: WebSocketConstructor;
  /** Requests in flight at most; default 4. */
  maxInFlight?: number;
}

/** The subprotocol the daemon speaks: one JSON-RPC message per text frame. */
const MCP_SUBPROTOCOL = "mcp";
const TOKEN_SUBPROTOCOL_PREFIX = "glass-bearer.";
/** What a token may contain: base64url (and `~`), all of them characters a subprotocol name allows. */
const TOKEN = /^[A-Za-z0-9._~-]+$/;
const OPEN = 1;
/** How long `close()` waits for the closing handshake before it drops the connection. */
const CLOSE_TIMEOUT_MS = 2000;

/**
 * A transport that speaks MCP over a WebSocket (subprotocol `mcp`, one JSON-RPC message per text
 * frame), in browsers and in Node. The WebSocket class is found when connecting, not at import:
 * `options.WebSocket`, else `globalThis.WebSocket`, else the `ws` package.
 *
 * `start()` resolves when the socket is open and rejects with a TransportUnavailableError naming
 * the URL (and, when the server refused the token or the subprotocol, saying so). A frame that is
 * not a text JSON-RPC message goes to `onError` as a BadFrameError and the connection goes on. The
 * socket closing, for any reason, ends the transport with one `onClose(TransportClosedError)`
 * carrying the close code and reason; nothing is ever reconnected or sent again (a mutation must
 * never be repeated). `send()` resolves once the message is handed to the socket (with the `ws`
 * package, once it is written).
 *
 * @example
 * const glass = await Glass.connect(webSocketTransport({ url: "ws://127.0.0.1:7341/mcp", token }));
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

class WebSocketTransport implements GlassTransport {
  readonly kind = "websocket";
  readonly maxInFlight: number;
  readonly #url: string;
  /** The URL as messages show it (credentials in it redacted). */
  readonly #shownUrl: string;
  readonly #protocols: string[];
  readonly #WebSocket: WebSocketConstructor | undefined;
  readonly #pendingSends = new Set<(error: GlassError | undefined) => void>();
  #state: "new" | "connecting" | "open" | "closed" = "new";
  #socket: Socket | undefined;
  #handlers: TransportHandlers | undefined;
  #opening: { resolve(): void; reject(error: GlassError): void } | undefined;
  #closeRequested = false;
  #closing: Promise<void> | undefined;
  /** What the last `error` event said (the close that follows says less). */
  #lastError: string | undefined;
  readonly #gone: Promise<void>;
  #markGone!: () => void;

  constructor(options: WebSocketTransportOptions) {
    this.#url = String(options.url);
    this.#shownUrl = redactUrl(this.#url);
    if (options.token !== undefined && !TOKEN.test(options.token)) {
      throw new GlassError({
        code: GlassErrorCode.RequestInvalid,
        message:
          "webSocketTransport: the token must be a non-empty string of letters, digits, '.', '-', '_' and '~' (the bridge prints one): " +
          `it travels as the WebSocket subprotocol ${TOKEN_SUBPROTOCOL_PREFIX}<token>, and a subprotocol allows no other characters`,
        retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
      });
    }
    this.#protocols = options.token === undefined ? [MCP_SUBPROTOCOL] : [MCP_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${options.token}`];
    this.#WebSocket = options.WebSocket;
    this.maxInFlight = checkMaxInFlight(options.maxInFlight ?? 4);
    this.#gone = new Promise<void>((resolve) => {
      this.#markGone = resolve;
    });
  }

  async start(handlers: TransportHandlers): Promise<void> {
    if (this.#closeRequested) throw new TransportClosedError({ message: "the transport was closed before it started" });
    if (this.#state !== "new") throw new TransportUnavailableError({ message: "start() was already called: a transport is started once" });
    this.#state = "connecting";
    let WebSocketClass: WebSocketConstructor;
    try {
      WebSocketClass = await resolveWebSocket(this.#WebSocket);
    } catch (error) {
      this.#finish();
      throw new TransportUnavailableError({
        message: `cannot open a WebSocket to ${this.#shownUrl}: this runtime has no WebSocket and the ws package could not be loaded (${describe(error)}); install ws or pass the WebSocket option`,
        cause: error,
      });
    }
    if (this.#closeRequested) {
      this.#finish();
      throw new TransportClosedError({ message: "the transport was closed before it opened" });
    }
    let socket: Socket;
    try {
      socket = new WebSocketClass(this.#url, this.#protocols) as Socket;
    } catch (error) {
      this.#finish();
      throw new TransportUnavailableError({ message: `cannot open a WebSocket to ${this.#shownUrl}: ${describe(error)}`, cause: error });
    }
    this.#socket = socket;
    const opened = new Promise<void>((resolve, reject) => {
      this.#opening = { resolve, reject };
    });
    socket.addEventListener("open", () => this.#onOpen(handlers));
    socket.addEventListener("message", (event) => this.#onMessage(event));
    socket.addEventListener("error", (event) => {
      this.#lastError = describeErrorEvent(event);
    });
    socket.addEventListener("close", (event) => this.#onClose(event));
    return opened;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === "closed" || this.#closeRequested) return Promise.reject(new TransportClosedError({ message: "the transport is closed; the message was not sent" }));
    const socket = this.#socket;
    if (this.#state !== "open" || socket === undefined) return Promise.reject(new TransportClosedError({ message: `the WebSocket to ${this.#shownUrl} is not open: call start() first` }));
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(new GlassError({ code: GlassErrorCode.RequestInvalid, message: `the message cannot be encoded as JSON: ${describe(error)}`, cause: error }));
    }
    if (socket.readyState !== OPEN) return Promise.reject(new TransportClosedError({ message: `the WebSocket to ${this.#shownUrl} is closing; the message was not sent` }));
    return new Promise<void>((resolve, reject) => {
      const settle = (error: GlassError | undefined): void => {
        if (!this.#pendingSends.delete(settle)) return;
        if (error === undefined) resolve();
        else reject(error);
      };
      this.#pendingSends.add(settle);
      const written = (error?: Error | null): void =>
        settle(error ? new TransportClosedError({ message: `could not write to the WebSocket to ${this.#shownUrl}: ${error.message}`, cause: error }) : undefined);
      try {
        if (isWsPackageSocket(socket)) {
          socket.send(text, written); // the ws package says when the frame is written
        } else {
          socket.send(text); // a browser WebSocket gives no write callback: handed to the socket is all we know
          written();
        }
      } catch (error) {
        written(error instanceof Error ? error : new Error(String(error)));
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
    if (this.#state === "closed") return;
    if (socket === undefined) {
      if (this.#state === "new") this.#finish();
      else await this.#gone; // resolving the WebSocket class: start() sees the request and gives up
      return;
    }
    try {
      socket.close(1000, "the client closed the connection");
    } catch {
      // already closing
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = await Promise.race([
      this.#gone.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), CLOSE_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      socket.terminate?.();
      this.#onClose({ code: 1006, reason: "the closing handshake timed out" });
    }
  }

  #onOpen(handlers: TransportHandlers): void {
    const socket = this.#socket;
    if (this.#state !== "connecting" || socket === undefined) return;
    if (socket.protocol !== MCP_SUBPROTOCOL) {
      const chosen = socket.protocol === "" ? "none" : JSON.stringify(socket.protocol.startsWith(TOKEN_SUBPROTOCOL_PREFIX) ? `${TOKEN_SUBPROTOCOL_PREFIX}…` : socket.protocol);
      this.#lastError = `the server did not select the ${MCP_SUBPROTOCOL} subprotocol (it selected ${chosen}): it refused the token or does not speak MCP there`;
      try {
        socket.close(1000, "the mcp subprotocol is required");
      } catch {
        // already closing
      }
      return; // the close event rejects start()
    }
    this.#state = "open";
    this.#handlers = handlers;
    const opening = this.#opening;
    this.#opening = undefined;
    opening?.resolve();
  }

  #onMessage(event: SocketEvent): void {
    const handlers = this.#handlers;
    if (this.#state !== "open" || handlers === undefined) return;
    const data = event.data;
    if (typeof data !== "string") {
      this.#badFrame("a binary frame arrived; the daemon sends one JSON-RPC message per text frame");
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch (error) {
      this.#badFrame(`a text frame is not valid JSON: ${describe(error)}`, error);
      return;
    }
    if (!isMessage(message)) {
      this.#badFrame("a text frame holds JSON but not a JSON-RPC 2.0 message object");
      return;
    }
    callHandler(() => handlers.onMessage(message));
  }

  #onClose(event: SocketEvent): void {
    if (this.#state === "closed") return;
    const wasOpen = this.#state === "open";
    this.#finish();
    const code = typeof event.code === "number" ? event.code : 1006;
    const reason = typeof event.reason === "string" ? event.reason : "";
    const opening = this.#opening;
    this.#opening = undefined;
    if (!wasOpen) {
      opening?.reject(this.#closeRequested ? new TransportClosedError({ message: "the transport was closed before it opened" }) : this.#unavailable(code, reason));
      return;
    }
    const because = reason === "" ? "" : `: ${reason}`;
    const error = this.#closeRequested
      ? undefined
      : new TransportClosedError({
          message: `the WebSocket to ${this.#shownUrl} closed (code ${code}${because})${this.#lastError === undefined ? "" : `; ${this.#lastError}`}`,
          details: { closeCode: code, closeReason: reason },
        });
    const unsent = new TransportClosedError({ message: `the WebSocket to ${this.#shownUrl} closed before the message was written` });
    for (const settle of [...this.#pendingSends]) settle(unsent);
    const handlers = this.#handlers;
    this.#handlers = undefined;
    if (handlers !== undefined) callHandler(() => handlers.onClose(error));
  }

  /** Why the socket did not open, in words a person can act on. */
  #unavailable(code: number, reason: string): TransportUnavailableError {
    const said = this.#lastError ?? (reason === "" ? `it closed with code ${code}` : `it closed with code ${code}: ${reason}`);
    let fix: string;
    if (/\b(401|403)\b/.test(said)) {
      fix = "the server refused the token: pass the token the bridge prints in its startup line (a new one each time it starts)";
    } else if (/subprotocol/i.test(said)) {
      fix = `the server refused the ${MCP_SUBPROTOCOL} subprotocol or the token it carries: check that the URL is the Glass daemon's WebSocket endpoint and the token is the one from the bridge's startup line`;
    } else if (this.#lastError === undefined) {
      fix = "the browser gives no reason: check that the daemon's bridge is running, that the URL is right, and that the token is the one from its startup line";
    } else {
      fix = "check that the daemon's bridge is running and that the URL is right";
    }
    return new TransportUnavailableError({ message: `cannot open a WebSocket to ${this.#shownUrl}: ${said}; ${fix}`, details: { closeCode: code } });
  }

  #finish(): void {
    this.#state = "closed";
    this.#markGone();
  }

  #badFrame(message: string, cause?: unknown): void {
    const handlers = this.#handlers;
    const error = new BadFrameError({ message, phase: "dispatch", ...(cause === undefined ? {} : { cause }) });
    if (handlers?.onError !== undefined) callHandler(() => handlers.onError?.(error));
  }
}

/** The WebSocket class to use: the one given, the global one, or the `ws` package's (imported only then). */
async function resolveWebSocket(given: WebSocketConstructor | undefined): Promise<WebSocketConstructor> {
  if (given !== undefined) return given;
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global !== undefined) return global;
  const ws = await import("ws");
  return ws.default;
}

/** A socket of the `ws` package (an EventEmitter with `terminate`), whose `send` takes a write callback. */
function isWsPackageSocket(socket: Socket): boolean {
  return typeof socket.on === "function" && typeof socket.terminate === "function";
}

function describeErrorEvent(event: SocketEvent): string | undefined {
  if (event.error instanceof Error && event.error.message !== "") return redactUrl(event.error.message);
  return typeof event.message === "string" && event.message !== "" ? redactUrl(event.message) : undefined;
}

/** A JSON object with `jsonrpc: "2.0"`: the shape of every JSON-RPC message (the session checks the rest). */
function isMessage(value: unknown): value is JsonRpcMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

function checkMaxInFlight(value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new GlassError({
      code: GlassErrorCode.RequestInvalid,
      message: `maxInFlight must be a positive integer; got ${String(value)}`,
      retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
    });
  }
  return value;
}

/** Runs an owner's handler; an exception it throws is reported asynchronously, never to the socket. */
function callHandler(handler: () => void): void {
  try {
    handler();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** An error's message, with any credentials in URLs redacted. */
function describe(error: unknown): string {
  return redactUrl(error instanceof Error ? error.message : String(error));
}
