import { describe, it, expect } from "vitest";
import type { ValidationIssue } from "../../../src/validation/issue.js";
import { taskFamilyRequirements } from "../../../src/validation/rules/task.js";

/*
 * The task rule checks what the daemon (glass-browser 0.3.14, GlassTask::validate) checks of a
 * task family, with its paths and reasons: each test below states the daemon's words. The daemon
 * reports its first failure only; the rule reports every issue, the daemon's first one first.
 */

interface Task {
  schemaVersion: 1;
  task: string;
  scope: { regionName?: string; entityKind?: string; entityName?: string };
  inputs?: Record<string, string>;
  limits: { maxActions: number; timeoutMs: number; maxItems: number };
  risk: string;
  postconditions?: { kind: string; expected?: unknown }[];
}

/** Each family: the entity kind its scope names, its one input (if any) and a postcondition it accepts. */
const FAMILIES: Record<string, { kind: string; input?: string; postcondition: string }> = {
  "form.inspect": { kind: "form", postcondition: "validationClear" },
  "form.fill": { kind: "form", input: "Email", postcondition: "entityState" },
  "form.validate": { kind: "form", postcondition: "validationClear" },
  "form.submit": { kind: "form", input: "submit", postcondition: "navigationOccurred" },
  "navigation.follow": { kind: "page", input: "url", postcondition: "navigationOccurred" },
  "navigation.selectTab": { kind: "tab", input: "tab", postcondition: "regionPresent" },
  "navigation.openMenu": { kind: "navigationItem", input: "menu", postcondition: "pageKind" },
  "table.extract": { kind: "table", postcondition: "recordsExtracted" },
  "collection.extract": { kind: "collection", postcondition: "recordsExtracted" },
  "region.extract": { kind: "region", postcondition: "recordsExtracted" },
  "field.read": { kind: "field", input: "field", postcondition: "entityState" },
  "dialog.inspect": { kind: "dialog", postcondition: "dialogClosed" },
  "dialog.confirm": { kind: "dialog", postcondition: "dialogClosed" },
  "dialog.cancel": { kind: "dialog", postcondition: "dialogClosed" },
  "pagination.next": { kind: "paginationControl", input: "next", postcondition: "recordsExtracted" },
  "pagination.collect": { kind: "paginationControl", input: "next", postcondition: "recordsExtracted" },
};
const ALL_FAMILIES = Object.keys(FAMILIES);
const REGION_FAMILIES = ALL_FAMILIES.filter((kind) => !kind.startsWith("dialog.") && kind !== "navigation.follow");
const EXPECTED: Record<string, string> = {
  regionPresent: "Newsletter",
  pageKind: "article",
  entityState: "Email.required=true",
  recordsExtracted: "3",
};

/** A fresh, valid task of the given family, with what the daemon wants of it. */
function task(kind: string, extra: Partial<Task> = {}): Task {
  const family = FAMILIES[kind]!;
  const postcondition = family.postcondition;
  return {
    schemaVersion: 1,
    task: kind,
    scope: { regionName: "Newsletter", entityKind: family.kind },
    ...(family.input === undefined
      ? {}
      : { inputs: { [family.input]: family.input === "url" ? "https://news.example/archive" : "Subscribe" } }),
    limits: { maxActions: 5, timeoutMs: 4000, maxItems: 20 },
    risk: "localMutation",
    postconditions: [
      EXPECTED[postcondition] === undefined
        ? { kind: postcondition }
        : { kind: postcondition, expected: EXPECTED[postcondition] },
    ],
    ...extra,
  };
}

/** Runs the rule at the document root and returns what it reported. */
function check(value: Task): { ok: boolean; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const ok = taskFamilyRequirements(value, "", issues);
  return { ok, issues };
}

/** The issue the daemon would report: the first one. */
const first = (value: Task): ValidationIssue | undefined => check(value).issues[0];

