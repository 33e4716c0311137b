import { joinIndex, joinPath, type ValidationIssue } from "../issue.js";

/*
 * Cross-field rules of the Web IR v1 document (schema/web-ir-v1.schema.json) and of the payloads
 * that carry two of them (webIr.diff, webIr.continuity). Each rule receives a value whose structure
 * the schema has already validated, so it only reads the fields it relates. Every rule is linear in
 * the size of the document (Sets and Maps, no nested loops over entities or relationships).
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

/** The fields of a structurally valid Web IR document that the rules read. */
interface WebIrShape {
  revision: number;
  document?: { revision: number };
  entities: readonly EntityShape[];
  relationships: readonly RelationshipShape[];
  coverage: { opaqueRegions: number };
  entityDetails?: Record<string, unknown>;
}

/** The fields of a diff or continuity payload that {@link webIrRevisionOrder} compares. */
interface WebIrPairShape {
  before: { revision: number };
  after: { revision: number };
}

/** The reason every page-count issue reports. */
const SINGLE_PAGE = "web ir must contain exactly one page entity";
const UNKNOWN_ENDPOINT = "relationship endpoint must be a known entity id";
const DUPLICATE_RELATIONSHIP = "relationships must be unique by from, to and kind";

/**
 * Document rule: everything that relates several parts of one Web IR document, checked in two
 * linear passes (entities, then relationships) over one map of ids. Issues come in this order:
 *
 * 0. each entity's evidence ({@link webIrEntityEvidence}), in entity order;
 * 1. exactly one entity has kind `page` (none: on `entities`; each extra page: on its `kind`);
 * 2. entity ids are unique (each repeat on its `id`);
 * 3. every relationship joins two entities of the document (`from`, then `to`), the two are
 *    distinct, and no `{from, to, kind}` appears twice — at most one issue per relationship;
 * 4. `coverage.opaqueRegions` equals the number of `opaqueRegion` entities;
 * 5. `document.revision`, when present, equals the top-level `revision`;
 * 6. every key of `entityDetails` is the id of an entity.
 */
export function webIrDocumentConsistency(ir: WebIrShape, path: string, out: ValidationIssue[]): boolean {
  const entities = ir.entities;
  // Entity id → position; relationships are then keyed by numbers, not by concatenated strings.
  const ids = new Map<string, number>();
  let pages = 0;
  let opaque = 0;
  let extraPages: number[] | undefined;
  let repeatedIds: number[] | undefined;
  const before = out.length;
  const entitiesPath = joinPath(path, "entities");
  for (let i = 0; i < entities.length; i++) {
    const entity = entities[i]!;
    if (entity.kind === "page") {
      pages++;
      if (pages > 1) (extraPages ??= []).push(i);
    } else {
      if (entity.kind === "opaqueRegion") opaque++;
      if (!entityEvidenceHolds(entity)) webIrEntityEvidence(entity, joinIndex(entitiesPath, i), out);
    }
    const known = ids.size;
    ids.set(entity.id, i);
    if (ids.size === known) (repeatedIds ??= []).push(i);
  }
  if (pages === 0) out.push({ path: entitiesPath, reason: SINGLE_PAGE });
  for (const i of extraPages ?? []) out.push({ path: joinPath(joinIndex(entitiesPath, i), "kind"), reason: SINGLE_PAGE });
  for (const i of repeatedIds ?? []) out.push({ path: joinPath(joinIndex(entitiesPath, i), "id"), reason: "entity ids must be unique" });

  const relationships = ir.relationships;
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
    const to = nextTo < n && repeatedIds === undefined && entities[nextTo]!.id === relationship.to ? nextTo : ids.get(relationship.to);
    if (to !== undefined) nextTo = to + 1;
    let field: string | undefined;
    let reason: string | undefined;
    if (from === undefined) {
      field = "from";
      reason = UNKNOWN_ENDPOINT;
    } else if (to === undefined) {
      field = "to";
      reason = UNKNOWN_ENDPOINT;
    } else if (from === to) {
      reason = "relationship must connect two distinct entities";
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
    if (reason === undefined) continue;
    const at = joinIndex(joinPath(path, "relationships"), i);
    out.push({ path: field === undefined ? at : joinPath(at, field), reason });
  }

  if (ir.coverage.opaqueRegions !== opaque) {
    out.push({
      path: joinPath(joinPath(path, "coverage"), "opaqueRegions"),
      reason: "coverage opaque region count must equal the number of opaqueRegion entities",
    });
  }
  if (ir.document !== undefined && ir.document.revision !== ir.revision) {
    out.push({ path: joinPath(joinPath(path, "document"), "revision"), reason: "document revision must equal the top-level revision" });
  }
  if (ir.entityDetails !== undefined) {
    for (const key in ir.entityDetails) {
      if (!ids.has(key)) out.push({ path: joinPath(joinPath(path, "entityDetails"), key), reason: "entity details must belong to a known entity id" });
    }
  }
  return out.length === before;
}

/** Whether an entity's kind, quality and evidence agree (the fast check of {@link webIrEntityEvidence}). */
function entityEvidenceHolds(entity: EntityShape): boolean {
  if (entity.kind === "opaqueRegion") return entity.quality === "opaque" && entity.evidenceSources.length === 0;
  return entity.kind === "page" || entity.evidenceSources.length > 0;
}

/**
 * Entity rule (checked by {@link webIrDocumentConsistency} for each entity): an `opaqueRegion` has quality `opaque` and no evidence sources (the quality is
 * checked first); every other entity except the page has at least one evidence source.
 */
export function webIrEntityEvidence(entity: EntityShape, path: string, out: ValidationIssue[]): boolean {
  if (entity.kind === "opaqueRegion") {
    if (entity.quality !== "opaque") {
      out.push({ path: joinPath(path, "quality"), reason: "opaqueRegion entity must have quality opaque" });
      return false;
    }
    if (entity.evidenceSources.length > 0) {
      out.push({ path: joinPath(path, "evidenceSources"), reason: "opaqueRegion entity must not have evidence sources" });
      return false;
    }
    return true;
  }
  if (entity.kind !== "page" && entity.evidenceSources.length === 0) {
    out.push({ path: joinPath(path, "evidenceSources"), reason: "non-page entity requires at least one evidence source" });
    return false;
  }
  return true;
}

/**
 * Payload rule of webIr.diff and webIr.continuity: `after.revision` is not lower than
 * `before.revision`, and two documents at the same revision are identical (compared as JSON values,
 * so key order does not matter; see {@link jsonEqual}).
 */
export function webIrRevisionOrder(pair: WebIrPairShape, path: string, out: ValidationIssue[]): boolean {
  const afterPath = joinPath(path, "after");
  if (pair.after.revision < pair.before.revision) {
    out.push({ path: joinPath(afterPath, "revision"), reason: "after revision must not be lower than before revision" });
    return false;
  }
  if (pair.after.revision === pair.before.revision && !jsonEqual(pair.before, pair.after)) {
    out.push({ path: afterPath, reason: "documents with equal revisions must be identical" });
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
