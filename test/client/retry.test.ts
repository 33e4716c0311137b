/**
 * The client's retry policy, backoff and loop, and the server's earliest retry time (`retryAfterMs`, which an HTTP
 * transport puts on a 429/503 refusal): a retry is never sent before it, and a call whose deadline
 * ends first is not retried at all. Fake timers: the waits are counted, not measured.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
  retryAfterOf,
  retryDelayMs,
  retrying,
  sleepUnlessAborted,
  type AttemptResult,
  type ResolvedRetryPolicy,
} from "../../src/client/retry.js";
import { CancelledError, TransportUnavailableError } from "../../src/errors/error-classes.js";

const policy: ResolvedRetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000 };

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-12-03T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** An attempt that always fails as refused, asking for `retryAfterMs`; counts its tries. */
function refused(retryAfterMs: number | undefined): {
  tries: number[];
  attempt: (n: number) => Promise<AttemptResult<string>>;
} {
  const tries: number[] = [];
  return {
    tries,
    attempt: async (n) => {
      tries.push(Date.now());
      return { result: `refused ${n}`, retry: { code: "transport.unavailable", requestId: "r-1", retryAfterMs } };
    },
  };
}

describe("retrying with the server's Retry-After", () => {
  it("waits the server's time when it is longer than the backoff: no retry before it", async () => {
    const { tries, attempt } = refused(5_000);
    const log = vi.fn();
    const done = retrying(
      { retryPolicy: policy, log },
      { operation: "browser.observe", maxRetries: 2, deadlineAt: Date.now() + 60_000 },
      attempt,
    );

    await vi.advanceTimersByTimeAsync(4_999);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await done).toBe("refused 2");
    expect(tries).toHaveLength(3); // the client's budget: two retries, not more
    expect(log.mock.calls.map(([event]) => (event as { delayMs: number }).delayMs)).toEqual([5_000, 5_000]);
  });

  it("a call whose deadline ends before the server's time is not retried: its refusal is the outcome at once", async () => {
    const { tries, attempt } = refused(60_000);
    const outcome = await retrying(
      { retryPolicy: policy },
      { operation: "browser.observe", maxRetries: 2, deadlineAt: Date.now() + 10_000 },
      attempt,
    );
    expect(outcome).toBe("refused 0");
    expect(tries).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("without a server time, the backoff alone decides (100 ms doubling, half jittered)", async () => {
    const { tries, attempt } = refused(undefined);
    const done = retrying(
      { retryPolicy: policy },
      { operation: "ping", maxRetries: 1, deadlineAt: Date.now() + 10_000 },
      attempt,
    );
    await vi.advanceTimersByTimeAsync(49);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(51);
    expect(await done).toBe("refused 1");
  });

  it("reads retryAfterMs from a refusal's details, and nothing else", () => {
    expect(
      retryAfterOf(new TransportUnavailableError({ message: "full", details: { status: 503, retryAfterMs: 2_000 } })),
    ).toBe(2_000);
    for (const details of [undefined, null, { status: 503 }, { retryAfterMs: -1 }, { retryAfterMs: "2000" }, [2_000]]) {
      expect(retryAfterOf(new TransportUnavailableError({ message: "full", details }))).toBeUndefined();
    }
  });
});

describe("resolveRetryPolicy", () => {
  it("fills in the defaults around what the caller gave, and false means no retries", () => {
    expect(resolveRetryPolicy(undefined)).toEqual({ maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000 });
    expect(resolveRetryPolicy({ maxRetries: 5 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxRetries: 5 });
    expect(resolveRetryPolicy(false)).toEqual({ ...DEFAULT_RETRY_POLICY, maxRetries: 0 });
  });
});

describe("retryDelayMs: exponential backoff with equal jitter", () => {
  it("doubles from the base delay, half fixed and half random", () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(policy, attempt, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((attempt) => retryDelayMs(policy, attempt, () => 1))).toEqual([100, 200, 400]);
    expect(retryDelayMs(policy, 2, () => 0.5)).toBe(150);
  });

  it("never waits past maxDelayMs, however many retries", () => {
    expect(retryDelayMs(policy, 30, () => 1)).toBe(2_000);
    expect(retryDelayMs(policy, 30, () => 0)).toBe(1_000);
  });
});

describe("retrying: when it stops", () => {
  it("returns the first result that asks for no retry, without waiting", async () => {
    const attempt = vi.fn(async (n: number): Promise<AttemptResult<string>> => ({ result: `ok ${n}` }));
    const outcome = await retrying(
      { retryPolicy: policy },
      { operation: "ping", maxRetries: 2, deadlineAt: Date.now() + 10_000 },
      attempt,
    );
    expect(outcome).toBe("ok 0");
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("never repeats a call whose maxRetries is 0 (a mutation)", async () => {
    const { tries, attempt } = refused(undefined);
    const outcome = await retrying(
      { retryPolicy: policy },
      { operation: "browser.click", maxRetries: 0, deadlineAt: Date.now() + 10_000 },
      attempt,
    );
    expect(outcome).toBe("refused 0");
    expect(tries).toHaveLength(1);
  });

  it("rejects with a CancelledError when the signal aborts during the wait", async () => {
    const { tries, attempt } = refused(1_000);
    const controller = new AbortController();
    const done = retrying(
      { retryPolicy: policy },
      { operation: "ping", maxRetries: 2, deadlineAt: Date.now() + 10_000, signal: controller.signal },
      attempt,
    );
    const outcome = expect(done).rejects.toBeInstanceOf(CancelledError);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await outcome;
    expect(tries).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("sleepUnlessAborted", () => {
  it("resolves after the time and leaves no timer behind", async () => {
    let done = false;
    void sleepUnlessAborted(300).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once for a signal already aborted, without starting a timer", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleepUnlessAborted(300, controller.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(vi.getTimerCount()).toBe(0);
  });
});
