import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type {
  WebIrCoverage,
  WebIrDocument,
  WebIrEntity,
  WebIrEntityDetail,
  WebIrEntityDetails,
  WebIrEntityKind,
  WebIrEvidenceSource,
  WebIrRelationship,
} from "../../../generated/types/web-ir-v1.js";
import { utf8Length } from "../../validation/byte-length.js";
import { canonicalJson } from "../canonical-json.js";
import { sortedUnique } from "./daemon-text.js";
import { observePage } from "./semantic.js";
import type { SiteContext } from "./site-context.js";

/** An action a Web IR entity supports (`read`, `click`, `type` …). */
export type WebIrAction = NonNullable<WebIrEntityDetail["supportedActions"]>[number];

/** An entity webIr.inspect lists as actionable. */
type ActionableEntity = NonNullable<ResultOf<"webIr.inspect">["actionableEntities"]>[number];

/** A name as the daemon slugs it into an entity id: ASCII letters and digits lower-cased, anything else one `-`, at most about 48 characters. */
function slug(name: string | undefined): string {
  let out = "";
  for (const char of name ?? "entity") {
    if (/^[A-Za-z0-9]$/.test(char)) out += char.toLowerCase();
    else if (!out.endsWith("-")) out += "-";
    if (out.length >= 48) break;
  }
  const trimmed = out.replace(/^-+|-+$/g, "");
  return trimmed === "" ? "entity" : trimmed;
}

/** Entity ids as the daemon gives them: `entity_<kind>_<slug of the name>`, a repeat suffixed `_1`, `_2`, … */
function entityIds(): (kind: WebIrEntityKind, name: string | undefined) => string {
  const used = new Map<string, number>();
  return (kind, name) => {
    const base = `entity_${kind}_${slug(name)}`;
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    return seen === 0 ? base : `${base}_${seen}`;
  };
}

/** The actions the daemon's extractor lists for an entity of each kind (in its order). */
const ACTIONS: Partial<Record<WebIrEntityKind, WebIrAction[]>> = {
  page: ["read", "navigate"],
  region: ["read", "extract"],
  form: ["read", "submit", "extract"],
  table: ["read", "extract"],
  row: ["read"],
  dialog: ["read", "close", "confirm", "cancel"],
  field: ["read", "type"],
  action: ["click"],
  link: ["click", "navigate"],
};

/** A copy of the actions of `kind` (`fallback` for a kind not listed). */
const actionsOf = (kind: WebIrEntityKind, fallback: WebIrAction): WebIrAction[] => [...(ACTIONS[kind] ?? [fallback])];

/** The evidence a region entity carries beside the DOM and the accessibility tree, by kind. */
const REGION_SOURCES: Partial<Record<WebIrEntityKind, WebIrEvidenceSource>> = { form: "forms", table: "tables", dialog: "dialogs" };

/**
 * The Web IR v1 document of the current page: the page, each region (as a region, form or table
 * entity) with its elements (fields, actions, links) and a table's rows, linked by `contains`; a
 * form's submit action `submits` it. Entity ids are the daemon's (`entity_field_email`), stable
 * across revisions and documents, so diff and continuity can follow
 * them. The URL carries no query or fragment. Each entity has the evidence and details (the
 * actions the daemon's extractor lists for its kind) the daemon's task compiler needs to select
 * it: a region the accessibility tree and its own source (forms, tables, dialogs), a field the
 * forms too.
 */