describe("taskFamilyRequirements: what every family accepts", () => {
  it("accepts a complete task of every family", () => {
    expect(REGION_FAMILIES).toHaveLength(12);
    for (const kind of ALL_FAMILIES) expect(check(task(kind)), kind).toEqual({ ok: true, issues: [] });
  });

  it("accepts the minimal dialog tasks: an entity kind for scope, no inputs, no postconditions", () => {
    for (const kind of ["dialog.inspect", "dialog.confirm", "dialog.cancel"]) {
      expect(check(task(kind, { scope: { entityKind: "dialog" }, postconditions: undefined })).ok, kind).toBe(true);
    }
  });

  it("does not need scope.regionName for navigation.follow or the dialog tasks", () => {
    for (const kind of ["navigation.follow", "dialog.inspect", "dialog.confirm", "dialog.cancel"]) {
      expect(check(task(kind, { scope: { entityKind: FAMILIES[kind]!.kind } })).ok, kind).toBe(true);
    }
  });

  it("leaves a postcondition the daemon does not know, or an expected value that is not a string, to the daemon", () => {
    expect(
      check(
        task("table.extract", {
          postconditions: [
            { kind: "textVisible", expected: "Thanks" },
            { kind: "pageKind", expected: { min: 1 } },
          ],
        }),
      ).ok,
    ).toBe(true);
  });
});

