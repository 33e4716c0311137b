import { utf8Length } from "../byte-length.js";
import { joinIndex, joinPath, type ValidationIssue } from "../issue.js";

/*
 * Cross-field rules of the Web IR v1 document (schema/web-ir-v1.schema.json) and of the payloads
 * that carry two of them (webIr.diff, webIr.continuity). Each rule receives a value whose structure
 * the schema has already validated, so it only reads the fields it relates. Every rule is linear in
 * the size of the document (Sets and Maps, no nested loops over entities or relationships).
 *
 * The checks, their paths and their reasons are those of the daemon (glass-browser 0.3.14,
 * `GlassWebIrV1::validate` and `validate_revision_transition`), in the daemon's order. The daemon
 * stops at its first failure; a rule here goes on and reports every issue it finds, the daemon's
 * first one first, so that a payload refused before it is sent reads exactly like the daemon's
 * refusal of it.
 */

/** The fields of a structurally valid Web IR entity that the rules read. */
interface EntityShape {
  id: string;
  kind: string;
  quality: string;
  evidenceSources: readonly string[];
}

/** The fields of a structurally valid Web IR relationship that the rules read. */
interface RelationshipShape {
  from: string;
  to: string;
  kind: string;
}

/** The fields of a structurally valid entry of `entityDetails` that the rules read. */
interface EntityDetailShape {
  state?: { disabled?: boolean; readOnly?: boolean };
  supportedActions?: readonly string[];
  regionId?: string;
  scope?: string;
  scopeId?: string;
  semanticStabilityKey?: string;
  surfaceId?: string;
  surfaceParentId?: string;
  surfaceKind?: unknown;
  surfaceCoverage?: unknown;
}

/** The fields of a structurally valid Web IR document that the rules read. */
interface WebIrShape {
  revision: number;
  document?: { revision: number };
  entities: readonly EntityShape[];
  relationships: readonly RelationshipShape[];
  coverage: { opaqueRegions: number };
  entityDetails?: Readonly<Record<string, EntityDetailShape>>;
  relationshipHintDiagnostics?: readonly { parentRole: string }[];
}

/** The fields of a diff or continuity payload that {@link webIrRevisionOrder} compares. */
interface WebIrPairShape {
  before: { revision: number };
  after: { revision: number };
}

// The daemon's reasons, word for word.
const DOCUMENT_REVISION = "document revision must match the Web IR revision";
const SINGLE_PAGE = "Glass Web IR must contain exactly one page entity";
const DUPLICATE_ID = "entity IDs must be unique within one revision";
const OPAQUE_REGION = "opaque regions cannot claim positive evidence or quality";
const OPAQUE_RESERVED = "opaque quality is reserved for opaque regions";
const PROVENANCE = "positive entities require source provenance";
const OPAQUE_COUNT = "coverage count must match opaque region entities";
const DETAILS_COUNT = "entity details exceed the entity count";
const DETAILS_UNKNOWN = "entity details must reference a known entity";
const ACTIONS_ORDER = "supported actions must be unique, sorted, and bounded";
const DISABLED_ACTIONS = "disabled entities cannot advertise executable actions";
const READ_ONLY_ACTIONS = "read-only entities cannot advertise value mutation";
const REGION_UNKNOWN = "region membership must reference a known entity";
const DOCUMENT_SCOPE_ID = "document-scoped entities cannot carry a frame or shadow scope ID";
const SURFACE_INCOMPLETE = "surface metadata requires kind and coverage";
const SURFACE_WITHOUT_ID = "surface kind and coverage require a surface ID";
const RELATIONSHIP_ENDPOINTS = "relationships must reference two distinct known entities";
const DUPLICATE_RELATIONSHIP = "relationships must be unique";
const OLDER_REVISION = "target revision is older than the source revision";
const SAME_REVISION = "same-revision Web IR documents must have identical content";

/** The daemon's reason for a bounded text (non-empty, at most `max` UTF-8 bytes, no control character). */
const boundedText = (max: number): string => `value must be non-empty, at most ${max} bytes, and contain no controls`;

/**
 * The actions an entity detail may list, in the daemon's order: `supportedActions` must follow it
 * without repeats (at most {@link MAX_ACTIONS} of them).
 */
