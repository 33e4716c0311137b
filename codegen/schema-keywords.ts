import type { LocatedSchema, SchemaObject } from "./schema-registry.js";

/*
 * What the two validator back ends (validator-compiler.ts, compact-program.ts) decide alike about a
 * schema: which keywords exist, which keyword groups apply, what counts as "any JSON". Both read
 * them from here, so they cannot drift apart.
 */

/** Every keyword the generators understand; any other is an error. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "$ref",
  "title",
  "description",
  "default",
  "examples",
  "type",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "x-maxBytes",
  "x-minBytes",
  "x-reason",
  "x-rule",
  "x-pathRoot",
]);

/** The JSON Schema types a schema may name. */
export const JSON_TYPES: ReadonlySet<string> = new Set([
  "object",
  "array",
  "string",
  "boolean",
  "null",
  "integer",
  "number",
]);

/** Keywords checked only on objects. */
export const OBJECT_KEYWORDS = [
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "propertyNames",
];
/** Keywords checked only on arrays. */
export const ARRAY_KEYWORDS = ["items", "minItems", "maxItems", "uniqueItems", "contains"];
/** Keywords checked only on strings. */
export const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "x-minBytes"];
/** Keywords checked only on numbers. */
export const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/** A group of keywords that apply to one kind of value (`number` covers integers too). */
export type KeywordGroup = "object" | "array" | "string" | "number";

/** Whether the schema has any of `keywords`. */
export function has(schema: SchemaObject, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => schema[keyword] !== undefined);
}

/** How errors name a schema: `schema/<file>#<pointer>`. */
export function locationName(located: LocatedSchema): string {
  return `schema/${located.file}#${located.pointer}`;
}

/** Throws unless every keyword of the schema is one the generators support. */
export function checkKeywords(s: SchemaObject, located: LocatedSchema): void {
  for (const keyword of Object.keys(s)) {
    if (!SUPPORTED_KEYWORDS.has(keyword))
      throw new Error(`${locationName(located)}: keyword "${keyword}" is not supported by the generator`);
  }
}

/** The types the schema names (`type`, one or a list); throws on one that is not a JSON type. */
export function typesOf(s: SchemaObject, located: LocatedSchema): string[] {
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  for (const type of types)
    if (!JSON_TYPES.has(type)) throw new Error(`${locationName(located)}: unknown type ${type}`);
  return types;
}

/** The rules the schema names (`x-rule`, one or a list). */
export function ruleNamesOf(s: SchemaObject): string[] {
  return s["x-rule"] === undefined
    ? []
    : Array.isArray(s["x-rule"])
      ? (s["x-rule"] as string[])
      : [s["x-rule"] as string];
}

/** Whether the schema is only `type: "string"`, whose byte limit is a string keyword (not a measure of the JSON). */
export function isOnlyString(types: readonly string[]): boolean {
  return types.length === 1 && types[0] === "string";
}

/**
 * Whether the keywords of `group` are checked: the schema has one of them (an object type alone
 * counts, for unknown fields; a string's byte limit counts), and the group's kind is among `types`
 * (or the schema names no type).
 */
export function groupApplies(s: SchemaObject, types: readonly string[], group: KeywordGroup): boolean {
  const kinds = group === "number" ? ["integer", "number"] : [group];
  if (types.length > 0 && !kinds.some((kind) => types.includes(kind))) return false;
  switch (group) {
    case "object":
      return has(s, OBJECT_KEYWORDS) || types.includes("object");
    case "array":
      return has(s, ARRAY_KEYWORDS);
    case "string":
      return has(s, STRING_KEYWORDS) || (s["x-maxBytes"] !== undefined && isOnlyString(types));
    case "number":
      return has(s, NUMBER_KEYWORDS);
  }
}

/** Whether the schema constrains its value in no way ("any JSON"): the value must still be JSON. */
export function isUnconstrained(s: SchemaObject, types: readonly string[]): boolean {
  const constrainsType =
    types.length > 0 ||
    s.$ref !== undefined ||
    s.const !== undefined ||
    s.enum !== undefined ||
    s.anyOf !== undefined ||
    s.oneOf !== undefined ||
    s.allOf !== undefined;
  return (
    !constrainsType &&
    !has(s, [...OBJECT_KEYWORDS, ...ARRAY_KEYWORDS, ...STRING_KEYWORDS, ...NUMBER_KEYWORDS, "not", "if"])
  );
}

/** A primitive JSON value, as `const` and `enum` may hold. */
export type Primitive = string | number | boolean | null;

/** The schema's `const`; throws unless it is a primitive. */
export function constValue(s: SchemaObject, located: LocatedSchema): Primitive {
  if (s.const !== null && typeof s.const === "object")
    throw new Error(`${locationName(located)}: only primitive const is supported`);
  return s.const as Primitive;
}

/** The schema's `enum`; throws unless it lists at least one value, all primitives. */
export function enumValues(s: SchemaObject, located: LocatedSchema): Primitive[] {
  const values = s.enum as unknown[];
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.some((value) => value !== null && typeof value === "object")
  ) {
    throw new Error(`${locationName(located)}: an enum must list at least one value, all primitives`);
  }
  return values as Primitive[];
}
