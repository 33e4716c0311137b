import type { TaskDocument } from "../../../generated/types/task-v1.js";
import type { WebIrDocument, WebIrEntity } from "../../../generated/types/web-ir-v1.js";
import { compareCodePoints, normalizedName, sortedUnique } from "./daemon-text.js";
import { compilationFailure, familySelectorName, familySelects } from "./task-families.js";

/** How many candidate ids a failure names. */
const LISTED_CANDIDATES = 8;

const byId = (a: WebIrEntity, b: WebIrEntity): number => compareCodePoints(a.id, b.id);

/**
 * The entities a task acts on, sorted by id, as the daemon's compiler selects them:
 *
 * 1. the candidates: the entities of the scope's `entityKind` (or, without one, of the kinds the
 *    family acts on), named — letters and digits, case aside — `scope.entityName`, or else the
 *    family's selector (the region's name; `inputs.field` for field.read, …); none fails at
 *    `scope`, several fail there too unless the ambiguity policy is `requireConfirmation` (then
 *    all are selected);
 * 2. form.fill adds, for each input (in name order), the one field of that name inside the
 *    candidates (reached through contains, owns, submits and scopedTo), else fails at
 *    `inputs.<name>`;
 * 3. form.submit adds the one action (or unknownInteractive entity) inside them named
 *    `inputs.submit`, else fails at `inputs.submit`.
 */
export function selectEntities(task: TaskDocument, ir: WebIrDocument): WebIrEntity[] {
  const selector = task.scope.entityName ?? familySelectorName(task);
  const wanted = selector === undefined ? undefined : normalizedName(selector);
  const { entityKind } = task.scope;
  const candidates = ir.entities
    .filter((entity) => (entityKind === undefined ? familySelects(task.task, entity) : entity.kind === entityKind))
    .filter((entity) => wanted === undefined || (entity.name !== undefined && normalizedName(entity.name) === wanted))
    .sort(byId);
  if (candidates.length === 0)
    throw compilationFailure("scope", "no compatible entity exists in the source Glass Web IR");
  if (candidates.length > 1 && (task.ambiguity ?? "fail") === "fail") {
    const listed = candidates
      .slice(0, LISTED_CANDIDATES)
      .map((entity) => entity.id)
      .join(", ");
    const more = candidates.length > LISTED_CANDIDATES ? ", …" : "";
    throw compilationFailure(
      "scope",
      `multiple compatible entities exist and ambiguity policy is fail: ${listed}${more}`,
    );
  }
  const selected = [...candidates];
  const scopeIds = sortedUnique(candidates.map((entity) => entity.id));
  if (task.task === "form.fill") selected.push(...formFields(task, ir, scopeIds));
  if (task.task === "form.submit") selected.push(submitAction(task, ir, scopeIds));
  return [...new Map(selected.sort(byId).map((entity) => [entity.id, entity])).values()];
}

/** The field of each input of a form.fill task, in input-name order. */
function formFields(task: TaskDocument, ir: WebIrDocument, scopeIds: readonly string[]): WebIrEntity[] {
  const scoped = entitiesScopedTo(ir, scopeIds);
  const fieldsByName = new Map<string, WebIrEntity[]>();
  for (const entity of ir.entities) {
    if (entity.kind !== "field" || !scoped.has(entity.id) || entity.name === undefined) continue;
    const name = normalizedName(entity.name);
    fieldsByName.set(name, [...(fieldsByName.get(name) ?? []), entity]);
  }
  return sortedUnique(Object.keys(task.inputs ?? {})).map((input) => {
    const fields = fieldsByName.get(normalizedName(input)) ?? [];
    const [only] = fields;
    if (fields.length === 1 && only !== undefined) return only;
    const reason = `form input must resolve to exactly one source Web IR field (found ${fields.length}; scope ${scopeIds.join("|")}; candidates ${fieldCandidates(ir, input)})`;
    throw compilationFailure(`inputs.${input}`, reason);
  });
}

/** The fields of the whole document named like `input`, each with where it sits: `field-card<-form-renew`. */
function fieldCandidates(ir: WebIrDocument, input: string): string {
  const wanted = normalizedName(input);
  return ir.entities
    .filter((entity) => entity.kind === "field" && entity.name !== undefined && normalizedName(entity.name) === wanted)
    .slice(0, LISTED_CANDIDATES)
    .map((entity) => {
      const parents = ir.relationships
        .filter((relationship) => relationship.to === entity.id)
        .map((relationship) => relationship.from);
      return `${entity.id}<-${parents.slice(0, 4).join("|")}`;
    })
    .join(",");
}

/** The one action of a form.submit task's form named `inputs.submit`. */
function submitAction(task: TaskDocument, ir: WebIrDocument, scopeIds: readonly string[]): WebIrEntity {
  const scoped = entitiesScopedTo(ir, scopeIds);
  const name = task.inputs?.submit;
  const submitters = ir.entities.filter(
    (entity) =>
      (entity.kind === "action" || entity.kind === "unknownInteractive") &&
      scoped.has(entity.id) &&
      name !== undefined &&
      entity.name !== undefined &&
      normalizedName(entity.name) === normalizedName(name),
  );
  const [only] = submitters;
  if (submitters.length !== 1 || only === undefined)
    throw compilationFailure("inputs.submit", "submit target must resolve to exactly one source Web IR action");
  return only;
}

const SCOPING_KINDS: ReadonlySet<string> = new Set(["contains", "owns", "submits", "scopedTo"]);

/** The ids of the entities inside the scope entities (and theirs): reached through contains, owns, submits and scopedTo (both ways). */
function entitiesScopedTo(ir: WebIrDocument, scopeIds: readonly string[]): Set<string> {
  const next = new Map<string, string[]>();
  const link = (from: string, to: string): void => void next.set(from, [...(next.get(from) ?? []), to]);
  for (const { from, to, kind } of ir.relationships) {
    if (!SCOPING_KINDS.has(kind)) continue;
    link(from, to);
    if (kind === "scopedTo") link(to, from);
  }
  const visited = new Set<string>();
  const frontier = [...scopeIds];
  for (let id = frontier.pop(); id !== undefined; id = frontier.pop()) {
    if (visited.has(id)) continue;
    visited.add(id);
    frontier.push(...(next.get(id) ?? []));
  }
  return visited;
}