export function extractWebIr(site: SiteContext): WebIrDocument {
  const page = site.page();
  const { revision } = site.state;
  const entities: WebIrEntity[] = [{ id: "page", kind: "page", name: page.title, quality: "confirmed", evidenceSources: ["dom", "accessibility"] }];
  const relationships: WebIrRelationship[] = [];
  const entityDetails: WebIrEntityDetails = { page: { supportedActions: actionsOf("page", "read") } };
  const idOf = entityIds();
  for (const region of page.regions) {
    const regionId = idOf(region.irKind, region.label);
    const own = REGION_SOURCES[region.irKind];
    entities.push({ id: regionId, kind: region.irKind, role: region.kind, name: region.label, quality: "confirmed", evidenceSources: ["dom", "accessibility", ...(own === undefined ? [] : [own])] });
    entityDetails[regionId] = { supportedActions: actionsOf(region.irKind, "read") };
    relationships.push({ from: "page", to: regionId, kind: "contains" });
    for (const record of region.records ?? []) {
      const name = Object.values(record).join(" ");
      const rowId = idOf("row", name);
      entities.push({ id: rowId, kind: "row", role: "row", name, quality: "confirmed", evidenceSources: ["dom", "tables"] });
      entityDetails[rowId] = { supportedActions: actionsOf("row", "read") };
      relationships.push({ from: regionId, to: rowId, kind: "contains" });
    }
    for (const element of region.elements) {
      const kind = element.irKind ?? "unknownInteractive";
      const id = idOf(kind, element.name);
      const field = kind === "field";
      entities.push({ id, kind, role: element.role, name: element.name, quality: "confirmed", evidenceSources: field ? ["dom", "accessibility", "forms"] : ["dom", "accessibility"] });
      relationships.push({ from: regionId, to: id, kind: "contains" });
      entityDetails[id] = field ? fieldDetails(element.attributes.type ?? "text") : { state: { disabled: false }, supportedActions: actionsOf(kind, "click") };
      if (element.onClick?.kind === "submitSignIn") relationships.push({ from: id, to: regionId, kind: "submits" });
    }
  }
  const interactive = entities.filter((entity) => entity.kind === "field" || entity.kind === "action" || entity.kind === "link").length;
  return {
    schemaVersion: 1,
    revision,
    document: { revision, url: site.state.url.replace(/[?#].*$/s, ""), title: page.title, kind: observePage(site, "summary").observation.page.kind, readyState: "complete" },
    entities,
    relationships,
    coverage: { structural: "confirmed", semantic: "strong", interactiveEntitiesObserved: interactive, opaqueRegions: 0 },
    limits: { truncated: false, omittedFacts: 0, textBytes: utf8Length(page.text), missingSources: [] },
    entityDetails,
  };
}

/** A text field's details: not required (the shop's are not), typed into, an email personal and a password secret (as the daemon classifies them). */
function fieldDetails(inputType: string): WebIrEntityDetail {
  const sensitivity = inputType === "password" ? "secret" : inputType === "email" ? "personal" : undefined;
  return { state: { required: false }, supportedActions: actionsOf("field", "type"), ...(sensitivity === undefined ? {} : { sensitivity }), inputType };
}

/** How many entities webIr.inspect lists as actionable. */
const LISTED_ACTIONABLE = 16;

/**
 * webIr.inspect, as the daemon answers it: the document's counts, its coverage (and
 * `coverage.opaqueRegions` again), the number of entities of each kind (kinds in alphabetical order),
 * and the first 16 entities whose details list an action, in document order.
 */
export function inspectWebIr(payload: PayloadOf<"webIr.inspect">): ResultOf<"webIr.inspect"> {
  const { ir } = payload;
  const counts = new Map<string, number>();
  for (const entity of ir.entities) counts.set(entity.kind, (counts.get(entity.kind) ?? 0) + 1);
  const entityKindCounts = Object.fromEntries(sortedUnique(counts.keys()).map((kind) => [kind, counts.get(kind) ?? 0]));
  const actionableEntities: ActionableEntity[] = [];
  for (const entity of ir.entities) {
    const details = ir.entityDetails !== undefined && Object.hasOwn(ir.entityDetails, entity.id) ? ir.entityDetails[entity.id] : undefined;
    const supportedActions = details?.supportedActions ?? [];
    if (supportedActions.length === 0 || actionableEntities.length === LISTED_ACTIONABLE) continue;
    actionableEntities.push({
      id: entity.id,
      kind: entity.kind,
      ...(entity.role === undefined ? {} : { role: entity.role }),
      ...(entity.name === undefined ? {} : { name: entity.name }),
      sensitivity: details?.sensitivity ?? "unknown",
      supportedActions: [...supportedActions],
    });
  }
  return {
    schemaVersion: 1,
    revision: ir.revision,
    entityCount: ir.entities.length,
    relationshipCount: ir.relationships.length,
    coverage: coverageAsSent(ir.coverage),
    truncated: ir.limits.truncated,
    opaqueRegions: ir.coverage.opaqueRegions,
    diagnosticCount: ir.diagnostics?.length ?? 0,
    relationshipHintDiagnosticCount: ir.relationshipHintDiagnostics?.length ?? 0,
    entityKindCounts,
    actionableEntities,
  };
}

/** Coverage as the daemon sends it back: its fields in the daemon's order, `reasons` only when there are some. */
function coverageAsSent({ structural, semantic, interactiveEntitiesObserved, opaqueRegions, reasons }: WebIrCoverage): WebIrCoverage {
  return { structural, semantic, interactiveEntitiesObserved, opaqueRegions, ...(reasons === undefined || reasons.length === 0 ? {} : { reasons }) };
}

/** webIr.validate: a document that reached the handler is valid (the runtime refuses an invalid one first). */
export function validateWebIr(payload: PayloadOf<"webIr.validate">): ResultOf<"webIr.validate"> {
  return { valid: true, schemaVersion: 1, revision: payload.ir.revision };
}

const relationshipKey = (relationship: WebIrRelationship): string => `${relationship.from}\u0000${relationship.to}\u0000${relationship.kind}`;
const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);
/** Coverage as the daemon compares it: no `reasons` is the same as none. */
const coverageOf = (coverage: WebIrCoverage): WebIrCoverage => ({ ...coverage, reasons: coverage.reasons ?? [] });

/** webIr.diff: entities matched by id, relationships by {from, to, kind}; an absent list (diagnostics, reasons) is an empty one. */
export function diffWebIr(payload: PayloadOf<"webIr.diff">): ResultOf<"webIr.diff"> {
  const { before, after } = payload;
  const beforeById = new Map(before.entities.map((entity) => [entity.id, entity]));
  const afterById = new Map(after.entities.map((entity) => [entity.id, entity]));
  const beforeRelationships = new Set(before.relationships.map(relationshipKey));
  const afterRelationships = new Set(after.relationships.map(relationshipKey));
  let changed = 0;
  for (const [id, entity] of afterById) {
    const earlier = beforeById.get(id);
    if (earlier !== undefined && !same(earlier, entity)) changed += 1;
  }
  return {
    schemaVersion: 1,
    fromRevision: before.revision,
    toRevision: after.revision,
    entityAddedCount: [...afterById.keys()].filter((id) => !beforeById.has(id)).length,
    entityRemovedCount: [...beforeById.keys()].filter((id) => !afterById.has(id)).length,
    entityChangedCount: changed,
    relationshipAddedCount: [...afterRelationships].filter((key) => !beforeRelationships.has(key)).length,
    relationshipRemovedCount: [...beforeRelationships].filter((key) => !afterRelationships.has(key)).length,
    coverageChanged: !same(coverageOf(before.coverage), coverageOf(after.coverage)),
    limitsChanged: !same(before.limits, after.limits),
    diagnosticsChanged: !same(before.diagnostics ?? [], after.diagnostics ?? []),
    relationshipHintDiagnosticsChanged: !same(before.relationshipHintDiagnostics ?? [], after.relationshipHintDiagnostics ?? []),
  };
}
