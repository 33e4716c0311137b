/**
 * One thing wrong with a value, shaped like the Glass daemon's own validation details:
 * `path` names where (`""` for the value itself, `inputs`, `entities[3].id`), `reason` says what
 * is wrong in words a person can act on.
 */
export interface ValidationIssue {
  /** Where the problem is: dotted property names with `[i]` for array items; `""` is the root. */
  path: string;
  /** What is wrong and, where it helps, what would be accepted. */
  reason: string;
}

/** The outcome of a validation: the value, typed, or the issues found. Validators never throw. */
export type ValidationResult<T> =
  | { ok: true; value: T }
  | { ok: false; issues: ValidationIssue[] };

/**
 * Issues in words for an error message: `path: reason`, joined by "; ", with the root path (`""`)
 * named `root` (`request`, `payload`...).
 */
export function describeIssues(issues: readonly ValidationIssue[], root: string): string {
  return issues.map((issue) => `${issue.path || root}: ${issue.reason}`).join("; ");
}
