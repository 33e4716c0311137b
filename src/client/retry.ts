import { CancelledError } from "../errors/error-classes.js";
import type { GlassError } from "../errors/glass-error.js";
import type { GlassLogEvent, RetryOptions } from "./options.js";

/** The retry policy with every default filled in. */
export type ResolvedRetryPolicy = Required<RetryOptions>;

/** Defaults: two retries, 100 ms doubling up to 2 s. */
export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2000 };

/** Fills in a retry policy (`false` means no retries). */
export function resolveRetryPolicy(options: RetryOptions | false | undefined): ResolvedRetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };
  return { ...DEFAULT_RETRY_POLICY, ...options };
}

/**
 * The wait before retry number `attempt` (1 for the first retry): exponential backoff capped at
 * `maxDelayMs`, with "equal jitter" (half fixed, half random) so many clients do not retry in step.
 */
export function retryDelayMs(policy: ResolvedRetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits `ms`, or rejects with a CancelledError as soon as `signal` aborts. Leaves no timer behind. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted)
    return Promise.reject(new CancelledError({ message: "the call was aborted while waiting to retry" }));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError({ message: "the call was aborted while waiting to retry" }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What one try of a call came to: its result, and whether it failed in a way worth trying again. */
export interface AttemptResult<T> {
  result: T;
  /**
   * Present for a failure that may be retried (`overloaded`, a send that never left): its code and
   * the try's request id, for the `retry` log event.
   */
  retry?: { code: string; requestId: string; retryAfterMs?: number | undefined } | undefined;
}

/**
 * The server's earliest time for a retry, as a wait in ms from when its refusal arrived: the
 * `retryAfterMs` an HTTP transport puts in the `details` of a refusal (429, 503 …) that carried
 * a valid `Retry-After`. `undefined` when the failure names none.
 */
export function retryAfterOf(error: GlassError): number | undefined {
  const details = error.details;
  const given =
    typeof details === "object" && details !== null ? (details as { retryAfterMs?: unknown }).retryAfterMs : undefined;
  return typeof given === "number" && given >= 0 ? given : undefined;
}

/** One call to make, with at most `maxRetries` retries, all within its deadline. */
export interface RetryingCall {
  /** The operation or MCP method, for the `retry` log event. */
  operation: string;
  /** 0 for a call that must not be repeated on its own (a mutation). */
  maxRetries: number;
  /** When the call must be over (ms since the epoch): no retry starts whose wait would end past it. */
  deadlineAt: number;
  signal?: AbortSignal | undefined;
}

/**
 * The retry loop of every call the client makes: runs `attempt` (0 for the first try, 1 for the
 * first retry, …) again while its result carries `retry`, retries remain and the wait — the
 * backoff ({@link retryDelayMs}) or the server's longer `retryAfterMs` — ends before the deadline
 * (docs/calls.md, "Retries"). Resolves with the last try's result; rejects with a CancelledError
 * when `signal` aborts during a wait (and with whatever `attempt` throws).
 */
export async function retrying<T>(
  context: { retryPolicy: ResolvedRetryPolicy; log?: ((event: GlassLogEvent) => void) | undefined },
  call: RetryingCall,
  attempt: (attempt: number) => Promise<AttemptResult<T>>,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    const { result, retry } = await attempt(tries);
    if (retry === undefined || tries >= call.maxRetries) return result;
    const delay = Math.max(retryDelayMs(context.retryPolicy, tries + 1), Math.ceil(retry.retryAfterMs ?? 0));
    if (Date.now() + delay >= call.deadlineAt) return result;
    context.log?.({
      type: "retry",
      operation: call.operation,
      requestId: retry.requestId,
      attempt: tries + 1,
      delayMs: delay,
      code: retry.code,
    });
    await sleepUnlessAborted(delay, call.signal);
  }
}
