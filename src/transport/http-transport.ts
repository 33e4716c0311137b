import ky, { type KyInstance } from "ky";
import { redactUrl } from "./redact-url.js";
import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { GlassError } from "../errors/glass-error.js";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  JsonRpcErrorCode,
  type JsonRpcErrorObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../mcp/json-rpc.js";
import { isRetrySafe, operationFor } from "../operations/lease-requirement.js";
import { createSseParser } from "./sse-parser.js";
import type { GlassTransport, TransportHandlers } from "./transport.js";

/** Where and how an {@link httpTransport} reaches the daemon. */
export interface HttpTransportOptions {
  /** The daemon's MCP endpoint, e.g. `http://127.0.0.1:7341/mcp`. */
  url: string | URL;
  /** The bearer token (the bridge prints it in its startup line); sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The fetch to use (a test double, a proxying fetch); default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every request (the protocol's own headers take precedence). */
  headers?: Readonly<Record<string, string>>;
  /** Requests in flight at most; default 4 (browsers open at most 6 connections per origin). */
  maxInFlight?: number;
}

const SESSION_HEADER = "Mcp-Session-Id";
const PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
/** Methods that only read, so they may be sent again in a new session (as the client's rpcCall retries them). */
const READ_ONLY_METHODS = new Set(["ping", "tools/list", "prompts/list", "resources/list"]);
/** How long `close()` waits for the server to answer the DELETE that ends the session. */
const DELETE_TIMEOUT_MS = 2000;
/** RFC 6750 `b64token`: what a bearer token may contain. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * A transport that speaks MCP Streamable HTTP (MCP 2025-03-26 / 2025-06-18) to a Glass daemon's
 * HTTP bridge, with ky over `fetch`: browser-safe, and the same in Node, Deno and edge runtimes.
 *
 * Every message is POSTed to `url`; answers come back as JSON or as a Server-Sent Events stream
 * (which may carry the daemon's own requests before the answer) and reach `onMessage`. `send()`
 * resolves once the daemon has accepted the POST (its status arrived). After `initialize` the
 * `Mcp-Session-Id` the daemon assigned and the negotiated `MCP-Protocol-Version` go with every
 * request. When the session expires (HTTP 404) the transport re-initializes once, replaying the
 * client's `initialize`, and sends the failed message again only if that cannot repeat a side effect
 * (a notification, a read-only method or a retry-safe tool call); a mutation fails with a
 * TransportClosedError carrying `details: { sessionExpired: true }` and is never sent again. HTTP
 * 401/403 ends the transport with a TransportUnavailableError that says how to fix the token. No
 * request is retried by the transport otherwise, and no timeout is imposed: the client's deadline
 * governs. `close()` DELETEs the session and aborts what is in flight.
 *
 * @example
 * const glass = await Glass.connect(httpTransport({ url: "http://127.0.0.1:7341/mcp", token }));
 */
export function httpTransport(options: HttpTransportOptions): GlassTransport {
  return new HttpTransport(options);
}

/** An answer stream still open for a request: aborted when the client cancels that request. */
interface OpenStream {
  id: JsonRpcId;
  stop: AbortController;
}

class HttpTransport implements GlassTransport {
  readonly kind = "http";
  readonly maxInFlight: number;
  readonly #url: string;
  /** The URL as messages show it (credentials in it redacted). */
  readonly #shownUrl: string;
  readonly #token: string | undefined;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #http: KyInstance;
  /** Aborts every request in flight when the transport ends. */
  readonly #inFlight = new AbortController();
  /** Answer streams of requests, by `String(id)`. */
  readonly #streams = new Map<string, OpenStream>();
  #handlers: TransportHandlers | undefined;
  #state: "new" | "started" | "closed" = "new";
  #closing: Promise<void> | undefined;
  /** Whether any HTTP response arrived yet: a network failure before it means the daemon cannot be reached. */
  #reachedServer = false;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** The client's `initialize`, replayed when the session expires. */
  #initialize: JsonRpcRequest | undefined;
  /** The last session renewal, keyed by the session id that had expired. */
  #renewal: { expired: string; done: Promise<void> } | undefined;
  /** A renewal in progress: new messages wait for it rather than going out without a session. */
  #renewing: Promise<void> | undefined;

