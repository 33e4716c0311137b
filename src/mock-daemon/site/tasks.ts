import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { TaskExecutionReceipt, TaskExecutionStep, TaskPlan, TaskPostconditionOutcome } from "../../../generated/types/operations/task.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import type { WebIrDocument, WebIrEntity } from "../../../generated/types/web-ir-v1.js";
import { activate, goTo } from "./actions.js";
import { normalizedName } from "./daemon-text.js";
import { elementsOf, pathOf, type SiteElement } from "./pages.js";
import type { SiteContext } from "./site-context.js";
import { compileTask, fingerprintPlan } from "./task-compiler.js";
import { extractWebIr, regionEntityId } from "./web-ir.js";

/** task.validate: a document that reached the handler is valid (the runtime refuses an invalid one first). */
export function validateTask(payload: PayloadOf<"task.validate">): ResultOf<"task.validate"> {
  return { valid: true, schemaVersion: 1, task: payload.task.task };
}

/** task.compile: the daemon's plan of the task on the document (see {@link compileTask}), fingerprinted. */
export async function compileTaskResult(payload: PayloadOf<"task.compile">): Promise<ResultOf<"task.compile">> {
  const { plan } = compileTask(payload.task, payload.ir);
  return { plan: await fingerprintPlan(payload.task, plan) };
}

/** The entity kinds a run binds to an element of the live page. */
const BOUND_KINDS: ReadonlySet<string> = new Set(["field", "action", "link", "navigationItem", "tab", "paginationControl", "unknownInteractive"]);

/** What a run was bound to, read from its plan as the daemon reads it. */
function receiptOf(plan: TaskPlan): TaskExecutionReceipt {
  return {
    sourceRevision: plan.sourceIrRevision,
    selectedEntityIds: plan.selectedEntityIds,
    bindingCandidateEntityIds: (plan.entityBindingKeys ?? []).filter((key) => BOUND_KINDS.has(key.kind)).map((key) => key.entityId),
    requiredRuntimeCapabilities: plan.requiredRuntimeCapabilities ?? [],
    evidenceRequirements: plan.entityEvidenceRequirements ?? [],
    confirmationRequired: plan.confirmationRequired,
  };
}

/**
 * task.execute: compiles the task against the current page's Web IR and runs the plan's operation
 * on the site (one revision for the whole run when it is not read-only). A stale
 * `expectedRevision` fails with staleRevision unless the task's revision policy is `reextract`; a
 * plan that needs confirmation and is not `confirmed` stops before running. The plan's
 * postconditions the site can check (navigationOccurred, pageKind, regionPresent, dialogClosed,
 * validationClear, recordsExtracted) decide between `succeeded` and `indeterminate`.
 */
