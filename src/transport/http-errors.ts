// How the HTTP transport words its failures: a refusal or another non-2xx status, a request that got
// no status, an expired session. Each becomes the GlassError the client reports (or, for a request
// the server refused with a JSON-RPC error, the failure answer the client delivers), quoting at most
// a snippet of what the server said, with the token and the URL's credentials scrubbed from it.

import {
  DeadlineExceededError,
  OverloadedError,
  TransportClosedError,
  TransportUnavailableError,
} from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import { describeError, quoteUntrusted } from "../errors/redact.js";
import {
  isJsonRpcMessage,
  isJsonRpcRequest,
  JsonRpcErrorCode,
  jsonRpcFailure,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../mcp/json-rpc.js";
import { readText } from "./http-body.js";
import { describeWait, mayMutate, parseRetryAfter, RETRY_STATUSES, safeToRepeat, toolOf } from "./http-retry.js";
import { TransportLimits } from "./transport.js";

/** What every error message needs of the transport: its URL as shown, and the scrubbing of server text. */
export interface HttpErrorContext {
  /** The endpoint as messages show it (credentials in it redacted). */
  readonly shownUrl: string;
  /** Replaces the bearer token and the URL's credentials in a text by `[redacted]`. */
  readonly redact: (text: string) => string;
}

/** How much of a server's body an error message quotes, in UTF-8 bytes. */
const MAX_SNIPPET_BYTES = 200;

/** Network errors that mean no connection was made, so nothing was sent (Node's fetch puts the code on `cause`). */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** Why a request waiting to be POSTed again was not: the client cancelled it meanwhile. */
export class CancelledWhileWaiting extends Error {
  constructor() {
    super(
      "the call was cancelled while it waited to be POSTed again after the server refused it; it was not sent again",
    );
  }
}

/**
 * `": <the start of text>"` (or `lead` and the text) for error messages (scrubbed by `redact` before it is cut, on one line,
 * at most {@link MAX_SNIPPET_BYTES} bytes), or `""` when there is no text.
 */
export function snippet(text: string, redact: (text: string) => string, lead = ": "): string {
  const words = quoteUntrusted(text, MAX_SNIPPET_BYTES, { redact, collapseWhitespace: true });
  return words === "" ? "" : `${lead}${words}`;
}

/** The request as error messages name it: its method, and for a tool call the tool (`tools/call click`). */
export function callOf(request: JsonRpcRequest): string {
  const tool = toolOf(request);
  return tool === undefined ? request.method : `${request.method} ${tool}`;
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

/** The start of an error answer's body, at most 64 KiB (`""` when it cannot be read). */
function errorText(response: Response): Promise<string> {
  return readText(response, TransportLimits.maxErrorBodyBytes, "cut").catch(() => "");
}

/** What an error answer's body says: its JSON-RPC error's message, or its text (of which at most 64 KiB are read). */
export async function errorBody(response: Response): Promise<string> {
  const text = await errorText(response);
  return jsonRpcErrorOf(text)?.message ?? text;
}

/** The error that ends the transport when the daemon answers 401 or 403 (`hasToken`: whether a token was sent). */
export async function tokenRefused(
  response: Response,
  context: HttpErrorContext,
  hasToken: boolean,
): Promise<TransportUnavailableError> {
  const { status } = response;
  const fix =
    status === 401
      ? `${hasToken ? "the token was refused" : "no token was sent"}: pass the one from the bridge's startup line (new each time it starts) as httpTransport({ url, token })`
      : "the token or this page's origin was refused: use the token from the bridge's startup line (new each time it starts), and let the bridge allow this page's origin";
  return new TransportUnavailableError({
    message: `the Glass daemon at ${context.shownUrl} answered HTTP ${status}${snippet(await errorBody(response), context.redact)}: ${fix}`,
    retry: { classification: "notRetryable", recommendedOperation: "fix_token" },
    details: { status },
  });
}

/** What a refused POST comes to: the error that fails its send, or the failure answer to deliver for its request. */
export type RefusalOutcome = { error: GlassError } | { answer: JsonRpcResponse };

/**
 * A non-2xx answer other than 401, 403 and an expired session. A refusal the client may retry
 * (408, 429, 502, 503, 504) always fails the send with a GlassError whose `details` carry the
 * status and, when the answer had a valid `Retry-After`, `retryAfterMs`: the wait the server
 * asked for, which the client's retry honours (the transport does not retry a request). A request
 * refused with a JSON-RPC error (another status) is answered with that error.
 */
export async function refusalOutcome(
  response: Response,
  sent: JsonRpcMessage,
  context: HttpErrorContext,
): Promise<RefusalOutcome> {
  const { status, statusText } = response;
  const { shownUrl, redact } = context;
  const text = await errorText(response);
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
    const said = snippet(rpcError?.message ?? text, redact);
    const error = new TransportUnavailableError({
      message:
        (status !== 503
          ? `the bridge at ${shownUrl} cannot reach the Glass daemon behind it (HTTP ${status})${said}; check that the daemon runs and the bridge's --socket or daemon command`
          : said.includes("--max-clients")
            ? // The bridge says what to change (the daemon refused the session: a lower --max-clients).
              `the bridge at ${shownUrl} could not start a session (HTTP 503)${said}`
            : `the bridge at ${shownUrl} is at its client limit (HTTP 503)${said}; retry later or raise its --max-clients`) +
        asked,
      details,
    });
    return { error };
  }
  if (status === 429) {
    // Too many requests: the server's own overload, whatever its body says (its JSON-RPC error, if any, is quoted).
    const error = new OverloadedError({
      message: `the HTTP server at ${shownUrl} refused the request as one too many (HTTP 429)${snippet(rpcError?.message ?? text, redact)}${asked}`,
      details,
    });
    return { error };
  }
  if (rpcError !== undefined && isJsonRpcRequest(sent) && status !== 408) {
    // An HTTP server refusing the request itself (400, 406, 409, 415...) often says -32000; that is
    // not the daemon's "overloaded" (which arrives with 200), so it must not be retried as one.
    const { code, data } = rpcError;
    // Scrubbed whole here, before the client cuts it to the protocol's bound (a server echoing the token back).
    const message = redact(rpcError.message);
    const refusedByHttp = code === JsonRpcErrorCode.Overloaded && status >= 400 && status < 500;
    const answer = refusedByHttp
      ? jsonRpcFailure(sent.id, JsonRpcErrorCode.InvalidRequest, message, {
          httpStatus: status,
          jsonRpcCode: code,
          ...(data === undefined ? {} : { data }),
        })
      : jsonRpcFailure(sent.id, code, message, data);
    return { answer };
  }
  const error = new GlassError({
    code: "transport.http",
    message: `the Glass daemon at ${shownUrl} answered HTTP ${status}${snippet(statusText, redact, " ")}${rpcError === undefined ? snippet(text, redact) : `${snippet(rpcError.message, redact)} (JSON-RPC ${rpcError.code})`}${asked}`,
    phase: "dispatch",
    retry: { classification: "unknown", recommendedOperation: "inspect_page" },
    details,
  });
  return { error };
}

/** Why a notification or an answer was not POSTed: `unansweredPosts` before it are still without a status. */
export function tooManyUnansweredPosts(context: HttpErrorContext, unansweredPosts: number): OverloadedError {
  return new OverloadedError({
    message:
      `the HTTP server at ${context.shownUrl} has not answered the last ${unansweredPosts} POSTs of notifications and answers (at most ${TransportLimits.maxUnansweredPosts} may wait): ` +
      "the message was NOT sent. Retry later; if this persists, the server is stuck: close the transport and connect again",
    details: { unansweredPosts, maxUnansweredPosts: TransportLimits.maxUnansweredPosts },
  });
}

/** The error of a message whose status did not come within `requestTimeoutMs` (ky's TimeoutError is `cause`). */
function statusTimedOut(
  message: JsonRpcMessage,
  context: HttpErrorContext,
  requestTimeoutMs: number | undefined,
  cause: unknown,
): DeadlineExceededError {
  const what = isJsonRpcRequest(message)
    ? callOf(message)
    : "method" in message
      ? message.method
      : "an answer to the daemon's request";
  return new DeadlineExceededError({
    message: `no answer within the deadline: the HTTP status of ${what} did not come from ${context.shownUrl} within requestTimeoutMs (${requestTimeoutMs} ms)`,
    retry: { classification: "safeImmediate", recommendedOperation: "retry" },
    details: { requestTimeoutMs },
    cause,
  });
}

/** What is known of a request that got no HTTP status, and of the transport when it failed. */
export interface FailedRequest {
  /** What was POSTed (none for a GET or the DELETE). */
  message: JsonRpcMessage | undefined;
  /** Whether the transport was closed meanwhile. */
  closed: boolean;
  /** Whether its `requestTimeoutMs` passed (ky's TimeoutError). */
  timedOut: boolean;
  /** Whether any response arrived before: without one, the daemon cannot be reached. */
  reachedServer: boolean;
}

/**
 * The error of a request that got no HTTP status: the transport closed meanwhile, the call was
 * cancelled while it waited for a retry, `requestTimeoutMs` passed, or the network failed.
 */
export function requestFailed(
  error: unknown,
  context: HttpErrorContext,
  { message, closed, timedOut, reachedServer }: FailedRequest,
  requestTimeoutMs: number | undefined,
): GlassError {
  if (closed)
    return new TransportClosedError({ message: "the transport was closed before the daemon answered", cause: error });
  if (error instanceof CancelledWhileWaiting)
    return new TransportClosedError({ message: error.message, phase: "preflight", cause: error });
  if (timedOut && message !== undefined) return statusTimedOut(message, context, requestTimeoutMs, error);
  if (reachedServer) {
    // The body may have reached the daemon before the connection failed: a mutation may have run.
    const mayHaveRun = message !== undefined && mayMutate(message) && !neverConnected(error);
    return new TransportClosedError({
      message: `the HTTP request to ${context.shownUrl} failed: ${describeError(error)}`,
      ...(mayHaveRun ? { mutationPossible: true, phase: "dispatch" as const } : {}),
      cause: error,
    });
  }
  return new TransportUnavailableError({
    message: `cannot reach the Glass daemon at ${context.shownUrl}: ${describeError(error)}. Check that its HTTP bridge runs at this URL (in a browser, a CORS refusal looks the same: the bridge must allow this page's origin)`,
    cause: error,
  });
}

/** Whether `error` (or an error it was caused by) says the connection was never made. */
function neverConnected(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && NOT_CONNECTED.has(code)) return true;
  }
  return false;
}

/** Why the transport ends when a new session could not be started after the old one expired. */
export function renewalFailed(error: unknown, context: HttpErrorContext): TransportClosedError {
  return new TransportClosedError({
    message: `the HTTP session with the Glass daemon at ${context.shownUrl} expired and a new one could not be started: ${describeError(error)}`,
    details: { sessionExpired: true },
    cause: error,
  });
}

/** The failure of a message that found its session expired and may not be sent again. */
export function sessionExpired(
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
