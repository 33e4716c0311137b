import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineScheduler } from "../../src/client/deadline-scheduler.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("DeadlineScheduler", () => {
  it("fires each deadline at its time, in order, with one timer, and never fires a cancelled one", () => {
    vi.useFakeTimers();
    const scheduler = new DeadlineScheduler();
    const fired: string[] = [];
    const now = Date.now();
    const entries = [50, 10, 30, 20, 40].map((ms) => scheduler.schedule(now + ms, () => fired.push(`t${ms}`)));
    scheduler.cancel(entries[2]!); // 30
    scheduler.cancel(entries[2]!); // twice is a no-op
    vi.advanceTimersByTime(25);
    expect(fired).toEqual(["t10", "t20"]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(["t10", "t20", "t40", "t50"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the heap ordered through many random schedules and cancels", () => {
    vi.useFakeTimers();
    const scheduler = new DeadlineScheduler();
    const now = Date.now();
    const fired: number[] = [];
    const expected: number[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const live = [];
    for (let i = 0; i < 500; i++) {
      const at = now + 1 + Math.floor(random() * 1000);
      const entry = scheduler.schedule(at, () => fired.push(at));
      if (random() < 0.4) scheduler.cancel(entry);
      else live.push(at);
    }
    expected.push(...live.sort((a, b) => a - b));
    vi.advanceTimersByTime(2000);
    expect(fired).toEqual(expected);
  });

  it("stop() clears the timer and forgets the deadlines", () => {
    vi.useFakeTimers();
    const scheduler = new DeadlineScheduler();
    const fire = vi.fn();
    scheduler.schedule(Date.now() + 10, fire);
    scheduler.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(fire).not.toHaveBeenCalled();
  });
});
