import { describe, expect, it } from "vitest";
import { SlotList } from "../../src/collections/slot-list.js";
import { SlotTable } from "../../src/collections/slot-table.js";

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

describe("SlotTable: keyed short-lived entries", () => {
  it('keeps 1 and "1" apart, like a Map', () => {
    const table = new SlotTable<string | number, { v: string }>();
    table.set(1, { v: "number" });
    table.set("1", { v: "string" });
    expect(table.get(1)).toEqual({ v: "number" });
    expect(table.get("1")).toEqual({ v: "string" });
    expect(table.size).toBe(2);
  });

  it("set replaces a key's value; take removes and returns it; delete says whether there was one", () => {
    const table = new SlotTable<string, { v: number }>();
    table.set("a", { v: 1 });
    table.set("a", { v: 2 });
    expect(table.size).toBe(1);
    expect(table.values()).toEqual([{ v: 2 }]);
    expect(table.has("a")).toBe(true);
    expect(table.take("a")).toEqual({ v: 2 });
    expect(table.has("a")).toBe(false);
    expect(table.take("a")).toBeUndefined();
    table.set("b", { v: 3 });
    expect(table.delete("b")).toBe(true);
    expect(table.delete("b")).toBe(false);
  });

  it("holds many entries through churn and clears to what it held", () => {
    const table = new SlotTable<number, { v: number }>();
    for (let i = 0; i < 1000; i++) {
      table.set(i, { v: i });
      if (i >= 4) expect(table.take(i - 4)).toEqual({ v: i - 4 });
    }
    expect(table.size).toBe(4);
    expect(
      table
        .clear()
        .map((entry) => entry.v)
        .sort((x, y) => x - y),
    ).toEqual([996, 997, 998, 999]);
    expect(table.size).toBe(0);
    expect(table.get(999)).toBeUndefined();
  });
});
