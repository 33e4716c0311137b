import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../src/mock-daemon/deep-freeze.js";

describe("deepFreeze", () => {
  it("freezes the value and everything reachable from it, and returns the value itself", () => {
    const answer = { result: { items: [{ name: "a" }, [1, 2]] }, note: "x" };
    expect(deepFreeze(answer)).toBe(answer);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.result)).toBe(true);
    expect(Object.isFrozen(answer.result.items)).toBe(true);
    expect(Object.isFrozen(answer.result.items[0])).toBe(true);
    expect(Object.isFrozen(answer.result.items[1])).toBe(true);
  });

  it("makes a shared answer unchangeable by one caller under another", () => {
    const shared = deepFreeze({ list: [{ count: 1 }] });
    expect(() => {
      (shared.list[0] as { count: number }).count = 2;
    }).toThrow(TypeError);
    expect(() => (shared.list as unknown[]).push({})).toThrow(TypeError);
    expect(shared.list).toEqual([{ count: 1 }]);
  });

  it("returns scalars as they are and stops at a cycle", () => {
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBeNull();
    const loop: { self?: unknown; inner: { n: number } } = { inner: { n: 1 } };
    loop.self = loop;
    expect(deepFreeze(loop)).toBe(loop);
    expect(Object.isFrozen(loop.inner)).toBe(true);
  });

  it("does not go into an object that was already frozen", () => {
    const inner = { n: 1 };
    const outer = Object.freeze({ inner });
    deepFreeze({ outer });
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
