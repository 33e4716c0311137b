import { describe, expect, it } from "vitest";
import { SlotList } from "../../src/collections/slot-list.js";

describe("SlotList: values in reusable slots", () => {
  it("hands out slots, gives back what a slot holds, and reuses emptied slots", () => {
    const list = new SlotList<{ n: number }>();
    const a = { n: 1 };
    const b = { n: 2 };
    const slotA = list.add(a);
    const slotB = list.add(b);
    expect(slotA).not.toBe(slotB);
    expect(list.get(slotA)).toBe(a);
    expect(list.size).toBe(2);
    expect(list.remove(slotA)).toBe(a);
    expect(list.get(slotA)).toBeUndefined();
    expect(list.remove(slotA)).toBeUndefined();
    expect(list.size).toBe(1);
    const c = { n: 3 };
    expect(list.add(c)).toBe(slotA);
    expect(list.values()).toEqual([c, b]);
  });

  it("release empties a slot only while it still holds the value (a settled value cannot empty the slot's next holder)", () => {
    const list = new SlotList<{ n: number }>();
    const first = { n: 1 };
    const slot = list.add(first);
    expect(list.release(slot, first)).toBe(true);
    const next = { n: 2 };
    expect(list.add(next)).toBe(slot);
    expect(list.release(slot, first)).toBe(false);
    expect(list.get(slot)).toBe(next);
    expect(list.release(slot, next)).toBe(true);
    expect(list.size).toBe(0);
  });

  it("delete finds a value wherever it is; values() is a copy, so settling each while going through it is safe", () => {
    const list = new SlotList<() => void>();
    const settled: number[] = [];
    const callbacks = [0, 1, 2].map((n) => {
      const callback = (): void => {
        if (list.delete(callback)) settled.push(n);
      };
      list.add(callback);
      return callback;
    });
    for (const callback of list.values()) callback();
    expect(settled).toEqual([0, 1, 2]);
    expect(list.size).toBe(0);
    expect(list.delete(callbacks[0]!)).toBe(false);
  });

  it("clear empties every slot and returns what was held", () => {
    const list = new SlotList<{ n: number }>();
    const held = [{ n: 1 }, { n: 2 }];
    for (const value of held) list.add(value);
    expect(list.clear()).toEqual(held);
    expect(list.size).toBe(0);
    expect(list.values()).toEqual([]);
    expect(list.add({ n: 3 })).toBe(0);
  });
});
