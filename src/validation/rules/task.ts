import { joinPath, type ValidationIssue } from "../issue.js";

/** The fields of a structurally valid Task v1 document that {@link taskFamilyRequirements} reads. */
interface TaskShape {
  task: string;
  scope: { regionName?: string };
  inputs?: Record<string, string>;
  postconditions?: readonly unknown[];
}

/**
 * The task families that work inside a named region and so need `scope.regionName`: every form.*
 * task, field.read, navigation.selectTab, navigation.openMenu, pagination.* and the extractions.
 */
const NEEDS_REGION: ReadonlySet<string> = new Set([
  "form.inspect",
  "form.fill",
  "form.validate",
  "form.submit",
  "field.read",
  "navigation.selectTab",
  "navigation.openMenu",
  "pagination.next",
  "pagination.collect",
  "table.extract",
  "collection.extract",
  "region.extract",
]);

/**
 * Document rule of Task v1: what each task family needs beyond its structure.
 *
 * | task | needs | issue path | reason |
 * |---|---|---|---|
 * | form.fill | at least one input | `inputs` | `form.fill requires at least one bounded input` (the daemon's words) |
 * | form.submit | at least one postcondition | `postconditions` | `form.submit requires at least one postcondition` |
 * | navigation.follow | a non-empty `url` input | `inputs.url` | `navigation.follow requires a url input` |
 * | see {@link NEEDS_REGION} | `scope.regionName` | `scope.regionName` | `<task> requires scope.regionName` |
 *
 * The input and postcondition checks come before the region check, the order in which the daemon
 * reports them (a form.fill with neither inputs nor region is reported on `inputs`).
 */
export function taskFamilyRequirements(task: TaskShape, path: string, out: ValidationIssue[]): boolean {
  const before = out.length;
  const kind = task.task;
  if (kind === "form.fill" && Object.keys(task.inputs ?? {}).length === 0) {
    out.push({ path: joinPath(path, "inputs"), reason: "form.fill requires at least one bounded input" });
  }
  if (kind === "form.submit" && (task.postconditions ?? []).length === 0) {
    out.push({ path: joinPath(path, "postconditions"), reason: "form.submit requires at least one postcondition" });
  }
  if (kind === "navigation.follow" && !task.inputs?.url) {
    out.push({ path: joinPath(joinPath(path, "inputs"), "url"), reason: "navigation.follow requires a url input" });
  }
  if (NEEDS_REGION.has(kind) && !task.scope.regionName) {
    out.push({ path: joinPath(joinPath(path, "scope"), "regionName"), reason: `${kind} requires scope.regionName` });
  }
  return out.length === before;
}
