/**
 * How the daemon (glass-browser, written in Rust) orders, compares and prints text, for the
 * answers the simulated site computes the daemon's way.
 */

/**
 * Orders two strings as the daemon's sorted maps and sorts do: by code point, which is the order
 * of their UTF-8 bytes (JavaScript's `<` compares UTF-16 code units, which differs past U+FFFF).
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(j) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return i >= a.length ? -1 : 1;
}

/** `values` sorted by {@link compareCodePoints}, without repeats. */
export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

/** A camelCase enum value as the daemon's debug output names its variant (`accessibility` → `Accessibility`). */
export function variantName(value: string): string {
  return value.slice(0, 1).toUpperCase() + value.slice(1);
}

/** A string as the daemon's debug output quotes it (`"table-loans"`). */
export function debugQuoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

/** Lower-cases ASCII letters only, as the daemon's `to_ascii_lowercase`. */
export function asciiLowercase(value: string): string {
  return value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

const ALPHANUMERIC = /[\p{Alphabetic}\p{N}]/u;

/**
 * A name as the task compiler matches names: its letters and digits only, each lower-cased on its
 * own (`"Sign-in"` and `"sign in"` are both `signin`).
 */
export function normalizedName(value: string): string {
  let out = "";
  for (const char of value) if (ALPHANUMERIC.test(char)) out += char.toLowerCase();
  return out;
}

/**
 * Compact JSON with every object's keys sorted by {@link compareCodePoints}, as the daemon
 * serialises a `serde_json` value (its maps are sorted): the material it hashes.
 */
export function sortedKeyJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(sortedKeyJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareCodePoints);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedKeyJson(record[key])}`).join(",")}}`;
}

/**
 * A copy of `value` with every object's keys in code-point order, as the daemon sends a result it
 * builds as a `serde_json` value (findTarget, inspectPage, task.execute).
 */
export function sortedKeys<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareCodePoints);
  return Object.fromEntries(keys.map((key) => [key, sortedKeys(record[key])])) as T;
}
