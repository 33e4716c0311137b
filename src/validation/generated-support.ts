/**
 * Small run-time helpers the generated validators call (see codegen/validator-compiler.ts); the
 * others live next to what they measure (path.ts, json-value.ts, byte-length.ts, rules/). All are
 * plain code: the validators need no schema interpreter, `eval` or ajv.
 */
import { MAX_JSON_DEPTH, TOO_DEEP_REASON } from "./json-depth.js";
import { joinPath, type ValidationIssue } from "./issue.js";

/** A generated validator: `out === null` asks only for the verdict; an array collects every issue. */
export type GeneratedValidator = (x: unknown, p: string, out: ValidationIssue[] | null) => boolean;

/**
 * A generated lookup table (validators by operation name): a frozen copy of `entries` without a
 * prototype, so a name from outside (`constructor`, `__proto__`) finds nothing it did not list.
 */
export function lookupTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** Records an issue and returns `false`, so generated code can write `ok = fail(...)`. */
export function fail(out: ValidationIssue[], path: string, reason: string): false {
  out.push({ path, reason });
  return false;
}

const discarded: ValidationIssue[] = [];

/** A throwaway issue list for rules run while only the verdict is wanted. */
export function scratch(): ValidationIssue[] {
  if (discarded.length !== 0) discarded.length = 0;
  return discarded;
}

/** Number of Unicode code points in a string (what JSON Schema's minLength/maxLength count). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/** Index of the first item equal (as JSON) to an earlier one, or -1 when all items differ. */
export function duplicateIndex(items: unknown[]): number {
  if (items.length < 2) return -1;
  if (items.length <= 16) {
    // Short lists of primitives (evidence sources, missing sources): comparing beats hashing.
    let primitives = true;
    for (let i = 0; i < items.length && primitives; i++) primitives = items[i] === null || typeof items[i] !== "object";
    if (primitives) {
      for (let i = 1; i < items.length; i++) {
        for (let j = 0; j < i; j++) if (items[i] === items[j]) return i;
      }
      return -1;
    }
  }
  const seen = new Set<unknown>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const key = item !== null && typeof item === "object" ? `\u0000${canonicalJson(item)}` : item;
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

/** Compact JSON with object keys sorted; throws a RangeError (which validators report) past the depth bound. */
function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(TOO_DEEP_REASON);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key], depth + 1)}`)
    .join(",")}}`;
}

/**
 * How many of a form's issues name a property of `value` that it does not have (a key the form
 * requires and the value lacks): a form that asks for keys the value does not have is further from
 * it than one that only finds fault with keys the value has.
 */
function missingKeys(issues: readonly ValidationIssue[], path: string, value: unknown): number {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return 0;
  const present = new Set(Object.keys(value).map((key) => joinPath(path, key)));
  return issues.filter(
    (issue) =>
      issue.path !== path &&
      issue.path.startsWith(path) &&
      !present.has(issue.path) &&
      isChildPath(issue.path.slice(path.length), path === ""),
  ).length;
}

/** Whether what an issue path adds to its parent's names one property (`.key`, `key` at the root, or `["a b"]`). */
function isChildPath(rest: string, atRoot: boolean): boolean {
  return atRoot
    ? /^(?:[A-Za-z_$][A-Za-z0-9_$]*|\[".*"\])$/.test(rest)
    : /^(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\[".*"\])$/.test(rest);
}

/**
 * Reports why a value matches none of a union's forms. When some form got past the value's own
 * type (its issues lie deeper), the issues of the closest such form are reported — the one that
 * misses the fewest of the value's keys, then the one with the fewest issues; otherwise one issue
 * lists what each form wanted. The schema's own reason (`x-reason`), when it has one, replaces all
 * that unless a form has every key it requires (`{all: [..., bad]}` reports the bad item, a
 * predicate with no known key gets the reason).
 */
export function failUnion(
  out: ValidationIssue[],
  path: string,
  value: unknown,
  branches: GeneratedValidator[],
  customReason: string,
): false {
  let best: ValidationIssue[] | undefined;
  let bestMissing = 0;
  const shallow: string[] = [];
  for (const branch of branches) {
    const issues: ValidationIssue[] = [];
    branch(value, path, issues);
    if (issues.every((issue) => issue.path === path)) {
      for (const issue of issues) if (!shallow.includes(issue.reason)) shallow.push(issue.reason);
      continue;
    }
    const missing = missingKeys(issues, path, value);
    if (best === undefined || missing < bestMissing || (missing === bestMissing && issues.length < best.length)) {
      best = issues;
      bestMissing = missing;
    }
  }
  if (best !== undefined && (customReason === "" || bestMissing === 0)) {
    out.push(...best);
    return false;
  }
  if (customReason !== "") return fail(out, path, customReason);
  return fail(out, path, shallow.length === 0 ? "does not match any allowed form" : shallow.join("; or "));
}
