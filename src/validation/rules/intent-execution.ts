import { joinPath, type ValidationIssue } from "../issue.js";

/** The fields of a structurally valid executeIntent payload that {@link intentExecutionValue} reads. */
interface IntentExecutionShape {
  action: string;
  value?: string;
}

/** Actions whose execution enters a value. */
const VALUE_ACTIONS: ReadonlySet<string> = /* @__PURE__ */ new Set(["type", "select"]);
/** Actions the daemon resolves but does not execute. */
const UNEXECUTED_ACTIONS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "toggle",
  "download",
  "upload",
  "inspect",
  "extract",
]);

/**
 * Rule of the executeIntent payload, as the daemon checks it before anything runs: `type` and
 * `select` need a non-empty `value`, every other action takes none, and `toggle`, `download`,
 * `upload`, `inspect` and `extract` are resolved but never executed (resolveIntent and findTarget
 * take them).
 */
export function intentExecutionValue(payload: IntentExecutionShape, path: string, out: ValidationIssue[]): boolean {
  const { action, value } = payload;
  if (UNEXECUTED_ACTIONS.has(action)) {
    out.push({
      path: joinPath(path, "action"),
      reason: `the daemon resolves a ${action} intent but does not execute one`,
    });
    return false;
  }
  if (VALUE_ACTIONS.has(action) && (value === undefined || value === "")) {
    out.push({ path: joinPath(path, "value"), reason: `a ${action} intent needs a non-empty value` });
    return false;
  }
  if (!VALUE_ACTIONS.has(action) && value !== undefined) {
    out.push({ path: joinPath(path, "value"), reason: `a ${action} intent takes no value` });
    return false;
  }
  return true;
}
