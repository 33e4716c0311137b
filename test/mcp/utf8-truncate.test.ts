import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncateUtf8 } from "../../src/mcp/utf8-truncate.js";

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("truncateUtf8", () => {
  it("returns text that fits unchanged, up to exactly the bound", () => {
    expect(truncateUtf8("hello", 5)).toBe("hello");
    expect(truncateUtf8("éé", 4)).toBe("éé");
    expect(truncateUtf8("", 0)).toBe("");
  });

  it("cuts text over the bound to the longest prefix that fits with the ellipsis", () => {
    expect(truncateUtf8("abcdefghij", 8)).toBe("abcde…");
    expect(bytes(truncateUtf8("abcdefghij", 8))).toBe(8);
  });

  it("never splits a character: a two-byte, a three-byte or a surrogate pair that does not fit is left out whole", () => {
    expect(truncateUtf8("aééé", 5)).toBe("a…"); // "aé" is 3 bytes, with "…" 6
    expect(truncateUtf8("ab€€", 7)).toBe("ab…");
    expect(truncateUtf8("ab😀cde", 8)).toBe("ab…");
    expect(truncateUtf8("ab😀cdefg", 10)).toBe("ab😀c…");
  });

  it("keeps any text within the bound and a prefix of it, without a lone surrogate (generated)", () => {
    const unit = fc.constantFrom("a", "é", "€", "😀", "\n");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), fc.integer({ min: 3, max: 300 }), (text, max) => {
        const cut = truncateUtf8(text, max);
        expect(bytes(cut)).toBeLessThanOrEqual(max);
        if (cut !== text) {
          expect(cut.endsWith("…")).toBe(true);
          expect(text.startsWith(cut.slice(0, -1))).toBe(true);
          // Nothing more would have fitted: one more character of the text goes over.
          const next = [...text.slice(cut.length - 1)][0]!;
          expect(bytes(cut) + bytes(next)).toBeGreaterThan(max);
        }
        expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      }),
      { numRuns: 300 },
    );
  });
});
