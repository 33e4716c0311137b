import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type {
  BrowserWebIrExtractionRequest,
  BrowserWebIrExtractionScope,
} from "../../../generated/types/operations/browser-observation.js";
import type { BrowserAccessibilityNode } from "../../../generated/types/operations/browser-results.js";
import type {
  WebIrCoverage,
  WebIrDocument,
  WebIrEntity,
  WebIrEntityDetail,
  WebIrEntityKind,
  WebIrEvidenceSource,
  WebIrRelationship,
} from "../../../generated/types/web-ir-v1.js";
import { utf8Length } from "../../validation/byte-length.js";
import { canonicalJson } from "../canonical-json.js";
import { deepFreeze } from "../deep-freeze.js";
import { sortedUnique } from "./daemon-text.js";
import { toolFailed } from "./locators.js";
import type { SiteRegion } from "./pages.js";
import { observePage } from "./semantic.js";
import { FRAME_ID, type SiteContext } from "./site-context.js";

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
const REGION_SOURCES: Partial<Record<WebIrEntityKind, WebIrEvidenceSource>> = {
  form: "forms",
  table: "tables",
  dialog: "dialogs",
};

/** The request extractWebIr reads without one: the whole document, every source, the default budgets. */
export const DEFAULT_EXTRACTION_REQUEST: BrowserWebIrExtractionRequest = deepFreeze({
  schemaVersion: 1,
  scope: "document",
  sources: [
    "accessibility",
    "dom",
    "forms",
    "layout",
    "navigation",
    "tables",
    "collections",
    "dialogs",
    "frames",
    "shadowDom",
    "svg",
    "canvasDetection",
    "mediaMetadata",
    "embeddedDocument",
    "pdf",
    "browserNative",
    "bridge",
    "boundedProbe",
  ],
  budgets: { maxNodes: 2048, maxTextBytes: 32_768, maxDepth: 32, maxDurationMs: 5000, maxOutputBytes: 65_536 },
});

/** The evidence sources a Web IR document names, in the daemon's order (the others inform only coverage). */
const DOCUMENT_SOURCES: readonly WebIrEvidenceSource[] = [
  "dom",
  "accessibility",
  "layout",
  "forms",
  "navigation",
  "tables",
  "collections",
  "dialogs",
  "frames",
  "shadowDom",
  "boundedProbe",
];

/** The sources the daemon cannot read inside one region of a page (they describe the whole document). */
const DOCUMENT_WIDE_SOURCES: readonly WebIrEvidenceSource[] = ["dom", "layout"];

/** The region that stands for the whole page in a semantic observation of a page without landmarks. */
const WHOLE_PAGE_REGION = "region_main";

/** An entity as the page offers it, before the request's sources and budgets have their say. */
interface PageFact {
  readonly entity: WebIrEntity;
  readonly details: WebIrEntityDetail;
  /** How deep it sits: the page 0, a region 1, what a region holds 2. */
  readonly depth: number;
  /** The relationships that lead to it (its container's `contains`) or from it (a submit action's `submits`). */
  readonly relationships: readonly WebIrRelationship[];
}

/** The part of the page a request's scope reads: its regions, and what the entities' details say of the scope. */
interface ScopedPage {
  readonly regions: readonly SiteRegion[];
  /** Whether the scope is one region, not the whole document (the document-wide sources are then missing). */
  readonly narrowed: boolean;
  readonly details: Pick<WebIrEntityDetail, "scope" | "scopeId">;
}

/**
 * The regions a scope reads. `document`, the frame the page is in and `region_main` read the whole
 * page; a region of the page's semantic observation reads the site regions within it. Another
 * frame, or a region the page does not have at this revision, fails the call as the daemon fails
 * it.
 */
function scopedPage(site: SiteContext, scope: BrowserWebIrExtractionScope): ScopedPage {
  const page = site.page();
  if (scope === "document") return { regions: page.regions, narrowed: false, details: {} };
  if ("frame" in scope) {
    const { frame_id } = scope.frame;
    if (frame_id !== FRAME_ID)
      throw toolFailed(`scope.frameId: frame ${JSON.stringify(frame_id)} is not the active observed frame`);
    return { regions: page.regions, narrowed: false, details: { scope: "frame", scopeId: frame_id } };
  }
  const { region_id } = scope.region;
  const details = { scope: "region" as const, scopeId: region_id };
  if (region_id === WHOLE_PAGE_REGION) return { regions: page.regions, narrowed: false, details };
  const { observation, nodes } = observePage(site, "summary");
  const root = nodes.get(region_id);
  if (root === undefined)
    throw toolFailed(
      `scope.regionId: region ${JSON.stringify(region_id)} is not present at revision ${site.state.revision}`,
    );
  const within = new Set<BrowserAccessibilityNode>();
  const collect = (node: BrowserAccessibilityNode): void => {
    within.add(node);
    for (const child of node.children ?? []) collect(child);
  };
  collect(root);
  const inside = observation.regions.filter((region) => within.has(nodes.get(region.id) as BrowserAccessibilityNode));
  const regions = page.regions.filter((region) =>
    inside.some((found) => found.kind === region.kind && found.label === region.label),
  );
  return { regions, narrowed: true, details };
}

