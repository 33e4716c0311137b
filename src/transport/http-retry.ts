import { requestInvalid } from "../errors/error-classes.js";
import { isJsonRpcNotification, isJsonRpcRequest, READ_ONLY_METHODS, type JsonRpcMessage, type JsonRpcRequest } from "../mcp/json-rpc.js";
import { isRetrySafe, operationFor } from "../operations/catalog.js";

// What the HTTP transport may send twice, and when: the one home of that judgement for the
// transport's own retries (a refusal with 408, 429, 502, 503 or 504) and for its session renewal
// (a message that found its session expired).

/** The statuses after which a message that cannot repeat a side effect is sent again: the server did not serve it. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/**
 * The statuses after which `initialize` is sent again: refusals that by their meaning created
 * nothing (408 the server stopped waiting for the request, 429 too many requests, 503 the bridge is
 * at its client limit). After 502 or 504 a gateway in front of the bridge may have passed it on,
 * leaving a session the client never learns of, so it is not repeated.
 */
const INITIALIZE_RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 503]);

/** Retries after a refusal by default (so at most three POSTs of one message). */
export const DEFAULT_MAX_RETRIES = 2;
/** The longest wait before a retry by default: a `Retry-After` asking for more is not waited for. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 5_000;
/** The wait before a retry when the refusal gives no usable `Retry-After`: 300 ms, then 600 ms … */
const BACKOFF_MS = 300;
/** The longest timer a platform arms (2^31 - 1 ms); a longer wait or timeout is refused up front. */
const MAX_TIMER_MS = 2_147_483_647;

/** The MCP tool a `tools/call` request calls, if it is one. */
export function toolOf(message: JsonRpcRequest): string | undefined {
  const name = message.params?.name;
  return message.method === "tools/call" && typeof name === "string" ? name : undefined;
}

/**
 * Whether a message may go out again without repeating a side effect: a notification, a read-only
 * method, or a tool call the catalog calls retry-safe. Never a mutation, nor an answer to a request
 * of the daemon.
 */
export function safeToRepeat(message: JsonRpcMessage): boolean {
  if (isJsonRpcNotification(message)) return true;
  if (!isJsonRpcRequest(message)) return false;
  if (READ_ONLY_METHODS.has(message.method)) return true;
  const tool = toolOf(message);
  return tool !== undefined && isRetrySafe(operationFor(tool), message.params?.arguments);
}

/**
 * Whether a request may change the page if the daemon receives it: any request but `initialize`
 * that is not {@link safeToRepeat}. The transport puts no timeout of its own on these (see
 * `requestTimeoutMs`).
 */
export function mayMutate(message: JsonRpcMessage): boolean {
  return isJsonRpcRequest(message) && message.method !== "initialize" && !safeToRepeat(message);
}

/** Whether `message`, refused with `status`, may be POSTed again. */
export function mayRetry(message: JsonRpcMessage, status: number): boolean {
  if (!RETRY_STATUSES.has(status)) return false;
  if (isJsonRpcRequest(message) && message.method === "initialize") return INITIALIZE_RETRY_STATUSES.has(status);
  return safeToRepeat(message);
}

/**
 * How long to wait before retry number `retryCount` (1 for the first) after a refusal whose
 * `Retry-After` header is `retryAfter`: its delay in seconds or until its HTTP date, else an
 * exponential backoff from 300 ms.
 */
export function retryWaitMs(retryAfter: string | null, retryCount: number, now = Date.now()): number {
  const given = retryAfter?.trim() ?? "";
  if (/^\d+$/.test(given)) return Number(given) * 1000;
  const date = given === "" ? Number.NaN : Date.parse(given);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return BACKOFF_MS * 2 ** (retryCount - 1);
}

/** `maxRetries` (default 2), checked: an integer from 0 (no retry) to 10. */
export function checkMaxRetries(given: number | undefined): number {
  const value = given ?? DEFAULT_MAX_RETRIES;
  if (Number.isInteger(value) && value >= 0 && value <= 10) return value;
  throw requestInvalid(`httpTransport: maxRetries must be an integer from 0 to 10; got ${String(value)}`);
}

/** A duration option in milliseconds (`maxRetryWaitMs`, `requestTimeoutMs`), checked: a positive integer a timer can hold. */
export function checkDurationMs(name: string, given: number | undefined, fallback: number | undefined): number | undefined {
  if (given === undefined) return fallback;
  if (Number.isInteger(given) && given > 0 && given <= MAX_TIMER_MS) return given;
  throw requestInvalid(`httpTransport: ${name} must be a positive integer number of milliseconds (at most ${MAX_TIMER_MS}); got ${String(given)}`);
}
