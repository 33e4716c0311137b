import type { GeneratedValidator } from "../validation/generated-support.js";
import type { ValidationIssue, ValidationResult } from "../validation/issue.js";
import { pathPastDepth } from "../validation/json-depth.js";

/** Drops repeated issues (two documents of one payload can break the same rule at the same path). */
function distinct(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Runs a generated validator (or anything with its signature, such as `checkJson`) the cheap way
 * first, verdict only, and again, collecting issues under `path`, only when the value is invalid.
 * Returns `undefined` for a valid value, otherwise the issues (which a validator may leave empty).
 * Never throws: a value that cannot even be read (a throwing getter, a proxy, nesting deep enough
 * to exhaust the stack) gets one issue saying so.
 */
export function issuesOf(validator: GeneratedValidator, value: unknown, path = ""): ValidationIssue[] | undefined {
  try {
    if (validator(value, path, null)) return undefined;
    const issues: ValidationIssue[] = [];
    validator(value, path, issues);
    return issues;
  } catch (error) {
    return [{ path: thrownAt(error, value, path), reason: describeThrown(error) }];
  }
}

/**
 * Runs a generated validator the cheap way first (verdict only) and again, collecting issues,
 * only when the value is invalid. Never throws: a value that cannot even be read (a throwing
 * getter, a proxy, nesting deep enough to exhaust the stack) becomes an issue.
 */
export function runValidator<T>(validator: GeneratedValidator, value: unknown): ValidationResult<T> {
  const issues = issuesOf(validator, value);
  if (issues === undefined) return { ok: true, value: value as T };
  if (issues.length === 0) issues.push({ path: "", reason: "is invalid" });
  return { ok: false, issues: distinct(issues) };
}

/**
 * Where a validator gave up: for a value nested past the bound, the place it is too deep (found
 * without recursion). Must not throw in turn (the thrown value may be a hostile proxy).
 */
function thrownAt(error: unknown, value: unknown, path: string): string {
  try {
    return error instanceof RangeError ? (pathPastDepth(value, path) ?? path) : path;
  } catch {
    return path;
  }
}

/**
 * Why a value could not be validated, from whatever a getter or proxy trap threw. Describing it must
 * not throw in turn (a thrown null-prototype object, a throwing `message` getter or `toString`).
 */
function describeThrown(error: unknown): string {
  try {
    if (error instanceof RangeError) return "is nested too deeply to validate (or refers back to itself)";
    const text = error instanceof Error ? error.message : String(error);
    return `could not be read: ${typeof text === "string" ? text : "it threw a value that cannot be described"}`;
  } catch {
    return "could not be read: it threw a value that cannot be described";
  }
}
