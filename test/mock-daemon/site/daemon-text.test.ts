import { describe, expect, it } from "vitest";
import {
  asciiLowercase,
  compareCodePoints,
  debugQuoted,
  normalizedName,
  sortedKeyJson,
  sortedKeys,
  sortedUnique,
  variantName,
} from "../../../src/mock-daemon/site/daemon-text.js";

describe("compareCodePoints", () => {
  it("orders by code point, where UTF-16 order puts U+FFFF after an astral character", () => {
    const astral = "😀"; // U+1F600: code units D83D DE00
    const bmp = "\uffff";
    expect(bmp < astral).toBe(false); // JavaScript's order
    expect(compareCodePoints(bmp, astral)).toBe(-1);
    expect(compareCodePoints(astral, bmp)).toBe(1);
  });

  it("puts a prefix first and equal strings together", () => {
    expect(compareCodePoints("ab", "abc")).toBe(-1);
    expect(compareCodePoints("abc", "ab")).toBe(1);
    expect(compareCodePoints("x😀", "x😀")).toBe(0);
    expect(compareCodePoints("B", "a")).toBe(-1);
  });
});

describe("sortedUnique", () => {
  it("sorts by code point and drops repeats", () => {
    expect(sortedUnique(["b", "😀", "a", "\uffff", "b"])).toEqual(["a", "b", "\uffff", "😀"]);
  });
});

describe("variantName and asciiLowercase", () => {
  it("capitalise the first letter as a Rust variant, and lower-case ASCII letters only", () => {
    expect(variantName("accessibility")).toBe("Accessibility");
    expect(variantName("")).toBe("");
    expect(asciiLowercase("ÉCOLE Name")).toBe("École name"); // É is not ASCII: it stays
  });
});

describe("debugQuoted", () => {
  it("quotes as Rust's debug output: escaped quotes, backslashes and line breaks, other controls as \\u{…}", () => {
    expect(debugQuoted("table-loans")).toBe('"table-loans"');
    expect(debugQuoted('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(debugQuoted("1\n2\r3\t4")).toBe('"1\\n2\\r3\\t4"');
    expect(debugQuoted("\u0001\u007f")).toBe('"\\u{1}\\u{7f}"');
    expect(debugQuoted("é😀")).toBe('"é😀"');
  });
});

describe("normalizedName", () => {
  it("keeps letters and digits only, each lower-cased", () => {
    expect(normalizedName("Sign-in")).toBe("signin");
    expect(normalizedName("sign in")).toBe("signin");
    expect(normalizedName("Étape 2: Überblick!")).toBe("étape2überblick");
  });
});

describe("sortedKeyJson and sortedKeys", () => {
  it("write keys in code-point order at every depth, skipping undefined members", () => {
    const value = { "😀": 1, "\uffff": 2, a: { z: [{ y: 1, b: undefined, x: 2 }] } };
    expect(sortedKeyJson(value)).toBe('{"a":{"z":[{"x":2,"y":1}]},"\uffff":2,"😀":1}');
    expect(Object.keys(sortedKeys(value))).toEqual(["a", "\uffff", "😀"]);
    expect(sortedKeys(value).a.z[0]).toEqual({ x: 2, y: 1 });
    expect(Object.keys(sortedKeys(value).a.z[0]!)).toEqual(["x", "y"]);
    expect(sortedKeyJson(undefined)).toBe("null");
  });
});
