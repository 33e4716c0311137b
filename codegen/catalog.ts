import {
  childPointer,
  type LocatedSchema,
  type SchemaLocation,
  type SchemaObject,
  type SchemaRegistry,
} from "./schema-registry.js";

/** The catalog index file, relative to the schema folder. */
export const CATALOG_INDEX = "glass-operations-v1.json";

/** A lease requirement as the catalog writes it. */
export type CatalogLease =
  | "required"
  | "none"
  | { requiredWhen: { field: string; in: string[] } }
  | { requiredUnless: { field: string; in: string[] } };

/** A named TypeScript type and the schema file whose generated module (`generated/types/...`) declares it. */
export interface NamedType {
  name: string;
  file: string;
}

/**
 * When a result case applies, by one top-level payload property: it is present, it is absent, or
 * it holds one of the listed strings (`orAbsent`: or is absent).
 */
export type ResultCaseCondition =
  | { field: string; present: true }
  | { field: string; absent: true }
  | { field: string; in: string[]; orAbsent?: true };

/** One entry of `resultCases`: the payloads it applies to and the titled result type they get. */
export interface ResultCase {
  when: ResultCaseCondition;
  result: NamedType;
}

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
  /** The payload's named type (`<Pascal>Payload` unless the schema gives its own title). */
  payloadType: NamedType;
  /** The result's named type (`<Pascal>Result` unless the schema gives its own title); absent with `result`. */
  resultType?: NamedType;
  /** Narrower result types for some payloads, in order; the generated method has one overload per case. */
  resultCases?: ResultCase[];
  /** True when `{}` is a valid payload, so the generated method may omit it. */
  payloadOptional: boolean;
  /** True when the tool takes the `responseMode` call option. */
  responseMode: boolean;
  /**
   * True when the response mode changes the result's shape: the result declares a top-level member
   * some mode leaves out (`details`, `diagnostics` …), so the method's result type follows the mode.
   */
  resultFollowsMode: boolean;
  /** True when the tool takes the `includeTrace` call option. */
  includeTrace: boolean;
}

/** The top-level result members some response mode leaves out (src/operations/response-mode.ts). */
const MODE_DEPENDENT_MEMBERS = ["details", "trace", "diagnostics", "screenshot", "dom", "formValues"];

/** The whole catalog: its operations and the lease rule for tools outside it. */
export interface Catalog {
  groups: string[];
  operations: CatalogOperation[];
  leaseExemptTools: string[];
}

const EXPECTED_REVISION_PROPERTY = {
  $ref: "browser-defs.schema.json#/$defs/revision",
  description:
    "The page revision this action was planned against; the daemon answers staleRevision when the page has moved on.",
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
    if (
      (kind === "requiredWhen" || kind === "requiredUnless") &&
      others.length === 0 &&
      typeof condition?.field === "string" &&
      Array.isArray(condition.in)
    ) {
      return lease as CatalogLease;
    }
  }
  return fail(
    file,
    index,
    `lease must be "required", "none", {requiredWhen: {field, in}} or {requiredUnless: {field, in}}`,
  );
}

/** What a case's result title must look like: the TypeScript type name, as is. */
const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;

const CONDITION_SHAPES = `{"field", "present": true}, {"field", "absent": true}, {"field", "in": [strings]} or {"field", "in": [strings], "orAbsent": true}`;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The strings a payload property can hold, when its schema lists them (`enum` or `const`, through `$ref`s). */
function stringValues(located: LocatedSchema, registry: SchemaRegistry): string[] | undefined {
  const { schema } = located;
  if (typeof schema === "boolean") return undefined;
  if (typeof schema.$ref === "string") return stringValues(registry.resolve(schema.$ref, located), registry);
  if (Array.isArray(schema.enum)) return schema.enum.filter((value): value is string => typeof value === "string");
  if (schema.const !== undefined) return typeof schema.const === "string" ? [schema.const] : [];
  if (schema.type !== undefined && ![schema.type].flat().includes("string")) return [];
  return undefined;
}

