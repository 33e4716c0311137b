import type {
  TaskEvidenceRequirement,
  TaskPlan,
  TaskRuntimeCapability,
} from "../../../generated/types/operations/task.js";
import type { TaskDocument, TaskKind, TaskPostcondition } from "../../../generated/types/task-v1.js";
import type {
  WebIrDocument,
  WebIrEntity,
  WebIrEvidenceSource,
  WebIrQuality,
} from "../../../generated/types/web-ir-v1.js";
import { debugQuoted, sortedKeyJson, sortedUnique, variantName } from "./daemon-text.js";
import { compilationFailure, effectiveRisk, needsConfirmation, TASK_FAMILIES } from "./task-families.js";
import { selectEntities } from "./task-selection.js";
import type { WebIrAction } from "./web-ir.js";

type Precondition = TaskPlan["preconditions"][number];
type Step = TaskPlan["steps"][number];
type BindingKey = NonNullable<TaskPlan["entityBindingKeys"]>[number];

/** The version of the daemon's compiler whose plans the site makes (glass-browser 0.3.14). */
export const TASK_COMPILER_VERSION = 2;

/** The quality every selected entity needs. */
const MINIMUM_QUALITY: WebIrQuality = "strong";
const QUALITY_RANK: Readonly<Record<string, number>> = {
  opaque: 0,
  conflicted: 1,
  inferred: 2,
  partial: 3,
  strong: 4,
  confirmed: 5,
};

/** The daemon's runtime capabilities in their declaration order, the order a plan lists them in. */
const CAPABILITY_ORDER: readonly TaskRuntimeCapability[] = [
  "observe",
  "read",
  "mutate",
  "navigate",
  "extract",
  "dialog",
  "pagination",
  "verifyEntityState",
];

const isDialogTask = (task: TaskKind): boolean => task.startsWith("dialog.");
const isFormWrite = (task: TaskKind): boolean =>
  task === "form.fill" || task === "form.validate" || task === "form.submit";

/** A compiled task: the plan (its `taskFingerprint` still empty, see {@link fingerprintPlan}) and the entities it selected. */
export interface CompiledTask {
  readonly plan: TaskPlan;
  readonly selected: readonly WebIrEntity[];
}

/**
 * task.compile as the daemon compiles (compiler version 2), on a task and a Web IR the daemon
 * accepts (the mock daemon has checked both): the plan binds the task to the IR's revision and
 * to the entities {@link selectEntities} selects, each of quality `strong` or better, with the
 * evidence sources the family needs (`accessibility`; a form.fill or form.validate field also
 * `forms`; a dialog `dialogs`) and entity details, one of them supporting the family's action.
 * Steps: `observeScope`, then the family's operation. What the IR lacks fails as `task.invalid`
 * (details `{kind: taskCompilation, path, reason}`) with the daemon's path and reason.
 */
