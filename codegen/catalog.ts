import { childPointer, type SchemaLocation, type SchemaObject, type SchemaRegistry } from "./schema-registry.js";

/** The catalog index file, relative to the schema folder. */
export const CATALOG_INDEX = "glass-operations-v1.json";

/** A lease requirement as the catalog writes it. */
export type CatalogLease =
  | "required"
  | "none"
  | { requiredWhen: { field: string; in: string[] } }
  | { requiredUnless: { field: string; in: string[] } };

/** One operation of the catalog, checked and located. */
export interface CatalogOperation {
  operation: string;
  tool: string;
  namespace: string;
  method: string;
  summary: string;
  lease: CatalogLease;
  expectedRevision: boolean;
  retrySafe: boolean;
  capability?: string;
  /** True when the daemon answers with plain text (not JSON), which the client lifts to `{text}`. */
  resultText: boolean;
  /** The group file the entry is in (relative to the schema folder). */
  file: string;
  payload: SchemaLocation;
  /** Absent when the protocol gives no result shape (any JSON). */
  result?: SchemaLocation;
  payloadTitle: string;
  resultTitle?: string;
  /** True when `{}` is a valid payload, so the generated method may omit it. */
  payloadOptional: boolean;
}

/** The whole catalog: its operations and the lease rule for tools outside it. */
export interface Catalog {
  groups: string[];
  operations: CatalogOperation[];
  leaseExemptTools: string[];
}

const EXPECTED_REVISION_PROPERTY = {
  $ref: "browser-defs.schema.json#/$defs/revision",
  description: "The page revision this action was planned against; the daemon answers staleRevision when the page has moved on.",
};

function pascal(operation: string): string {
  return operation
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

function fail(file: string, index: number, message: string): never {
  throw new Error(`schema/${file} operations[${index}]: ${message}`);
}

function checkLease(lease: unknown, file: string, index: number): CatalogLease {
  if (lease === "required" || lease === "none") return lease;
  if (lease !== null && typeof lease === "object") {
    const [kind, ...others] = Object.keys(lease);
    const condition = (lease as Record<string, { field?: unknown; in?: unknown }>)[kind ?? ""];
    if ((kind === "requiredWhen" || kind === "requiredUnless") && others.length === 0 && typeof condition?.field === "string" && Array.isArray(condition.in)) {
      return lease as CatalogLease;
    }
  }
  return fail(file, index, `lease must be "required", "none", {requiredWhen: {field, in}} or {requiredUnless: {field, in}}`);
}

/**
 * Reads the operation catalog, checks every entry, and adds the `expectedRevision` property to the
 * payload of each operation that accepts one (so the schema files say it once, as a flag).
 */
export function loadCatalog(registry: SchemaRegistry): Catalog {
  const index = registry.load(CATALOG_INDEX) as { groups?: unknown; leaseExemptTools?: unknown };
  if (!Array.isArray(index.groups) || !Array.isArray(index.leaseExemptTools)) {
    throw new Error(`schema/${CATALOG_INDEX} must list "groups" and "leaseExemptTools"`);
  }
  const operations: CatalogOperation[] = [];
  const seen = new Set<string>();
  for (const file of index.groups as string[]) {
    const group = registry.load(file) as { operations?: unknown };
    if (!Array.isArray(group.operations)) throw new Error(`schema/${file} has no "operations" list`);
    group.operations.forEach((raw: Record<string, unknown>, i: number) => {
      const { operation, tool, summary, expectedRevision, retrySafe, capability, resultText, payload, result } = raw;
      if (typeof operation !== "string" || !/^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/.test(operation)) fail(file, i, `operation must be "namespace.method"`);
      if (typeof tool !== "string" || tool === "") fail(file, i, "tool is required");
      if (typeof summary !== "string" || summary === "") fail(file, i, "summary is required");
      if (typeof expectedRevision !== "boolean" || typeof retrySafe !== "boolean") fail(file, i, "expectedRevision and retrySafe must be booleans");
      if (capability !== undefined && typeof capability !== "string") fail(file, i, "capability must be a string");
      if (resultText !== undefined && resultText !== true) fail(file, i, "resultText, when present, must be true");
      if (payload === null || typeof payload !== "object" || (payload as SchemaObject).type !== "object") fail(file, i, `payload must be an object schema`);
      for (const name of [operation, `tool:${tool}`]) {
        if (seen.has(name)) fail(file, i, `${name} is listed twice`);
        seen.add(name);
      }
      const lease = checkLease(raw.lease, file, i);
      if (retrySafe && lease !== "none") fail(file, i, "only a read-only (lease none) operation can be retrySafe");
      const payloadSchema = payload as SchemaObject;
      if (expectedRevision) {
        const properties = (payloadSchema.properties ??= {}) as Record<string, unknown>;
        if ("expectedRevision" in properties) fail(file, i, "expectedRevision is added by the generator; do not list it");
        properties.expectedRevision = EXPECTED_REVISION_PROPERTY;
      }
      const pointer = childPointer("", "operations", i);
      const [namespace, method] = operation.split(".") as [string, string];
      payloadSchema.title ??= `${pascal(operation)}Payload`;
      if (result !== undefined) (result as SchemaObject).title ??= `${pascal(operation)}Result`;
      operations.push({
        operation,
        tool,
        namespace,
        method,
        summary,
        lease,
        expectedRevision,
        retrySafe,
        ...(capability === undefined ? {} : { capability }),
        resultText: resultText === true,
        file,
        payload: { file, pointer: childPointer(pointer, "payload") },
        ...(result === undefined ? {} : { result: { file, pointer: childPointer(pointer, "result") } }),
        payloadTitle: payloadSchema.title as string,
        ...(result === undefined ? {} : { resultTitle: (result as SchemaObject).title as string }),
        payloadOptional: !Array.isArray(payloadSchema.required) || payloadSchema.required.length === 0,
      } as CatalogOperation);
    });
  }
  return { groups: index.groups as string[], operations, leaseExemptTools: index.leaseExemptTools as string[] };
}