/** Checks one `when` of `resultCases` against the payload schema it narrows. */
function checkCondition(
  when: unknown,
  payload: LocatedSchema & { schema: SchemaObject },
  registry: SchemaRegistry,
  fail: (message: string) => never,
): ResultCaseCondition {
  if (!isObject(when) || typeof when.field !== "string" || when.field === "")
    return fail(`when must be one of ${CONDITION_SHAPES}`);
  const { field } = when;
  const properties = isObject(payload.schema.properties) ? payload.schema.properties : {};
  if (!Object.hasOwn(properties, field)) fail(`when.field "${field}" is not a top-level property of the payload`);
  const required = Array.isArray(payload.schema.required) && payload.schema.required.includes(field);
  const neverAbsent = (): never => fail(`when: "${field}" is a required payload property, so it is never absent`);
  const keys = Object.keys(when).sort().join(",");
  if (keys === "field,present" && when.present === true) return { field, present: true };
  if (keys === "absent,field" && when.absent === true) return required ? neverAbsent() : { field, absent: true };
  if (keys === "field,in" || (keys === "field,in,orAbsent" && when.orAbsent === true)) {
    const values = when.in;
    if (
      !Array.isArray(values) ||
      values.length === 0 ||
      !values.every((value) => typeof value === "string") ||
      new Set(values).size !== values.length
    ) {
      fail("when.in must be a non-empty list of distinct strings");
    }
    const allowed = stringValues(
      {
        file: payload.file,
        pointer: childPointer(payload.pointer, "properties", field),
        schema: properties[field] as SchemaObject,
      },
      registry,
    );
    const unknown = allowed === undefined ? [] : (values as string[]).filter((value) => !allowed.includes(value));
    if (unknown.length > 0)
      fail(
        `when.in: ${unknown.map((value) => JSON.stringify(value)).join(", ")} cannot be a value of the payload's "${field}"`,
      );
    if (keys === "field,in") return { field, in: values as string[] };
    return required ? neverAbsent() : { field, in: values as string[], orAbsent: true };
  }
  return fail(`when must be one of ${CONDITION_SHAPES}`);
}

/**
 * Checks an entry's `resultCases`: a non-empty list of `{when, result}`, each `when` naming a
 * top-level payload property, each `result` a `$ref` to a schema whose title is a type name.
 */
