import ky, { isHTTPError, isTimeoutError, type KyInstance, type Options as KyOptions } from "ky";
import type { NormalizedOptions, RetryOptions } from "ky";
import {
  DeadlineExceededError,
  OverloadedError,
  requestInvalid,
  TransportClosedError,
  TransportUnavailableError,
} from "../errors/error-classes.js";
import { SlotList } from "../collections/slot-list.js";
import { SlotTable } from "../collections/slot-table.js";
import { GlassError } from "../errors/glass-error.js";
import {
  isJsonRpcMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  JsonRpcErrorCode,
  jsonRpcFailure,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../mcp/json-rpc.js";
import { describeError, quoteUntrusted, redactUrl } from "../errors/redact.js";
import {
  checkDurationMs,
  checkMaxRetries,
  DEFAULT_MAX_RETRY_WAIT_MS,
  describeWait,
  mayMutate,
  mayRetry,
  parseRetryAfter,
  RETRY_STATUSES,
  retryWaitMs,
  safeToRepeat,
  toolOf,
} from "./http-retry.js";
import { createSseParser, SseTooLargeError, type SseEvent } from "./sse-parser.js";
import { ServerStream } from "./server-stream.js";
import { resumeSseStream, type ResumeAttempt, type ResumeFailure, type SseCursor } from "./sse-resume.js";
import { TransportLimits } from "./transport.js";
import type { GlassTransport, TransportHandlers } from "./transport.js";
import { sleepUnlessAborted } from "../client/retry.js";
import {
  callHandler,
  checkMaxInFlight,
  CLOSED_BEFORE_START,
  closed,
  encode,
  ignore,
  messagesIn,
  NOT_SENT,
  startedTwice,
  transportRedactor,
} from "./transport-util.js";

/** Where and how an {@link httpTransport} reaches the daemon. */
export interface HttpTransportOptions {
  /** The daemon's MCP endpoint, e.g. `http://127.0.0.1:7341/mcp`. */
  url: string | URL;
  /** The bearer token (the bridge prints it in its startup line); sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The fetch to use (a test double, a proxying fetch); default the global `fetch` (looked up at each request). */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every request (the protocol's own headers take precedence). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Requests in flight at most; default 4 (browsers open at most 6 connections per origin). The
   * client queues calls beyond it. It bounds the streams the transport holds open: one per call in
   * flight (its POST's, or the GET that resumes it), released once the call is answered or settles
   * — plus the server stream (`serverStream`) and the POSTs of notifications and answers waiting
   * for their status (at most `TransportLimits.maxUnansweredPosts`).
   */
  maxInFlight?: number;
  /**
   * The ky instance every request goes through (ky is the HTTP client the transport is built on), or
   * ky options to make one from (`{ hooks, headers, … }`, as `ky.create` takes them): pass your own
   * to see or change each request — its
   * `hooks.beforeRequest` sees every POST, every retry, each GET that resumes a call's SSE stream
   * or opens the server's stream (`serverStream`), and the DELETE that ends the session. The transport's settings go on top of it (`.extend`): the
   * URL, method, body, signal, the protocol's headers, `timeout`, `retry` and `throwHttpErrors` are
   * the transport's own; your headers and hooks stay, and run before the transport's: what a hook
   * sets on a request's headers is sent, and a Request a hook returns is sent as it is. With `fetch`
   * given too, that fetch is used. Default: ky's own instance, which calls the global `fetch` at
   * each request (so MSW and other interceptors see it).
   */
  ky?: KyInstance | KyOptions;
  /**
   * The longest wait, in milliseconds, for the HTTP status of a POST that cannot change the page (a
   * notification, `initialize`, a read); past it the message fails with a DeadlineExceededError
   * (`deadlineExceeded`). Default: none — the client's deadline governs. A mutation is never cut
   * off by the transport: whether the daemon received it could not be told, so only the client's
   * deadline (which says `mutationPossible`) ends it.
   */
  requestTimeoutMs?: number;
  /**
   * How many times the transport itself POSTs a message again after HTTP 408, 429, 502, 503 or 504
   * (the server did not serve it); default 2, `0` for never. These are the messages no caller
   * retries: a notification, and `initialize` after 408, 429 or 503. Every other request is the
   * client's to retry (its `retry` policy, read-only calls only, never a mutation): the refusal fails the send at once with `details.status` and, when the
   * answer had a valid `Retry-After`, `details.retryAfterMs`, which the client's retry waits for —
   * so one request is never retried by both. The wait before each retry of the transport's is the
   * answer's `Retry-After` (delay-seconds or an HTTP-date, RFC 9110; any other value is ignored),
   * else 300 ms, then 600 ms …
   */
  maxRetries?: number;
  /**
   * The longest wait before a retry of the transport's own (see `maxRetries`), in milliseconds;
   * default 5000. A `Retry-After` asking for more is not waited for: the refusal is the message's
   * outcome at once. A wait also ends when the transport closes: the message is not sent again. (A
   * call's retry is bounded by its deadline instead: a `Retry-After` past it fails the call at once.)
   */
  maxRetryWaitMs?: number;
  /**
   * Whether to listen for the server's messages outside calls: once the session is initialized, GET
   * `url` with `Accept: text/event-stream` and keep that stream open (MCP 2025-11-25, Streamable
   * HTTP, "Listening for Messages from the Server"). Its requests are answered by POST like those
   * that arrive during a call, its notifications reach their handlers. Turn it on for an MCP server
   * or gateway that pushes requests or notifications outside calls; default `false`, because a
   * Glass daemon sends its requests within calls and its bridge offers no such stream (in a browser
   * the extra GET would cost a CORS preflight for nothing).
   *
   * One stream at a time, through ky like every request. A server that answers the GET with 405,
   * or with anything but an SSE stream, is not asked again in that session; 401 and 403 end the
   * transport as for a POST. A stream that ends or drops is reconnected with the rules of a call's
   * stream (after its `retry` time, with `Last-Event-ID`) until three reconnections in a row bring
   * no new event; a GET answered 404 (the session expired) ends it until the session is renewed,
   * and after a renewal a new stream is opened on the new session. `close()` aborts it. When the
   * stream ends for the session (refused, given up, an event past the bound), the client's
   * `logger` gets a `connection` event that says why. Like a call's open stream, it keeps a Node process alive until `close()`.
   */
  serverStream?: boolean;
}

const SESSION_HEADER = "mcp-session-id";
const VERSION_HEADER = "mcp-protocol-version";
/** How long `close()` waits for the server to answer the DELETE that ends the session. */
const DELETE_TIMEOUT_MS = 2000;
/** Where a request's {@link Outgoing} travels through ky: its `context` option, seen by hooks and by `HTTPError.options`. */
const OUTGOING = "glassOutgoing";
const utf8 = new TextEncoder();
/** RFC 6750 `b64token`: what a bearer token may contain. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * A transport that speaks MCP Streamable HTTP (MCP 2025-03-26 to 2025-11-25) to a Glass daemon's
 * HTTP bridge over `fetch`: browser-safe, and the same in Node, Deno and edge runtimes.
 *
 * Every message is POSTed to `url`; answers come back as JSON or as a Server-Sent Events stream
 * (which may carry the daemon's own requests before the answer) and reach `onMessage`. `send()`
 * resolves once the daemon has accepted the POST (its status arrived). After `initialize` the
 * `Mcp-Session-Id` the daemon assigned and the negotiated `MCP-Protocol-Version` go with every
 * request. When the session expires (HTTP 404) the transport re-initializes once, replaying the
 * client's `initialize`, and sends the failed message again only if that cannot repeat a side effect
 * (a notification, a read-only method or a retry-safe tool call); a mutation fails with a
 * TransportClosedError carrying `details: { sessionExpired: true }` and is never sent again. HTTP
 * 401/403 ends the transport with a TransportUnavailableError that says how to fix the token; 502,
 * 503 and 504 (the bridge cannot serve) reject with a TransportUnavailableError, 429 with an
 * OverloadedError, each with `details.status` and the `Retry-After` the answer gave
 * (`details.retryAfterMs`). A read refused so is retried by the client, which waits at least that
 * long; a notification and `initialize` are POSTed again by the transport after 408, 429, 502, 503 or 504, honouring
 * `Retry-After` within a bound (`maxRetries`, `maxRetryWaitMs`); a mutation never is. No timeout is
 * imposed unless `requestTimeoutMs` is given: the client's deadline governs. `close()` DELETEs the
 * session (waiting 2 s at most) and aborts what is in flight.
 *
 * A call's SSE stream that ends or drops before the answer, after the server gave an event id, is
 * resumed (MCP 2025-11-25, "Resumability and Redelivery"): after the stream's `retry` time (1 s
 * when it sent none; at least 100 ms, at most 30 s) the transport GETs `url` with `Last-Event-ID`
 * and reads the answer there, and again while streams end without it. The request is never POSTed
 * again. It gives up after three reconnections in a row that bring no new event, or when the GET
 * is answered 404 (the session expired) or 405 (the server offers no stream to resume): the call
 * then fails as one whose answer was lost (the request may have been carried out). The
 * resumption ends with its call: once the client cancels it (its deadline passed, or the caller
 * aborted), no GET is sent for it and an open one is aborted, whatever the server does with the
 * cancel; a cancel before the POST's status aborts the POST.
 *
 * A call's SSE stream is read until its answer, then released (its body cancelled, its fetch
 * aborted) even when the server keeps it open: what comes on it after the answer is not read. So
 * the transport holds at most one stream per call in flight (`maxInFlight`), plus the server
 * stream, plus the POSTs of notifications and answers waiting for their status (at most 64).
 *
 * With `serverStream: true` the transport also listens for the server's messages outside calls, on
 * the standalone GET stream it opens once the session is initialized (see the option).
 *
 * Requests go through ky (pass your own instance as `ky` to add hooks or headers); the global
 * `fetch` is looked up at each request.
 *
 * Every answer is read as it streams and counted: a JSON body or an SSE event (or an SSE line that
 * never ends) past 32 MiB, the protocol's bound per message, is not read further — its body is
 * cancelled and the request is answered -32001 (the client's `response.tooLarge`), while the
 * session goes on. Of an error page (a 4xx or 5xx body) at most 64 KiB are read, to quote it.
 *
 * @example
 * ```ts
 * import { Glass, httpTransport } from "glass-sdk";
 *
 * declare const token: string; // the bridge's token
 * const glass = await Glass.connect(httpTransport({ url: "http://127.0.0.1:8787/mcp", token })); // the bridge's default address
 * ```
 */
export function httpTransport(options: HttpTransportOptions): GlassTransport {
  return new HttpTransport(options);
}

/**
 * One message on its way through ky (the DELETE that ends the session has no `message`): what the
 * transport's own hook and its retry decision need to know of it.
 */
interface Outgoing {
  message: JsonRpcMessage | undefined;
  /** The message as UTF-8, encoded once. */
  body: Uint8Array<ArrayBuffer> | undefined;
  stop: AbortController | undefined;
  /** `String(id)` of a request: its key in the table of requests waiting to be POSTed again. */
  key: string | undefined;
  /**
   * Whether the transport's last `beforeRequest` hook fetches it itself, with `body` (see
   * {@link HttpTransport.#sendDirect}): when ky has no timeout to race and no hook replaced the
   * Request ky built. Once ky fetched the request on its own, it stays with ky.
   */
  direct: boolean;
  /** The Request the hook saw first: the one ky built from the options (a retry must see the same). */
  built?: Request;
}

/** The answer of a request being read: a cancel aborts its fetch and cancels its stream. */
interface Answer {
  id: JsonRpcId;
  stop: AbortController;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
}

class HttpTransport implements GlassTransport {
  readonly kind = "http";
  readonly maxInFlight: number;
  readonly #url: string;
  /** The URL as messages show it (credentials in it redacted). */
  readonly #shownUrl: string;
  /** The caller's ky instance (or ky's own) with the transport's constant settings on top. */
  readonly #ky: KyInstance;
  /** The `fetch` option, else the ky instance's own `fetch`; neither: the global `fetch` at each request. */
  #fetch: KyOptions["fetch"];
  readonly #requestTimeoutMs: number | undefined;
  readonly #maxRetries: number;
  readonly #maxRetryWaitMs: number;
  /** The caller's headers (lower-cased names) and `authorization`: the start of every request's headers. */
  readonly #headers: Record<string, string> = {};
  readonly #hasToken: boolean;
  /**
   * One controller per POST in flight (until its answer is read), aborted when the transport ends.
   * Not one shared signal: fetch implementations keep a listener on it per request until GC.
   */
  readonly #inFlight = new SlotList<AbortController>();
  /** Answers being read, by `String(id)`: a cancel closes the request's stream. */
  readonly #answers = new SlotTable<string, Answer>();
  /** Requests waiting to be POSTed again after a refusal, by `String(id)`: a cancel ends the wait. */
  readonly #waiting = new SlotTable<string, AbortController>();
  #handlers: TransportHandlers | undefined;
  #state: "new" | "started" | "closed" = "new";
  #closing: Promise<void> | undefined;
  /** The bodies of POSTs whose status has not come, in bytes (see {@link bufferedBytes}). */
  #unansweredBodyBytes = 0;
  readonly #redact: (text: string) => string;
  /** Notifications and answers POSTed whose status has not come (at most TransportLimits.maxUnansweredPosts). */
  #unansweredPosts = 0;
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
  /** The standalone GET stream, when the `serverStream` option asks for it. */
  readonly #serverStream: ServerStream | undefined;

  constructor(options: HttpTransportOptions) {
    const { token } = options;
    this.#url = String(options.url);
    this.#shownUrl = redactUrl(this.#url);
    if (token !== undefined && !BEARER_TOKEN.test(token)) {
      throw requestInvalid(
        "httpTransport: the token is not a bearer token (letters, digits, - . _ ~ + /, optionally ending in =); pass the bridge's token as it printed it",
      );
    }
    new Headers(options.headers).forEach((value, name) => (this.#headers[name] = value));
    if (token !== undefined) this.#headers.authorization = `Bearer ${token}`;
    this.#hasToken = token !== undefined;
    this.#redact = transportRedactor(this.#url, token);
    this.maxInFlight = checkMaxInFlight(options.maxInFlight);
    this.#requestTimeoutMs = checkDurationMs("requestTimeoutMs", options.requestTimeoutMs, undefined);
    this.#maxRetries = checkMaxRetries(options.maxRetries);
    this.#maxRetryWaitMs = checkDurationMs("maxRetryWaitMs", options.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS)!;
    if (options.serverStream !== undefined && typeof options.serverStream !== "boolean")
      throw requestInvalid("httpTransport: serverStream must be true or false");
    this.#serverStream =
      options.serverStream === true
        ? new ServerStream(
            (lastEventId, cursor, stop) => this.#listen(lastEventId, cursor, stop),
            (why) =>
              this.#handlers?.onNotice?.(
                `the server's standalone SSE stream (serverStream) ended for this session, ${why}; what the server sends outside a call will not arrive until a new session`,
              ),
          )
        : undefined;
    const base = kyInstanceOf(options.ky);
    // Every non-2xx comes back as ky's HTTPError (which carries the response): that is how ky
    // retries, and #request hands its response to the mapping to GlassErrors. The transport's hook
    // goes after the caller's, so theirs see (and may change) every request first.
    this.#ky = base.extend((defaults) => {
      this.#fetch = options.fetch ?? defaults.fetch;
      return {
        prefixUrl: "",
        throwHttpErrors: true,
        retry: this.#retry(),
        hooks: { beforeRequest: [(request, kyOptions) => this.#sendDirect(request, kyOptions)] },
      };
    });
  }

  /**
   * The bytes given to `send` that the daemon has not taken yet: the bodies of POSTs whose status
   * has not come. Answers being read are not counted (each is bounded by the protocol's 32 MiB per
   * message on its own).
   */
  get bufferedBytes(): number {
    return this.#unansweredBodyBytes;
  }

  /** `text` with the bearer token and the URL's credentials (password, `?token=` …) replaced by `[redacted]`. */
  redact(text: string): string {
    return this.#redact(text);
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.#state !== "new") {
      return Promise.reject(this.#state === "closed" ? closed(CLOSED_BEFORE_START) : startedTwice());
    }
    this.#handlers = handlers;
    this.#state = "started";
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#state !== "started")
      return Promise.reject(
        closed(
          this.#state === "new"
            ? `the HTTP transport to ${this.#shownUrl} is not started: call start() first`
            : NOT_SENT,
        ),
      );
    if (isInitialize(message)) this.#initialize = message;
    if (isJsonRpcNotification(message) && message.method === "notifications/cancelled") {
      // The call is over for the client (its deadline passed, or the caller aborted): whatever the
      // server does with the cancel (refuses it, ignores it, never answers its POST), nothing of the
      // call goes on — no retry, no resumption GET, no stream or connection held for it.
      this.#stopWaiting(message.params?.requestId);
      this.#stopAnswer(message.params?.requestId);
    }
    return this.#post(message, true);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** POSTs one message; `mayRenew` is false for the one retry after a renewal. */
  async #post(message: JsonRpcMessage, mayRenew: boolean): Promise<void> {
    if (this.#renewing !== undefined) await this.#renewing.catch(ignore);
    if (this.#state === "closed") throw closed(NOT_SENT);
    const sentWith = this.#sessionId;
    const bounded = !isJsonRpcRequest(message);
    if (bounded && this.#unansweredPosts >= TransportLimits.maxUnansweredPosts) throw this.#notAnswering();
    if (bounded) this.#unansweredPosts++;
    const stop = this.#track();
    // A request's answer is awaited from the POST on: a cancel aborts its POST, its stream or its resumption.
    const answer: Answer | undefined = isJsonRpcRequest(message) ? { id: message.id, stop } : undefined;
    if (answer !== undefined) this.#answers.set(String(answer.id), answer);
    const response = await this.#request(message, stop)
      .catch((error: unknown) => {
        this.#inFlight.delete(stop);
        this.#forgetAnswer(answer);
        throw error;
      })
      .finally(() => {
        if (bounded) this.#unansweredPosts--;
      });
    const { status } = response;
    if (isInitialize(message)) this.#adoptSession(response);
    if (response.ok) {
      void this.#consume(response, message, stop, answer);
      if (isInitialized(message)) this.#serverStream?.open();
      return;
    }
    this.#inFlight.delete(stop);
    try {
      if (status === 401 || status === 403) throw this.#end(await this.#refused(response));
      if (status !== 404 || sentWith === undefined) return await this.#httpError(response, message);
      await discard(response);
      if (!mayRenew) throw sessionExpired(message, this.#shownUrl, "the new session was gone again at once");
      await this.#renew(sentWith);
      if (!safeToRepeat(message)) throw sessionExpired(message, this.#shownUrl);
      // Cancelled while the session was renewed: its call is over (its failure was delivered), so it is not POSTed again.
      if (stop.signal.aborted) return;
    } finally {
      this.#forgetAnswer(answer);
    }
    return this.#post(message, false);
  }

  /**
   * One request through ky with the protocol's headers: a POST of `message`, POSTed again after a
   * refusal when {@link mayRetry} allows; without a message, the GET that resumes an SSE stream
   * after the event `resumeFrom` (`""`: the GET that opens the server's standalone stream), or else
   * the DELETE that ends the session. Resolves with the last
   * response whatever its status (ky's HTTPError gives it up), rejects with a GlassError when none
   * comes.
   */
  async #request(
    message: JsonRpcMessage | undefined,
    stop: AbortController | undefined,
    resumeFrom?: string,
  ): Promise<Response> {
    const headers = { ...this.#headers };
    // The body goes as UTF-8 bytes, encoded here once: handed a string, fetch converts it to
    // well-formed UTF-16 (a pass over all of it; JSON.stringify's output already is) and then
    // encodes it, and its length in bytes would need one more pass.
    const body = message === undefined ? undefined : utf8.encode(encode(message));
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      headers.accept = "application/json, text/event-stream";
    } else if (resumeFrom !== undefined) {
      headers.accept = "text/event-stream";
      if (resumeFrom !== "") headers["last-event-id"] = resumeFrom;
    }
    if (message === undefined || !isInitialize(message)) {
      if (this.#sessionId !== undefined) headers[SESSION_HEADER] = this.#sessionId;
      if (this.#protocolVersion !== undefined) headers[VERSION_HEADER] = this.#protocolVersion;
    }
    const bytes = body === undefined ? 0 : body.byteLength;
    this.#unansweredBodyBytes += bytes;
    const key = message !== undefined && isJsonRpcRequest(message) ? String(message.id) : undefined;
    // A resuming GET has no timeout of its own: like a mutation's answer, only the call's deadline ends it.
    const timeout =
      resumeFrom !== undefined
        ? false
        : message === undefined
          ? DELETE_TIMEOUT_MS
          : mayMutate(message)
            ? false
            : (this.#requestTimeoutMs ?? false);
    const outgoing: Outgoing = {
      message,
      body,
      stop,
      key,
      direct: body !== undefined && stop !== undefined && timeout === false,
    };
    // No `signal` for ky: a signal of its own would make ky join it with its timeout's (one
    // AbortSignal.any per request); `stop` reaches the fetch here and the retry's wait in #retry.
    const options: KyOptions = {
      method: body !== undefined ? "POST" : resumeFrom !== undefined ? "GET" : "DELETE",
      headers,
      ...(body === undefined ? {} : { body }),
      context: { [OUTGOING]: outgoing },
      fetch: (input, init) => {
        // ky fetches the request itself (its timeout runs, or a hook replaced the Request).
        outgoing.direct = false;
        this.#attemptStarts(outgoing);
        const signal =
          stop === undefined || !(input instanceof Request) ? undefined : AbortSignal.any([input.signal, stop.signal]);
        return this.#fetchOf()(input, signal === undefined ? init : { ...init, signal });
      },
      timeout,
    };
    try {
      const response = await this.#ky(this.#url, options);
      this.#reachedServer = true;
      return response;
    } catch (error) {
      if (isHTTPError(error)) {
        this.#reachedServer = true;
        return error.response;
      }
      if (this.#state === "closed")
        throw new TransportClosedError({
          message: "the transport was closed before the daemon answered",
          cause: error,
        });
      if (error instanceof CancelledWhileWaiting)
        throw new TransportClosedError({ message: error.message, phase: "preflight", cause: error });
      if (isTimeoutError(error) && message !== undefined) throw this.#timedOut(message, error);
      if (this.#reachedServer) {
        // The body may have reached the daemon before the connection failed: a mutation may have run.
        const mayHaveRun = message !== undefined && mayMutate(message) && !neverConnected(error);
        throw new TransportClosedError({
          message: `the HTTP request to ${this.#shownUrl} failed: ${describeError(error)}`,
          ...(mayHaveRun ? { mutationPossible: true, phase: "dispatch" as const } : {}),
          cause: error,
        });
      }
      throw new TransportUnavailableError({
        message: `cannot reach the Glass daemon at ${this.#shownUrl}: ${describeError(error)}. Check that its HTTP bridge runs at this URL (in a browser, a CORS refusal looks the same: the bridge must allow this page's origin)`,
        cause: error,
      });
    } finally {
      this.#unansweredBodyBytes -= bytes;
      this.#attemptStarts(outgoing);
    }
  }

  /** The `fetch` option, else the ky instance's own `fetch`, else the global `fetch` (looked up now, for interceptors). */
  #fetchOf(): typeof globalThis.fetch {
    return this.#fetch ?? globalThis.fetch;
  }

  /** An attempt of `outgoing` starts: a wait before it is over, so a cancel no longer stops it there. */
  #attemptStarts({ key, stop }: Outgoing): void {
    if (key !== undefined && this.#waiting.get(key) === stop) this.#waiting.delete(key);
  }

  /**
   * The transport's `beforeRequest` hook, after the caller's: fetches the request ky built with the
   * bytes encoded in #request, and hands ky the response. Left to ky, every attempt would clone the
   * Request (teeing its body stream, to keep a copy for a retry) and fetch would build a third
   * Request around the body of the one it was given: most of the CPU time of a small call. What
   * the caller's hooks did to the Request (its headers) goes with it, and so do the ky instance's
   * other fetch options (`credentials`, `dispatcher` …). ky still retries, runs the other hooks and
   * throws HTTPError; it fetches on its own when it has a timeout to race (`requestTimeoutMs`,
   * the DELETE) or a hook replaced the Request (its body may differ).
   */
  #sendDirect(request: Request, kyOptions: NormalizedOptions): Promise<Response> | undefined {
    const outgoing = kyOptions.context[OUTGOING] as Outgoing | undefined;
    if (outgoing === undefined) return undefined;
    outgoing.built ??= request;
    if (!outgoing.direct || request !== outgoing.built) return undefined;
    this.#attemptStarts(outgoing);
    return this.#fetchOf()(request.url, {
      ...kyOptions,
      method: request.method,
      headers: request.headers,
      body: outgoing.body!,
      signal: outgoing.stop!.signal,
    });
  }

  /**
   * ky's retry, decided here and nowhere else: POST (ky retries no POST by itself, nor the DELETE)
   * after a status {@link mayRetry} allows for the message (never a request but `initialize`: the
   * client retries those), at most `maxRetries` times, after the answer's `Retry-After` — not at
   * all when that asks for more than `maxRetryWaitMs`. The wait is
   * made here (ky's own delay is 0), so a cancel of the request ends it (see {@link #stopWaiting})
   * with the reason its controller was aborted with; so does `close()`.
   */
  #retry(): RetryOptions {
    return {
      limit: this.#maxRetries,
      methods: ["post"],
      statusCodes: [...RETRY_STATUSES],
      afterStatusCodes: [],
      retryOnTimeout: false,
      jitter: undefined,
      backoffLimit: Number.POSITIVE_INFINITY,
      shouldRetry: async ({ error, retryCount }) => {
        if (!isHTTPError(error) || this.#state !== "started") return false;
        const outgoing = error.options.context[OUTGOING] as Outgoing | undefined;
        const { message, stop, key } = outgoing ?? {};
        if (message === undefined || stop === undefined || !mayRetry(message, error.response.status)) return false;
        const waitMs = retryWaitMs(error.response.headers.get("retry-after"), retryCount);
        if (waitMs > this.#maxRetryWaitMs) return false;
        void discard(error.response); // not read: the retry's answer is
        if (key !== undefined) this.#waiting.set(key, stop);
        await sleepUnlessAborted(waitMs, stop.signal).catch(() => {
          throw stop.signal.reason;
        });
        return true;
      },
      delay: () => 0,
    };
  }

  /** The error of a message whose status did not come within `requestTimeoutMs` (ky's TimeoutError). */
  #timedOut(message: JsonRpcMessage, cause: unknown): DeadlineExceededError {
    const what = isJsonRpcRequest(message)
      ? callOf(message)
      : "method" in message
        ? message.method
        : "an answer to the daemon's request";
    return new DeadlineExceededError({
      message: `no answer within the deadline: the HTTP status of ${what} did not come from ${this.#shownUrl} within requestTimeoutMs (${this.#requestTimeoutMs} ms)`,
      retry: { classification: "safeImmediate", recommendedOperation: "retry" },
      details: { requestTimeoutMs: this.#requestTimeoutMs },
      cause,
    });
  }

  /**
   * Reads the answer to an accepted POST and delivers its messages; an SSE stream that ends (or
   * drops) before the answer after giving an event id is resumed with GET (see {@link #resume}).
   * Fails a request left unanswered.
   */
  async #consume(
    response: Response,
    sent: JsonRpcMessage,
    stop: AbortController,
    answer: Answer | undefined,
  ): Promise<void> {
    if (!isJsonRpcRequest(sent) || answer === undefined)
      return discard(response).finally(() => this.#inFlight.delete(stop)); // 202 Accepted: notifications and responses get no answer
    const cursor: SseCursor = { lastEventId: "", retryMs: undefined };
    let answered = false;
    const take = (message: JsonRpcMessage): boolean => {
      if (isJsonRpcResponse(message) && message.id === sent.id) {
        answered = true;
        if (sent.method === "initialize") this.#adoptProtocolVersion(message);
      }
      this.#deliver(message);
      return answered;
    };
    let why = "the daemon sent no answer";
    let resumption: ResumeFailure | undefined;
    let tooLarge: AnswerTooLarge | undefined;
    try {
      // The POST's stream is read until the answer: then it is released (its body cancelled, its
      // fetch aborted) rather than held until the server ends it, so a server that never ends its
      // streams holds no connection per answered call.
      await this.#read(response, take, answer, cursor).catch((error: unknown) => {
        if (error instanceof AnswerTooLarge || cursor.lastEventId === "") throw error;
        why = describeError(error);
      });
      if (answered) stop.abort();
      if (!answered && cursor.lastEventId !== "" && !stop.signal.aborted && this.#state === "started")
        resumption = await this.#resume(answer, cursor, take, () => answered);
    } catch (error) {
      if (error instanceof AnswerTooLarge) tooLarge = error;
      why = describeError(error);
    }
    this.#inFlight.delete(stop);
    this.#forgetAnswer(answer);
    if (answered || stop.signal.aborted || this.#state === "closed") return;
    if (tooLarge !== undefined) {
      const message = `the HTTP answer to ${callOf(sent)} from ${this.#shownUrl} is over the ${tooLarge.maxBytes}-byte limit per message (${tooLarge.said}); the transport stopped reading it and closed its stream`;
      this.#deliver(
        jsonRpcFailure(sent.id, JsonRpcErrorCode.ResponseTooLarge, message, { maxBytes: tooLarge.maxBytes }),
      );
      return;
    }
    const message = `the HTTP answer from ${this.#shownUrl} ended before the daemon answered (${resumption?.why ?? why}); the request may have been carried out`;
    this.#deliver(jsonRpcFailure(sent.id, JsonRpcErrorCode.InternalError, message, resumption?.details));
  }

  /**
   * Resumes the SSE stream of the request `answer` waits for, which ended without the answer after
   * the event `cursor.lastEventId` (MCP 2025-11-25, Streamable HTTP, "Resumability and
   * Redelivery"): waits the stream's `retry` time, GETs the endpoint with `Last-Event-ID` and reads
   * what comes, until the answer (which `take` says) — again while streams end without it, within
   * the bounds of {@link resumeSseStream}. The request is never POSTed again. A cancel of the call
   * or the transport's close aborts the wait or the GET. 401 and 403 end the transport; 404 (the
   * session expired) and 405 (the server offers no GET stream) end the resumption. Resolves why it
   * gave up, or `undefined` (answered or stopped).
   */
  #resume(
    answer: Answer,
    cursor: SseCursor,
    take: (message: JsonRpcMessage) => boolean,
    answered: () => boolean,
  ): Promise<ResumeFailure | undefined> {
    const { stop } = answer;
    return resumeSseStream(cursor, stop.signal, (lastEventId) =>
      this.#getStream(lastEventId, cursor, stop, take, answer, answered),
    );
  }

  /**
   * One GET of the server's standalone stream (the `serverStream` option; see ServerStream): its
   * messages are delivered as those of a call's stream are.
   */
  #listen(lastEventId: string, cursor: SseCursor, stop: AbortController): Promise<ResumeAttempt> {
    if (this.#state !== "started") return Promise.resolve({ outcome: "stopped" });
    return this.#getStream(lastEventId, cursor, stop, (message) => void this.#deliver(message));
  }

  /**
   * GETs `url` for an SSE stream (after the event `lastEventId`, when not `""`) and reads it with
   * `take` until it ends, or until `answered` says the awaited answer came. 401 and 403 end the
   * transport; a 408, 429, 502, 503 or 504 or a failed GET is `transient`; another status or an
   * answer that is not an SSE stream is `final`. Throws AnswerTooLarge for an event past the bound.
   */
  async #getStream(
    lastEventId: string,
    cursor: SseCursor,
    stop: AbortController,
    take: (message: JsonRpcMessage) => unknown,
    answer?: Answer,
    answered: () => boolean = () => false,
  ): Promise<ResumeAttempt> {
    const live = (): boolean => !stop.signal.aborted && this.#state === "started";
    let response: Response;
    try {
      response = await this.#request(undefined, stop, lastEventId);
    } catch (error) {
      return live() ? { outcome: "transient", why: `the GET failed: ${describeError(error)}` } : { outcome: "stopped" };
    }
    if (!live()) {
      await discard(response);
      return { outcome: "stopped" };
    }
    const { status } = response;
    if (status === 401 || status === 403) {
      this.#end(await this.#refused(response));
      return { outcome: "stopped" };
    }
    if (!response.ok) {
      const meaning =
        status === 404
          ? " (the session has expired, and the answer with it)"
          : status === 405
            ? " (the server offers no stream to resume)"
            : "";
      const said = `the GET was answered HTTP ${status}${meaning}${snippet(await errorBody(response), this.#redact)}`;
      return RETRY_STATUSES.has(status) ? { outcome: "transient", why: said } : { outcome: "final", why: said, status };
    }
    if (contentTypeOf(response) !== "text/event-stream") {
      await discard(response);
      return {
        outcome: "final",
        why: `the GET was answered with content type ${JSON.stringify(contentTypeOf(response))}, not an SSE stream`,
        status,
      };
    }
    // Read until the stream ends, or until the answer awaited: the server may keep it open for more.
    const dropped = await this.#read(response, take, answer, cursor).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof AnswerTooLarge) throw error;
        return error;
      },
    );
    if (answered()) return { outcome: "answered" };
    if (!live()) return { outcome: "stopped" };
    return {
      outcome: "read",
      why:
        dropped === undefined
          ? "the GET's stream ended without the answer"
          : `the GET's stream failed: ${describeError(dropped)}`,
    };
  }

  /**
   * Passes the JSON-RPC messages of a response body — a JSON message or batch, or an SSE stream of
   * them — to `take`, until it returns something truthy. Throws AnswerTooLarge (after cancelling
   * the body) for a body or an event past the bound.
   */
  async #read(
    response: Response,
    take: (message: JsonRpcMessage) => unknown,
    answer?: Answer,
    cursor?: SseCursor,
  ): Promise<void> {
    const { body, status } = response;
    if (body === null || status === 202 || status === 204) return;
    const type = contentTypeOf(response);
    if (type === "application/json") {
      const text = await readText(response, TransportLimits.maxMessageBytes, "fail", answer);
      if (text.trim() !== "")
        for (const message of messagesIn(text, "the daemon's JSON answer", this.#handlers, true))
          if (take(message)) return;
      return;
    }
    if (type !== "text/event-stream") {
      await discard(response);
      throw new Error(`its content type ${JSON.stringify(type)} is neither application/json nor text/event-stream`);
    }
    const reader = body.getReader();
    if (answer !== undefined) answer.reader = reader;
    const parser = createSseParser({ maxEventBytes: TransportLimits.maxMessageBytes });
    let done = false;
    try {
      while (!done) {
        const chunk = await reader.read();
        done = chunk.done;
        let events: SseEvent[];
        let tooLarge: SseTooLargeError | undefined;
        try {
          events = chunk.done ? parser.end() : parser.push(chunk.value);
        } catch (error) {
          if (!(error instanceof SseTooLargeError)) throw error;
          [events, tooLarge] = [error.completed, error];
        }
        if (cursor !== undefined) {
          // Where the stream got to, for a resumption: its last event id and `retry`, kept across streams.
          if (parser.lastEventId !== "") cursor.lastEventId = parser.lastEventId;
          if (parser.retryMs !== undefined) cursor.retryMs = parser.retryMs;
        }
        for (const event of events) {
          if (event.type !== "message" || event.data === "") continue; // priming events and other types carry no message
          for (const message of messagesIn(event.data, "an event of the daemon's SSE stream", this.#handlers))
            if (take(message)) return;
        }
        if (tooLarge !== undefined)
          throw new AnswerTooLarge(
            `${tooLarge.part === "event" ? "an event" : "a line"} of its SSE stream passed ${tooLarge.maxBytes} bytes`,
            TransportLimits.maxMessageBytes,
          );
      }
    } finally {
      if (!done) reader.cancel().catch(ignore);
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
    this.#serverStream?.stop();
    this.#sessionId = this.#protocolVersion = undefined;
    const initialize = this.#initialize;
    const stop = this.#track();
    try {
      if (initialize === undefined) throw new Error("the client sent no initialize to replay");
      const response = await this.#accepted(initialize, stop);
      this.#adoptSession(response);
      const answer: { of?: JsonRpcResponse } = {};
      await this.#read(response, (message) => {
        if (isJsonRpcResponse(message) && message.id === initialize.id) return (answer.of = message);
        this.#deliver(message);
      });
      const initialized = answer.of;
      if (initialized === undefined) throw new Error("the daemon did not answer initialize");
      if ("error" in initialized)
        throw new Error(
          `the daemon refused initialize: ${initialized.error.message} (JSON-RPC ${initialized.error.code})`,
        );
      this.#adoptProtocolVersion(initialized);
      await discard(await this.#accepted({ jsonrpc: "2.0", method: "notifications/initialized" }, stop));
      this.#serverStream?.open();
      // A new daemon session: what the client held in the old one (its mutation lease) is gone.
      this.#handlers?.onReset?.();
    } catch (error) {
      if (error instanceof TransportUnavailableError) throw this.#end(error);
      if (this.#state === "closed") throw new TransportClosedError({ message: NOT_SENT, cause: error });
      throw this.#end(
        new TransportClosedError({
          message: `the HTTP session with the Glass daemon at ${this.#shownUrl} expired and a new one could not be started: ${describeError(error)}`,
          details: { sessionExpired: true },
          cause: error,
        }),
      );
    } finally {
      this.#inFlight.delete(stop);
    }
  }

  /** POSTs a message of the renewal: 401 and 403 are refusals, anything else but a 2xx an Error. */
  async #accepted(message: JsonRpcRequest | JsonRpcNotification, stop: AbortController): Promise<Response> {
    const response = await this.#request(message, stop);
    if (response.status === 401 || response.status === 403) throw await this.#refused(response);
    if (!response.ok)
      throw new Error(
        `${message.method} was answered with HTTP ${response.status}${snippet(await errorBody(response), this.#redact)}`,
      );
    return response;
  }

  /**
   * A non-2xx answer other than 401, 403 and an expired session. A refusal the client may retry
   * (408, 429, 502, 503, 504) always fails the send with a GlassError whose `details` carry the
   * status and, when the answer had a valid `Retry-After`, `retryAfterMs`: the wait the server
   * asked for, which the client's retry honours (the transport does not retry a request).
   */
  async #httpError(response: Response, sent: JsonRpcMessage): Promise<void> {
    const { status, statusText } = response;
    const text = await readText(response, TransportLimits.maxErrorBodyBytes, "cut").catch(() => "");
    const rpcError = jsonRpcErrorOf(text);
    const retryAfterMs = RETRY_STATUSES.has(status) ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
    const details = retryAfterMs === undefined ? { status } : { status, retryAfterMs };
    const asked =
      retryAfterMs === undefined
        ? ""
        : `; the server asks for no retry before ${describeWait(retryAfterMs)} (Retry-After)`;
    if (status === 502 || status === 503 || status === 504) {
      // The bridge is up but cannot serve: the daemon behind it is unreachable (502, 504), or the
      // bridge (or the daemon behind it) is at its client limit (503). Nothing reached the daemon.
      const said = snippet(rpcError?.message ?? text, this.#redact);
      throw new TransportUnavailableError({
        message:
          (status !== 503
            ? `the bridge at ${this.#shownUrl} cannot reach the Glass daemon behind it (HTTP ${status})${said}; check that the daemon runs and the bridge's --socket or daemon command`
            : said.includes("--max-clients")
              ? // The bridge says what to change (the daemon refused the session: a lower --max-clients).
                `the bridge at ${this.#shownUrl} could not start a session (HTTP 503)${said}`
              : `the bridge at ${this.#shownUrl} is at its client limit (HTTP 503)${said}; retry later or raise its --max-clients`) +
          asked,
        details,
      });
    }
    if (status === 429) {
      // Too many requests: the server's own overload, whatever its body says (its JSON-RPC error, if any, is quoted).
      throw new OverloadedError({
        message: `the HTTP server at ${this.#shownUrl} refused the request as one too many (HTTP 429)${snippet(rpcError?.message ?? text, this.#redact)}${asked}`,
        details,
      });
    }
    if (rpcError !== undefined && isJsonRpcRequest(sent) && status !== 408) {
      // An HTTP server refusing the request itself (400, 406, 409, 415...) often says -32000; that is
      // not the daemon's "overloaded" (which arrives with 200), so it must not be retried as one.
      const { code, data } = rpcError;
      // Scrubbed whole here, before the client cuts it to the protocol's bound (a server echoing the token back).
      const message = this.#redact(rpcError.message);
      const refusedByHttp = code === JsonRpcErrorCode.Overloaded && status >= 400 && status < 500;
      this.#deliver(
        refusedByHttp
          ? jsonRpcFailure(sent.id, JsonRpcErrorCode.InvalidRequest, message, {
              httpStatus: status,
              jsonRpcCode: code,
              ...(data === undefined ? {} : { data }),
            })
          : jsonRpcFailure(sent.id, code, message, data),
      );
      return;
    }
    throw new GlassError({
      code: "transport.http",
      message: `the Glass daemon at ${this.#shownUrl} answered HTTP ${status}${snippet(statusText, this.#redact, " ")}${rpcError === undefined ? snippet(text, this.#redact) : `${snippet(rpcError.message, this.#redact)} (JSON-RPC ${rpcError.code})`}${asked}`,
      phase: "dispatch",
      retry: { classification: "unknown", recommendedOperation: "inspect_page" },
      details,
    });
  }

  /** Why a notification or an answer was not POSTed: too many before it are still without a status. */
  #notAnswering(): OverloadedError {
    return new OverloadedError({
      message:
        `the HTTP server at ${this.#shownUrl} has not answered the last ${this.#unansweredPosts} POSTs of notifications and answers (at most ${TransportLimits.maxUnansweredPosts} may wait): ` +
        "the message was NOT sent. Retry later; if this persists, the server is stuck: close the transport and connect again",
      details: { unansweredPosts: this.#unansweredPosts, maxUnansweredPosts: TransportLimits.maxUnansweredPosts },
    });
  }

  /** The error that ends the transport when the daemon answers 401 or 403. */
  async #refused(response: Response): Promise<TransportUnavailableError> {
    const { status } = response;
    const fix =
      status === 401
        ? `${this.#hasToken ? "the token was refused" : "no token was sent"}: pass the one from the bridge's startup line (new each time it starts) as httpTransport({ url, token })`
        : "the token or this page's origin was refused: use the token from the bridge's startup line (new each time it starts), and let the bridge allow this page's origin";
    return new TransportUnavailableError({
      message: `the Glass daemon at ${this.#shownUrl} answered HTTP ${status}${snippet(await errorBody(response), this.#redact)}: ${fix}`,
      retry: { classification: "notRetryable", recommendedOperation: "fix_token" },
      details: { status },
    });
  }

  #adoptSession(response: Response): void {
    const sessionId = response.headers.get(SESSION_HEADER);
    if (sessionId) this.#sessionId = sessionId;
  }

  #adoptProtocolVersion(answer: JsonRpcResponse): void {
    if ("result" in answer && typeof answer.result.protocolVersion === "string")
      this.#protocolVersion = answer.result.protocolVersion;
  }

  /**
   * Before the client's cancel of `requestId` goes out: a request of that id waiting to be POSTed
   * again after a refusal is not sent again (the daemon never received it; its call is over).
   */
  #stopWaiting(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const stop = this.#waiting.get(String(requestId));
    if (stop === undefined) return;
    this.#waiting.delete(String(requestId));
    stop.abort(new CancelledWhileWaiting());
  }

  /** The request of `answer` is no longer awaited here (its POST failed, or its answer was read or given up). */
  #forgetAnswer(answer: Answer | undefined): void {
    if (answer !== undefined && this.#answers.get(String(answer.id)) === answer)
      this.#answers.delete(String(answer.id));
  }

  /**
   * When the client cancels `requestId` (before its cancel is POSTed): aborts the request's POST
   * if its status has not come, closes its answer stream or its resumption GET, ends the wait
   * before a reconnection, and fails it — the daemon will not answer it, and nothing of the call
   * may outlive it.
   */
  #stopAnswer(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const key = String(requestId);
    const answer = this.#answers.get(key);
    if (answer === undefined) return;
    this.#answers.delete(key);
    answer.stop.abort();
    answer.reader?.cancel().catch(ignore);
    this.#deliver(
      jsonRpcFailure(
        answer.id,
        JsonRpcErrorCode.RequestCancelled,
        "the request was cancelled; its HTTP answer stream was closed",
      ),
    );
  }

  async #shutdown(): Promise<void> {
    const wasStarted = this.#state === "started";
    const hadSession = this.#sessionId !== undefined;
    this.#state = "closed";
    if (!wasStarted) return;
    this.#abortAll();
    if (hadSession) {
      // 405: the server does not let clients end sessions; any other failure changes nothing now
      // (the daemon is gone or slow: the session will expire on its own).
      await this.#request(undefined, undefined).then(discard, ignore);
    }
    this.#notifyClose(undefined);
  }

  /** Ends the transport for a fatal reason (the daemon refused the token, or the session could not be renewed). */
  #end(error: GlassError): GlassError {
    if (this.#state === "closed") return error;
    this.#state = "closed";
    this.#abortAll();
    this.#notifyClose(error);
    return error;
  }

  #track(): AbortController {
    const stop = new AbortController();
    this.#inFlight.add(stop);
    return stop;
  }

  #abortAll(): void {
    this.#serverStream?.stop();
    for (const stop of this.#inFlight.clear()) stop.abort();
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
}

