import { describe, expect, it } from "vitest";
import type { ValidationIssue } from "../../src/validation/issue.js";
import { checkJson, got, gotValue, isJsonObject, ownProperty } from "../../src/validation/json-value.js";

describe("isJsonObject", () => {
  it("takes plain objects and null-prototype objects only", () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject(Object.create(null))).toBe(true);
    for (const value of [[], new Date(0), new Map(), Object.create({}), null, "x", 1])
      expect(isJsonObject(value)).toBe(false);
  });
});

describe("got and gotValue", () => {
  it("name what a value is for an issue reason", () => {
    expect(got(null)).toBe(" (got null)");
    expect(got([1])).toBe(" (got an array)");
    expect(got(Number.NaN)).toBe(" (got NaN)");
    expect(got(new Date(0))).toBe(" (got a Date instance; only plain objects are JSON)");
    expect(got(undefined)).toBe(" (got undefined)");
    expect(got("secret")).toBe(" (got string)");
  });

  it("gotValue shows a scalar itself, cut to 64 characters, and names anything else as got does", () => {
    expect(gotValue("fixed")).toBe(' (got "fixed")');
    expect(gotValue(2)).toBe(" (got 2)");
    expect(gotValue(false)).toBe(" (got false)");
    expect(gotValue("x".repeat(100))).toBe(` (got "${"x".repeat(60)}...)`);
    expect(gotValue(Number.POSITIVE_INFINITY)).toBe(" (got Infinity)");
    expect(gotValue({})).toBe(" (got object)");
  });
});

describe("checkJson", () => {
  it("reports every offending place, each at its path under the one given", () => {
    const out: ValidationIssue[] = [];
    expect(checkJson({ a: undefined, b: [1, Number.NaN], "c d": 1n, e: "fine" }, "payload", out)).toBe(false);
    expect(out.map((issue) => issue.path)).toEqual(["payload.a", "payload.b[1]", 'payload["c d"]']);
    expect(out[1]!.reason).toBe("must be a finite number; NaN is not JSON");
    expect(out[2]!.reason).toBe("is a bigint, which is not JSON");
  });

  it("gives only the verdict when no list is passed, and accepts JSON", () => {
    expect(checkJson({ a: [1, "x", null, true, { b: -0 }] }, "", null)).toBe(true);
    expect(checkJson([() => 1], "", null)).toBe(false);
  });

  it("reports a cycle where it closes", () => {
    const loop: Record<string, unknown> = { list: [] };
    (loop.list as unknown[]).push(loop);
    const out: ValidationIssue[] = [];
    expect(checkJson(loop, "doc", out)).toBe(false);
    expect(out).toEqual([
      { path: "doc.list[0]", reason: "contains a cycle (refers back to itself), which JSON cannot represent" },
    ]);
  });
});

describe("ownProperty", () => {
  it("reads own properties only, never what an object inherits", () => {
    const record: Record<string, number> = { a: 1 };
    expect(ownProperty(record, "a")).toBe(1);
    for (const key of ["toString", "constructor", "__proto__", "b"]) expect(ownProperty(record, key)).toBeUndefined();
    expect(ownProperty(undefined, "a")).toBeUndefined();
    expect(ownProperty(null, "a")).toBeUndefined();
  });
});
