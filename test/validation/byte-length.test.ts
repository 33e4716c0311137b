import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonByteLength, jsonStringLength, utf8Length } from "../../src/validation/byte-length.js";
import { MAX_JSON_DEPTH } from "../../src/validation/json-depth.js";

const encoded = (text: string): number => new TextEncoder().encode(text).length;

/** Strings mixing ASCII, controls, quotes, two-, three- and four-byte characters and lone surrogates. */
const awkward = fc.string({
  unit: fc.constantFrom("a", '"', "\\", "\n", "\t", "\u0001", "\u007f", "é", "€", "😀", "\ud800", "\udc00", "\u2028"),
  maxLength: 60,
});

describe("utf8Length", () => {
  it("counts one, two, three and four bytes per character", () => {
    expect(utf8Length("")).toBe(0);
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("€")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
  });

  it("counts a lone surrogate as the three bytes of U+FFFD, as TextEncoder writes it", () => {
    expect(utf8Length("\ud800")).toBe(3);
    expect(utf8Length("\udc00x")).toBe(4);
    expect(utf8Length("\ud800\ud800\udc00")).toBe(7);
  });

  it("agrees with TextEncoder on any string (generated)", () => {
    fc.assert(
      fc.property(awkward, (text) => {
        expect(utf8Length(text)).toBe(encoded(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe("jsonStringLength", () => {
  it("counts the quotes and the escapes JSON.stringify writes", () => {
    expect(jsonStringLength("")).toBe(2);
    expect(jsonStringLength('a"b\\')).toBe(8);
    expect(jsonStringLength("\n\u0001")).toBe(10);
    expect(jsonStringLength("\ud800")).toBe(8); // written as \ud800
  });

  it("agrees with the bytes of JSON.stringify on any string (generated)", () => {
    fc.assert(
      fc.property(awkward, (text) => {
        expect(jsonStringLength(text)).toBe(encoded(JSON.stringify(text)));
      }),
      { numRuns: 500 },
    );
  });
});

describe("jsonByteLength", () => {
  it("agrees with the bytes of JSON.stringify on any JSON value (generated)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonByteLength(value)).toBe(encoded(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("skips undefined, function and symbol fields as JSON.stringify does", () => {
    const value = { a: 1, b: undefined, c: () => 1, d: Symbol("s"), e: [] };
    expect(jsonByteLength(value)).toBe(encoded(JSON.stringify(value)));
    expect(jsonByteLength({ only: undefined })).toBe(2);
  });

  it("stops counting past the limit, returning a number above it", () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => `item-${i}`) };
    const full = encoded(JSON.stringify(big));
    const measured = jsonByteLength(big, 100);
    expect(measured).toBeGreaterThan(100);
    expect(measured).toBeLessThan(full);
    expect(jsonByteLength(big, full)).toBe(full);
  });

  it("measures a value nested past the depth bound as infinitely long", () => {
    let deep: unknown = [];
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = [deep];
    expect(jsonByteLength(deep)).toBe(Number.POSITIVE_INFINITY);
  });
});