const ACTION_ORDER: readonly string[] = [
  "read",
  "click",
  "type",
  "select",
  "check",
  "uncheck",
  "submit",
  "open",
  "close",
  "confirm",
  "cancel",
  "navigate",
  "extract",
  "paginate",
];
const MAX_ACTIONS = 16;
/** The actions a read-only entity cannot advertise: they change its value. */
const VALUE_MUTATIONS: ReadonlySet<string> = /* @__PURE__ */ new Set(["type", "select", "check", "uncheck"]);
/** Rust's `char::is_control`: the Unicode control characters (category Cc). */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * Document rule: everything that relates several parts of one Web IR document, checked in the
 * daemon's order, in linear passes over one map of ids. Paths are below the path given (the
 * validators give the document root, as the daemon reports them).
 *
 * | # | check | issue path | reason (the daemon's) |
 * |---|---|---|---|
 * | 1 | `document.revision` equals `revision` (an absent `document` counts as revision 0, as in the daemon) | `document.revision` | `document revision must match the Web IR revision` |
 * | 2 | exactly one entity has kind `page` (one issue, none or several) | `entities` | `Glass Web IR must contain exactly one page entity` |
 * | 3 | entity ids are unique (each repeat) | `entities[i].id` | `entity IDs must be unique within one revision` |
 * | 4 | each entity's evidence ({@link webIrEntityEvidence}; after its id) | `entities[i]…` | see there |
 * | 5 | `coverage.opaqueRegions` counts the `opaqueRegion` entities | `coverage.opaqueRegions` | `coverage count must match opaque region entities` |
 * | 6 | `entityDetails` has no more keys than there are entities | `entityDetails` | `entity details exceed the entity count` |
 * | 7 | each `entityDetails` key is an entity id | `entityDetails` | `entity details must reference a known entity` |
 * | 8 | each entry's own checks ({@link entityDetailIssue}) | `entityDetails.<id>.…` | see there |
 * | 9 | each relationship joins two distinct entities of the document | `relationships[i]` | `relationships must reference two distinct known entities` |
 * | 10 | no `{from, to, kind}` repeats (each repeat; checked only for a relationship that passed 9) | `relationships[i]` | `relationships must be unique` |
 * | 11 | each `relationshipHintDiagnostics[i].parentRole` is a bounded text (1 to 64 UTF-8 bytes, no control character) | `relationshipHintDiagnostics[i].parentRole` | `value must be non-empty, at most 64 bytes, and contain no controls` |
 *
 * Entities come in document order, each with its id issue (3) before its evidence issue (4). The
 * daemon checks the `entityDetails` entries in the order of their keys (by code point), so the
 * entry whose key comes first in that order is reported first (7 and 8), the others after it in
 * document order. Checks on the value of a single field that the schema states (identifiers, text
 * bounds, list bounds, the URL without query or fragment, the 256 KiB bound) are the schema's,
 * checked before any rule.
 */
export function webIrDocumentConsistency(ir: WebIrShape, path: string, out: ValidationIssue[]): boolean {
  const before = out.length;
  if ((ir.document?.revision ?? 0) !== ir.revision) {
    out.push({ path: joinPath(joinPath(path, "document"), "revision"), reason: DOCUMENT_REVISION });
  }

  const entities = ir.entities;
  // Entity id → position; relationships are then keyed by numbers, not by concatenated strings.
  const ids = new Map<string, number>();
  let pages = 0;
  let opaque = 0;
  let repeatedIds = false;
  // The issues of single entities, reported after the page count, which the daemon checks first.
  let entityIssues: ValidationIssue[] | undefined;
  const entitiesPath = joinPath(path, "entities");
  for (let i = 0; i < entities.length; i++) {
    const entity = entities[i]!;
    if (entity.kind === "page") pages++;
    else if (entity.kind === "opaqueRegion") opaque++;
    const known = ids.size;
    ids.set(entity.id, i);
    if (ids.size === known) {
      repeatedIds = true;
      (entityIssues ??= []).push({ path: joinPath(joinIndex(entitiesPath, i), "id"), reason: DUPLICATE_ID });
    }
    if (!entityEvidenceHolds(entity)) webIrEntityEvidence(entity, joinIndex(entitiesPath, i), (entityIssues ??= []));
  }
  if (pages !== 1) out.push({ path: entitiesPath, reason: SINGLE_PAGE });
  if (entityIssues !== undefined) for (const issue of entityIssues) out.push(issue);

  if (ir.coverage.opaqueRegions !== opaque) {
    out.push({ path: joinPath(joinPath(path, "coverage"), "opaqueRegions"), reason: OPAQUE_COUNT });
  }
  if (ir.entityDetails !== undefined)
    entityDetailsConsistency(ir.entityDetails, ids, entities.length, joinPath(path, "entityDetails"), out);
  relationshipsConsistency(ir.relationships, entities, ids, repeatedIds, joinPath(path, "relationships"), out);

  const hints = ir.relationshipHintDiagnostics;
  if (hints !== undefined) {
    const hintsPath = joinPath(path, "relationshipHintDiagnostics");
    for (let i = 0; i < hints.length; i++) {
      if (!isBoundedText(hints[i]!.parentRole, 64))
        out.push({ path: joinPath(joinIndex(hintsPath, i), "parentRole"), reason: boundedText(64) });
    }
  }
  return out.length === before;
}