export function compileTask(task: TaskDocument, ir: WebIrDocument): CompiledTask {
  const family = TASK_FAMILIES[task.task];
  checkEntityKind(task);
  const risk = effectiveRisk(task);
  const confirmationRequired = needsConfirmation(risk, task);
  const requireComplete = risk !== "readOnly";
  const requiredSources: WebIrEvidenceSource[] = isDialogTask(task.task)
    ? ["dialogs"]
    : isFormWrite(task.task)
      ? ["accessibility", "forms"]
      : ["accessibility"];
  if (requireComplete && ir.limits.truncated)
    throw compilationFailure("ir.limits.truncated", "mutating tasks require complete bounded source evidence");
  for (const source of requiredSources) {
    if (ir.limits.missingSources.includes(source))
      throw compilationFailure("ir.limits.missingSources", `required ${variantName(source)} evidence is unavailable`);
  }

  const selected = selectEntities(task, ir);
  for (const entity of selected) {
    if ((QUALITY_RANK[entity.quality] ?? 0) < (QUALITY_RANK[MINIMUM_QUALITY] ?? 0)) {
      throw compilationFailure(
        "ir.entities",
        `entity ${debugQuoted(entity.id)} does not satisfy the ${variantName(MINIMUM_QUALITY)} evidence floor`,
      );
    }
  }
  const entityEvidenceRequirements = selected.map((entity): TaskEvidenceRequirement => {
    const sources = entitySources(task.task, entity);
    const lacking = sources.find((source) => !entity.evidenceSources.includes(source));
    if (lacking !== undefined)
      throw compilationFailure(
        `ir.entities.${entity.id}.evidenceSources`,
        `selected entity lacks required ${variantName(lacking)} evidence`,
      );
    return { entityId: entity.id, minimumQuality: MINIMUM_QUALITY, requiredSources: sources };
  });

  const selectedEntityIds = sortedUnique(selected.map((entity) => entity.id));
  const preconditions: Precondition[] = [{ kind: "revisionEquals", revision: ir.revision }];
  let actionSupported = false;
  for (const entityId of selectedEntityIds) {
    preconditions.push({ kind: "entityPresent", entityId });
    const details =
      ir.entityDetails !== undefined && Object.hasOwn(ir.entityDetails, entityId)
        ? ir.entityDetails[entityId]
        : undefined;
    if (details === undefined)
      throw compilationFailure(`ir.entityDetails.${entityId}`, "selected entity is missing required execution details");
    if (requireComplete) preconditions.push({ kind: "entityEnabled", entityId });
    const action = supportedAction(task.task, family.action, details.supportedActions ?? []);
    if (action !== undefined) {
      actionSupported = true;
      preconditions.push({ kind: "actionSupported", entityId, action });
    }
  }
  if (!actionSupported)
    throw compilationFailure(
      "ir.entityDetails.supportedActions",
      `selected entities do not support ${variantName(family.action)}`,
    );

  const inputNames = task.task === "form.submit" ? ["submit"] : sortedUnique(Object.keys(task.inputs ?? {}));
  const takesInputs = family.operation === "fillInputs" || family.operation === "submitForm";
  const steps: Step[] = [
    { ordinal: 1, operation: "observeScope", requiresConfirmation: false },
    {
      ordinal: 2,
      operation: family.operation,
      ...(takesInputs ? { inputNames } : {}),
      entityIds: selectedEntityIds,
      requiresConfirmation: confirmationRequired,
    },
  ];
  const plan: TaskPlan = {
    schemaVersion: 1,
    taskSchemaVersion: task.schemaVersion,
    compilerVersion: TASK_COMPILER_VERSION,
    sourceIrSchemaVersion: ir.schemaVersion,
    sourceIrRevision: ir.revision,
    taskFingerprint: "",
    task: task.task,
    scope: scopeOf(task),
    limits: { maxActions: task.limits.maxActions, timeoutMs: task.limits.timeoutMs, maxItems: task.limits.maxItems },
    risk,
    ambiguity: task.ambiguity ?? "fail",
    revision: task.revision ?? "exact",
    confirmationRequired,
    selectedEntityIds,
    evidenceRequirements: { minimumQuality: MINIMUM_QUALITY, requiredSources, requireComplete },
    entityEvidenceRequirements,
    entityBindingKeys: selected.map(bindingKey),
    requiredRuntimeCapabilities: capabilitiesOf(task),
    preconditions,
    steps,
    postconditions: (task.postconditions ?? []).length > 0 ? postconditionsOf(task) : [{ kind: family.postcondition }],
  };
  if (steps.length > task.limits.maxActions)
    throw compilationFailure("steps", "execution plan exceeds the maxActions bound");
  return { plan, selected };
}

/**
 * The plan with its `taskFingerprint`: the SHA-256 (lowercase hex) of the compact JSON, keys
 * sorted, of `{compilerVersion, taskSchemaVersion, task, scope, inputNames, limits, risk,
 * ambiguity, revision, postconditions, sourceIrSchemaVersion, sourceIrRevision, selectedEntityIds}`
 * — the task as sent (its declared risk, its input names sorted, never their values; the default
 * ambiguity and revision policies when it gives none; its own postconditions, `[]` when none) —
 * as the daemon takes it. Web Crypto digests asynchronously.
 */