function checkResultCases(
  raw: unknown,
  payload: LocatedSchema & { schema: SchemaObject },
  registry: SchemaRegistry,
  failEntry: (message: string) => never,
): ResultCase[] {
  if (!Array.isArray(raw) || raw.length === 0)
    return failEntry("resultCases, when present, must be a non-empty list of {when, result}");
  return raw.map((entry: unknown, c: number) => {
    const fail = (message: string): never => failEntry(`resultCases[${c}]: ${message}`);
    if (!isObject(entry) || Object.keys(entry).sort().join(",") !== "result,when")
      return fail("must be {when, result}");
    const when = checkCondition(entry.when, payload, registry, fail);
    const { result } = entry;
    if (!isObject(result) || Object.keys(result).join(",") !== "$ref" || typeof result.$ref !== "string")
      return fail(`result must be {"$ref": "<file>#/$defs/<name>"}`);
    let target: LocatedSchema;
    try {
      target = registry.resolve(result.$ref, { file: payload.file, pointer: "" });
    } catch (error) {
      return fail(`result: ${(error as Error).message}`);
    }
    const title = typeof target.schema === "object" ? target.schema.title : undefined;
    if (typeof title !== "string" || !TYPE_NAME.test(title))
      return fail(
        `result ${result.$ref} must point at a schema whose title is a type name (PascalCase letters and digits)`,
      );
    return { when, result: { name: title, file: target.file } };
  });
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
      const {
        operation,
        tool,
        summary,
        expectedRevision,
        retrySafe,
        capability,
        resultText,
        payload,
        result,
        resultCases,
        responseMode,
        includeTrace,
      } = raw;
      if (typeof operation !== "string" || !/^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/.test(operation))
        fail(file, i, `operation must be "namespace.method"`);
      if (typeof tool !== "string" || tool === "") fail(file, i, "tool is required");
      if (typeof summary !== "string" || summary === "") fail(file, i, "summary is required");
      if (typeof expectedRevision !== "boolean" || typeof retrySafe !== "boolean")
        fail(file, i, "expectedRevision and retrySafe must be booleans");
      if (capability !== undefined && typeof capability !== "string") fail(file, i, "capability must be a string");
      if (resultText !== undefined && resultText !== true) fail(file, i, "resultText, when present, must be true");
      if (responseMode !== undefined && responseMode !== true)
        fail(file, i, "responseMode, when present, must be true");
      if (includeTrace !== undefined && includeTrace !== true)
        fail(file, i, "includeTrace, when present, must be true");
      if (payload === null || typeof payload !== "object" || (payload as SchemaObject).type !== "object")
        fail(file, i, `payload must be an object schema`);
      for (const name of [operation, `tool:${tool}`]) {
        if (seen.has(name)) fail(file, i, `${name} is listed twice`);
        seen.add(name);
      }
      const lease = checkLease(raw.lease, file, i);
      if (retrySafe && lease !== "none") fail(file, i, "only a read-only (lease none) operation can be retrySafe");
      const payloadSchema = payload as SchemaObject;
      if (expectedRevision) {
        const properties = (payloadSchema.properties ??= {}) as Record<string, unknown>;
        if ("expectedRevision" in properties)
          fail(file, i, "expectedRevision is added by the generator; do not list it");
        properties.expectedRevision = EXPECTED_REVISION_PROPERTY;
      }
      const pointer = childPointer("", "operations", i);
      const [namespace, method] = operation.split(".") as [string, string];
      if (result !== undefined && !isObject(result)) fail(file, i, "result, when present, must be a schema object");
      if (resultCases !== undefined && result === undefined)
        fail(file, i, "resultCases needs a result schema (the type of the general case)");
      const cases =
        resultCases === undefined
          ? undefined
          : checkResultCases(
              resultCases,
              { file, pointer: childPointer(pointer, "payload"), schema: payloadSchema },
              registry,
              (message) => fail(file, i, message),
            );
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
        payloadType: { name: payloadSchema.title as string, file },
        ...(result === undefined ? {} : { resultType: { name: (result as SchemaObject).title as string, file } }),
        ...(cases === undefined ? {} : { resultCases: cases }),
        payloadOptional: !Array.isArray(payloadSchema.required) || payloadSchema.required.length === 0,
        responseMode: responseMode === true,
        resultFollowsMode:
          responseMode === true &&
          result !== undefined &&
          declaresMember(registry, { file, pointer: childPointer(pointer, "result") }, MODE_DEPENDENT_MEMBERS),
        includeTrace: includeTrace === true,
      } as CatalogOperation);
    });
  }
  return { groups: index.groups as string[], operations, leaseExemptTools: index.leaseExemptTools as string[] };
}

/**
 * Whether the object schema at `location` (through `$ref`, `allOf`, `anyOf` and `oneOf`) declares
 * one of `members` among its top-level properties.
 */
function declaresMember(
  registry: SchemaRegistry,
  location: SchemaLocation,
  members: readonly string[],
  seen = new Set<string>(),
): boolean {
  const key = `${location.file}#${location.pointer}`;
  if (seen.has(key)) return false;
  seen.add(key);
  const { schema } = registry.at(location);
  if (!isObject(schema)) return false;
  if (isObject(schema.properties) && members.some((member) => Object.hasOwn(schema.properties as object, member)))
    return true;
  if (typeof schema.$ref === "string") {
    const target = registry.resolve(schema.$ref, location);
    if (declaresMember(registry, target, members, seen)) return true;
  }
  return ["allOf", "anyOf", "oneOf"].some(
    (keyword) =>
      Array.isArray(schema[keyword]) &&
      (schema[keyword] as unknown[]).some((_, index) =>
        declaresMember(
          registry,
          { file: location.file, pointer: childPointer(location.pointer, keyword, index) },
          members,
          seen,
        ),
      ),
  );
}