  constructor(options: HttpTransportOptions) {
    this.#url = String(options.url);
    this.#shownUrl = redactUrl(this.#url);
    if (options.token !== undefined && !BEARER_TOKEN.test(options.token)) {
      throw new GlassError({
        code: GlassErrorCode.RequestInvalid,
        message: "httpTransport: the token must be a non-empty bearer token (letters, digits and - . _ ~ + /, optionally ending in =); pass the token from the bridge's startup line as it is",
        retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
      });
    }
    this.#token = options.token;
    this.#headers = options.headers ?? {};
    this.maxInFlight = checkMaxInFlight(options.maxInFlight ?? 4);
    this.#http = ky.create({
      retry: 0, // the client decides what may be retried
      timeout: false, // the client's deadline governs
      throwHttpErrors: false,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.#state === "closed") return Promise.reject(new TransportClosedError({ message: "the transport was closed before it started" }));
    if (this.#state === "started") return Promise.reject(new TransportUnavailableError({ message: "start() was already called: a transport is started once" }));
    this.#handlers = handlers;
    this.#state = "started";
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === "closed") return Promise.reject(new TransportClosedError({ message: "the transport is closed; the message was not sent" }));
    if (this.#state === "new") return Promise.reject(new TransportClosedError({ message: `the HTTP transport to ${this.#shownUrl} is not started: call start() first` }));
    if (isJsonRpcRequest(message) && message.method === "initialize") this.#initialize = message;
    return this.#post(message, true);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** POSTs one message; `mayRenew` is false for the one retry after a renewal. */
  async #post(message: JsonRpcMessage, mayRenew: boolean): Promise<void> {
    if (this.#renewing !== undefined) await this.#renewing.catch(ignore);
    if (this.#state === "closed") throw new TransportClosedError({ message: "the transport is closed; the message was not sent" });
    const sentWith = this.#sessionId;
    const response = await this.#request("POST", message, this.#inFlight.signal);
    if (isInitialize(message)) this.#adoptSession(response);
    if (response.ok) {
      void this.#consume(response, message);
      if (isJsonRpcNotification(message) && message.method === "notifications/cancelled") this.#stopStream(message.params?.requestId);
      return;
    }
    if (response.status === 401 || response.status === 403) throw this.#end(await this.#refused(response));
    if (response.status === 404 && sentWith !== undefined) {
      await discardBody(response);
      if (!mayRenew) throw sessionExpired(message, this.#shownUrl, "the new session was gone again at once");
      await this.#renew(sentWith);
      if (!safeToRepeat(message)) throw sessionExpired(message, this.#shownUrl);
      return this.#post(message, false);
    }
    await this.#httpError(response, message);
  }

  /** Sends one HTTP request with the protocol's headers; rejects with a GlassError when no response comes. */
  async #request(method: "POST" | "DELETE", message: JsonRpcMessage | undefined, signal: AbortSignal): Promise<Response> {
    let body: string | undefined;
    if (message !== undefined) {
      try {
        body = JSON.stringify(message);
      } catch (error) {
        throw new GlassError({ code: GlassErrorCode.RequestInvalid, message: `the message cannot be encoded as JSON: ${describe(error)}`, cause: error });
      }
    }
    const headers = new Headers(this.#headers);
    if (this.#token !== undefined) headers.set("Authorization", `Bearer ${this.#token}`);
    if (method === "POST") {
      headers.set("Content-Type", "application/json");
      headers.set("Accept", "application/json, text/event-stream");
    }
    if (message === undefined || !isInitialize(message)) {
      if (this.#sessionId !== undefined) headers.set(SESSION_HEADER, this.#sessionId);
      if (this.#protocolVersion !== undefined) headers.set(PROTOCOL_VERSION_HEADER, this.#protocolVersion);
    }
    try {
      const response = await this.#http(this.#url, { method, headers, signal, ...(body === undefined ? {} : { body }) });
      this.#reachedServer = true;
      return response;
    } catch (error) {
      if (this.#state === "closed") throw new TransportClosedError({ message: "the transport was closed before the daemon answered", cause: error });
      if (!this.#reachedServer) {
        throw new TransportUnavailableError({
          message:
            `cannot reach the Glass daemon at ${this.#shownUrl}: ${describe(error)}. Check that the daemon's HTTP bridge is running and the URL is right ` +
            "(in a browser a CORS refusal looks the same: the bridge must allow this page's origin)",
          cause: error,
        });
      }
      throw new TransportClosedError({ message: `the HTTP request to ${this.#shownUrl} failed: ${describe(error)}`, cause: error });
    }
  }

  /** Reads the body of an accepted POST and delivers its messages; fails a request left unanswered. */
  async #consume(response: Response, sent: JsonRpcMessage): Promise<void> {
    if (!isJsonRpcRequest(sent)) {
      await discardBody(response); // 202 Accepted: notifications and responses get no answer
      return;
    }
    const stream: OpenStream = { id: sent.id, stop: new AbortController() };
    const key = String(sent.id);
    this.#streams.set(key, stream);
    let answered = false;
    let why = "the daemon sent no answer";
    try {
      for await (const message of this.#messagesOf(response, stream.stop.signal)) {
        if (isJsonRpcResponse(message) && message.id === sent.id) {
          answered = true;
          if (sent.method === "initialize") this.#adoptProtocolVersion(message);
        }
        this.#deliver(message);
      }
    } catch (error) {
      why = describe(error);
    } finally {
      if (this.#streams.get(key) === stream) this.#streams.delete(key);
    }
    if (answered || this.#state === "closed" || stream.stop.signal.aborted) return;
    this.#deliver(failure(sent.id, JsonRpcErrorCode.InternalError, `the HTTP answer from ${this.#shownUrl} ended before the daemon answered (${why}); the request may have been carried out`));
  }

  /** The JSON-RPC messages of a response body: a JSON message or batch, or an SSE stream of them. */
  async *#messagesOf(response: Response, stop: AbortSignal): AsyncGenerator<JsonRpcMessage> {
    const type = mediaType(response.headers.get("content-type"));
    if (response.body === null || response.status === 202 || response.status === 204) return;
    if (type === "application/json") {
      const text = await response.text();
      if (text.trim() === "") return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        this.#badFrame(`the daemon's JSON answer is not valid JSON: ${describe(error)}`, error);
        return;
      }
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        if (isMessage(item)) yield item;
        else this.#badFrame("the daemon's JSON answer holds something that is not a JSON-RPC 2.0 message");
      }
      return;
    }
    if (type !== "text/event-stream") {
      await discardBody(response);
      throw new Error(`the answer has the content type ${JSON.stringify(type)}, neither application/json nor text/event-stream`);
    }
    const reader = response.body.getReader();
    const onStop = (): void => void reader.cancel().catch(ignore);
    stop.addEventListener("abort", onStop, { once: true });
    const parser = createSseParser();
    let done = false;
    try {
      while (!done && !stop.aborted) {
        const chunk = await reader.read();
        done = chunk.done;
        for (const event of chunk.done ? parser.end() : parser.push(chunk.value)) {
          if (event.type !== "message" || event.data === "") continue; // priming events and other types carry no message
          let parsed: unknown;
          try {
            parsed = JSON.parse(event.data);
          } catch (error) {
            this.#badFrame(`an event of the daemon's SSE stream is not valid JSON: ${describe(error)}`, error);
            continue;
          }
          if (isMessage(parsed)) yield parsed;
          else this.#badFrame("an event of the daemon's SSE stream holds JSON but not a JSON-RPC 2.0 message");
        }
      }
    } finally {
      stop.removeEventListener("abort", onStop);
      if (!done) void reader.cancel().catch(ignore);
    }
  }

  /**
   * Starts a new session after `expired` expired, once however many messages found it expired:
   * replays the client's `initialize` (its answer is not delivered: the client already has one),
   * then sends `notifications/initialized`. If that fails, the transport ends.
   */
  #renew(expired: string): Promise<void> {
    if (this.#renewal?.expired === expired) return this.#renewal.done;
    if (this.#sessionId !== expired) return this.#renewing ?? Promise.resolve(); // already replaced
    const done = this.#reinitialize();
    this.#renewal = { expired, done };
    this.#renewing = done;
    const settled = (): void => {
      if (this.#renewing === done) this.#renewing = undefined;
    };
    done.then(settled, settled);
    return done;
  }

  async #reinitialize(): Promise<void> {
    this.#sessionId = undefined;
    this.#protocolVersion = undefined;
    const initialize = this.#initialize;
    try {
      if (initialize === undefined) throw new Error("the transport never saw the client's initialize, so it cannot replay it");
      const response = await this.#request("POST", initialize, this.#inFlight.signal);
      if (response.status === 401 || response.status === 403) throw await this.#refused(response);
      if (!response.ok) throw new Error(`initialize was answered with HTTP ${response.status}${await bodySnippet(response)}`);
      this.#adoptSession(response);
      let answer: JsonRpcResponse | undefined;
      for await (const message of this.#messagesOf(response, this.#inFlight.signal)) {
        if (isJsonRpcResponse(message) && message.id === initialize.id) {
          answer = message;
          break;
        }
        this.#deliver(message);
      }
      if (answer === undefined) throw new Error("the daemon did not answer initialize");
      if ("error" in answer) throw new Error(`the daemon refused initialize: ${answer.error.message} (JSON-RPC ${answer.error.code})`);
      this.#adoptProtocolVersion(answer);
      const initialized = await this.#request("POST", { jsonrpc: "2.0", method: "notifications/initialized" }, this.#inFlight.signal);
      if (initialized.status === 401 || initialized.status === 403) throw await this.#refused(initialized);
      if (!initialized.ok) throw new Error(`notifications/initialized was answered with HTTP ${initialized.status}${await bodySnippet(initialized)}`);
      await discardBody(initialized);
      // A new daemon session: what the client held in the old one (its mutation lease) is gone.
      this.#handlers?.onReset?.();
    } catch (error) {
      if (this.#state === "closed" && !(error instanceof TransportUnavailableError)) throw new TransportClosedError({ message: "the transport is closed; the message was not sent", cause: error });
      throw this.#end(
        error instanceof TransportUnavailableError
          ? error
          : new TransportClosedError({
              message: `the HTTP session with the Glass daemon at ${this.#shownUrl} expired and a new one could not be started: ${describe(error)}`,
              details: { sessionExpired: true },
              cause: error,
            }),
      );
    }
  }

  /** A non-2xx answer other than 401, 403 and an expired session. */
  async #httpError(response: Response, sent: JsonRpcMessage): Promise<void> {
    const text = await response.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const rpcError = jsonRpcErrorOf(parsed);
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      // The bridge is up but cannot serve: the daemon behind it is unreachable (502, 504) or the
      // bridge is at its client limit (503). Nothing reached the daemon.
      const said = rpcError !== undefined ? `: ${rpcError.message}` : snippet(text);
      throw new TransportUnavailableError({
        message:
          response.status === 503
            ? `the bridge at ${this.#shownUrl} is serving as many clients as it allows (HTTP 503)${said}; retry later or raise --max-clients`
            : `the bridge at ${this.#shownUrl} cannot reach the Glass daemon behind it (HTTP ${response.status})${said}; check that the daemon is running (glass daemon start) and the bridge's --socket or daemon command`,
        details: { status: response.status },
      });
    }
    if (rpcError !== undefined && isJsonRpcRequest(sent)) {
      // An HTTP server refusing the request itself (400, 406, 409, 415...) often says -32000; that is
      // not the daemon's "overloaded" (which arrives with 200), so it must not be retried as one.
      const refusedByHttp = rpcError.code === JsonRpcErrorCode.Overloaded && response.status >= 400 && response.status < 500 && response.status !== 429;
      const code = refusedByHttp ? JsonRpcErrorCode.InvalidRequest : rpcError.code;
      const data = refusedByHttp ? { httpStatus: response.status, jsonRpcCode: rpcError.code, ...(rpcError.data === undefined ? {} : { data: rpcError.data }) } : rpcError.data;
      this.#deliver(failure(sent.id, code, rpcError.message, data));
      return;
    }
    const said = rpcError !== undefined ? `: ${rpcError.message} (JSON-RPC ${rpcError.code})` : snippet(text);
    throw new GlassError({
      code: "transport.http",
      message: `the Glass daemon at ${this.#shownUrl} answered HTTP ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}${said}`,
      phase: "dispatch",
      retry: { classification: "unknown", recommendedOperation: "inspect_page" },
      details: { status: response.status },
    });
  }

  /** The error that ends the transport when the daemon answers 401 or 403. */
  async #refused(response: Response): Promise<TransportUnavailableError> {
    const said = await bodySnippet(response);
    const fix =
      response.status === 401
        ? `${this.#token === undefined ? "no token was sent" : "the token was refused"}. Pass the token the bridge prints in its startup line: httpTransport({ url, token }) (a new one each time the bridge starts)`
        : "the token or this page's origin was refused. Use the token from the bridge's startup line (a new one each time the bridge starts); from a browser, the bridge must also allow this page's origin";
    return new TransportUnavailableError({
      message: `the Glass daemon at ${this.#shownUrl} answered HTTP ${response.status}${said}: ${fix}`,
      retry: { classification: "notRetryable", recommendedOperation: "fix_token" },
      details: { status: response.status },
    });
  }

  #adoptSession(response: Response): void {
    const sessionId = response.headers.get(SESSION_HEADER);
    if (sessionId !== null && sessionId !== "") this.#sessionId = sessionId;
  }

  #adoptProtocolVersion(answer: JsonRpcResponse): void {
    if ("result" in answer && typeof answer.result.protocolVersion === "string") this.#protocolVersion = answer.result.protocolVersion;
  }

  /** After the client cancelled `requestId`: closes its answer stream (the daemon will not answer it) and fails it. */
  #stopStream(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const stream = this.#streams.get(String(requestId));
    if (stream === undefined) return;
    this.#streams.delete(String(requestId));
    stream.stop.abort();
    this.#deliver(failure(stream.id, JsonRpcErrorCode.RequestCancelled, "the request was cancelled (notifications/cancelled); its HTTP answer stream was closed"));
  }

  async #shutdown(): Promise<void> {
    if (this.#state !== "started") {
      this.#state = "closed";
      return;
    }
    const hadSession = this.#sessionId !== undefined;
    this.#state = "closed";
    this.#inFlight.abort();
    if (hadSession) {
      try {
        // 405: the server does not let clients end sessions; any other failure changes nothing now.
        const response = await this.#request("DELETE", undefined, AbortSignal.timeout(DELETE_TIMEOUT_MS));
        await discardBody(response);
      } catch {
        // the daemon is gone or slow: the session will expire on its own
      }
    }
    this.#notifyClose(undefined);
  }

  /** Ends the transport for a fatal reason (the daemon refused the token, or the session could not be renewed). */
  #end(error: GlassError): GlassError {
    if (this.#state === "closed") return error;
    this.#state = "closed";
    this.#inFlight.abort();
    this.#notifyClose(error);
    return error;
  }

  #notifyClose(error: GlassError | undefined): void {
    const handlers = this.#handlers;
    this.#handlers = undefined;
    if (handlers !== undefined) callHandler(() => handlers.onClose(error));
  }

