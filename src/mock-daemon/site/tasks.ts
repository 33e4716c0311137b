import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { TaskExecutionStep, TaskPostconditionOutcome, TaskRuntimeCapability, TaskStepOperation } from "../../../generated/types/operations/task.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import type { WebIrDocument, WebIrEntity } from "../../../generated/types/web-ir-v1.js";
import { mockError } from "../handlers.js";
import { activate, goTo } from "./actions.js";
import { elementsOf, pathOf } from "./pages.js";
import type { SiteContext } from "./site-context.js";
import { extractWebIr } from "./web-ir.js";

/** A compiled plan: what task.compile returns as `plan`, and what task.execute runs. */
export interface SitePlan {
  readonly planVersion: 1;
  readonly task: TaskDocument["task"];
  readonly boundTo: { readonly irSchemaVersion: 1; readonly revision: number; readonly url: string | null };
  readonly scope: TaskDocument["scope"];
  readonly bindings: readonly { entityId: string; kind: string; name: string | null; quality: string }[];
  readonly preconditions: readonly ({ kind: "revisionEquals"; revision: number } | { kind: "entityPresent"; entityId: string })[];
  readonly steps: readonly { index: number; action: string; entityId: string; value?: string; maxItems?: number }[];
  readonly limits: TaskDocument["limits"];
  readonly risk: TaskDocument["risk"];
  readonly ambiguity: string;
  readonly revision: string;
  readonly requiresConfirmation: boolean;
  readonly postconditions: readonly unknown[];
  readonly [key: string]: unknown;
}

/** A compilation failure, as the daemon reports it (task.invalid, kind taskCompilation). */
function compilationFailure(path: string, reason: string): Error {
  return mockError("task.invalid", reason, { details: { kind: "taskCompilation", path, reason } });
}

/** The entity kinds a `scope.regionName` can name. */
const REGION_KINDS: ReadonlySet<string> = new Set(["region", "form", "table", "collection", "dialog"]);

const sameName = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The entities a region contains (one `contains` step down). */
function contained(ir: WebIrDocument, regionId: string): WebIrEntity[] {
  const ids = new Set(ir.relationships.filter((r) => r.kind === "contains" && r.from === regionId).map((r) => r.to));
  return ir.entities.filter((entity) => ids.has(entity.id));
}

/**
 * task.compile: binds the task to the document's revision and entity ids. The region is the entity
 * named `scope.regionName`; form tasks bind each input to the field of that name and form.submit
 * the region's submitting action; table.extract binds the table; dialog tasks the open dialog;
 * navigation.follow the URL. What the document lacks fails as `task.invalid` (taskCompilation).
 */