export function executeTask(site: SiteContext, payload: PayloadOf<"task.execute">): ResultOf<"task.execute"> {
  const { task } = payload;
  if (task.revision !== "reextract") site.checkRevision(payload.expectedRevision);
  const sourceRevision = site.state.revision;
  const sourceUrl = site.state.url;
  const ir = extractWebIr(site);
  const { plan, selected } = compileTask(task, ir);
  const receipt = receiptOf(plan);
  const mutates = plan.risk !== "readOnly";
  const base = { task: task.task, sourceRevision, receipt, detailAvailability: site.detailAvailability() };
  const stepsWith = (status: string): TaskExecutionStep[] => plan.steps.map(({ ordinal, operation }) => ({ ordinal, operation, status }));
  if (plan.confirmationRequired && payload.confirmed !== true) {
    const retry = { classification: "requiresUserDecision", recommendedOperation: "task.execute" } as const;
    return { ...base, status: "preflight-failed", phase: "preflight", mutationPossible: false, currentRevision: sourceRevision, steps: stepsWith("not-run"), retry };
  }
  const records = runOperation(site, task, plan, selected, ir);
  if (mutates) site.advance();
  const postconditions = checkPostconditions(site, plan, sourceUrl, records);
  const held = postconditions.every((outcome) => outcome.held);
  const result: ResultOf<"task.execute"> = {
    ...base,
    receipt: { ...receipt, postconditions },
    status: held ? "succeeded" : "indeterminate",
    phase: site.state.url !== sourceUrl ? "navigation-verification" : mutates ? "mutation-verification" : "extraction",
    mutationPossible: mutates,
    currentRevision: site.state.revision,
    steps: stepsWith("succeeded"),
    retry: held ? { classification: "notRetryable", recommendedOperation: "observe" } : { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
  };
  if (records !== undefined) {
    const route = { ...site.route(), url: sourceUrl };
    const limits = { maxItems: task.limits.maxItems, maxBytes: 65536, observedItems: records.length, serializedBytes: JSON.stringify(records).length, truncated: false };
    result.extraction = { sourceRevision, sourceRoute: route, records, truncated: false, provenance: Object.keys(records[0] ?? {}), limits };
  }
  return result;
}

/** Does what the plan's operation does to the site; the records of a table it extracts. */
function runOperation(site: SiteContext, task: TaskDocument, plan: TaskPlan, selected: readonly WebIrEntity[], ir: WebIrDocument): Record<string, string>[] | undefined {
  const page = site.page();
  const elements = new Map(elementsOf(page).map(({ element }) => [`${element.irKind}-${element.key}`, element]));
  const elementOf = (entity: WebIrEntity | undefined): SiteElement | undefined => (entity === undefined ? undefined : elements.get(entity.id));
  const operation = plan.steps.at(-1)?.operation;
  if (operation === "fillInputs") {
    for (const [name, value] of Object.entries(task.inputs ?? {})) {
      const field = elementOf(selected.find((entity) => entity.kind === "field" && normalizedName(entity.name ?? "") === normalizedName(name)));
      if (field !== undefined) site.state.values[field.key] = value;
    }
  } else if (operation === "submitForm") {
    const action = elementOf(selected.find((entity) => entity.kind === "action" || entity.kind === "unknownInteractive"));
    if (action !== undefined) activate(site, action);
  } else if (operation === "confirmDialog" || operation === "cancelDialog") {
    const kind = operation === "confirmDialog" ? "confirms" : "cancels";
    const dialogs = new Set(selected.filter((entity) => entity.kind === "dialog").map((entity) => entity.id));
    const closer = ir.relationships.find((relationship) => relationship.kind === kind && dialogs.has(relationship.to));
    const element = closer === undefined ? undefined : elements.get(closer.from);
    if (element !== undefined) activate(site, element);
  } else if (operation === "followNavigation") {
    goTo(site, pathOf(task.inputs?.url ?? "/"));
  } else if (operation === "extractTable") {
    const tables = new Set(selected.map((entity) => entity.id));
    const region = page.regions.find((candidate) => candidate.records !== undefined && tables.has(regionEntityId(candidate.id)));
    return (region?.records ?? []).slice(0, task.limits.maxItems).map((record) => ({ ...record }));
  }
  return undefined;
}

/** The plan's postconditions the site can check, and whether each held. */
function checkPostconditions(site: SiteContext, plan: TaskPlan, sourceUrl: string, records: readonly unknown[] | undefined): TaskPostconditionOutcome[] {
  const page = site.page();
  const out: TaskPostconditionOutcome[] = [];
  for (const { kind, expected } of plan.postconditions ?? []) {
    if (kind === "navigationOccurred") out.push({ kind, held: site.state.url !== sourceUrl });
    else if (kind === "pageKind") out.push({ kind, held: expected === undefined || expected === page.kind });
    else if (kind === "regionPresent") out.push({ kind, held: page.regions.some((region) => expected === undefined || region.label === expected || region.id === expected) });
    else if (kind === "dialogClosed") out.push({ kind, held: site.state.openOrder === null });
    else if (kind === "validationClear") out.push({ kind, held: site.state.alert === null });
    else if (kind === "recordsExtracted") out.push({ kind, held: (records?.length ?? 0) > 0 });
  }
  return out;
}
