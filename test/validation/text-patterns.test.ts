import { describe, expect, it } from "vitest";
import { isIdentifierText, isNonWhiteSpaceText, KNOWN_PATTERNS } from "../../src/validation/text-patterns.js";

const implementations: Record<string, (text: string) => boolean> = { isIdentifierText, isNonWhiteSpaceText };

describe("hand-written pattern equivalents", () => {
  it.each(Object.entries(KNOWN_PATTERNS))(
    "%s agrees with the regular expression on every code point",
    (pattern, name) => {
      const regex = new RegExp(pattern, "u");
      const fast = implementations[name]!;
      const disagreements: number[] = [];
      for (let cp = 0; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const one = String.fromCodePoint(cp);
        if (regex.test(one) !== fast(one) || regex.test(`a${one}b`) !== fast(`a${one}b`)) disagreements.push(cp);
      }
      for (const text of ["", "\ud800", "a\udc00", "\ud83d\ude00x", "café-猫"]) {
        if (regex.test(text) !== fast(text)) disagreements.push(-1);
      }
      expect(disagreements).toEqual([]);
    },
  );

  it("treats U+FEFF as a printable character, as the daemon does (it is not White_Space)", () => {
    expect(isIdentifierText("a\ufeffb")).toBe(true);
    expect(isIdentifierText("a\u00a0b")).toBe(false);
    expect(isIdentifierText("a\u0085b")).toBe(false);
  });
});
