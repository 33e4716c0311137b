import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type {
  BrowserSemanticObservation,
  BrowserSemanticRegion,
} from "../../../generated/types/operations/browser-results.js";
import type { TaskExecutionReceipt, TaskPlan } from "../../../generated/types/operations/task.js";
import type { TaskDocument } from "../../../generated/types/task-v1.js";
import { isMockError } from "../handlers.js";
import { activate, fillFields, goTo } from "./actions.js";
import { normalizedName, sortedKeys, variantName } from "./daemon-text.js";
import { extractRecords, extractRegion, readField } from "./extraction.js";
import { toolFailed } from "./locators.js";
import { pathOf } from "./pages.js";
import { observePage } from "./semantic.js";
import type { SiteContext } from "./site-context.js";
import { type CompiledTask, compileTask, fingerprintPlan } from "./task-compiler.js";
import { taskPostconditions } from "./task-postconditions.js";
import { extractWebIr } from "./web-ir.js";

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
const BOUND_KINDS: ReadonlySet<string> = new Set([
  "field",
  "action",
  "link",
  "navigationItem",
  "tab",
  "paginationControl",
  "unknownInteractive",
]);

/** What a run was bound to, read from its plan as the daemon reads it. */
function receiptOf(plan: TaskPlan): TaskExecutionReceipt {
  return {
    sourceRevision: plan.sourceIrRevision,
    selectedEntityIds: plan.selectedEntityIds,
    bindingCandidateEntityIds: (plan.entityBindingKeys ?? [])
      .filter((key) => BOUND_KINDS.has(key.kind))
      .map((key) => key.entityId),
    requiredRuntimeCapabilities: plan.requiredRuntimeCapabilities ?? [],
    evidenceRequirements: plan.entityEvidenceRequirements ?? [],
    confirmationRequired: plan.confirmationRequired,
  };
}

type Execution = Omit<ResultOf<"task.execute">, "task" | "detailAvailability" | "receipt">;
const SAFE = { classification: "safeImmediate", recommendedOperation: "inspect_page" } as const;
const UNSAFE = { classification: "unsafeUntilReconciled", recommendedOperation: "recover_run" } as const;

/** Why the daemon would not run a plan compiled at its revision for a caller who observed `expected`, or undefined. */
function revisionMismatch(plan: TaskPlan, task: TaskDocument, expected: number): string | undefined {
  const policy = task.revision ?? "exact";
  const drift =
    policy === "exact"
      ? plan.sourceIrRevision !== expected
      : policy === "compatible"
        ? plan.sourceIrRevision !== expected && plan.risk !== "readOnly"
        : false;
  if (plan.sourceIrRevision >= expected && !drift) return undefined;
  return `compiled Web IR revision ${plan.sourceIrRevision} is not safe for caller-observed revision ${expected} under ${variantName(policy)} policy; no browser action was dispatched`;
}

/** The one semantic region a task's `scope.regionName` names (ASCII case aside), or why there is not exactly one. */
function scopedRegion(regions: readonly BrowserSemanticRegion[], task: TaskDocument): BrowserSemanticRegion | string {
  const name = task.scope.regionName;
  if (name === undefined) return "browser-backed task requires a semantic region scope";
  const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
  const entity = task.scope.entityName;
  const found = regions.filter(
    (region) =>
      same(region.label, name) &&
      (entity === undefined ||
        same(region.label, entity) ||
        (region.targets ?? []).some((target) => same(target.name ?? "", entity))),
  );
  if (found.length === 1 && found[0] !== undefined) return found[0];
  return found.length === 0 ? `semantic region not found: ${name}` : `semantic region is ambiguous: ${name}`;
}

/** The task compiled against the page's Web IR; a compilation failure fails the call without saying why, as the daemon's does. */
function compileLive(site: SiteContext, task: TaskDocument): CompiledTask {
  try {
    return compileTask(task, extractWebIr(site));
  } catch (error) {
    if (isMockError(error) && error.code === "task.invalid") throw toolFailed(error.message);
    throw error;
  }
}

