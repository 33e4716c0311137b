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
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Issues in words for an error message: `path: reason`, joined by "; ", with the root path (`""`)
 * named `root` (`request`, `payload`...).
 */
export function describeIssues(issues: readonly ValidationIssue[], root: string): string {
  return issues.map((issue) => `${issue.path || root}: ${issue.reason}`).join("; ");
}

/**
 * The reasons the schema validators give for a value of the wrong structure (a missing or unknown
 * field, a wrong type, a value outside an enum, no alternative matching), as opposed to the
 * semantic rules, whose reasons are worded like the daemon's own. The daemon reports the former
 * without a reason (`browser tool failed`, §2).
 */
const STRUCTURAL_REASON =
  /\(unknown field\)|^is required$|^must be one of\b|^must be (?:an? (?:string|integer|number|object|array|boolean)|null)\b|^does not match any allowed form/;

/** Whether an issue is structural (see {@link STRUCTURAL_REASON}): its reason alone (`is required`) does not say where. */
export function isStructuralIssue(issue: ValidationIssue): boolean {
  return STRUCTURAL_REASON.test(issue.reason);
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
