import type { RetryOptions } from "./options.js";

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
