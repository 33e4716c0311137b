import { readFileSync } from "node:fs";
import { InputData, jsonInputForTargetLanguage, quicktype } from "quicktype-core";
import type { SchemaObject } from "./schema-registry.js";

/** Keywords quicktype writes that our schema dialect does not have (see schema/README.md). */
const FOREIGN_KEYWORD = /^(?:\$schema|format|qt-.*)$/;

/**
 * Rewrites quicktype's draft-06 output in our dialect: `$defs` and `#/$defs/...` references instead
 * of `definitions`, no `$schema` line, none of quicktype's `format` or `qt-*` keywords, and open
 * objects (results evolve additively, so `additionalProperties: false` is dropped; a map's value
 * schema is kept).
 */
function toOurDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOurDialect);
  if (node === null || typeof node !== "object") return node;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node as SchemaObject)) {
    if (FOREIGN_KEYWORD.test(key)) continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "$ref" && typeof value === "string") out.$ref = value.replace(/^#\/definitions\//, "#/$defs/");
    else if (key === "definitions")
      out.$defs = Object.fromEntries(
        Object.entries(value as SchemaObject).map(([name, schema]) => [name, toOurDialect(schema)]),
      );
    else if (key === "properties")
      out.properties = Object.fromEntries(
        Object.entries(value as SchemaObject).map(([name, schema]) => [name, toOurDialect(schema)]),
      );
    else out[key] = toOurDialect(value);
  }
  return out;
}

/**
 * Infers a draft JSON Schema from recorded result samples with quicktype, in our schema dialect.
 * The samples file is a JSON array of results (or `{ "samples": [...] }`); the draft is a starting
 * point for a catalog entry's `result`, to be reviewed: quicktype merges unions into optional
 * fields, calls a key required only when every sample has it, and knows nothing of enums, nulls or
 * bounds the samples do not show.
 */
export async function inferSchema(samples: unknown[], typeName = "InferredResult"): Promise<SchemaObject> {
  if (samples.length === 0) throw new Error("infer needs at least one sample");
  const input = jsonInputForTargetLanguage("schema");
  await input.addSource({ name: typeName, samples: samples.map((sample) => JSON.stringify(sample)) });
  const data = new InputData();
  data.addInput(input);
  const result = await quicktype({
    inputData: data,
    lang: "schema",
    rendererOptions: {},
    // Plain JSON types only: no string enums, dates, UUIDs or numbers-in-strings guessed from a few samples.
    inferEnums: false,
    inferDateTimes: false,
    inferUuids: false,
    inferIntegerStrings: false,
    inferBooleanStrings: false,
  });
  return toOurDialect(JSON.parse(result.lines.join("\n"))) as SchemaObject;
}

/** Reads a samples file and infers its draft schema (see {@link inferSchema}). */
export async function inferSchemaFromFile(path: string, typeName?: string): Promise<SchemaObject> {
  const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
  const samples = Array.isArray(parsed) ? parsed : (parsed as { samples?: unknown }).samples;
  if (!Array.isArray(samples)) throw new Error(`${path}: expected a JSON array of samples or {"samples": [...]}`);
  return inferSchema(samples, typeName);
}
