/**
 * The client's retry loop and the server's earliest retry time (`retryAfterMs`, which an HTTP
 * transport puts on a 429/503 refusal): a retry is never sent before it, and a call whose deadline
 * ends first is not retried at all. Fake timers: the waits are counted, not measured.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { retryAfterOf, retrying, type AttemptResult, type ResolvedRetryPolicy } from "../../src/client/retry.js";
import { TransportUnavailableError } from "../../src/errors/error-classes.js";

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