/** Whether a string is non-empty, at most `max` UTF-8 bytes and free of control characters (the daemon's bounded text). */
function isBoundedText(text: string, max: number): boolean {
  return text.length > 0 && (text.length * 3 <= max || utf8Length(text) <= max) && !CONTROL.test(text);
}

/** Whether an entity's kind, quality and evidence agree (the fast check of {@link webIrEntityEvidence}). */
function entityEvidenceHolds(entity: EntityShape): boolean {
  if (entity.kind === "opaqueRegion") return entity.quality === "opaque" && entity.evidenceSources.length === 0;
  return entity.quality !== "opaque" && (entity.kind === "page" || entity.evidenceSources.length > 0);
}

/**
 * Entity rule (checked by {@link webIrDocumentConsistency} for each entity), the daemon's checks in
 * its order; at most one issue an entity:
 *
 * | entity | check | issue path | reason (the daemon's) |
 * |---|---|---|---|
 * | `opaqueRegion` | quality `opaque` and no evidence sources | the entity (`entities[i]`) | `opaque regions cannot claim positive evidence or quality` |
 * | any other | quality is not `opaque` | `entities[i].quality` | `opaque quality is reserved for opaque regions` |
 * | any other but the page | at least one evidence source | `entities[i].evidenceSources` | `positive entities require source provenance` |
 */
export function webIrEntityEvidence(entity: EntityShape, path: string, out: ValidationIssue[]): boolean {
  if (entity.kind === "opaqueRegion") {
    if (entity.quality === "opaque" && entity.evidenceSources.length === 0) return true;
    out.push({ path, reason: OPAQUE_REGION });
    return false;
  }
  if (entity.quality === "opaque") {
    out.push({ path: joinPath(path, "quality"), reason: OPAQUE_RESERVED });
    return false;
  }
  if (entity.kind !== "page" && entity.evidenceSources.length === 0) {
    out.push({ path: joinPath(path, "evidenceSources"), reason: PROVENANCE });
    return false;
  }
  return true;
}

/**
 * Checks 6 to 8 of {@link webIrDocumentConsistency}: the number of entries, then each entry, the
 * one the daemon checks first (its key first by code point) reported first.
 */
function entityDetailsConsistency(
  details: Readonly<Record<string, EntityDetailShape>>,
  ids: ReadonlyMap<string, number>,
  entityCount: number,
  detailsPath: string,
  out: ValidationIssue[],
): void {
  let count = 0;
  let failing: { key: string; issue: ValidationIssue }[] | undefined;
  for (const key of Object.keys(details)) {
    count++;
    const issue = ids.has(key)
      ? entityDetailIssue(key, details[key]!, ids, detailsPath)
      : { path: detailsPath, reason: DETAILS_UNKNOWN };
    if (issue !== undefined) (failing ??= []).push({ key, issue });
  }
  if (count > entityCount) out.push({ path: detailsPath, reason: DETAILS_COUNT });
  if (failing === undefined) return;
  let first = 0;
  for (let i = 1; i < failing.length; i++) if (compareCodePoints(failing[i]!.key, failing[first]!.key) < 0) first = i;
  out.push(failing[first]!.issue);
  for (let i = 0; i < failing.length; i++) if (i !== first) out.push(failing[i]!.issue);
}