/**
 * task.execute, as the daemon runs a task on the live page: compiles it against the page's Web IR
 * (a failure fails the call without saying why), then stops before acting (`preflight-failed`,
 * nothing run, observe again) when the caller observed another revision than the plan's (under the
 * task's revision policy), when the plan needs a confirmation it was not given, or when
 * `scope.regionName` does not name exactly one region. Otherwise it runs the family: extractions as
 * the daemon extracts, a fill as fillForm fills (one field of a form), a submit as a click, a field
 * read from the form values; a run that succeeded is `indeterminate` when one of its postconditions
 * does not hold. Keys come in the daemon's sorted order.
 */
export async function executeTask(
  site: SiteContext,
  payload: PayloadOf<"task.execute">,
): Promise<ResultOf<"task.execute">> {
  const { task } = payload;
  const { plan } = compileLive(site, task);
  const receipt = receiptOf(plan);
  const answer = (result: Execution, withReceipt: TaskExecutionReceipt = receipt): ResultOf<"task.execute"> =>
    sortedKeys({
      task: task.task,
      ...result,
      receipt: withReceipt,
      detailAvailability: site.detailAvailability(),
    } as ResultOf<"task.execute">);
  const stepsWith = (status: string, detail?: string) =>
    plan.steps.map(({ ordinal, operation }) => ({
      ordinal,
      operation,
      status,
      ...(detail === undefined ? {} : { detail }),
    }));
  const preflight = (revision: number, detail: string): ResultOf<"task.execute"> =>
    answer({
      status: "preflight-failed",
      phase: "preflight",
      mutationPossible: false,
      sourceRevision: revision,
      currentRevision: revision,
      steps: stepsWith("not-run", detail),
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    });
  const mismatch = revisionMismatch(plan, task, payload.expectedRevision);
  if (mismatch !== undefined) return preflight(payload.expectedRevision, mismatch);
  if (plan.confirmationRequired && payload.confirmed !== true)
    return preflight(plan.sourceIrRevision, "confirmation is required before this task can mutate the browser");
  const { observation } = observePage(site, "structured");
  const region = task.task === "navigation.follow" ? undefined : scopedRegion(observation.regions, task);
  if (typeof region === "string") return preflight(observation.revision, region);
  const run = await runFamily(site, task, observation, region);
  if (typeof run === "string") return preflight(observation.revision, run);
  const steps = stepsWith("succeeded").map((step, index, all) =>
    index < all.length - 1 || run.status === "succeeded"
      ? step
      : { ...step, status: run.status, ...(run.detail === undefined ? {} : { detail: run.detail }) },
  );
  const result: Execution = {
    ...run.result,
    steps,
    retry: run.status === "succeeded" ? SAFE : UNSAFE,
    status: run.status,
    sourceRevision: observation.revision,
  };
  if (run.status !== "succeeded") return answer(result);
  // The daemon checks the plan's postconditions only after a run that succeeded.
  const { outcomes, held } = taskPostconditions(site, plan, observation.revision, run.extracted);
  if (held) return answer(result, { ...receipt, postconditions: outcomes });
  const last = steps.at(-1)!;
  steps[steps.length - 1] = { ...last, status: "indeterminate", detail: "compiled postcondition did not hold" };
  return answer(
    {
      ...result,
      steps,
      status: "indeterminate",
      phase: "postcondition-verification",
      currentRevision: site.state.revision,
      retry: UNSAFE,
    },
    { ...receipt, postconditions: outcomes },
  );
}

/** What one family's run gave: its result fields, whether it succeeded, and why not. */
interface FamilyRun {
  readonly status: "succeeded" | "indeterminate";
  readonly detail?: string;
  /** How many items an extraction gave (none without an extraction). */
  readonly extracted?: number;
  readonly result: Omit<Execution, "steps" | "retry" | "status" | "sourceRevision">;
}

/** The alerts a run reports: the labels of the page's alert regions. */
const alertsOf = (site: SiteContext): { alerts?: string[] } => {
  const alerts = observePage(site, "structured")
    .observation.regions.filter((region) => region.kind === "alert")
    .map((region) => region.label);
  return alerts.length === 0 ? {} : { alerts };
};