function isInitialize(message: JsonRpcMessage): message is JsonRpcRequest {
  return isJsonRpcRequest(message) && message.method === "initialize";
}

/** Whether `message` is the notification that completes the session's start. */
function isInitialized(message: JsonRpcMessage): boolean {
  return isJsonRpcNotification(message) && message.method === "notifications/initialized";
}

/** Why a request waiting to be POSTed again was not: the client cancelled it meanwhile. */
class CancelledWhileWaiting extends Error {
  constructor() {
    super(
      "the call was cancelled while it waited to be POSTed again after the server refused it; it was not sent again",
    );
  }
}

/** The failure of a message that found its session expired and may not be sent again. */
function sessionExpired(
  message: JsonRpcMessage,
  url: string,
  extra = "a new session was started",
): TransportClosedError {
  const request = isJsonRpcRequest(message);
  const what = request
    ? toolOf(message) === undefined
      ? message.method
      : `the call of ${toolOf(message)}`
    : "method" in message
      ? message.method
      : "an answer to the daemon's request";
  const mutation = request && !safeToRepeat(message);
  return new TransportClosedError({
    message:
      `the HTTP session with the Glass daemon at ${url} had expired, so the daemon did not receive ${what}; ${extra}` +
      (mutation
        ? "; a mutation is never sent twice automatically: it was NOT sent again. Observe the page before repeating it"
        : ""),
    phase: "preflight",
    retry: mutation
      ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }
      : { classification: "safeImmediate", recommendedOperation: "retry" },
    details: { sessionExpired: true },
  });
}

