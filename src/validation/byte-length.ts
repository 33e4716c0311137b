import { MAX_JSON_DEPTH } from "./json-depth.js";

/** Runs of characters outside ASCII: the only ones that take more than a byte each. */
const NON_ASCII = /[^\x00-\x7f]+/g;

/**
 * The length of a string in UTF-8 bytes, computed without encoding it. A lone surrogate counts as
 * the three bytes of U+FFFD, as `TextEncoder` would write it. The regular expression skips runs of
 * ASCII in native code (3-4 times faster than reading every character in JavaScript, on 100 KB of
 * JSON); only the characters outside it are looked at one by one.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  NON_ASCII.lastIndex = 0;
  for (let match = NON_ASCII.exec(text); match !== null; match = NON_ASCII.exec(text)) {
    const run = match[0];
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c < 0x800) {
        bytes += 1;
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < run.length && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 2; // the pair: two code units, four bytes
        i++;
      } else {
        bytes += 2; // three bytes, and a lone surrogate as U+FFFD
      }
    }
  }
  return bytes;
}

/** Bytes of a string in compact JSON, quotes and escapes included, as `JSON.stringify` writes it. */
export function jsonStringLength(text: string): number {
  let bytes = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x80) {
      if (c === 0x22 || c === 0x5c) bytes += 1; // \" and \\
      continue;
    }
    if (c < 0x20) {
      // \b \t \n \f \r are two bytes, the other controls \u00XX six
      bytes += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    } else if (c < 0x800) {
      bytes += 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pairs = c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pairs) {
        bytes += 2;
        i++;
      } else {
        bytes += 5; // a lone surrogate is written as \uXXXX
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/**
 * The length in UTF-8 bytes of `JSON.stringify(value)` (compact), computed without building the
 * string. Stops counting once the total passes `limit` and returns a number above it, so checking a
 * bound costs no more than reading up to that bound. The value must already be known to be JSON; one
 * nested more than {@link MAX_JSON_DEPTH} levels deep measures as infinitely long (over any bound).
 */
export function jsonByteLength(value: unknown, limit = Number.POSITIVE_INFINITY, depth = 0): number {
  switch (typeof value) {
    case "string":
      return jsonStringLength(value);
    case "number":
      return String(value).length;
    case "boolean":
      return value ? 4 : 5;
    case "object":
      break;
    default:
      return 0;
  }
  if (value === null) return 4;
  if (depth >= MAX_JSON_DEPTH) return Number.POSITIVE_INFINITY;
  if (Array.isArray(value)) {
    let bytes = value.length === 0 ? 2 : value.length + 1; // brackets and commas
    for (let i = 0; i < value.length && bytes <= limit; i++)
      bytes += jsonByteLength(value[i], limit - bytes, depth + 1);
    return bytes;
  }
  let bytes = 1;
  let fields = 0;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    fields++;
    bytes += jsonStringLength(key) + 1 + jsonByteLength(item, limit - bytes, depth + 1);
    if (bytes > limit) return bytes;
  }
  return bytes + (fields === 0 ? 1 : fields);
}