/** Runs a task family on the site; a string is why it stopped before acting. */
async function runFamily(
  site: SiteContext,
  task: TaskDocument,
  observation: BrowserSemanticObservation,
  region: BrowserSemanticRegion | undefined,
): Promise<FamilyRun | string> {
  const source = observation.revision;
  const done = (phase: string, mutationPossible: boolean, more: Partial<FamilyRun["result"]> = {}): FamilyRun => ({
    status: "succeeded",
    result: { phase, mutationPossible, currentRevision: site.state.revision, ...more },
  });
  const named = (name: string, roles: readonly string[]) =>
    (region?.targets ?? []).find(
      (target) => roles.includes(target.role) && normalizedName(target.name ?? "") === normalizedName(name),
    );
  switch (task.task) {
    case "table.extract":
    case "collection.extract": {
      const kind = task.task === "table.extract" ? "table" : "collection";
      if (region?.kind !== kind) return `${task.task} scope is not a semantic ${kind} region`;
      const extraction = await extractRecords(
        observation,
        region,
        kind === "table" ? "rows" : "items",
        task.limits.maxItems,
      );
      return {
        ...done("extraction", false, { currentRevision: source, extraction, ...alertsOf(site) }),
        extracted: extraction.recordItems?.length ?? 0,
      };
    }
    case "region.extract":
      if (region === undefined) return "browser-backed task requires a semantic region scope";
      return {
        ...done("extraction", false, {
          currentRevision: source,
          extraction: extractRegion(observation, region, task.limits.maxItems),
          ...alertsOf(site),
        }),
        extracted: 0,
      };
    case "field.read": {
      const field = named(task.inputs?.field ?? "", ["textbox", "combobox", "listbox", "checkbox", "radio"]);
      if (field === undefined || region === undefined)
        return "field target was not present in the bounded form-value observation";
      return {
        ...done("field-read", false, {
          currentRevision: source,
          extraction: readField(site, observation, region, field, task.limits.maxItems),
          ...alertsOf(site),
        }),
        extracted: 0,
      };
    }
    case "form.inspect":
    case "form.validate":
      return done(task.task === "form.inspect" ? "inspection" : "validation", false, {
        currentRevision: source,
        ...alertsOf(site),
      });
    case "form.fill": {
      const inputs = Object.entries(task.inputs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const fields = inputs.map(([name, value]) => ({
        target: named(name, ["textbox", "combobox", "listbox"])?.reference ?? "",
        value,
      }));
      if (fields.some((field) => field.target === "")) return "form input did not bind to exactly one live field";
      const form = fillFields(site, fields);
      const keyOf = (name: string): string | undefined =>
        site.page().elements.find((element) => normalizedName(element.name) === normalizedName(name))?.key;
      const verified =
        (form.filled ?? 0) === form.total &&
        inputs.every(([name, value]) => site.state.values[keyOf(name) ?? ""] === value);
      const result = {
        phase: "mutation-verification",
        mutationPossible: (form.filled ?? 0) > 0,
        currentRevision: site.state.revision,
        form,
        ...alertsOf(site),
      };
      return verified
        ? { status: "succeeded", result }
        : { status: "indeterminate", detail: "form values did not match requested values", result };
    }
    case "form.submit": {
      const submit = named(task.inputs?.submit ?? "", ["button", "link", "menuitem"]);
      if (submit === undefined) return "submit target did not bind to exactly one live action";
      const element = site.page().elements.find((candidate) => site.reference(candidate) === submit.reference);
      activate(site, element);
      site.nextExecutionId();
      site.advance();
      return done("submit-verification", true, alertsOf(site));
    }
    case "navigation.follow":
      goTo(site, pathOf(task.inputs?.url ?? "/"));
      site.advance();
      return done("navigation-verification", true);
    default:
      return "unsupported task family; browser execution currently supports form, field, table, collection, region extraction, navigation menu, and pagination tasks";
  }
}
