// Validation issues: what is wrong with a value and where (the path, built with joinPath and
// joinIndex), and how they read in an error message.

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

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Appends a property name to an issue path: `joinPath("scope", "regionName")` is
 * `scope.regionName`; a name that is not a plain identifier is quoted (`inputs["first name"]`).
 */
export function joinPath(parent: string, key: string): string {
  if (PLAIN_KEY.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** Appends an array index to an issue path: `joinIndex("entities", 3)` is `entities[3]`. */
export function joinIndex(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