export async function fingerprintPlan(task: TaskDocument, plan: TaskPlan): Promise<TaskPlan> {
  const material = {
    compilerVersion: TASK_COMPILER_VERSION,
    taskSchemaVersion: task.schemaVersion,
    task: task.task,
    scope: scopeOf(task),
    inputNames: sortedUnique(Object.keys(task.inputs ?? {})),
    limits: plan.limits,
    risk: task.risk,
    ambiguity: task.ambiguity ?? "fail",
    revision: task.revision ?? "exact",
    postconditions: postconditionsOf(task),
    sourceIrSchemaVersion: plan.sourceIrSchemaVersion,
    sourceIrRevision: plan.sourceIrRevision,
    selectedEntityIds: plan.selectedEntityIds,
  };
  return { ...plan, taskFingerprint: await sha256Hex(sortedKeyJson(material)) };
}

/** The lowercase hex SHA-256 of `text`'s UTF-8 bytes, by Web Crypto (Node 20+ and browsers in a secure context). */
async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined)
    throw new Error(
      "task.compile needs Web Crypto (crypto.subtle) to fingerprint the plan, and this environment has none",
    );
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const REGION_EXTRACT_KINDS: ReadonlySet<string> = new Set(TASK_FAMILIES["region.extract"].kinds);

/**
 * A plan's scope names an entity kind the family acts on (a rule of the task the daemon checks
 * again on the plan): region.extract a region, form, table, collection or dialog; navigation.follow
 * a page; navigation.openMenu a navigationItem; pagination.* a paginationControl; every other family
 * the kind it is named after (the first of its family's `kinds`).
 */
function checkEntityKind(task: TaskDocument): void {
  const { entityKind } = task.scope;
  if (entityKind === undefined) return;
  if (task.task === "region.extract") {
    if (!REGION_EXTRACT_KINDS.has(entityKind))
      throw compilationFailure("scope.entityKind", "entity kind is incompatible with region extraction");
    return;
  }
  if (entityKind !== TASK_FAMILIES[task.task].kinds[0])
    throw compilationFailure("scope.entityKind", "entity kind is incompatible with the task family");
}

/** The evidence sources a selected entity must have, sorted. */
function entitySources(task: TaskKind, entity: WebIrEntity): WebIrEvidenceSource[] {
  if (isDialogTask(task)) return ["dialogs"];
  if ((task === "form.fill" || task === "form.validate") && entity.kind === "field") return ["accessibility", "forms"];
  return ["accessibility"];
}

/** The action of the family an entity's details support (pagination.next also takes `click`). */
function supportedAction(task: TaskKind, preferred: WebIrAction, actions: readonly string[]): WebIrAction | undefined {
  if (actions.includes(preferred)) return preferred;
  return task === "pagination.next" && actions.includes("click") ? "click" : undefined;
}

function bindingKey(entity: WebIrEntity): BindingKey {
  return {
    entityId: entity.id,
    kind: entity.kind,
    ...(entity.role === undefined ? {} : { role: entity.role }),
    ...(entity.name === undefined ? {} : { name: entity.name }),
  };
}

/** `observe`, the family's capability, and `verifyEntityState` when a postcondition checks an entity's state; sorted. */
function capabilitiesOf(task: TaskDocument): TaskRuntimeCapability[] {
  const wanted = new Set<TaskRuntimeCapability>(["observe", TASK_FAMILIES[task.task].capability]);
  if ((task.postconditions ?? []).some((postcondition) => postcondition.kind === "entityState"))
    wanted.add("verifyEntityState");
  return CAPABILITY_ORDER.filter((capability) => wanted.has(capability));
}

/** The scope with its fields in the daemon's order. */
function scopeOf(task: TaskDocument): TaskDocument["scope"] {
  const { regionName, entityKind, entityName } = task.scope;
  return {
    ...(regionName === undefined ? {} : { regionName }),
    ...(entityKind === undefined ? {} : { entityKind }),
    ...(entityName === undefined ? {} : { entityName }),
  };
}

/** The task's postconditions, each `{kind, expected?}`. */
function postconditionsOf(task: TaskDocument): TaskPostcondition[] {
  return (task.postconditions ?? []).map(({ kind, expected }) => ({
    kind,
    ...(expected === undefined ? {} : { expected }),
  }));
}
