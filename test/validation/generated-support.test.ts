import { describe, expect, it } from "vitest";
import {
  codePointLength,
  duplicateIndex,
  fail,
  failUnion,
  type GeneratedValidator,
  lookupTable,
  scratch,
} from "../../src/validation/generated-support.js";
import type { ValidationIssue } from "../../src/validation/issue.js";
import { MAX_JSON_DEPTH } from "../../src/validation/json-depth.js";
import { nestedArrays } from "./support/nested-arrays.js";

describe("lookupTable", () => {
  it("finds only the names it lists, never what an object inherits, and cannot be changed", () => {
    const table = lookupTable({ "browser.click": 1 });
    expect(table["browser.click"]).toBe(1);
    for (const name of ["constructor", "__proto__", "toString"]) expect(table[name], name).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });
});

describe("fail and scratch", () => {
  it("fail records the issue and returns false; scratch hands back an empty list each time", () => {
    const out: ValidationIssue[] = [];
    expect(fail(out, "a", "is required")).toBe(false);
    expect(out).toEqual([{ path: "a", reason: "is required" }]);
    scratch().push({ path: "x", reason: "y" });
    expect(scratch()).toEqual([]);
  });
});

describe("codePointLength", () => {
  it("counts a surrogate pair as one code point and a lone surrogate as one", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀é")).toBe(2);
    expect(codePointLength("\ud800x")).toBe(2);
    expect(codePointLength("\udc00\ud800")).toBe(2);
  });
});

describe("duplicateIndex", () => {
  it("finds the first item equal to an earlier one in a short list of primitives", () => {
    expect(duplicateIndex(["dom", "accessibility", "dom"])).toBe(2);
    expect(duplicateIndex([1, "1", true, null])).toBe(-1);
    expect(duplicateIndex([])).toBe(-1);
  });

  it('compares objects as JSON, whatever their key order, and keeps 1 and "1" apart in a long list', () => {
    expect(duplicateIndex([{ a: 1, b: [2] }, { c: 1 }, { b: [2], a: 1 }])).toBe(2);
    const long = [...Array.from({ length: 20 }, (_, i) => i), "5"];
    expect(duplicateIndex(long)).toBe(-1);
    expect(duplicateIndex([...long, 7])).toBe(21);
  });

  it("throws a RangeError for an item nested past the depth bound, which the validators report", () => {
    expect(() => duplicateIndex([nestedArrays(MAX_JSON_DEPTH + 1), []])).toThrow(RangeError);
  });
});

describe("failUnion", () => {
  /** A form that wants the keys given, each a string. */
  const wants =
    (...keys: string[]): GeneratedValidator =>
    (x, p, out) => {
      if (typeof x !== "object" || x === null || Array.isArray(x)) return fail(out!, p, "must be an object");
      let ok = true;
      for (const key of keys) {
        const value = (x as Record<string, unknown>)[key];
        if (value === undefined) ok = fail(out!, `${p}.${key}`, "is required");
        else if (typeof value !== "string") ok = fail(out!, `${p}.${key}`, "must be a string");
      }
      return ok;
    };
  const isString: GeneratedValidator = (x, p, out) => typeof x === "string" || fail(out!, p, "must be a string");

  it("reports the issues of the form closest to the value: the one missing fewest of its keys", () => {
    const out: ValidationIssue[] = [];
    expect(failUnion(out, "scope", { region: 5 }, [wants("kind", "name"), wants("region")], "")).toBe(false);
    expect(out).toEqual([{ path: "scope.region", reason: "must be a string" }]);
  });

  it("lists what each form wanted when none got past the value's own type", () => {
    const out: ValidationIssue[] = [];
    failUnion(out, "target", 5, [isString, wants("ref")], "");
    expect(out).toEqual([{ path: "target", reason: "must be a string; or must be an object" }]);
  });

  it("gives the schema's own reason instead, unless a form has every key it requires", () => {
    const out: ValidationIssue[] = [];
    failUnion(out, "t", 5, [isString, wants("ref")], "must be a reference or a name");
    failUnion(out, "u", {}, [wants("ref")], "must be a reference or a name");
    failUnion(out, "v", { ref: 1 }, [wants("ref")], "must be a reference or a name");
    expect(out).toEqual([
      { path: "t", reason: "must be a reference or a name" },
      { path: "u", reason: "must be a reference or a name" },
      { path: "v.ref", reason: "must be a string" },
    ]);
  });

  it("says that nothing matched when the forms gave no reason", () => {
    const out: ValidationIssue[] = [];
    failUnion(out, "x", 1, [() => false], "");
    expect(out).toEqual([{ path: "x", reason: "does not match any allowed form" }]);
  });
});
