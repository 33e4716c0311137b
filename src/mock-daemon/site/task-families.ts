import type { TaskRuntimeCapability, TaskStepOperation } from "../../../generated/types/operations/task.js";
import type { TaskDocument, TaskKind, TaskPostcondition, TaskRisk } from "../../../generated/types/task-v1.js";
import type { WebIrEntity, WebIrEntityKind } from "../../../generated/types/web-ir-v1.js";
import { mockError } from "../handlers.js";
import type { WebIrAction } from "./web-ir.js";

/** What the daemon's task compiler knows of one task family. */
export interface TaskFamily {
  /** The plan's step after `observeScope`. */
  readonly operation: TaskStepOperation;
  /** The action a selected entity must support (pagination.next also takes `click`). */
  readonly action: WebIrAction;
  /** The runtime capability the family needs besides `observe`. */
  readonly capability: TaskRuntimeCapability;
  /** The least risk the family carries: a task declaring less is raised to it. */
  readonly minimumRisk: TaskRisk;
  /** The postcondition of a task that gives none. */
  readonly postcondition: TaskPostcondition["kind"];
  /**
   * The entity kinds the family selects when the scope names no `entityKind`; the first is the one
   * a scope's `entityKind` must name (region.extract takes any of its kinds).
   */
  readonly kinds: readonly WebIrEntityKind[];
}

const CONTROLS: readonly WebIrEntityKind[] = ["paginationControl", "action", "navigationItem", "unknownInteractive"];

/** The task families, as compiler version 2 of glass-browser 0.3.14 compiles them. */
export const TASK_FAMILIES: Readonly<Record<TaskKind, TaskFamily>> = {
  "form.inspect": {
    operation: "inspectForm",
    action: "read",
    capability: "read",
    minimumRisk: "readOnly",
    postcondition: "pageKind",
    kinds: ["form"],
  },
  "form.fill": {
    operation: "fillInputs",
    action: "type",
    capability: "mutate",
    minimumRisk: "localMutation",
    postcondition: "pageKind",
    kinds: ["form"],
  },
  "form.validate": {
    operation: "validateForm",
    action: "read",
    capability: "read",
    minimumRisk: "readOnly",
    postcondition: "validationClear",
    kinds: ["form"],
  },
  "form.submit": {
    operation: "submitForm",
    action: "submit",
    capability: "mutate",
    minimumRisk: "remoteIrreversible",
    postcondition: "navigationOccurred",
    kinds: ["form"],
  },
  "navigation.follow": {
    operation: "followNavigation",
    action: "navigate",
    capability: "navigate",
    minimumRisk: "localMutation",
    postcondition: "navigationOccurred",
    kinds: ["page"],
  },
  "navigation.selectTab": {
    operation: "selectTab",
    action: "select",
    capability: "mutate",
    minimumRisk: "localMutation",
    postcondition: "pageKind",
    kinds: ["tab"],
  },
  "navigation.openMenu": {
    operation: "openMenu",
    action: "click",
    capability: "mutate",
    minimumRisk: "localMutation",
    postcondition: "pageKind",
    kinds: ["navigationItem", "action", "unknownInteractive"],
  },
  "table.extract": {
    operation: "extractTable",
    action: "extract",
    capability: "extract",
    minimumRisk: "readOnly",
    postcondition: "recordsExtracted",
    kinds: ["table"],
  },
  "collection.extract": {
    operation: "extractCollection",
    action: "extract",
    capability: "extract",
    minimumRisk: "readOnly",
    postcondition: "recordsExtracted",
    kinds: ["collection"],
  },
  "region.extract": {
    operation: "extractRegion",
    action: "extract",
    capability: "extract",
    minimumRisk: "readOnly",
    postcondition: "recordsExtracted",
    kinds: ["region", "form", "table", "collection", "dialog"],
  },
  "field.read": {
    operation: "readField",
    action: "read",
    capability: "read",
    minimumRisk: "readOnly",
    postcondition: "pageKind",
    kinds: ["field"],
  },
  "dialog.inspect": {
    operation: "inspectDialog",
    action: "read",
    capability: "read",
    minimumRisk: "readOnly",
    postcondition: "pageKind",
    kinds: ["dialog"],
  },
  "dialog.confirm": {
    operation: "confirmDialog",
    action: "confirm",
    capability: "dialog",
    minimumRisk: "remoteReversible",
    postcondition: "dialogClosed",
    kinds: ["dialog"],
  },
  "dialog.cancel": {
    operation: "cancelDialog",
    action: "cancel",
    capability: "dialog",
    minimumRisk: "remoteReversible",
    postcondition: "dialogClosed",
    kinds: ["dialog"],
  },
  "pagination.next": {
    operation: "nextPage",
    action: "paginate",
    capability: "pagination",
    minimumRisk: "localMutation",
    postcondition: "navigationOccurred",
    kinds: CONTROLS,
  },
  "pagination.collect": {
    operation: "collectPages",
    action: "extract",
    capability: "pagination",
    minimumRisk: "localMutation",
    postcondition: "recordsExtracted",
    kinds: CONTROLS,
  },
};

/** Whether the family selects `entity` when the scope names no entity kind (a tab is also any entity of role `tab`). */
export function familySelects(task: TaskKind, entity: WebIrEntity): boolean {
  return TASK_FAMILIES[task].kinds.includes(entity.kind) || (task === "navigation.selectTab" && entity.role === "tab");
}

/** The name the family selects its entity by when the scope names none: an input (`tab`, `menu`, `field`, `next`), or the region's name. */
export function familySelectorName(task: TaskDocument): string | undefined {
  const input = (name: string): string | undefined =>
    task.inputs !== undefined && Object.hasOwn(task.inputs, name) ? task.inputs[name] : undefined;
  switch (task.task) {
    case "navigation.selectTab":
      return input("tab");
    case "navigation.openMenu":
      return input("menu");
    case "field.read":
      return input("field");
    case "pagination.next":
    case "pagination.collect":
      return input("next");
    case "dialog.inspect":
    case "dialog.confirm":
    case "dialog.cancel":
    case "navigation.follow":
      return undefined;
    default:
      return task.scope.regionName;
  }
}

const RISK_RANK: Readonly<Record<string, number>> = {
  readOnly: 0,
  localMutation: 1,
  remoteReversible: 2,
  remoteIrreversible: 3,
  authentication: 4,
  dataDisclosure: 5,
  unknownRisk: 6,
};

/** The task's risk, raised to the least its family carries. */
export function effectiveRisk(task: TaskDocument): TaskRisk {
  const least = TASK_FAMILIES[task.task].minimumRisk;
  return (RISK_RANK[task.risk] ?? 6) >= (RISK_RANK[least] ?? 0) ? task.risk : least;
}

/**
 * Whether the plan needs the user's confirmation: a remoteIrreversible, authentication or
 * dataDisclosure risk, ambiguity `requireConfirmation`, or revision `reextract` when not read-only.
 */
export function needsConfirmation(risk: TaskRisk, task: TaskDocument): boolean {
  return (
    (RISK_RANK[risk] ?? 6) >= RISK_RANK.remoteIrreversible! ||
    task.ambiguity === "requireConfirmation" ||
    (task.revision === "reextract" && risk !== "readOnly")
  );
}

/** A compilation failure, as the daemon reports it: `task.invalid` with details `{kind: taskCompilation, path, reason}`. */
export function compilationFailure(path: string, reason: string): Error {
  return mockError("task.invalid", reason, { details: { kind: "taskCompilation", path, reason } });
}
