import { utf8Length } from "../validation/byte-length.js";

/**
 * Shortens text to at most `maxBytes` UTF-8 bytes without splitting a character, ending with "…"
 * when it had to cut. Error codes and messages have byte limits (64 and 512).
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  const budget = maxBytes - 3; // room for "…"
  // The longest prefix that fits, measured in one pass as utf8Length measures a prefix: a high
  // surrogate counts 3 bytes until the low surrogate after it makes the pair 4.
  let bytes = 0;
  let end = 0;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    const size =
      c < 0x80
        ? 1
        : c < 0x800
          ? 2
          : (c & 0xfc00) === 0xdc00 && end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800
            ? 1
            : 3;
    if (bytes + size > budget) break;
    bytes += size;
  }
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not leave half a surrogate pair
  return `${text.slice(0, end)}…`;
}
