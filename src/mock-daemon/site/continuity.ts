import type { PayloadOf, ResultOf } from "../../../generated/operation-map.js";
import type { WebIrDocument, WebIrEntity } from "../../../generated/types/web-ir-v1.js";
import { asciiLowercase } from "./daemon-text.js";

type Continuity = ResultOf<"webIr.continuity">;

/** The relationships that place an entity from the entity they lead to (besides every relationship leading to it). */
const OUTWARD_CONTEXT: ReadonlySet<string> = new Set(["scopedTo", "submits"]);

/**
 * An entity's semantic identity, as the daemon keys it: `kind|role|name`, role and name with ASCII
 * letters lower-cased; none when it has neither a role nor a name.
 */
function semanticIdentity(entity: WebIrEntity): string | undefined {
  if (entity.role === undefined && entity.name === undefined) return undefined;
  return `${entity.kind}|${asciiLowercase(entity.role ?? "")}|${asciiLowercase(entity.name ?? "")}`;
}

/**
 * An entity's identity in its document, as the daemon fingerprints it for continuity: its semantic
 * identity, its details' input type (ASCII lower-cased), scope, scope id and region id, and the
 * set of its graph neighbours — the kind and semantic identity of each entity with a relationship
 * to it, and of each it is `scopedTo` or `submits`. None without a semantic identity.
 */
function fingerprint(ir: WebIrDocument, entity: WebIrEntity): string | undefined {
  const identity = semanticIdentity(entity);
  if (identity === undefined) return undefined;
  const details =
    ir.entityDetails !== undefined && Object.hasOwn(ir.entityDetails, entity.id)
      ? ir.entityDetails[entity.id]
      : undefined;
  const keyOf = (id: string): string | undefined => {
    const other = ir.entities.find((candidate) => candidate.id === id);
    return other === undefined ? undefined : (semanticIdentity(other) ?? "");
  };
  const context = new Set<string>();
  for (const { from, to, kind } of ir.relationships) {
    const key =
      to === entity.id ? keyOf(from) : from === entity.id && OUTWARD_CONTEXT.has(kind) ? keyOf(to) : undefined;
    if (key !== undefined) context.add(JSON.stringify([to === entity.id ? "in" : "out", kind, key]));
  }
  return JSON.stringify([
    identity,
    asciiLowercase(details?.inputType ?? ""),
    details?.scope ?? "document",
    details?.scopeId ?? "",
    details?.regionId ?? "",
    [...context].sort(),
  ]);
}

/**
 * webIr.continuity, as the daemon classifies an entity of `before` in `after` (the two documents
 * already accepted, `after` not older): still under its id, `unchanged` when its
 * {@link fingerprint} is the same and `changed` otherwise; gone, `rebound` to the one entity of
 * `after` with its fingerprint, `ambiguous` when several have it (or, with none, when several share
 * its semantic identity), else `removed`. An id `before` does not have is `removed` too.
 */
export function continuityWebIr(payload: PayloadOf<"webIr.continuity">): Continuity {
  const { before, after, entityId: requestedId } = payload;
  const removed = (reason: string): Continuity => ({ requestedId, status: "removed", reason });
  const source = before.entities.find((entity) => entity.id === requestedId);
  if (source === undefined) return removed("entity was not present in the source revision");
  const sourceFingerprint = fingerprint(before, source);
  const current = after.entities.find((entity) => entity.id === requestedId);
  if (current !== undefined) {
    return sourceFingerprint === fingerprint(after, current)
      ? { requestedId, status: "unchanged", currentId: current.id, reason: "semantic identity remains compatible" }
      : {
          requestedId,
          status: "changed",
          currentId: current.id,
          reason: "same revision-local ID has changed semantic identity",
        };
  }
  if (sourceFingerprint === undefined) return removed("entity has no semantic identity for bounded rebinding");
  const candidates = after.entities.filter((entity) => fingerprint(after, entity) === sourceFingerprint);
  const [only] = candidates;
  if (candidates.length === 0) {
    const identity = semanticIdentity(source);
    if (after.entities.filter((entity) => semanticIdentity(entity) === identity).length > 1) {
      return { requestedId, status: "ambiguous", reason: "semantic identity exists in multiple graph contexts" };
    }
    return removed("no compatible semantic identity was observed");
  }
  if (candidates.length === 1 && only !== undefined) {
    return {
      requestedId,
      status: "rebound",
      currentId: only.id,
      reason: "revision-local ID changed but semantic identity remained unique",
    };
  }
  return { requestedId, status: "ambiguous", reason: "multiple compatible semantic identities were observed" };
}