/**
 * The first issue of one `entityDetails` entry (its key an entity id), the daemon's checks in its
 * order. Paths name the entry by its raw key as the daemon does (`entityDetails.action-renew.scopeId`,
 * unquoted):
 *
 * | check | issue path | reason (the daemon's) |
 * |---|---|---|
 * | `supportedActions`: at most 16, without repeats, in the daemon's order (read, click, type, select, check, uncheck, submit, open, close, confirm, cancel, navigate, extract, paginate) | `.supportedActions` | `supported actions must be unique, sorted, and bounded` |
 * | `state.disabled`: only `read` and `extract` | `.supportedActions` | `disabled entities cannot advertise executable actions` |
 * | `state.readOnly`: none of `type`, `select`, `check`, `uncheck` | `.supportedActions` | `read-only entities cannot advertise value mutation` |
 * | `regionId` is an entity id | `.regionId` | `region membership must reference a known entity` |
 * | no `scopeId` when `scope` is `document` (its default) | `.scopeId` | `document-scoped entities cannot carry a frame or shadow scope ID` |
 * | `scopeId`, `semanticStabilityKey`, `surfaceId`, `surfaceParentId`: bounded texts (128, 512, 128, 128 bytes) | `.<field>` | `value must be non-empty, at most <n> bytes, and contain no controls` |
 * | `surfaceId` comes with `surfaceKind` and `surfaceCoverage` | `.surface` | `surface metadata requires kind and coverage` |
 * | `surfaceKind` or `surfaceCoverage` only with `surfaceId` | `.surface` | `surface kind and coverage require a surface ID` |
 */
function entityDetailIssue(
  key: string,
  detail: EntityDetailShape,
  ids: ReadonlyMap<string, number>,
  detailsPath: string,
): ValidationIssue | undefined {
  const at = (field: string): string => `${detailsPath}.${key}.${field}`;
  const actions = detail.supportedActions ?? [];
  let previous = -1;
  let sorted = actions.length <= MAX_ACTIONS;
  let executable = false;
  let mutation = false;
  for (const action of actions) {
    const rank = ACTION_ORDER.indexOf(action);
    if (rank <= previous) sorted = false;
    previous = rank;
    if (action !== "read" && action !== "extract") executable = true;
    if (VALUE_MUTATIONS.has(action)) mutation = true;
  }
  if (!sorted) return { path: at("supportedActions"), reason: ACTIONS_ORDER };
  if (detail.state?.disabled === true && executable) return { path: at("supportedActions"), reason: DISABLED_ACTIONS };
  if (detail.state?.readOnly === true && mutation) return { path: at("supportedActions"), reason: READ_ONLY_ACTIONS };
  if (detail.regionId !== undefined && !ids.has(detail.regionId))
    return { path: at("regionId"), reason: REGION_UNKNOWN };
  if ((detail.scope ?? "document") === "document" && detail.scopeId !== undefined)
    return { path: at("scopeId"), reason: DOCUMENT_SCOPE_ID };
  const texts = [
    ["scopeId", detail.scopeId, 128],
    ["semanticStabilityKey", detail.semanticStabilityKey, 512],
    ["surfaceId", detail.surfaceId, 128],
    ["surfaceParentId", detail.surfaceParentId, 128],
  ] as const;
  for (const [field, text, max] of texts) {
    if (text !== undefined && !isBoundedText(text, max)) return { path: at(field), reason: boundedText(max) };
  }
  const surfaceFacts = detail.surfaceKind !== undefined || detail.surfaceCoverage !== undefined;
  if (detail.surfaceId !== undefined && (detail.surfaceKind === undefined || detail.surfaceCoverage === undefined)) {
    return { path: at("surface"), reason: SURFACE_INCOMPLETE };
  }
  if (detail.surfaceId === undefined && surfaceFacts) return { path: at("surface"), reason: SURFACE_WITHOUT_ID };
  return undefined;
}

/**
 * Orders two strings by code point, the order of their UTF-8 bytes, which is how the daemon's
 * sorted maps order keys (JavaScript's `<` compares UTF-16 code units, which differs past U+FFFF).
 */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // At the first difference, a surrogate (U+D800-U+DFFF, part of a code point past U+FFFF)
    // sorts after U+E000-U+FFFF: shift both ranges into code point order.
    const rank = (c: number): number => (c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c);
    return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/**
 * Checks 9 and 10 of {@link webIrDocumentConsistency}, at most one issue a relationship: its
 * endpoints, else whether its `{from, to, kind}` came before.
 */