  #deliver(message: JsonRpcMessage): void {
    const handlers = this.#handlers;
    if (handlers !== undefined) callHandler(() => handlers.onMessage(message));
  }

  #badFrame(message: string, cause?: unknown): void {
    const handlers = this.#handlers;
    const error = new BadFrameError({ message, phase: "dispatch", ...(cause === undefined ? {} : { cause }) });
    if (handlers?.onError !== undefined) callHandler(() => handlers.onError?.(error));
  }
}

/**
 * Whether a message may go out again in a new session without repeating a side effect: a
 * notification, a read-only method, or a tool call the catalog calls retry-safe.
 */
function safeToRepeat(message: JsonRpcMessage): boolean {
  if (isJsonRpcNotification(message)) return true;
  if (!isJsonRpcRequest(message)) return false; // an answer to a request of the old session
  if (READ_ONLY_METHODS.has(message.method)) return true;
  if (message.method !== "tools/call" || typeof message.params?.name !== "string") return false;
  return isRetrySafe(operationFor(message.params.name), message.params.arguments);
}

/** The failure of a message that found its session expired and may not be sent again. */
function sessionExpired(message: JsonRpcMessage, url: string, extra?: string): TransportClosedError {
  const what = isJsonRpcRequest(message)
    ? message.method === "tools/call" && typeof message.params?.name === "string"
      ? `the call of ${message.params.name}`
      : message.method
    : isJsonRpcNotification(message)
      ? message.method
      : "an answer to the daemon's request";
  const mutation = isJsonRpcRequest(message) && !safeToRepeat(message);
  return new TransportClosedError({
    message:
      `the HTTP session with the Glass daemon at ${url} had expired, so the daemon did not receive ${what}` +
      (extra === undefined ? "; a new session was started" : `; ${extra}`) +
      (mutation ? ", but a mutation is never sent twice automatically: it was NOT sent again. Observe the page before deciding to repeat it" : ""),
    phase: "preflight",
    retry: mutation ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" } : { classification: "safeToRetry", recommendedOperation: "retry" },
    details: { sessionExpired: true },
  });
}