/**
 * Everything the page offers for its Web IR, in document order: the page, each region (as a region,
 * form or table entity) with its elements (fields, actions, links) and a table's rows, linked by
 * `contains`; a form's submit action `submits` it. Entity ids are the daemon's
 * (`entity_field_email`), stable across revisions and documents, so diff and continuity can follow
 * them. Each entity has the evidence and details (the actions the daemon's extractor lists for its
 * kind) the daemon's task compiler needs to select it: a region the accessibility tree and its own
 * source (forms, tables, dialogs), a field the forms too.
 */
function pageFacts(site: SiteContext, scoped: ScopedPage): PageFact[] {
  const page = site.page();
  const facts: PageFact[] = [
    {
      entity: {
        id: "page",
        kind: "page",
        name: page.title,
        quality: "confirmed",
        evidenceSources: ["dom", "accessibility"],
      },
      details: { supportedActions: actionsOf("page", "read") },
      depth: 0,
      relationships: [],
    },
  ];
  const idOf = entityIds();
  const fact = (
    entity: WebIrEntity,
    details: WebIrEntityDetail,
    depth: number,
    relationships: WebIrRelationship[],
  ): void => {
    facts.push({ entity, details: { ...details, ...scoped.details }, depth, relationships });
  };
  for (const region of scoped.regions) {
    const regionId = idOf(region.irKind, region.label);
    const own = REGION_SOURCES[region.irKind];
    fact(
      {
        id: regionId,
        kind: region.irKind,
        role: region.kind,
        name: region.label,
        quality: "confirmed",
        evidenceSources: ["dom", "accessibility", ...(own === undefined ? [] : [own])],
      },
      { supportedActions: actionsOf(region.irKind, "read") },
      1,
      [{ from: "page", to: regionId, kind: "contains" }],
    );
    for (const record of region.records ?? []) {
      const name = Object.values(record).join(" ");
      const rowId = idOf("row", name);
      fact(
        { id: rowId, kind: "row", role: "row", name, quality: "confirmed", evidenceSources: ["dom", "tables"] },
        { supportedActions: actionsOf("row", "read") },
        2,
        [{ from: regionId, to: rowId, kind: "contains" }],
      );
    }
    for (const element of region.elements) {
      const kind = element.irKind ?? "unknownInteractive";
      const id = idOf(kind, element.name);
      const field = kind === "field";
      const relationships: WebIrRelationship[] = [{ from: regionId, to: id, kind: "contains" }];
      if (element.onClick?.kind === "submitSignIn") relationships.push({ from: id, to: regionId, kind: "submits" });
      fact(
        {
          id,
          kind,
          role: element.role,
          name: element.name,
          quality: "confirmed",
          evidenceSources: field ? ["dom", "accessibility", "forms"] : ["dom", "accessibility"],
        },
        field
          ? fieldDetails(element.attributes.type ?? "text")
          : { state: { disabled: false }, supportedActions: actionsOf(kind, "click") },
        2,
        relationships,
      );
    }
  }
  return facts;
}

/**
 * The Web IR v1 document of the current page, as extractWebIr reads it for `request` (by default
 * the whole document, every source, the default budgets; that document is also what the site's
 * task compiler works on). What the request changes, as far as the simulated page lets it:
 *
 * - `scope`: a region of the page's semantic observation reads only the site regions within it
 *   (`dom` and `layout`, which describe the whole document, are then missing sources); the
 *   entities' details name the scope;
 * - `sources`: an entity keeps only the evidence of sources read; one left with none is not
 *   extracted (the page always is), and coverage follows what `dom` and `accessibility` saw;
 * - `budgets`: entities past `maxDepth` (a region is at depth 1, what it holds at 2) or past
 *   `maxNodes` (in document order, the page first), and the last ones while the document is over
 *   `maxOutputBytes`, are left out and counted in `limits.omittedFacts`; `limits.textBytes` is at
 *   most `maxTextBytes`; any of these marks the document truncated. The simulated page answers at
 *   once, so `maxDurationMs` never runs out.
 *
 * The URL carries no query or fragment.
 */