function relationshipsConsistency(
  relationships: readonly RelationshipShape[],
  entities: readonly EntityShape[],
  ids: ReadonlyMap<string, number>,
  repeatedIds: boolean,
  relationshipsPath: string,
  out: ValidationIssue[],
): void {
  const n = entities.length;
  // Uniqueness of {from, to, kind} without hashing strings: most targets have one incoming
  // relationship, recorded as (from, kind) in a typed array; only targets with several use a Set.
  const firstIncoming = new Int32Array(n);
  let severalIncoming: Set<number> | undefined;
  const kinds = new Map<string, number>();
  let lastKindName: string | undefined;
  let lastKind = 0;
  // Extractors list relationships in document order: consecutive ones often share their source (a
  // region and what it contains) and point at the entity after the previous target. Comparing with
  // those guesses is cheaper than hashing the id again; a wrong guess falls back to the map.
  let lastFromId: string | undefined;
  let lastFrom: number | undefined;
  let nextTo = 0;
  for (let i = 0; i < relationships.length; i++) {
    const relationship = relationships[i]!;
    if (relationship.from !== lastFromId) {
      lastFromId = relationship.from;
      lastFrom = ids.get(lastFromId);
    }
    const from = lastFrom;
    const to =
      nextTo < n && !repeatedIds && entities[nextTo]!.id === relationship.to ? nextTo : ids.get(relationship.to);
    if (to !== undefined) nextTo = to + 1;
    let reason: string | undefined;
    if (from === undefined || to === undefined || from === to) {
      reason = RELATIONSHIP_ENDPOINTS;
    } else {
      if (relationship.kind !== lastKindName) {
        lastKindName = relationship.kind;
        const known = kinds.get(lastKindName);
        lastKind = known ?? kinds.size;
        if (known === undefined) kinds.set(lastKindName, lastKind);
      }
      // Positions are below 4096 and kinds below 32 (the schema bounds both): every code is exact.
      const code = from * 32 + lastKind + 1;
      const first = firstIncoming[to]!;
      if (first === 0) {
        firstIncoming[to] = code;
      } else if (first === code) {
        reason = DUPLICATE_RELATIONSHIP;
      } else {
        severalIncoming ??= new Set<number>();
        if (first > 0) {
          severalIncoming.add(to * 131072 + first);
          firstIncoming[to] = -1;
        }
        const key = to * 131072 + code;
        const known = severalIncoming.size;
        severalIncoming.add(key);
        if (severalIncoming.size === known) reason = DUPLICATE_RELATIONSHIP;
      }
    }
    if (reason !== undefined) out.push({ path: joinIndex(relationshipsPath, i), reason });
  }
}

/**
 * Payload rule of webIr.diff and webIr.continuity, checked once both documents are valid (the
 * daemon validates `before`, then `after`, then this): `after.revision` is not lower than
 * `before.revision`, and two documents at the same revision are identical (compared as JSON values,
 * so key order does not matter; see {@link jsonEqual}).
 *
 * | check | issue path | reason (the daemon's) |
 * |---|---|---|
 * | `after.revision` ≥ `before.revision` | `revision` | `target revision is older than the source revision` |
 * | same revision, same content | `revision` | `same-revision Web IR documents must have identical content` |
 *
 * The path is `revision` whatever the payload's path, as the daemon reports it: like the issues of
 * each document, it restarts at the document root (here the target's, `after`).
 */
export function webIrRevisionOrder(pair: WebIrPairShape, _path: string, out: ValidationIssue[]): boolean {
  if (pair.after.revision < pair.before.revision) {
    out.push({ path: "revision", reason: OLDER_REVISION });
    return false;
  }
  if (pair.after.revision === pair.before.revision && !jsonEqual(pair.before, pair.after)) {
    out.push({ path: "revision", reason: SAME_REVISION });
    return false;
  }
  return true;
}

/**
 * Deep equality of two JSON values: objects compare by their own keys whatever the key order
 * (a key whose value is `undefined` counts as absent, as in JSON), arrays element by element.
 * Iterative, so a deeply nested value cannot overflow the call stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i += 1) pending.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    let xCount = 0;
    for (const key of Object.keys(xo)) {
      if (xo[key] === undefined) continue;
      xCount += 1;
      if (!Object.hasOwn(yo, key)) return false;
      pending.push(xo[key], yo[key]);
    }
    let yCount = 0;
    for (const key of Object.keys(yo)) if (yo[key] !== undefined) yCount += 1;
    if (xCount !== yCount) return false;
  }
  return true;
}
