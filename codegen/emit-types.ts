import { compile, type JSONSchema } from "json-schema-to-typescript";
import type { Catalog } from "./catalog.js";
import { banner, moduleName, relativeImport } from "./output.js";
import type { SchemaObject, SchemaRegistry } from "./schema-registry.js";

const DEFINITIONS_ROOT = "__Definitions";

/** Keywords that only constrain values; TypeScript types are generated without them. */
const CONDITIONAL_KEYWORDS = ["if", "then", "else", "not"];
/** Keywords whose value is a map of names to schemas. */
const MAP_KEYWORDS = ["properties", "$defs", "patternProperties"];
/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = ["enum", "const", "examples", "default", "required", "x-reason", "x-rule"];

/**
 * Copies a schema for json-schema-to-typescript: `$ref`s into other files become `tsType`
 * references (imported from that file's generated module, so each type is declared once) and
 * conditional keywords are dropped.
 */
function prepare(node: unknown, file: string, registry: SchemaRegistry, imports: Map<string, Set<string>>): unknown {
  if (Array.isArray(node)) return node.map((item) => prepare(item, file, registry, imports));
  if (node === null || typeof node !== "object") return node;
  const schema = node as SchemaObject;
  if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) {
    const target = registry.resolve(schema.$ref, { file, pointer: "" });
    const title = typeof target.schema === "object" ? target.schema.title : undefined;
    if (typeof title !== "string") throw new Error(`schema/${file}: $ref ${schema.$ref} points at a schema without a title`);
    const module = moduleName("types", target.file);
    if (!imports.has(module)) imports.set(module, new Set());
    imports.get(module)!.add(title);
    return { tsType: title, ...(schema.description === undefined ? {} : { description: schema.description }) };
  }
  const copy: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CONDITIONAL_KEYWORDS.includes(key)) continue;
    if (key === "allOf") {
      const kept = (value as unknown[]).filter((part) => !Object.keys(part as object).every((k) => CONDITIONAL_KEYWORDS.includes(k) || k.startsWith("x-")));
      if (kept.length > 0) copy.allOf = prepare(kept, file, registry, imports);
      continue;
    }
    if (DATA_KEYWORDS.includes(key)) copy[key] = value;
    else if (MAP_KEYWORDS.includes(key)) copy[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, prepare(sub, file, registry, imports)]));
    else copy[key] = prepare(value, file, registry, imports);
  }
  return copy;
}

async function toTypeScript(schema: SchemaObject, name: string): Promise<string> {
  return compile(schema as JSONSchema, name, {
    bannerComment: "",
    additionalProperties: true,
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    format: true,
    declareExternallyReferenced: true,
  });
}

function withImports(file: string, module: string, imports: Map<string, Set<string>>, body: string): string {
  const lines = [...imports.entries()]
    .filter(([from]) => from !== module)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, names]) => `import type { ${[...names].sort().join(", ")} } from "${relativeImport(module, from)}";`);
  return `${banner(`schema/${file}`)}${lines.length > 0 ? `${lines.join("\n")}\n\n` : ""}${body}`;
}

/** Types of one schema file whose root is a schema (the envelope, documents, capabilities). */
async function emitSchemaFile(registry: SchemaRegistry, file: string): Promise<[string, string]> {
  const module = moduleName("types", file);
  const imports = new Map<string, Set<string>>();
  const raw = registry.load(file) as SchemaObject;
  let schema = prepare(raw, file, registry, imports) as SchemaObject;
  const definitionsOnly = raw.type === undefined && raw.$ref === undefined && raw.oneOf === undefined && raw.anyOf === undefined;
  if (definitionsOnly) {
    const defs = Object.keys((raw.$defs ?? {}) as object);
    schema = { ...schema, title: DEFINITIONS_ROOT, type: "object", additionalProperties: false, properties: Object.fromEntries(defs.map((d) => [d, { $ref: `#/$defs/${d}` }])) };
  }
  let body = await toTypeScript(schema, String(schema.title));
  if (definitionsOnly) body = body.replace(new RegExp(`export interface ${DEFINITIONS_ROOT} \\{[\\s\\S]*?\\n\\}\\n`), "");
  return [`${module}.ts`, withImports(file, module, imports, body)];
}

/**
 * Types of one catalog group: every payload and result, plus an interface mapping each operation
 * name of the group to `{ payload; result }` (merged into `OperationMap`).
 */
async function emitGroup(registry: SchemaRegistry, catalog: Catalog, file: string): Promise<[string, string]> {
  const module = moduleName("types", file);
  const imports = new Map<string, Set<string>>();
  const group = registry.load(file) as SchemaObject & { operations: { payload: SchemaObject; result?: SchemaObject }[] };
  const ops = catalog.operations.filter((op) => op.file === file);
  const root: SchemaObject = {
    title: groupInterfaceName(file),
    description: `Payload and result types of the operations in schema/${file}, by operation name.`,
    type: "object",
    additionalProperties: false,
    required: ops.map((op) => op.operation),
    properties: Object.fromEntries(
      ops.map((op, i) => [
        op.operation,
        {
          type: "object",
          additionalProperties: false,
          required: ["payload", "result"],
          properties: {
            payload: group.operations[i]!.payload,
            result: group.operations[i]!.result ?? { tsType: "unknown" },
          },
        },
      ]),
    ),
    ...(group.$defs === undefined ? {} : { $defs: group.$defs }),
  };
  const body = await toTypeScript(prepare(root, file, registry, imports) as SchemaObject, String(root.title));
  return [`${module}.ts`, withImports(file, module, imports, body)];
}

/** The interface name of a group's operation map: `operations/web-ir.json` → `WebIrOperationTypes`. */
export function groupInterfaceName(file: string): string {
  const base = file.replace(/^operations\//, "").replace(/\.json$/, "");
  return `${base
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("")}OperationTypes`;
}

/** Emits `generated/types/*.ts` for every schema file and catalog group. */
export async function emitTypes(registry: SchemaRegistry, catalog: Catalog, schemaFiles: string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of schemaFiles) {
    const [path, text] = await emitSchemaFile(registry, file);
    files.set(path, text);
  }
  for (const file of catalog.groups) {
    const [path, text] = await emitGroup(registry, catalog, file);
    files.set(path, text);
  }
  return files;
}
