import { describe, expect, it } from "vitest";
import { InFlightLimiter } from "../../src/client/in-flight-limiter.js";

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("InFlightLimiter", () => {
  it("refuses a limit that is not a positive integer", () => {
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new InFlightLimiter(limit), String(limit)).toThrow(RangeError);
    expect(new InFlightLimiter(1).limit).toBe(1);
  });

  it("hands out free slots up to the limit and none beyond it", () => {
    const limiter = new InFlightLimiter(2);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
    expect(limiter.inFlight).toBe(2);
    limiter.release();
    expect(limiter.inFlight).toBe(1);
    expect(limiter.tryAcquire()).toBe(true);
  });

  it("grants waiters in the order they came, each taking the slot given back", async () => {
    const limiter = new InFlightLimiter(1);
    expect(limiter.tryAcquire()).toBe(true);
    const first = limiter.wait();
    const second = limiter.wait();
    expect(limiter.queued).toBe(2);
    limiter.release();
    expect(await settled(first.granted)).toBe(true);
    expect(await settled(second.granted)).toBe(false);
    // The slot passed to the first waiter: still one in flight.
    expect(limiter.inFlight).toBe(1);
    expect(limiter.queued).toBe(1);
    limiter.release();
    expect(await settled(second.granted)).toBe(true);
    limiter.release();
    expect(limiter.inFlight).toBe(0);
  });

  it("does not let a new caller take a free slot ahead of someone waiting", () => {
    const limiter = new InFlightLimiter(1);
    limiter.tryAcquire();
    limiter.wait();
    limiter.release();
    expect(limiter.tryAcquire()).toBe(false);
  });

  it("a cancelled wait takes no slot: a release goes to the next waiter or frees the slot", async () => {
    const limiter = new InFlightLimiter(1);
    limiter.tryAcquire();
    const gaveUp = limiter.wait();
    const stays = limiter.wait();
    gaveUp.cancel();
    expect(limiter.queued).toBe(1);
    limiter.release();
    expect(await settled(stays.granted)).toBe(true);
    expect(await settled(gaveUp.granted)).toBe(false);
    stays.cancel(); // after the grant: changes nothing
    limiter.release();
    expect(limiter.inFlight).toBe(0);
    expect(limiter.tryAcquire()).toBe(true);
  });

  it("never counts below zero when released more often than acquired", () => {
    const limiter = new InFlightLimiter(1);
    limiter.release();
    expect(limiter.inFlight).toBe(0);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
  });
});