function failure(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

function isInitialize(message: JsonRpcMessage): boolean {
  return isJsonRpcRequest(message) && message.method === "initialize";
}

/** A JSON object with `jsonrpc: "2.0"`: the shape of every JSON-RPC message (the session checks the rest). */
function isMessage(value: unknown): value is JsonRpcMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** The `error` member of a JSON-RPC error response, if `value` is one. */
function jsonRpcErrorOf(value: unknown): JsonRpcErrorObject | undefined {
  if (!isMessage(value) || !("error" in value)) return undefined;
  const error: unknown = value.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === "number" && typeof message === "string" ? (error as JsonRpcErrorObject) : undefined;
}

/** `text/event-stream` from `text/event-stream; charset=utf-8`. */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(ignore);
}

/** `": <what the body says>"` for error messages (a JSON-RPC error's message, or the start of the text), or `""`. */
async function bodySnippet(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return snippet(text);
  }
  const rpcError = jsonRpcErrorOf(parsed);
  return rpcError === undefined ? snippet(text) : snippet(rpcError.message);
}

function snippet(text: string): string {
  const words = text.replace(/\s+/g, " ").trim();
  if (words === "") return "";
  return `: ${words.length > 200 ? `${words.slice(0, 200)}…` : words}`;
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

/** Runs an owner's handler; an exception it throws is reported asynchronously, never to the transport. */
function callHandler(handler: () => void): void {
  try {
    handler();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** An error's message (and its cause's), with any credentials in URLs redacted. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return redactUrl(String(error));
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return redactUrl(cause === undefined || cause === error.message ? error.message : `${error.message} (${cause})`);
}

function ignore(): void {}
