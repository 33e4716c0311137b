import { describe, expect, it } from "vitest";
import { escapePointer, payloadDifferences, previewJson } from "../../src/mock-daemon/payload-difference.js";

describe("payloadDifferences", () => {
  it("counts a field missing on one side once, and a value of another kind as one difference", () => {
    expect(payloadDifferences({ scope: "page" }, { scope: { region: "main", kind: "form" } })).toEqual([
      { path: "/scope", sent: "page", recorded: { region: "main", kind: "form" } },
    ]);
    expect(payloadDifferences({}, { scope: { region: "main", kind: "form" } })).toEqual([
      { path: "/scope", recorded: { region: "main", kind: "form" } },
    ]);
    expect(payloadDifferences({ a: { b: [1, { c: 2 }] } }, { b: 1, a: { b: [1, { c: 2 }] } })).toEqual([
      { path: "/b", recorded: 1 },
    ]);
  });

  it("finds no difference between payloads equal as JSON, whatever their key order", () => {
    expect(
      payloadDifferences({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    ).toEqual([]);
    expect(payloadDifferences("same", "same")).toEqual([]);
  });

  it('gives the payload itself the path "" when the two are leaves that differ', () => {
    expect(payloadDifferences(1, 2)).toEqual([{ path: "", sent: 1, recorded: 2 }]);
    expect(payloadDifferences([1], { 0: 1 })).toEqual([{ path: "", sent: [1], recorded: { 0: 1 } }]);
  });

  it("lists differences sorted by path and stops at max", () => {
    const sent = { c: 1, a: 1, b: 1 };
    const recorded = { c: 2, a: 2, b: 2 };
    expect(payloadDifferences(sent, recorded).map((difference) => difference.path)).toEqual(["/a", "/b", "/c"]);
    expect(payloadDifferences(sent, recorded, 2).map((difference) => difference.path)).toEqual(["/a", "/b"]);
  });
});

describe("escapePointer", () => {
  it("writes ~ as ~0 and / as ~1, ~ first so that the two never mix", () => {
    expect(escapePointer("a/b~c")).toBe("a~1b~0c");
    expect(escapePointer("~1")).toBe("~01");
    expect(escapePointer("plain")).toBe("plain");
  });
});

describe("previewJson", () => {
  it("is the compact JSON of a value that fits", () => {
    expect(previewJson({ a: [1, "x"], b: null }, 100)).toBe('{"a":[1,"x"],"b":null}');
    expect(previewJson(undefined, 10)).toBe("null");
  });

  it("shows the beginning of a larger value within the bound, ending in an ellipsis", () => {
    const big = { items: Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `item ${"é".repeat(20)}` })) };
    const preview = previewJson(big, 120);
    expect(Buffer.byteLength(preview)).toBeLessThanOrEqual(120);
    expect(preview.endsWith("…")).toBe(true);
    expect(JSON.stringify(big).startsWith(preview.slice(0, -1))).toBe(true);
  });

  it("shows only the beginning of one huge string", () => {
    const preview = previewJson("x".repeat(1_000_000), 40);
    expect(preview).toBe(`"${"x".repeat(36)}…`);
  });
});
