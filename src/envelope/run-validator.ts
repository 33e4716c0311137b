import type { GeneratedValidator } from "../validation/generated-support.js";
import type { ValidationIssue, ValidationResult } from "../validation/issue.js";

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
 * Runs a generated validator the cheap way first (verdict only) and again, collecting issues,
 * only when the value is invalid. Never throws: a value that cannot even be read (a throwing
 * getter, a proxy, nesting deep enough to exhaust the stack) becomes an issue.
 */
export function runValidator<T>(validator: GeneratedValidator, value: unknown): ValidationResult<T> {
  try {
    if (validator(value, "", null)) return { ok: true, value: value as T };
    const issues: ValidationIssue[] = [];
    validator(value, "", issues);
    if (issues.length === 0) issues.push({ path: "", reason: "is invalid" });
    return { ok: false, issues: distinct(issues) };
  } catch (error) {
    const reason =
      error instanceof RangeError
        ? "is nested too deeply to validate (or refers back to itself)"
        : `could not be read: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, issues: [{ path: "", reason }] };
  }
}