export function compileTask(task: TaskDocument, ir: WebIrDocument): SitePlan {
  const bindings: WebIrEntity[] = [];
  const steps: SitePlan["steps"][number][] = [];
  const step = (action: string, entityId: string, extra: { value?: string; maxItems?: number } = {}): void => {
    steps.push({ index: steps.length + 1, action, entityId, ...extra });
  };
  let region: WebIrEntity | undefined;
  if (task.scope.regionName !== undefined) {
    region = ir.entities.find((entity) => REGION_KINDS.has(entity.kind) && sameName(entity.name, task.scope.regionName));
    if (region === undefined) throw compilationFailure("scope.regionName", `no region named ${JSON.stringify(task.scope.regionName)} in the Web IR`);
    bindings.push(region);
    step("scopeToRegion", region.id);
  }
  const inside = region === undefined ? [] : contained(ir, region.id);
  const family = task.task;
  if (family.startsWith("form.") && region !== undefined) {
    for (const [name, value] of Object.entries(task.inputs ?? {})) {
      const field = inside.find((entity) => entity.kind === "field" && sameName(entity.name, name));
      if (field === undefined) throw compilationFailure(`inputs.${name}`, `no field named ${JSON.stringify(name)} in region ${JSON.stringify(region.name)}`);
      bindings.push(field);
      const secret = ir.entityDetails?.[field.id]?.inputType === "password";
      step("fillField", field.id, { value: secret ? "[REDACTED]" : value });
    }
    if (family === "form.submit") {
      const submitter = ir.relationships.find((r) => r.kind === "submits" && r.to === region?.id);
      const action = ir.entities.find((entity) => entity.id === submitter?.from);
      if (action === undefined) throw compilationFailure("scope.regionName", `region ${JSON.stringify(region.name)} has no action that submits it`);
      bindings.push(action);
      step("submitForm", action.id);
    }
    if (family === "form.inspect" || family === "form.validate") step(family === "form.inspect" ? "inspectForm" : "validateForm", region.id);
  } else if (family === "table.extract" && region !== undefined) {
    const table = region.kind === "table" ? region : inside.find((entity) => entity.kind === "table");
    if (table === undefined) throw compilationFailure("scope.regionName", `region ${JSON.stringify(region.name)} holds no table`);
    if (table !== region) bindings.push(table);
    step("extractRows", table.id, { maxItems: task.limits.maxItems });
  } else if ((family === "region.extract" || family === "collection.extract") && region !== undefined) {
    step("extractRegion", region.id, { maxItems: task.limits.maxItems });
  } else if (family === "field.read" && region !== undefined) {
    const field = inside.find((entity) => entity.kind === "field" && (task.scope.entityName === undefined || sameName(entity.name, task.scope.entityName)));
    if (field === undefined) throw compilationFailure("scope.entityName", `no field to read in region ${JSON.stringify(region.name)}`);
    bindings.push(field);
    step("readField", field.id);
  } else if (family.startsWith("dialog.")) {
    const dialog = ir.entities.find((entity) => entity.kind === "dialog");
    if (dialog === undefined) throw compilationFailure("task", `${family} needs an open dialog and the Web IR has none`);
    bindings.push(dialog);
    const closer = ir.relationships.find((r) => (r.kind === "cancels" || r.kind === "confirms") && r.to === dialog.id);
    step(family === "dialog.inspect" ? "inspectDialog" : family === "dialog.confirm" ? "confirmDialog" : "cancelDialog", closer?.from ?? dialog.id);
  } else if (family === "navigation.follow") {
    const page = ir.entities.find((entity) => entity.kind === "page");
    if (page !== undefined) step("navigate", page.id, { value: task.inputs?.url ?? "" });
  } else {
    throw compilationFailure("task", `the page has nothing ${family} can act on`);
  }
  const unique = [...new Map(bindings.map((entity) => [entity.id, entity])).values()];
  return {
    planVersion: 1,
    task: family,
    boundTo: { irSchemaVersion: 1, revision: ir.revision, url: ir.document?.url ?? null },
    scope: task.scope,
    bindings: unique.map((entity) => ({ entityId: entity.id, kind: entity.kind, name: entity.name ?? null, quality: entity.quality })),
    preconditions: [{ kind: "revisionEquals", revision: ir.revision }, ...unique.map((entity) => ({ kind: "entityPresent" as const, entityId: entity.id }))],
    steps,
    limits: task.limits,
    risk: task.risk,
    ambiguity: task.ambiguity ?? "fail",
    revision: task.revision ?? "exact",
    requiresConfirmation: task.risk === "remoteIrreversible",
    postconditions: task.postconditions ?? [],
  };
}

/** task.validate: a document that reached the handler is valid (the runtime refuses an invalid one first). */
export function validateTask(payload: PayloadOf<"task.validate">): ResultOf<"task.validate"> {
  return { valid: true, schemaVersion: 1, task: payload.task.task };
}

const STEP_OPERATION: Record<string, TaskStepOperation> = {
  scopeToRegion: "observeScope",
  fillField: "fillInputs",
  submitForm: "submitForm",
  inspectForm: "inspectForm",
  validateForm: "validateForm",
  extractRows: "extractTable",
  extractRegion: "extractRegion",
  readField: "readField",
  inspectDialog: "inspectDialog",
  confirmDialog: "confirmDialog",
  cancelDialog: "cancelDialog",
  navigate: "followNavigation",
};
const MUTATING_STEPS = new Set(["fillField", "submitForm", "confirmDialog", "cancelDialog", "navigate"]);

/**
 * task.execute: compiles the task against the current page's Web IR and runs the plan on the site
 * (one revision for the whole run when it changes anything). A stale `expectedRevision` fails with
 * staleRevision unless the task's revision policy is `reextract`; a task that needs confirmation
 * and is not `confirmed` stops before running. Postconditions the site can check
 * (navigationOccurred, pageKind, regionPresent, dialogClosed, validationClear, recordsExtracted)
 * decide between `succeeded` and `indeterminate`.
 */
