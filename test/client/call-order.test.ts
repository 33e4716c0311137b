import { describe, expect, it } from "vitest";
import { CallOrder } from "../../src/client/call-order.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("CallOrder", () => {
  it("lets a call go at once when nothing waits and its validators are at hand", () => {
    const order = new CallOrder();
    expect(order.mustWait({ payload: () => true })).toBe(false);
    expect(order.mustWait(undefined)).toBe(false);
    expect(order.mustWait(Promise.resolve())).toBe(true);
  });

  it("releases calls in the order they joined, whatever order the earlier ones leave in", async () => {
    const order = new CallOrder();
    let chunk!: (value: string) => void;
    const first = order.join(new Promise<string>((resolve) => (chunk = resolve)));
    expect(order.mustWait("at hand")).toBe(true);
    const second = order.join("second");
    const third = order.join("third");
    const resumed: string[] = [];
    void second.ready.then(() => resumed.push("second"));
    void third.ready.then(() => resumed.push("third"));
    // The second call gives up (its deadline) while the first still waits: the third stays behind the first.
    second.leave();
    await tick();
    expect(resumed).toEqual([]);
    chunk("first");
    expect(await first.ready).toBe("first");
    first.leave();
    expect(await third.ready).toBe("third");
    // The second call's wait settles too, behind the first, though it no longer listens.
    expect(resumed).toEqual(["second", "third"]);
    third.leave();
    expect(order.mustWait("at hand")).toBe(false);
  });

  it("passes a failed load on to its own call only, and counts a call that leaves twice once", async () => {
    const order = new CallOrder();
    const failing = order.join(Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    const next = order.join("next");
    await expect(failing.ready).rejects.toThrow(TypeError);
    failing.leave();
    failing.leave();
    expect(await next.ready).toBe("next");
    expect(order.mustWait("at hand")).toBe(true);
    next.leave();
    expect(order.mustWait("at hand")).toBe(false);
  });
});
