import { readFileSync } from "node:fs";
import { InputData, jsonInputForTargetLanguage, quicktype } from "quicktype-core";

/**
 * Infers a draft JSON Schema from recorded result samples with quicktype. The samples file is a
 * JSON array of results (or `{ "samples": [...] }`); the draft is a starting point for a catalog
 * entry's `result`, to be reviewed (quicktype merges unions into optional fields).
 */
export async function inferSchema(samples: unknown[], typeName = "InferredResult"): Promise<Record<string, unknown>> {
  if (samples.length === 0) throw new Error("infer needs at least one sample");
  const input = jsonInputForTargetLanguage("schema");
  await input.addSource({ name: typeName, samples: samples.map((sample) => JSON.stringify(sample)) });
  const data = new InputData();
  data.addInput(input);
  const result = await quicktype({ inputData: data, lang: "schema", rendererOptions: {} });
  return JSON.parse(result.lines.join("\n")) as Record<string, unknown>;
}

/** Reads a samples file and infers its draft schema (see {@link inferSchema}). */
export async function inferSchemaFromFile(path: string, typeName?: string): Promise<Record<string, unknown>> {
  const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
  const samples = Array.isArray(parsed) ? parsed : (parsed as { samples?: unknown }).samples;
  if (!Array.isArray(samples)) throw new Error(`${path}: expected a JSON array of samples or {"samples": [...]}`);
  return inferSchema(samples, typeName);
}
