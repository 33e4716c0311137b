import { MAX_JSON_DEPTH, TOO_DEEP_REASON } from "./json-depth.js";
import { joinIndex, joinPath, type ValidationIssue } from "./issue.js";

/** Any value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Names what a non-JSON value is, for issue reasons: `got(undefined)` is ` (got undefined)`.
 * Only called when an issue is being reported.
 */
export function got(value: unknown): string {
  if (value === null) return " (got null)";
  if (Array.isArray(value)) return " (got an array)";
  if (typeof value === "number" && !Number.isFinite(value)) return ` (got ${String(value)})`;
  if (typeof value === "object" && !isJsonObject(value))
    return ` (got a ${instanceName(value)} instance; only plain objects are JSON)`;
  return ` (got ${typeof value})`;
}

/**
 * Like {@link got} but shows a string, number or boolean itself (` (got "fixed")`, ` (got 2)`),
 * shortened to 64 characters. Used for enum and const failures, whose values are not secrets.
 */
export function gotValue(value: unknown): string {
  if (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  ) {
    const text = JSON.stringify(value);
    return ` (got ${text.length > 64 ? `${text.slice(0, 61)}...` : text})`;
  }
  return got(value);
}

/**
 * Whether a value is a plain object — what `JSON.parse` makes and `JSON.stringify` writes field by
 * field. Arrays, class instances, Dates, Maps and objects with another prototype are not: their
 * JSON is not the fields a validator would read.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function instanceName(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? name : "non-plain object";
}

/**
 * Checks that a value is JSON-shaped: null, a boolean, a finite number, a string, an array or a
 * plain object of such values, with no `undefined` fields, functions, symbols, bigints, cycles or
 * class instances, nested at most {@link MAX_JSON_DEPTH} levels deep. Reports every offending place
 * in `out` (or stops at the first when `out` is `null`) and never throws.
 */
export function checkJson(value: unknown, path: string, out: ValidationIssue[] | null): boolean {
  // Collecting issues is the slow path anyway: track ancestors from the start, so a cycle is
  // reported where it closes. The verdict-only path tracks them only below a depth.
  return walk(value, path, out, 0, out === null ? null : []);
}

/** Below this depth no cycle is possible without passing it, so ancestors are tracked only deeper. */
const TRACK_CYCLES_BELOW = 64;

function walk(
  value: unknown,
  path: string,
  out: ValidationIssue[] | null,
  depth: number,
  ancestors: object[] | null,
): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      if (Number.isFinite(value)) return true;
      return report(out, path, `must be a finite number; ${String(value)} is not JSON`);
    case "undefined":
      return report(out, path, "is undefined, which is not JSON: omit the field or give it a value");
    case "object":
      break;
    default:
      return report(out, path, `is a ${typeof value}, which is not JSON`);
  }
  if (value === null) return true;
  if (depth >= MAX_JSON_DEPTH) return report(out, path, TOO_DEEP_REASON);
  let tracked = ancestors;
  if (tracked === null && depth >= TRACK_CYCLES_BELOW) tracked = [];
  if (tracked !== null) {
    if (tracked.includes(value))
      return report(out, path, "contains a cycle (refers back to itself), which JSON cannot represent");
    tracked.push(value);
  }
  let ok = true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!walk(value[i], out === null ? "" : joinIndex(path, i), out, depth + 1, tracked)) {
        ok = false;
        if (out === null) break;
      }
    }
  } else if (!isJsonObject(value)) {
    ok = report(out, path, `is a ${instanceName(value)} instance; only plain objects are JSON`);
  } else {
    for (const key in value) {
      if (
        !walk((value as Record<string, unknown>)[key], out === null ? "" : joinPath(path, key), out, depth + 1, tracked)
      ) {
        ok = false;
        if (out === null) break;
      }
    }
  }
  if (tracked !== null) tracked.pop();
  return ok;
}

function report(out: ValidationIssue[] | null, path: string, reason: string): false {
  if (out !== null) out.push({ path, reason });
  return false;
}

/**
 * The value an object holds under `key` as its own property, or `undefined`: what a lookup by a
 * name that came from outside (a daemon, a caller) must use, so that `constructor`, `toString` or
 * `__proto__` never reach what the object inherits.
 */
export function ownProperty<T>(record: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  return record !== undefined && record !== null && typeof key === "string" && Object.hasOwn(record, key)
    ? record[key]
    : undefined;
}
