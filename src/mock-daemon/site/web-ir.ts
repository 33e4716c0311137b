import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { WebIrDocument, WebIrEntity, WebIrEntityDetails, WebIrRelationship } from "../../../generated/types/web-ir-v1.js";
import { utf8Length } from "../../validation/byte-length.js";
import { canonicalJson } from "../canonical-json.js";
import { mockError } from "../handlers.js";
import { pageText } from "./pages.js";
import type { SiteContext } from "./site-context.js";

/** The Web IR entity id of a region (`region_signin` → `region-signin`) or element (`email` → `field-email`). */
export function regionEntityId(regionId: string): string {
  return regionId.replace(/_/g, "-");
}

/**
 * The Web IR v1 document of the current page: the page, each region (as a region, form, table or
 * dialog entity) with its elements (fields, actions, links) and a table's rows, linked by
 * `contains`; a form's submit action `submits` it, an order link `opens` the dialog when it is
 * open. Entity ids are stable across revisions (`field-email`), so diff and continuity can follow
 * them. The URL carries no query or fragment.
 */
export function extractWebIr(site: SiteContext): WebIrDocument {
  const page = site.page();
  const { revision } = site.state;
  const entities: WebIrEntity[] = [{ id: "page", kind: "page", name: page.title, quality: "confirmed", evidenceSources: ["dom", "accessibility"] }];
  const relationships: WebIrRelationship[] = [];
  const entityDetails: WebIrEntityDetails = {};
  const dialog = page.regions.find((region) => region.kind === "dialog");
  for (const region of page.regions) {
    const regionId = regionEntityId(region.id);
    const sources = region.irKind === "table" ? (["dom", "tables"] as const) : region.irKind === "form" ? (["dom", "forms"] as const) : region.irKind === "dialog" ? (["dom", "dialogs"] as const) : (["dom", "accessibility"] as const);
    entities.push({ id: regionId, kind: region.irKind, role: region.kind, name: region.label, quality: "confirmed", evidenceSources: [...sources] });
    relationships.push({ from: "page", to: regionId, kind: "contains" });
    for (const [index, record] of (region.records ?? []).entries()) {
      const rowId = `${regionId}-row-${index + 1}`;
      entities.push({ id: rowId, kind: "row", role: "row", name: Object.values(record).join(" "), quality: "confirmed", evidenceSources: ["dom", "tables"] });
      relationships.push({ from: regionId, to: rowId, kind: "contains" });
    }
    for (const element of region.elements) {
      const id = `${element.irKind}-${element.key}`;
      entities.push({ id, kind: element.irKind, role: element.role, name: element.name, quality: "confirmed", evidenceSources: ["dom", "accessibility"] });
      relationships.push({ from: regionId, to: id, kind: "contains" });
      entityDetails[id] = element.irKind === "field" ? { supportedActions: ["type"], inputType: element.inputType ?? "text", state: { required: true } } : { supportedActions: ["click"], state: { disabled: false } };
      if (element.onClick?.kind === "submitSignIn") relationships.push({ from: id, to: regionId, kind: "submits" });
      if (element.onClick?.kind === "closeDialog") relationships.push({ from: id, to: regionId, kind: "cancels" });
      if (element.onClick?.kind === "openOrder" && dialog !== undefined && dialog.label === element.name) relationships.push({ from: id, to: regionEntityId(dialog.id), kind: "opens" });
    }
  }
  const interactive = entities.filter((entity) => entity.kind === "field" || entity.kind === "action" || entity.kind === "link").length;
  return {
    schemaVersion: 1,
    revision,
    document: { revision, url: site.state.url.replace(/[?#].*$/s, ""), title: page.title, kind: page.kind, readyState: "complete" },
    entities,
    relationships,
    coverage: { structural: "confirmed", semantic: "strong", interactiveEntitiesObserved: interactive, opaqueRegions: 0 },
    limits: { truncated: false, omittedFacts: 0, textBytes: utf8Length(pageText(page)), missingSources: [] },
    entityDetails,
  };
}

/** webIr.inspect: the document's counts. */
export function inspectWebIr(payload: PayloadOf<"webIr.inspect">): ResultOf<"webIr.inspect"> {
  const { ir } = payload;
  const entityKindCounts: Record<string, number> = {};
  for (const entity of ir.entities) entityKindCounts[entity.kind] = (entityKindCounts[entity.kind] ?? 0) + 1;
  const actionable = ir.entities.filter((entity) => entity.kind === "field" || entity.kind === "action" || entity.kind === "link" || entity.kind === "unknownInteractive");
  return {
    schemaVersion: 1,
    revision: ir.revision,
    entityCount: ir.entities.length,
    relationshipCount: ir.relationships.length,
    coverage: ir.coverage,
    truncated: ir.limits.truncated,
    opaqueRegions: entityKindCounts.opaqueRegion ?? 0,
    diagnosticCount: ir.diagnostics?.length ?? 0,
    relationshipHintDiagnosticCount: ir.relationshipHintDiagnostics?.length ?? 0,
    entityKindCounts,
    actionableEntities: actionable.map((entity) => ({ id: entity.id, kind: entity.kind, ...(entity.name === undefined ? {} : { name: entity.name }) })),
  };
}

/** webIr.validate: a document that reached the handler is valid (the runtime refuses an invalid one first). */
export function validateWebIr(payload: PayloadOf<"webIr.validate">): ResultOf<"webIr.validate"> {
  return { valid: true, schemaVersion: 1, revision: payload.ir.revision };
}

const relationshipKey = (relationship: WebIrRelationship): string => `${relationship.from}\u0000${relationship.to}\u0000${relationship.kind}`;
const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** webIr.diff: entities matched by id, relationships by {from, to, kind}. */
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
    coverageChanged: !same(before.coverage, after.coverage),
    limitsChanged: !same(before.limits, after.limits),
    diagnosticsChanged: !same(before.diagnostics, after.diagnostics),
    relationshipHintDiagnosticsChanged: !same(before.relationshipHintDiagnostics, after.relationshipHintDiagnostics),
  };
}

/**
 * webIr.continuity: the entity is `unchanged` or `changed` under its id; else `rebound` to the one
 * entity of `after` with its kind, role and name, `ambiguous` among several, or `removed`.
 */
export function continuityWebIr(payload: PayloadOf<"webIr.continuity">): ResultOf<"webIr.continuity"> {
  const { before, after, entityId } = payload;
  const entity = before.entities.find((candidate) => candidate.id === entityId);
  if (entity === undefined) {
    const reason = "entity id must be an entity of the earlier document";
    throw mockError("webIr.invalid", "Web IR validation failed", { details: { kind: "webIrValidation", path: "entityId", reason } });
  }
  const identity = (candidate: WebIrEntity): string => canonicalJson([candidate.kind, candidate.role ?? null, candidate.name ?? null]);
  const current = after.entities.find((candidate) => candidate.id === entityId);
  if (current !== undefined) {
    return identity(current) === identity(entity)
      ? { requestedId: entityId, status: "unchanged", currentId: entityId, reason: "the id is still there with the same kind, role and name" }
      : { requestedId: entityId, status: "changed", currentId: entityId, reason: "the id is still there but its kind, role or name changed" };
  }
  const matches = after.entities.filter((candidate) => identity(candidate) === identity(entity));
  const [only] = matches;
  if (matches.length === 1 && only !== undefined) return { requestedId: entityId, status: "rebound", currentId: only.id, reason: "the id is gone; exactly one entity in the later document has the same kind, role and name" };
  if (matches.length > 1) return { requestedId: entityId, status: "ambiguous", reason: `the id is gone; ${matches.length} entities in the later document have the same kind, role and name` };
  return { requestedId: entityId, status: "removed", reason: "the id is gone and no entity in the later document has the same kind, role and name" };
}