export function executeTask(site: SiteContext, payload: PayloadOf<"task.execute">): ResultOf<"task.execute"> {
  const { task } = payload;
  if (task.revision !== "reextract") site.checkRevision(payload.expectedRevision);
  const sourceRevision = site.state.revision;
  const sourceUrl = site.state.url;
  const plan = compileTask(task, extractWebIr(site));
  const selectedEntityIds = plan.bindings.map((binding) => binding.entityId);
  const mutates = plan.steps.some((s) => MUTATING_STEPS.has(s.action));
  const capabilities: TaskRuntimeCapability[] = ["observe", "read", ...(mutates ? (["mutate"] as const) : []), ...(task.task === "navigation.follow" ? (["navigate"] as const) : [])];
  const receipt = {
    sourceRevision,
    selectedEntityIds,
    bindingCandidateEntityIds: selectedEntityIds,
    requiredRuntimeCapabilities: capabilities,
    evidenceRequirements: selectedEntityIds.map((entityId) => ({ entityId, minimumQuality: "strong", requiredSources: ["dom"] })),
    confirmationRequired: plan.requiresConfirmation,
  };
  const base = { task: task.task, sourceRevision, receipt, detailAvailability: site.detailAvailability() };
  if (plan.requiresConfirmation && payload.confirmed !== true) {
    const steps = plan.steps.map((s, i): TaskExecutionStep => ({ ordinal: i + 1, operation: STEP_OPERATION[s.action] ?? "observeScope", status: "not-run" }));
    return { ...base, status: "preflight-failed", phase: "preflight", mutationPossible: false, currentRevision: sourceRevision, steps, retry: { classification: "requiresUserDecision", recommendedOperation: "task.execute" } };
  }
  const byEntity = new Map(elementsOf(site.page()).map(({ element }) => [`${element.irKind}-${element.key}`, element]));
  const page = site.page();
  let records: Record<string, string>[] | undefined;
  for (const s of plan.steps) {
    const element = byEntity.get(s.entityId);
    if (s.action === "fillField" && element !== undefined) site.state.values[element.key] = task.inputs?.[element.name] ?? Object.entries(task.inputs ?? {}).find(([name]) => sameName(name, element.name))?.[1] ?? "";
    if ((s.action === "submitForm" || s.action === "confirmDialog" || s.action === "cancelDialog") && element !== undefined) activate(site, element);
    if (s.action === "navigate") goTo(site, pathOf(s.value ?? "/"));
    if (s.action === "extractRows") records = (page.regions.find((region) => region.records !== undefined)?.records ?? []).slice(0, task.limits.maxItems).map((record) => ({ ...record }));
  }
  if (mutates) site.advance();
  const postconditions = checkPostconditions(site, task, sourceUrl, records);
  const held = postconditions.every((outcome) => outcome.held);
  const steps = plan.steps.map((s, i): TaskExecutionStep => ({ ordinal: i + 1, operation: STEP_OPERATION[s.action] ?? "observeScope", status: "succeeded" }));
  const result: ResultOf<"task.execute"> = {
    ...base,
    receipt: { ...receipt, ...(postconditions.length > 0 ? { postconditions } : {}) },
    status: held ? "succeeded" : "indeterminate",
    phase: site.state.url !== sourceUrl ? "navigation-verification" : mutates ? "mutation-verification" : "extraction",
    mutationPossible: mutates,
    currentRevision: site.state.revision,
    steps,
    retry: held ? { classification: "notRetryable", recommendedOperation: "observe" } : { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
  };
  if (records !== undefined) {
    const route = { ...site.route(), url: sourceUrl };
    result.extraction = { sourceRevision, sourceRoute: route, records, truncated: false, provenance: Object.keys(records[0] ?? {}), limits: { maxItems: task.limits.maxItems, maxBytes: 65536, observedItems: records.length, serializedBytes: JSON.stringify(records).length, truncated: false } };
  }
  return result;
}

/** The task's postconditions the site can check, and whether each held. */
function checkPostconditions(site: SiteContext, task: TaskDocument, sourceUrl: string, records: readonly unknown[] | undefined): TaskPostconditionOutcome[] {
  const page = site.page();
  const out: TaskPostconditionOutcome[] = [];
  for (const { kind, expected } of task.postconditions ?? []) {
    if (kind === "navigationOccurred") out.push({ kind, held: site.state.url !== sourceUrl });
    else if (kind === "pageKind") out.push({ kind, held: expected === undefined || expected === page.kind });
    else if (kind === "regionPresent") out.push({ kind, held: page.regions.some((region) => expected === undefined || region.label === expected || region.id === expected) });
    else if (kind === "dialogClosed") out.push({ kind, held: site.state.openOrder === null });
    else if (kind === "validationClear") out.push({ kind, held: site.state.alert === null });
    else if (kind === "recordsExtracted") out.push({ kind, held: (records?.length ?? 0) > 0 });
  }
  return out;
}
