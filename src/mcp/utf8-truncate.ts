import { utf8Length } from "../validation/byte-length.js";

/**
 * Shortens text to at most `maxBytes` UTF-8 bytes without splitting a character, ending with "…"
 * when it had to cut. Error codes and messages have byte limits (64 and 512).
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  const budget = maxBytes - 3; // room for "…"
  while (end > 0 && utf8Length(text.slice(0, end)) > budget) end = Math.floor(end * 0.9);
  while (end < text.length && utf8Length(text.slice(0, end + 1)) <= budget) end++;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // do not leave half a surrogate pair
  return `${text.slice(0, end)}…`;
}
