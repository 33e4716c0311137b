/**
 * Hand-written equivalents of the regular expressions the schemas use most, for speed: the
 * generator calls these instead of the pattern (test/text-patterns.test.ts proves them equal to
 * the pattern over every code point).
 */

/** Unicode White_Space (what Rust's `char::is_whitespace` and the regex `\p{White_Space}` match). */
function isWhiteSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * `^[^\p{White_Space}\u0000-\u001F\u007F-\u009F]+$`: non-empty, no Unicode whitespace, no control
 * characters (the Glass identifier rule).
 */
export function isIdentifierText(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    if (c <= 0x20 || (c >= 0x7f && c <= 0xa0)) return false;
    if (c >= 0x1680 && isWhiteSpace(c)) return false;
  }
  return true;
}

/** `^[^\p{White_Space}]+$`: non-empty and free of Unicode whitespace (operation names). */
export function isNonWhiteSpaceText(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    if (isWhiteSpace(c)) return false;
  }
  return true;
}

/** Schema patterns that have a hand-written equivalent, and its name in this module. */
export const KNOWN_PATTERNS: Readonly<Record<string, string>> = {
  "^[^\\p{White_Space}\\u0000-\\u001F\\u007F-\\u009F]+$": "isIdentifierText",
  "^[^\\p{White_Space}]+$": "isNonWhiteSpaceText",
};
