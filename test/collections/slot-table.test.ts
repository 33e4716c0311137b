import { describe, expect, it } from "vitest";
import { SlotTable } from "../../src/collections/slot-table.js";

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