describe("taskFamilyRequirements: the scope", () => {
  it("rejects a scope that names neither a region nor an entity", () => {
    expect(check(task("dialog.inspect", { scope: {} }))).toEqual({
      ok: false,
      issues: [{ path: "scope", reason: "scope requires a semantic region or entity constraint" }],
    });
  });

  it("rejects entityName without entityKind", () => {
    expect(check(task("dialog.inspect", { scope: { entityName: "Confirm order" } })).issues).toEqual([
      { path: "scope.entityKind", reason: "entityName requires entityKind" },
    ]);
  });

  it("rejects an entity kind another family works on, the daemon's way for region.extract", () => {
    expect(check(task("navigation.follow", { scope: { entityKind: "link" } })).issues).toEqual([
      { path: "scope.entityKind", reason: "entity kind is incompatible with the task family" },
    ]);
    for (const kind of ALL_FAMILIES.filter((family) => family !== "region.extract")) {
      const wrong = FAMILIES[kind]!.kind === "field" ? "form" : "field";
      expect(first(task(kind, { scope: { regionName: "Newsletter", entityKind: wrong } })), kind).toEqual({
        path: "scope.entityKind",
        reason: "entity kind is incompatible with the task family",
      });
    }
    for (const entityKind of ["region", "form", "table", "collection", "dialog"]) {
      expect(check(task("region.extract", { scope: { regionName: "Newsletter", entityKind } })).ok, entityKind).toBe(
        true,
      );
    }
    expect(check(task("region.extract", { scope: { regionName: "Newsletter", entityKind: "field" } })).issues).toEqual([
      { path: "scope.entityKind", reason: "entity kind is incompatible with region extraction" },
    ]);
  });

  it("reports the entity kind before the missing url of navigation.follow (as task.compile of the golden fixture)", () => {
    expect(
      check(
        task("navigation.follow", {
          scope: { entityKind: "link", entityName: "Advanced search" },
          inputs: { linkText: "Advanced search" },
        }),
      ).issues,
    ).toEqual([
      { path: "scope.entityKind", reason: "entity kind is incompatible with the task family" },
      { path: "inputs.url", reason: "navigation.follow requires a bounded url input" },
    ]);
  });

  it("rejects every region-scoped family without scope.regionName", () => {
    for (const kind of REGION_FAMILIES) {
      expect(check(task(kind, { scope: { entityKind: FAMILIES[kind]!.kind, entityName: "Subscribe" } })), kind).toEqual(
        {
          ok: false,
          issues: [{ path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" }],
        },
      );
    }
  });

  it("reports an empty scope first, then the region it lacks", () => {
    expect(check(task("table.extract", { scope: {} })).issues).toEqual([
      { path: "scope", reason: "scope requires a semantic region or entity constraint" },
      { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
    ]);
  });
});

describe("taskFamilyRequirements: inputs", () => {
  it("rejects inputs a family without inputs does not take", () => {
    for (const kind of ALL_FAMILIES.filter((family) => FAMILIES[family]!.input === undefined)) {
      expect(check(task(kind, { inputs: { note: "x" } })).issues, kind).toEqual([
        { path: "inputs", reason: "input names are incompatible with the task family" },
      ]);
    }
  });

  it("rejects inputs beside a family's one input, once that input is there", () => {
    expect(check(task("navigation.selectTab", { inputs: { tab: "Payment", extra: "x" } })).issues).toEqual([
      { path: "inputs", reason: "input names are incompatible with the task family" },
    ]);
    expect(check(task("form.submit", { inputs: { submit: "Send", Email: "reader@news.example" } })).issues).toEqual([
      { path: "inputs", reason: "input names are incompatible with the task family" },
    ]);
  });

  it("takes any inputs for form.fill", () => {
    expect(
      check(task("form.fill", { inputs: { Email: "reader@news.example", "First name": "Ada", url: "x" } })).ok,
    ).toBe(true);
  });

  it("rejects form.fill without inputs, or with an empty inputs object", () => {
    for (const inputs of [undefined, {}]) {
      expect(check(task("form.fill", { inputs }))).toEqual({
        ok: false,
        issues: [{ path: "inputs", reason: "form.fill requires at least one bounded input" }],
      });
    }
  });

  it.each([
    ["form.submit", "inputs.submit", "form.submit requires the semantic submit target in inputs.submit"],
    ["navigation.follow", "inputs.url", "navigation.follow requires a bounded url input"],
    ["navigation.selectTab", "inputs.tab", "navigation.selectTab requires a bounded tab input"],
    ["navigation.openMenu", "inputs.menu", "navigation.openMenu requires a bounded menu input"],
    ["pagination.next", "inputs.next", "pagination.next requires a bounded next control input"],
    ["pagination.collect", "inputs.next", "pagination.collect requires a bounded next control input"],
    ["field.read", "inputs.field", "field.read requires the semantic field name in inputs.field"],
  ])("rejects %s without its input at %s (other inputs are not what is wrong then)", (kind, path, reason) => {
    expect(check(task(kind, { inputs: undefined }))).toEqual({ ok: false, issues: [{ path, reason }] });
    expect(check(task(kind, { inputs: { other: "x" } })).issues).toEqual([{ path, reason }]);
  });

  it("does not send navigation.follow with an empty url (the daemon would take it)", () => {
    expect(check(task("navigation.follow", { inputs: { url: "" } })).issues).toEqual([
      { path: "inputs.url", reason: "navigation.follow requires a bounded url input" },
    ]);
  });

  it("reports the input names before the missing inputs of form.fill and its missing region, as the daemon does", () => {
    expect(check(task("form.inspect", { scope: { entityKind: "form" }, inputs: { Email: "x" } })).issues).toEqual([
      { path: "inputs", reason: "input names are incompatible with the task family" },
      { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
    ]);
    expect(check(task("form.fill", { scope: { entityKind: "form" }, inputs: undefined })).issues).toEqual([
      { path: "inputs", reason: "form.fill requires at least one bounded input" },
      { path: "scope.regionName", reason: "browser-backed task requires a semantic region scope" },
    ]);
  });
});

describe("taskFamilyRequirements: postconditions", () => {
  it("rejects form.submit without postconditions", () => {
    for (const postconditions of [undefined, []]) {
      expect(check(task("form.submit", { postconditions }))).toEqual({
        ok: false,
        issues: [{ path: "postconditions", reason: "form.submit requires at least one bounded postcondition" }],
      });
    }
  });

  it("rejects a postcondition kind the family does not accept, at its kind", () => {
    expect(
      check(
        task("dialog.confirm", {
          postconditions: [{ kind: "dialogClosed" }, { kind: "regionPresent", expected: "Orders" }],
        }),
      ).issues,
    ).toEqual([{ path: "postconditions[1].kind", reason: "postcondition kind is incompatible with the task family" }]);
    expect(first(task("table.extract", { postconditions: [{ kind: "navigationOccurred" }] }))?.path).toBe(
      "postconditions[0].kind",
    );
  });

  it("bounds a postcondition's expected text: 256 UTF-8 bytes, no control character", () => {
    const reason = "expected value exceeds its bound or contains a control character";
    expect(check(task("form.inspect", { postconditions: [{ kind: "pageKind", expected: "é".repeat(128) }] })).ok).toBe(
      true,
    );
    for (const expected of [`${"é".repeat(128)}a`, "article\n"]) {
      expect(check(task("form.inspect", { postconditions: [{ kind: "pageKind", expected }] })).issues).toEqual([
        { path: "postconditions[0].expected", reason },
      ]);
    }
  });

  it("wants the region name of a regionPresent postcondition, and a non-empty page kind", () => {
    expect(check(task("table.extract", { postconditions: [{ kind: "regionPresent" }] })).issues).toEqual([
      { path: "postconditions[0].expected", reason: "regionPresent requires the expected semantic region name" },
    ]);
    for (const kind of ["regionPresent", "pageKind"]) {
      expect(check(task("table.extract", { postconditions: [{ kind, expected: "" }] })).issues, kind).toEqual([
        {
          path: "postconditions[0].expected",
          reason: "value must be non-empty, bounded, and free of control characters",
        },
      ]);
    }
    expect(check(task("table.extract", { postconditions: [{ kind: "pageKind" }] })).ok).toBe(true);
  });

  it("reads an entityState postcondition as <entity-name>.<state>=<true|false>", () => {
    const entityState = (expected?: string) =>
      check(
        task("form.fill", {
          postconditions: [{ kind: "entityState", ...(expected === undefined ? {} : { expected }) }],
        }),
      );
    for (const expected of [
      "Email.disabled=false",
      "Card number.readOnly=true",
      "a.b.checked=true",
      "Email.empty=false",
    ]) {
      expect(entityState(expected).ok, expected).toBe(true);
    }
    const form = "entityState requires '<entity-name>.<state>=<true|false>'";
    const parts = "entityState selector, state, or boolean value is invalid";
    for (const [expected, reason] of [
      [undefined, form],
      ["Email.disabled", form],
      ["Email=true", form],
      ["Email=x.disabled", form],
      [".disabled=true", parts],
      ["\u3000.disabled=true", parts],
      ["Email.value=true", parts],
      ["Email.disabled=yes", parts],
      ["Email.disabled=True", parts],
    ] as const) {
      expect(entityState(expected).issues, String(expected)).toEqual([{ path: "postconditions[0].expected", reason }]);
    }
  });

  it("wants recordsExtracted to expect a non-negative integer no greater than maxItems", () => {
    const records = (expected: string) =>
      check(task("table.extract", { postconditions: [{ kind: "recordsExtracted", expected }] }));
    for (const expected of ["0", "20", "+7", "0000000000000020"]) expect(records(expected).ok, expected).toBe(true);
    for (const expected of ["-1", "1.5", " 3", "", "+", "three", "4294967296"]) {
      expect(records(expected).issues, expected).toEqual([
        { path: "postconditions[0].expected", reason: "recordsExtracted expected must be a non-negative integer" },
      ]);
    }
    for (const expected of ["21", "4294967295"]) {
      expect(records(expected).issues, expected).toEqual([
        { path: "postconditions[0].expected", reason: "recordsExtracted expected exceeds task maxItems" },
      ]);
    }
  });

  it("reports the postconditions after the inputs and before form.submit's, form.fill's and the region's checks", () => {
    const value = task("form.submit", {
      scope: { entityKind: "form" },
      inputs: { submit: "Send", extra: "x" },
      postconditions: [{ kind: "recordsExtracted" }],
    });
    expect(check(value).issues.map((issue) => issue.path)).toEqual([
      "inputs",
      "postconditions[0].kind",
      "scope.regionName",
    ]);
  });
});

describe("taskFamilyRequirements: paths", () => {
  it("reports paths below the path it is given", () => {
    const issues: ValidationIssue[] = [];
    taskFamilyRequirements(
      task("navigation.follow", { inputs: {}, postconditions: [{ kind: "regionPresent" }] }),
      "task",
      issues,
    );
    expect(issues).toEqual([
      { path: "task.postconditions[0].expected", reason: "regionPresent requires the expected semantic region name" },
      { path: "task.inputs.url", reason: "navigation.follow requires a bounded url input" },
    ]);
  });
});