/** The `error` member of a JSON-RPC error response, if `text` is one. */
function jsonRpcErrorOf(text: string): JsonRpcErrorObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = isJsonRpcMessage(value) ? (value as { error?: unknown }).error : undefined;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return typeof code === "number" && typeof message === "string" ? (error as JsonRpcErrorObject) : undefined;
}

/** What an error answer's body says: its JSON-RPC error's message, or its text (of which at most 64 KiB are read). */
async function errorBody(response: Response): Promise<string> {
  const text = await readText(response, TransportLimits.maxErrorBodyBytes, "cut").catch(() => "");
  return jsonRpcErrorOf(text)?.message ?? text;
}

/**
 * A response past the bound — a call's answer or the server stream's — with `said` saying how that
 * was found (`its JSON body passed 33554432 bytes`).
 */
class AnswerTooLarge extends Error {
  constructor(
    readonly said: string,
    readonly maxBytes: number,
  ) {
    super(`what the server sent is over the ${maxBytes}-byte limit per message (${said})`);
  }
}

/**
 * A response body as text, read as it streams and counted. Past `maxBytes` the body is cancelled
 * and, with `overflow` `fail`, AnswerTooLarge is thrown (at once when its Content-Length declares
 * more); with `cut`, the text read so far is returned. The reader is kept on `answer`, so a cancel
 * can close it.
 */
