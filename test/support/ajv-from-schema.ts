import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SCHEMA_DIR = fileURLToPath(new URL("../../schema/", import.meta.url));
const BASE = "https://glass-sdk.test/schema/";

function schemaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return schemaFiles(path);
    return name.endsWith(".json") ? [relative(SCHEMA_DIR, path)] : [];
  });
}

/**
 * ajv (draft 2020-12) loaded with our schema files, as an independent implementation of the same
 * JSON Schemas. Our `x-` annotations mean nothing to it, so it checks everything but byte limits and
 * the cross-field rules.
 */
export function ajvFromSchemas(): { ajv: Ajv2020; compile: (file: string, pointer: string) => ValidateFunction } {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  for (const file of schemaFiles(SCHEMA_DIR)) {
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, file), "utf8")) as Record<string, unknown>;
    ajv.addSchema({ ...schema, $id: BASE + file });
  }
  return { ajv, compile: (file, pointer) => ajv.compile({ $ref: `${BASE}${file}#${pointer}` }) };
}

/** The ajv validator of an operation's payload, found in the catalog by operation name. */
export function ajvPayloadValidator(operation: string): ValidateFunction {
  const { compile } = ajvFromSchemas();
  const index = JSON.parse(readFileSync(join(SCHEMA_DIR, "glass-operations-v1.json"), "utf8")) as { groups: string[] };
  for (const file of index.groups) {
    const group = JSON.parse(readFileSync(join(SCHEMA_DIR, file), "utf8")) as { operations: { operation: string }[] };
    const i = group.operations.findIndex((op) => op.operation === operation);
    if (i !== -1) return compile(file, `/operations/${i}/payload`);
  }
  throw new Error(`${operation} is not in the catalog`);
}
