import { requestInvalid } from "../errors/error-classes.js";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  READ_ONLY_METHODS,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from "../mcp/json-rpc.js";
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

/**
 * Whether `message`, refused with `status`, may be POSTed again by the transport itself: a
 * notification, and `initialize` after 408, 429 or 503. Any other request is the client's to
 * retry (its retry loop owns the refusal, with the server's `Retry-After`), so the transport never
 * sends it twice; an answer to the daemon's request is never sent twice.
 */
export function mayRetry(message: JsonRpcMessage, status: number): boolean {
  if (!RETRY_STATUSES.has(status) || !retriedByTransport(message)) return false;
  return !isJsonRpcRequest(message) || INITIALIZE_RETRY_STATUSES.has(status);
}

/**
 * Whether the transport may POST `message` again after some refusal ({@link mayRetry}): a
 * notification, and `initialize`. Any other message goes out once as far as the transport is
 * concerned.
 */
export function retriedByTransport(message: JsonRpcMessage): boolean {
  return isJsonRpcRequest(message) ? message.method === "initialize" : safeToRepeat(message);
}

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(${DAY_NAMES.join("|")}), (\\d{2}) (${MONTHS.join("|")}) (\\d{4}) ${TIME} GMT$`);
/** The obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(`^(${LONG_DAY_NAMES.join("|")}), (\\d{2})-(${MONTHS.join("|")})-(\\d{2}) ${TIME} GMT$`);
/** The obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE = new RegExp(`^(${DAY_NAMES.join("|")}) (${MONTHS.join("|")}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 section 5.6.7) in ms since the epoch: IMF-fixdate, or one of the obsolete RFC 850
 * and asctime forms recipients must accept; `undefined` for anything else (a day of the month the
 * month lacks, an hour past 23 …). A two-digit RFC 850 year more than 50 years ahead of `now` is
 * read in the past century, as section 5.6.7 says.
 */
export function parseHttpDate(text: string, now: number): number | undefined {
  let year: number, month: string, day: string, time: [string, string, string];
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) {
    [year, month, day, time] = [Number(match[4]), match[3]!, match[2]!, [match[5]!, match[6]!, match[7]!]];
  } else if ((match = RFC850_DATE.exec(text)) !== null) {
    const thisYear = new Date(now).getUTCFullYear();
    year = Math.floor(thisYear / 100) * 100 + Number(match[4]);
    if (year > thisYear + 50) year -= 100;
    [month, day, time] = [match[3]!, match[2]!, [match[5]!, match[6]!, match[7]!]];
  } else if ((match = ASCTIME_DATE.exec(text)) !== null) {
    [year, month, day, time] = [Number(match[7]), match[2]!, match[3]!.trim(), [match[4]!, match[5]!, match[6]!]];
  } else {
    return undefined;
  }
  const [hour, minute, second] = time.map(Number) as [number, number, number];
  const monthIndex = MONTHS.indexOf(month);
  const dayOfMonth = Number(day);
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex + 1, 0); // the month's last day (setUTCFullYear: years below 100 too)
  const daysInMonth = date.getUTCDate();
  // `second` may be 60 (a leap second, as IMF allows): it is read as the next minute's 00.
  if (dayOfMonth < 1 || dayOfMonth > daysInMonth || hour > 23 || minute > 59 || second > 60) return undefined;
  date.setUTCFullYear(year, monthIndex, dayOfMonth);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/**
 * The wait a `Retry-After` header asks for, in ms (RFC 9110 section 10.2.3): `delay-seconds` (one or more
 * digits, nothing else) or until an HTTP-date ({@link parseHttpDate}; 0 for a date already past).
 * `undefined` when the header is absent or is anything else (`1.5`, `-1`, `+5`, `soon`, a date
 * `Date.parse` would guess at): such a value is ignored, never read as "retry at once".
 */
export function parseRetryAfter(retryAfter: string | null | undefined, now = Date.now()): number | undefined {
  // Only the field's optional whitespace (space, tab) is dropped: fetch strips it already.
  const given = retryAfter?.replace(/^[ \t]+|[ \t]+$/g, "") ?? "";
  // A wait past any deadline is kept finite (for JSON): it is "too long" either way.
  if (/^[0-9]+$/.test(given)) return Math.min(Number(given) * 1000, Number.MAX_SAFE_INTEGER);
  const date = parseHttpDate(given, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retryCount` (1 for the first) after a refusal whose
 * `Retry-After` header is `retryAfter`: the wait it asks for ({@link parseRetryAfter}), else (no
 * header, or one that is not valid) an exponential backoff from 300 ms.
 */
export function retryWaitMs(retryAfter: string | null, retryCount: number, now = Date.now()): number {
  return parseRetryAfter(retryAfter, now) ?? BACKOFF_MS * 2 ** (retryCount - 1);
}

/** `maxRetries` (default 2), checked: an integer from 0 (no retry) to 10. */
export function checkMaxRetries(given: number | undefined): number {
  const value = given ?? DEFAULT_MAX_RETRIES;
  if (Number.isInteger(value) && value >= 0 && value <= 10) return value;
  throw requestInvalid(`httpTransport: maxRetries must be an integer from 0 to 10; got ${String(value)}`);
}

/** A duration option in milliseconds (`maxRetryWaitMs`, `requestTimeoutMs`), checked: a positive integer a timer can hold. */
export function checkDurationMs(
  name: string,
  given: number | undefined,
  fallback: number | undefined,
): number | undefined {
  if (given === undefined) return fallback;
  if (Number.isInteger(given) && given > 0 && given <= MAX_TIMER_MS) return given;
  throw requestInvalid(
    `httpTransport: ${name} must be a positive integer number of milliseconds (at most ${MAX_TIMER_MS}); got ${String(given)}`,
  );
}

/** A wait as a person reads it: `250 ms`, `2 s`, `1.5 s`. */
export function describeWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