async function readText(
  response: Response,
  maxBytes: number,
  overflow: "fail" | "cut",
  answer?: Answer,
): Promise<string> {
  const { body } = response;
  if (body === null) return "";
  const declared = Number(response.headers.get("content-length"));
  if (overflow === "fail" && declared > maxBytes) {
    await discard(response);
    throw new AnswerTooLarge(`its Content-Length declared ${declared} bytes`, maxBytes);
  }
  const reader = body.getReader();
  if (answer !== undefined) answer.reader = reader;
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let bytes = 0;
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      const over = bytes + chunk.value.length - maxBytes;
      if (over > 0) {
        if (overflow === "fail") throw new AnswerTooLarge(`its JSON body passed ${maxBytes} bytes`, maxBytes);
        texts.push(decoder.decode(chunk.value.subarray(0, chunk.value.length - over)));
        return texts.join("");
      }
      bytes += chunk.value.length;
      texts.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    if (!done) reader.cancel().catch(ignore);
  }
  texts.push(decoder.decode());
  return texts.join("");
}

/** A response's media type (`text/event-stream`), lower-cased, without parameters; `""` when it has none. */
function contentTypeOf(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The request as error messages name it: its method, and for a tool call the tool (`tools/call click`). */
function callOf(request: JsonRpcRequest): string {
  const tool = toolOf(request);
  return tool === undefined ? request.method : `${request.method} ${tool}`;
}

/**
 * `": <the start of text>"` (or `lead` and the text) for error messages (scrubbed by `redact` before it is cut, on one line,
 * at most {@link MAX_SNIPPET_BYTES} bytes), or `""` when there is no text.
 */
function snippet(text: string, redact: (text: string) => string, lead = ": "): string {
  const words = quoteUntrusted(text, MAX_SNIPPET_BYTES, { redact, collapseWhitespace: true });
  return words === "" ? "" : `${lead}${words}`;
}

/** How much of a server's body an error message quotes, in UTF-8 bytes. */
const MAX_SNIPPET_BYTES = 200;

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(ignore);
}

/** Network errors that mean no connection was made, so nothing was sent (Node's fetch puts the code on `cause`). */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Whether `error` (or an error it was caused by) says the connection was never made. */
function neverConnected(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && NOT_CONNECTED.has(code)) return true;
  }
  return false;
}

/**
 * The ky instance the transport builds on: the caller's instance, one made from the caller's ky
 * options, or ky's own. Throws a `request.invalid` GlassError for anything else.
 */
function kyInstanceOf(given: KyInstance | KyOptions | undefined): KyInstance {
  if (given === undefined) return ky;
  if (typeof given === "function" && typeof (given as KyInstance).extend === "function") return given as KyInstance;
  if (
    typeof given === "object" &&
    given !== null &&
    !Array.isArray(given) &&
    Object.getPrototypeOf(given) === Object.prototype
  )
    return ky.create(given);
  throw requestInvalid(
    "httpTransport: ky must be a ky instance (ky.create(…), ky.extend(…)) or ky options ({ hooks, headers, … })",
  );
}