export function extractWebIr(
  site: SiteContext,
  request: BrowserWebIrExtractionRequest = DEFAULT_EXTRACTION_REQUEST,
): WebIrDocument {
  const page = site.page();
  const { revision } = site.state;
  const scoped = scopedPage(site, request.scope);
  const missing = scoped.narrowed ? DOCUMENT_WIDE_SOURCES.filter((source) => request.sources.includes(source)) : [];
  const read = new Set<string>(request.sources.filter((source) => !missing.includes(source as WebIrEvidenceSource)));
  const { budgets } = request;
  const sourced = pageFacts(site, scoped)
    .map((fact) => ({
      ...fact,
      entity: { ...fact.entity, evidenceSources: fact.entity.evidenceSources.filter((source) => read.has(source)) },
    }))
    .filter((fact) => fact.entity.kind === "page" || fact.entity.evidenceSources.length > 0);
  let kept = sourced.filter((fact) => fact.depth <= budgets.maxDepth).slice(0, budgets.maxNodes);
  const textBytes = utf8Length(page.text);
  const document = (facts: readonly PageFact[]): WebIrDocument => {
    const ids = new Set(facts.map((fact) => fact.entity.id));
    const truncated = facts.length < sourced.length || textBytes > budgets.maxTextBytes;
    const interactive = facts.filter(
      ({ entity }) => entity.kind === "field" || entity.kind === "action" || entity.kind === "link",
    ).length;
    const reasons = [
      ...missing.map((source) => `missingSource:${source.charAt(0).toUpperCase()}${source.slice(1)}`),
      ...(truncated ? ["budgetTruncated"] : []),
    ];
    return {
      schemaVersion: 1,
      revision,
      document: {
        revision,
        url: site.state.url.replace(/[?#].*$/s, ""),
        title: page.title,
        kind: observePage(site, "summary").observation.page.kind,
        readyState: "complete",
      },
      entities: facts.map((fact) => fact.entity),
      relationships: facts
        .flatMap((fact) => fact.relationships)
        .filter((relationship) => ids.has(relationship.from) && ids.has(relationship.to)),
      coverage: {
        ...coverageSeen(read, truncated),
        interactiveEntitiesObserved: interactive,
        opaqueRegions: 0,
        ...(reasons.length === 0 ? {} : { reasons }),
      },
      limits: {
        truncated,
        omittedFacts: sourced.length - facts.length,
        textBytes: Math.min(textBytes, budgets.maxTextBytes),
        missingSources: DOCUMENT_SOURCES.filter((source) => missing.includes(source)),
      },
      entityDetails: Object.fromEntries(facts.map((fact) => [fact.entity.id, fact.details])),
    };
  };
  let extracted = document(kept);
  while (kept.length > 1 && utf8Length(JSON.stringify(extracted)) > budgets.maxOutputBytes) {
    kept = kept.slice(0, -1);
    extracted = document(kept);
  }
  return extracted;
}

/**
 * How well the structure and the semantics were seen: the structure `confirmed` with the DOM read
 * and nothing cut, `partial` from the DOM or the accessibility tree alone or when cut, `opaque`
 * from neither; the semantics `strong` with the accessibility tree read and nothing cut, `partial`
 * when cut, `opaque` without it.
 */
function coverageSeen(read: ReadonlySet<string>, truncated: boolean): Pick<WebIrCoverage, "structural" | "semantic"> {
  const dom = read.has("dom");
  const accessibility = read.has("accessibility");
  return {
    structural: dom && !truncated ? "confirmed" : dom || accessibility ? "partial" : "opaque",
    semantic: accessibility ? (truncated ? "partial" : "strong") : "opaque",
  };
}

/**
 * extractWebIr as the daemon answers it: the page's Web IR document for the request (see
 * {@link extractWebIr}), projected — with `detailAvailability`, where the daemon keeps the full
 * document. The simulated document has no `diagnostics`, so every response mode answers the same.
 */
export function projectedWebIr(
  site: SiteContext,
  payload: PayloadOf<"browser.extractWebIr">,
): ResultOf<"browser.extractWebIr"> {
  return { ...extractWebIr(site, payload.request), detailAvailability: site.detailAvailability() };
}

/** A text field's details: not required (the shop's are not), typed into, an email personal and a password secret (as the daemon classifies them). */
function fieldDetails(inputType: string): WebIrEntityDetail {
  const sensitivity = inputType === "password" ? "secret" : inputType === "email" ? "personal" : undefined;
  return {
    state: { required: false },
    supportedActions: actionsOf("field", "type"),
    ...(sensitivity === undefined ? {} : { sensitivity }),
    inputType,
  };
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
    const details =
      ir.entityDetails !== undefined && Object.hasOwn(ir.entityDetails, entity.id)
        ? ir.entityDetails[entity.id]
        : undefined;
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
function coverageAsSent({
  structural,
  semantic,
  interactiveEntitiesObserved,
  opaqueRegions,
  reasons,
}: WebIrCoverage): WebIrCoverage {
  return {
    structural,
    semantic,
    interactiveEntitiesObserved,
    opaqueRegions,
    ...(reasons === undefined || reasons.length === 0 ? {} : { reasons }),
  };
}

/** webIr.validate: a document that reached the handler is valid (the runtime refuses an invalid one first). */
export function validateWebIr(payload: PayloadOf<"webIr.validate">): ResultOf<"webIr.validate"> {
  return { valid: true, schemaVersion: 1, revision: payload.ir.revision };
}

const relationshipKey = (relationship: WebIrRelationship): string =>
  `${relationship.from}\u0000${relationship.to}\u0000${relationship.kind}`;
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
    relationshipHintDiagnosticsChanged: !same(
      before.relationshipHintDiagnostics ?? [],
      after.relationshipHintDiagnostics ?? [],
    ),
  };
}
