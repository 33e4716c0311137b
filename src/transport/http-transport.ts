import ky, { isHTTPError, isTimeoutError, type KyInstance, type Options as KyOptions, type RetryOptions } from "ky";
import { SlotList } from "../collections/slot-list.js";
import { requestInvalid, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import type { GlassError } from "../errors/glass-error.js";
import { isJsonRpcNotification, isJsonRpcRequest, type JsonRpcMessage, type JsonRpcResponse } from "../mcp/json-rpc.js";
import {
  readCallAnswer,
  readMessages,
  readStreamGet,
  type AnswerStreamHost,
  type PendingAnswer,
} from "./http-answer-stream.js";
import { discard } from "./http-body.js";
import {
  refusalOutcome,
  renewalFailed,
  requestFailed,
  sessionExpired,
  tokenRefused,
  tooManyUnansweredPosts,
  type HttpErrorContext,
} from "./http-errors.js";
import { planRequest, type HttpRequest } from "./http-request.js";
import { mayRetry, retriedByTransport, retryWaitMs, safeToRepeat } from "./http-retry.js";
import { HttpClientSession, isInitialize, isInitialized, replayInitialize } from "./http-session.js";
import { httpSettingsOf, type HttpSettings } from "./http-settings.js";
import { PendingCalls } from "./http-pending-calls.js";
import { ServerStream } from "./server-stream.js";
import type { ResumeAttempt, SseCursor } from "./sse-resume.js";
import { TransportLimits } from "./transport.js";
import type { GlassTransport, TransportHandlers } from "./transport.js";
import { callHandler, CLOSED_BEFORE_START, closed, ignore, NOT_SENT, startedTwice } from "./transport-util.js";

/**
 * Where and how an {@link httpTransport} reaches the daemon. What each setting does in detail:
 * docs/browser-and-bridge.md, "In the browser".
 */
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
   * client queues calls beyond it. See docs/browser-and-bridge.md, "Streams held open".
   */
  maxInFlight?: number;
  /**
   * The ky instance every request goes through, or ky options to make one from (as `ky.create`
   * takes them): its hooks see every POST, retry, GET and the session's DELETE, and its headers go
   * with them. The URL, method, body, signal, the protocol's headers, `timeout`, `retry` and
   * `throwHttpErrors` are the transport's own. Default: ky's own instance. Anything else throws a
   * `request.invalid` GlassError. See docs/browser-and-bridge.md, "Your own ky".
   */
  ky?: KyInstance | KyOptions;
  /**
   * The longest wait, in milliseconds, for the HTTP status of a POST that cannot change the page (a
   * notification, `initialize`, a read); past it the message fails with a DeadlineExceededError.
   * Default: none — the client's deadline governs, and it alone ends a mutation. See
   * docs/browser-and-bridge.md, "Timeouts".
   */
  requestTimeoutMs?: number;
  /**
   * How many times the transport itself POSTs a message again after HTTP 408, 429, 502, 503 or 504:
   * only the messages no caller retries (a notification; `initialize` after 408, 429 or 503), after
   * the answer's `Retry-After`, else 300 ms, then 600 ms …; default 2, `0` for never. Every other
   * request is the client's to retry. See docs/browser-and-bridge.md, "Retries".
   */
  maxRetries?: number;
  /**
   * The longest wait before a retry of the transport's own (see `maxRetries`), in milliseconds;
   * default 5000: a `Retry-After` asking for more is not waited for (the refusal is the outcome).
   */
  maxRetryWaitMs?: number;
  /**
   * Whether to listen for the server's messages outside calls, on the GET stream MCP Streamable
   * HTTP offers ("Listening for Messages from the Server"), opened once the session is initialized
   * and reopened after a renewal; `close()` aborts it. Default `false`: a Glass daemon sends its
   * requests within calls and its bridge offers no such stream. See docs/browser-and-bridge.md,
   * "The server's own stream".
   */
  serverStream?: boolean;
}

