import { describe, it, expect } from "vitest";
import type { ValidationIssue } from "../../src/validation/issue.js";
import { taskFamilyRequirements } from "../../src/validation/rules/task.js";

interface Task {
  schemaVersion: 1;
  task: string;
  scope: { regionName?: string; entityKind?: string; entityName?: string };
  inputs?: Record<string, string>;
  limits: { maxActions: number; timeoutMs: number; maxItems: number };
  risk: string;
  postconditions?: { kind: string; expected?: unknown }[];
}

/** A fresh, valid task of the given family, with everything any family may need. */
function task(kind: string, extra: Partial<Task> = {}): Task {
  return {
    schemaVersion: 1,
    task: kind,
    scope: { regionName: "Newsletter" },
    inputs: { url: "https://news.example/archive", Email: "reader@news.example" },
    limits: { maxActions: 5, timeoutMs: 4000, maxItems: 20 },
    risk: "localMutation",
    postconditions: [{ kind: "textVisible", expected: "Thanks for subscribing" }],
    ...extra,
  };
}

/** Runs the rule at the document root and returns what it reported. */
function check(value: Task): { ok: boolean; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const ok = taskFamilyRequirements(value, "", issues);
  return { ok, issues };
}

const ALL_FAMILIES = [
  "form.inspect",
  "form.fill",
  "form.validate",
  "form.submit",
  "navigation.follow",
  "navigation.selectTab",
  "navigation.openMenu",
  "table.extract",
  "collection.extract",
  "region.extract",
  "field.read",
  "dialog.inspect",
  "dialog.confirm",
  "dialog.cancel",
  "pagination.next",
  "pagination.collect",
];

const REGION_FAMILIES = ALL_FAMILIES.filter(
  (kind) => kind.startsWith("form.") || kind.startsWith("pagination.") || kind.endsWith(".extract") ||
    ["field.read", "navigation.selectTab", "navigation.openMenu"].includes(kind),
);

describe("taskFamilyRequirements", () => {
  it("accepts a complete task of every family", () => {
    for (const kind of ALL_FAMILIES) expect(check(task(kind)), kind).toEqual({ ok: true, issues: [] });
  });

  it("accepts the minimal tasks that need nothing beyond their structure", () => {
    for (const kind of ["dialog.inspect", "dialog.confirm", "dialog.cancel"]) {
      expect(check(task(kind, { scope: {}, inputs: undefined, postconditions: undefined })).ok, kind).toBe(true);
    }
  });

  it("rejects form.fill without inputs, in the daemon's words", () => {
    expect(check(task("form.fill", { inputs: undefined }))).toEqual({
      ok: false,
      issues: [{ path: "inputs", reason: "form.fill requires at least one bounded input" }],
    });
  });

  it("rejects form.fill with an empty inputs object", () => {
    expect(check(task("form.fill", { inputs: {} })).issues).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
    ]);
  });

  it("rejects form.submit without postconditions", () => {
    expect(check(task("form.submit", { postconditions: [] }))).toEqual({
      ok: false,
      issues: [{ path: "postconditions", reason: "form.submit requires at least one postcondition" }],
    });
    expect(check(task("form.submit", { postconditions: undefined })).ok).toBe(false);
  });

  it("rejects navigation.follow without a url input", () => {
    expect(check(task("navigation.follow", { inputs: { Email: "reader@news.example" } }))).toEqual({
      ok: false,
      issues: [{ path: "inputs.url", reason: "navigation.follow requires a url input" }],
    });
    expect(check(task("navigation.follow", { inputs: undefined })).issues).toEqual([
      { path: "inputs.url", reason: "navigation.follow requires a url input" },
    ]);
  });

  it("rejects navigation.follow with an empty url input", () => {
    expect(check(task("navigation.follow", { inputs: { url: "" } })).issues).toEqual([
      { path: "inputs.url", reason: "navigation.follow requires a url input" },
    ]);
  });

  it("does not need scope.regionName for navigation.follow or the dialog tasks", () => {
    for (const kind of ["navigation.follow", "dialog.inspect", "dialog.confirm", "dialog.cancel"]) {
      expect(check(task(kind, { scope: { entityKind: "link" } })).ok, kind).toBe(true);
    }
  });

  it("rejects every region-scoped family without scope.regionName", () => {
    expect(REGION_FAMILIES).toHaveLength(12);
    for (const kind of REGION_FAMILIES) {
      expect(check(task(kind, { scope: { entityName: "Subscribe" } })), kind).toEqual({
        ok: false,
        issues: [{ path: "scope.regionName", reason: `${kind} requires scope.regionName` }],
      });
    }
  });

  it("reports the missing inputs of form.fill before its missing region, as the daemon does", () => {
    expect(check(task("form.fill", { scope: {}, inputs: undefined })).issues).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
      { path: "scope.regionName", reason: "form.fill requires scope.regionName" },
    ]);
  });

  it("reports paths below the path it is given", () => {
    const issues: ValidationIssue[] = [];
    taskFamilyRequirements(task("navigation.follow", { inputs: {} }), "task", issues);
    expect(issues).toEqual([{ path: "task.inputs.url", reason: "navigation.follow requires a url input" }]);
  });
});
