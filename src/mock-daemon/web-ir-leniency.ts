import type { WebIrCoverage, WebIrEntity, WebIrLimits, WebIrRelationship } from "../../generated/types/web-ir-v1.js";
import { DOCUMENT_MEMBERS } from "../operations/web-ir-document.js";
import type { JsonValue } from "../validation/json-value.js";
import { isJsonObject } from "../validation/json-value.js";

// How the daemon decodes a Web IR document it is sent (glass-browser 0.3.14): it skips a member it
// does not know at the top of the document, in an entity, a relationship, the coverage and the
// limits, and refuses one anywhere else (in `document`, an entity's details …). The SDK checks the
// document as a closed object before sending; the mock reads it as the daemon does.

/** The members of an entity, a relationship, the coverage and the limits, each checked against its type. */
const ENTITY_MEMBERS = Object.keys({
  id: true,
  kind: true,
  role: true,
  name: true,
  quality: true,
  evidenceSources: true,
} satisfies Record<keyof WebIrEntity, true>);
const RELATIONSHIP_MEMBERS = Object.keys({ from: true, to: true, kind: true } satisfies Record<
  keyof WebIrRelationship,
  true
>);
const COVERAGE_MEMBERS = Object.keys({
  structural: true,
  semantic: true,
  interactiveEntitiesObserved: true,
  opaqueRegions: true,
  reasons: true,
} satisfies Record<keyof WebIrCoverage, true>);
const LIMITS_MEMBERS = Object.keys({
  truncated: true,
  omittedFacts: true,
  textBytes: true,
  missingSources: true,
} satisfies Record<keyof WebIrLimits, true>);

/** The payload members that hold a Web IR document, by operation. */
const DOCUMENT_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ["webIr.inspect", ["ir", "draft"]],
  ["webIr.validate", ["ir", "draft"]],
  ["webIr.diff", ["before", "after"]],
  ["webIr.continuity", ["before", "after"]],
  ["task.compile", ["ir", "draft"]],
]);

/** `value` without the members outside `known`, when it is an object with any (else `value` itself). */
function known(value: JsonValue, members: readonly string[]): JsonValue {
  if (!isJsonObject(value) || Object.keys(value).every((key) => members.includes(key))) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => members.includes(key))) as JsonValue;
}

/** A document as the daemon decodes it: the members it skips left out. */
function decodedDocument(document: JsonValue): JsonValue {
  if (!isJsonObject(document)) return document;
  const out = known(document, DOCUMENT_MEMBERS) as Record<string, JsonValue>;
  const copy: Record<string, JsonValue> = { ...out };
  if (Array.isArray(out.entities)) copy.entities = out.entities.map((entity) => known(entity, ENTITY_MEMBERS));
  if (Array.isArray(out.relationships))
    copy.relationships = out.relationships.map((relationship) => known(relationship, RELATIONSHIP_MEMBERS));
  if (out.coverage !== undefined) copy.coverage = known(out.coverage, COVERAGE_MEMBERS);
  if (out.limits !== undefined) copy.limits = known(out.limits, LIMITS_MEMBERS);
  return copy;
}

/**
 * The payload of a browser-free operation with its Web IR documents as the daemon decodes them
 * (see above); any other payload as it is.
 */
export function asDaemonDecodes(operation: string, payload: Record<string, JsonValue>): Record<string, JsonValue> {
  const keys = DOCUMENT_KEYS.get(operation);
  if (keys === undefined) return payload;
  const copy = { ...payload };
  for (const key of keys) if (copy[key] !== undefined) copy[key] = decodedDocument(copy[key]);
  return copy;
}