/**
 * A transport that speaks MCP Streamable HTTP (MCP 2025-03-26 to 2025-11-25) to a Glass daemon's
 * HTTP bridge over `fetch`, through ky: browser-safe, and the same in Node, Deno and edge runtimes.
 * Every message is POSTed to `url`; answers come back as JSON or as an SSE stream and reach
 * `onMessage`. `send()` resolves once the daemon accepted the POST (its status arrived).
 *
 * `send()` rejects with a TransportUnavailableError for 502, 503 and 504 or a daemon that cannot be
 * reached, an OverloadedError for 429, each with `details.status` (and `details.retryAfterMs` from
 * `Retry-After`); a `transport.http` GlassError for another status; a DeadlineExceededError past
 * `requestTimeoutMs`; a TransportClosedError when the transport closed or when a mutation found its
 * session expired (`details.sessionExpired`; never sent again). 401 and 403 end the transport with a
 * TransportUnavailableError that says how to fix the token. An answer past 32 MiB is answered
 * -32001 (`response.tooLarge`). `close()` DELETEs the session (waiting 2 s at most) and aborts what
 * is in flight. `httpTransport` itself throws a `request.invalid` GlassError for a token that is not
 * a bearer token, a setting out of range, or a `ky` that is neither a ky instance nor ky options.
 *
 * Session renewal, retries, timeouts, resumed SSE streams, the streams held open, the server
 * stream and your own ky: docs/browser-and-bridge.md, "In the browser"; the client's retries and
 * deadlines: docs/calls.md, "Retries" and "Deadlines and cancellation".
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

class HttpTransport implements GlassTransport {
  readonly kind = "http";
  readonly maxInFlight: number;
  readonly #settings: HttpSettings;
  /** The URL as messages show it, and the scrubbing of what the server says: what error messages need. */
  readonly #errorContext: HttpErrorContext;
  /** The caller's ky instance (or ky's own) with the transport's constant settings on top. */
  readonly #ky: KyInstance;
  /**
   * One controller per request in flight (a POST until its answer is read), aborted when the
   * transport ends. Not one shared signal: fetch implementations keep a listener on it per request.
   */
  readonly #inFlight = new SlotList<AbortController>();
  /** The calls a cancel must reach: those whose answer is awaited, those waiting to be POSTed again. */
  readonly #pendingCalls = new PendingCalls();
  #handlers: TransportHandlers | undefined;
  #state: "new" | "started" | "closed" = "new";
  #closing: Promise<void> | undefined;
  /** The bodies of POSTs whose status has not come, in bytes (see {@link bufferedBytes}). */
  #unansweredBodyBytes = 0;
  /** Notifications and answers POSTed whose status has not come (at most TransportLimits.maxUnansweredPosts). */
  #unansweredPosts = 0;
  /** Whether any HTTP response arrived yet: a network failure before it means the daemon cannot be reached. */
  #reachedServer = false;
  readonly #session = new HttpClientSession();
  /** The standalone GET stream, when the `serverStream` option asks for it. */
  readonly #serverStream: ServerStream | undefined;
  /** What reading answers needs of this transport. */
  readonly #answerHost: AnswerStreamHost;

  constructor(options: HttpTransportOptions) {
    const settings = httpSettingsOf(options);
    this.#settings = settings;
    this.#errorContext = settings.errorContext;
    this.maxInFlight = settings.maxInFlight;
    this.#serverStream = settings.serverStream
      ? new ServerStream(
          (lastEventId, cursor, stop) => this.#listen(lastEventId, cursor, stop),
          (notice) => this.#handlers?.onNotice?.(notice),
        )
      : undefined;
    this.#answerHost = {
      ...this.#errorContext,
      handlers: () => this.#handlers,
      deliver: (message) => this.#deliver(message),
      isOpen: () => this.#state === "started",
      getStream: (request, stop) => this.#send(request, stop),
      endRefused: async (response) => void this.#end(await this.#tokenRefused(response)),
    };
    // Every non-2xx comes back as ky's HTTPError (which carries the response): that is how ky
    // retries, and #send hands its response to the mapping to GlassErrors. No request is retried
    // (`retry: 0`, whatever the caller's instance says) but a POST that #send gives retry options
    // of its own (see #retryOptions).
    this.#ky = kyInstanceOf(options.ky).extend({
      prefixUrl: "",
      throwHttpErrors: true,
      retry: 0,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
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
    return this.#errorContext.redact(text);
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
            ? `the HTTP transport to ${this.#errorContext.shownUrl} is not started: call start() first`
            : NOT_SENT,
        ),
      );
    if (isInitialize(message)) this.#session.rememberInitialize(message);
    if (isJsonRpcNotification(message) && message.method === "notifications/cancelled") {
      // The call is over for the client (its deadline passed, or the caller aborted): whatever the
      // server does with the cancel (refuses it, ignores it, never answers its POST), nothing of the
      // call goes on — no retry, no resumption GET, no stream or connection held for it.
      const failure = this.#pendingCalls.cancel(message.params?.requestId);
      if (failure !== undefined) this.#deliver(failure);
    }
    return this.#post(message, { mayRenew: true });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** POSTs one message; `mayRenew` is false for the one POST again after a renewal. */
  async #post(message: JsonRpcMessage, { mayRenew }: { mayRenew: boolean }): Promise<void> {
    const renewing = this.#session.renewing;
    if (renewing !== undefined) await renewing.catch(ignore);
    if (this.#state === "closed") throw closed(NOT_SENT);
    const sentWith = this.#session.id;
    const bounded = !isJsonRpcRequest(message);
    if (bounded && this.#unansweredPosts >= TransportLimits.maxUnansweredPosts)
      throw tooManyUnansweredPosts(this.#errorContext, this.#unansweredPosts);
    if (bounded) this.#unansweredPosts++;
    const stop = this.#newInFlight();
    // A request's answer is awaited from the POST on: a cancel aborts its POST, its stream or its resumption.
    const answer: PendingAnswer | undefined = isJsonRpcRequest(message) ? { id: message.id, stop } : undefined;
    if (answer !== undefined) this.#pendingCalls.awaitAnswer(answer);
    const response = await this.#send({ kind: "post", message }, stop)
      .catch((error: unknown) => {
        this.#inFlight.delete(stop);
        this.#pendingCalls.forgetAnswer(answer);
        throw error;
      })
      .finally(() => {
        if (bounded) this.#unansweredPosts--;
      });
    if (isInitialize(message)) this.#session.adoptId(response);
    if (response.ok) {
      void this.#readAnswer(response, message, stop, answer);
      if (isInitialized(message)) this.#serverStream?.open();
      return;
    }
    this.#inFlight.delete(stop);
    const { status } = response;
    try {
      if (status === 401 || status === 403) throw this.#end(await this.#tokenRefused(response));
      if (status !== 404 || sentWith === undefined) {
        const outcome = await refusalOutcome(response, message, this.#errorContext);
        if ("error" in outcome) throw outcome.error;
        return this.#deliver(outcome.answer);
      }
      await discard(response);
      const { shownUrl } = this.#errorContext;
      if (!mayRenew) throw sessionExpired(message, shownUrl, "the new session was gone again at once");
      await this.#session.renew(sentWith, () => this.#startNewSession());
      if (!safeToRepeat(message)) throw sessionExpired(message, shownUrl);
      // Cancelled while the session was renewed: its call is over (its failure was delivered), so it is not POSTed again.
      if (stop.signal.aborted) return;
    } finally {
      this.#pendingCalls.forgetAnswer(answer);
    }
    return this.#post(message, { mayRenew: false });
  }

  /**
   * Sends `request` through ky with the protocol's headers (a POST is sent again after a refusal
   * when {@link mayRetry} allows), aborted by `stop`. Resolves with the last response whatever its
   * status (ky's HTTPError gives it up); rejects with a GlassError when none comes.
   */
  async #send(request: HttpRequest, stop: AbortController | undefined): Promise<Response> {
    const { url, baseHeaders, requestTimeoutMs } = this.#settings;
    const plan = planRequest(request, baseHeaders, this.#session, requestTimeoutMs);
    const message = request.kind === "post" ? request.message : undefined;
    const bytes = plan.body?.byteLength ?? 0;
    this.#unansweredBodyBytes += bytes;
    // Retry options (and the hook below) only for what the transport may send again: every other
    // request keeps the instance's `retry: 0` and costs ky no retry or hook work.
    const retried = message !== undefined && stop !== undefined && retriedByTransport(message);
    // Where a cancel finds a request waiting to be POSTed again (only `initialize` among requests is).
    const retryKey = retried && isJsonRpcRequest(message) ? String(message.id) : undefined;
    // An attempt starts: a wait before it is over, so a cancel no longer ends the request there.
    const attemptStarts = (): void => {
      if (retryKey !== undefined) this.#pendingCalls.retryStarts(retryKey, stop);
    };
    try {
      const response = await this.#ky(url, {
        method: plan.method,
        headers: plan.headers,
        ...(plan.body === undefined ? {} : { body: plan.body }),
        ...(stop === undefined ? {} : { signal: stop.signal }),
        timeout: plan.timeout,
        ...(retried ? { retry: this.#retryOptions(message, stop, retryKey) } : {}),
        // After the caller's hooks: the attempt is on its way.
        ...(retryKey === undefined ? {} : { hooks: { beforeRequest: [attemptStarts] } }),
      });
      this.#reachedServer = true;
      return response;
    } catch (error) {
      if (isHTTPError(error)) {
        this.#reachedServer = true;
        return error.response;
      }
      const timedOut = isTimeoutError(error);
      const state = { message, closed: this.#state === "closed", timedOut, reachedServer: this.#reachedServer };
      throw requestFailed(error, this.#errorContext, state, requestTimeoutMs);
    } finally {
      this.#unansweredBodyBytes -= bytes;
      attemptStarts();
    }
  }

  /**
   * The retry of one POST, decided here and nowhere else: after a status {@link mayRetry} allows
   * for the message (never a request but `initialize`: the client retries those), at most
   * `maxRetries` times, after the answer's `Retry-After` — not at all when that asks for more than
   * `maxRetryWaitMs`, nor once the transport is closing. ky waits that long with the request's
   * signal, so a cancel of the request (see {@link PendingCalls.cancel}) or `close()` ends the wait
   * with the reason `stop` was aborted with.
   */
  #retryOptions(message: JsonRpcMessage, stop: AbortController, retryKey: string | undefined): RetryOptions {
    let waitMs = 0;
    // Whole options, not merged with the instance's `retry: 0`: `shouldRetry` answers every refusal,
    // `limit` also bounds a retry the caller's `afterResponse` hook forces (`ky.retry()`).
    return {
      limit: this.#settings.maxRetries,
      methods: ["post"],
      shouldRetry: ({ error, retryCount }) => {
        if (!isHTTPError(error) || this.#state !== "started" || !mayRetry(message, error.response.status)) return false;
        waitMs = retryWaitMs(error.response.headers.get("retry-after"), retryCount);
        if (waitMs > this.#settings.maxRetryWaitMs) return false;
        void discard(error.response); // not read: the retry's answer is
        if (retryKey !== undefined) this.#pendingCalls.waitToRetry(retryKey, stop);
        return true;
      },
      delay: () => waitMs,
    };
  }

  /** Reads the answer to an accepted POST, then lets go of its stream; a call left unanswered is failed. */
  async #readAnswer(
    response: Response,
    sent: JsonRpcMessage,
    stop: AbortController,
    answer: PendingAnswer | undefined,
  ): Promise<void> {
    if (!isJsonRpcRequest(sent) || answer === undefined)
      return discard(response).finally(() => this.#inFlight.delete(stop)); // 202 Accepted: notifications and responses get no answer
    const onAnswer = isInitialize(sent)
      ? (reply: JsonRpcResponse) => this.#session.adoptProtocolVersion(reply)
      : undefined;
    const failure = await readCallAnswer(this.#answerHost, { response, request: sent, answer, onAnswer });
    this.#inFlight.delete(stop);
    this.#pendingCalls.forgetAnswer(answer);
    if (failure !== undefined) this.#deliver(failure);
  }

  /**
   * One GET of the server's standalone stream (the `serverStream` option; see ServerStream): its
   * messages are delivered as those of a call's stream are.
   */
  #listen(lastEventId: string, cursor: SseCursor, stop: AbortController): Promise<ResumeAttempt> {
    if (this.#state !== "started") return Promise.resolve({ outcome: "stopped" });
    return readStreamGet(this.#answerHost, {
      request: lastEventId === "" ? { kind: "serverStream" } : { kind: "resume", lastEventId },
      cursor,
      stop,
      take: (message) => void this.#deliver(message),
    });
  }

  /**
   * Starts a new session after the old one expired (see {@link replayInitialize}) and reopens the
   * server stream on it. If that fails, the transport ends.
   */
  async #startNewSession(): Promise<void> {
    this.#serverStream?.stop();
    this.#session.forget();
    const stop = this.#newInFlight();
    try {
      await replayInitialize(this.#session, {
        post: (message) => this.#send({ kind: "post", message }, stop),
        tokenRefused: (response) => this.#tokenRefused(response),
        redact: this.#errorContext.redact,
        read: (response, take) => readMessages(response, take, { handlers: this.#handlers }),
        deliver: (message) => this.#deliver(message),
      });
      this.#serverStream?.open();
      // A new daemon session: what the client held in the old one (its mutation lease) is gone.
      this.#handlers?.onReset?.();
    } catch (error) {
      if (error instanceof TransportUnavailableError) throw this.#end(error);
      if (this.#state === "closed") throw new TransportClosedError({ message: NOT_SENT, cause: error });
      throw this.#end(renewalFailed(error, this.#errorContext));
    } finally {
      this.#inFlight.delete(stop);
    }
  }

  #tokenRefused(response: Response): Promise<TransportUnavailableError> {
    return tokenRefused(response, this.#errorContext, this.#settings.hasToken);
  }

  async #shutdown(): Promise<void> {
    const wasStarted = this.#state === "started";
    const hadSession = this.#session.id !== undefined;
    this.#state = "closed";
    if (!wasStarted) return;
    this.#abortAll();
    if (hadSession) {
      // 405: the server does not let clients end sessions; any other failure changes nothing now
      // (the daemon is gone or slow: the session will expire on its own).
      await this.#send({ kind: "endSession" }, undefined).then(discard, ignore);
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

  /** A controller for a new request in flight, aborted if the transport ends first. */
  #newInFlight(): AbortController {
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
