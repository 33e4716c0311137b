import { compile, type JSONSchema } from "json-schema-to-typescript";
import type { Catalog } from "./catalog.js";
import { banner, moduleName, relativeImport } from "./output.js";
import type { SchemaObject, SchemaRegistry } from "./schema-registry.js";

const DEFINITIONS_ROOT = "__Definitions";

/** Keywords that only constrain values; TypeScript types are generated without them. */
const CONDITIONAL_KEYWORDS = ["if", "then", "else", "not"];
/** Keywords whose value is a map of names to schemas. */
const MAP_KEYWORDS = ["properties", "$defs", "patternProperties"];
/** Keywords that say (or imply) what type a schema has. */
const TYPED_KEYWORDS = [
  "type",
  "$ref",
  "const",
  "enum",
  "properties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "additionalProperties",
  "tsType",
  "$defs",
];
/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = ["enum", "const", "examples", "default", "required", "x-reason", "x-rule"];

/**
 * A schema standing for the TypeScript type `tsType`, keeping the description of `schema`, and its
 * title: a titled one becomes a named alias (a catalog result that is a bare `$ref` still gets its
 * `<Pascal>Result` name).
 */
function named(tsType: string, schema: SchemaObject): SchemaObject {
  return {
    ...(schema.title === undefined ? {} : { title: schema.title }),
    tsType,
    ...(schema.description === undefined ? {} : { description: schema.description }),
  };
}

/**
 * Copies a schema for json-schema-to-typescript: a `$ref` to a titled schema becomes a `tsType`
 * reference (imported from that file's generated module when it is in another file, so each type
 * is declared once), a schema that says nothing of its type becomes `unknown`, and conditional
 * keywords are dropped.
 */
function prepare(node: unknown, file: string, registry: SchemaRegistry, imports: Map<string, Set<string>>): unknown {
  if (Array.isArray(node)) return node.map((item) => prepare(item, file, registry, imports));
  if (node === null || typeof node !== "object") return node;
  const schema = node as SchemaObject;
  if (typeof schema.$ref === "string") {
    // A reference becomes the target's named type (imported when it lives in another file), so a
    // `$ref` with its own description does not spawn a numbered copy of the type.
    const target = registry.resolve(schema.$ref, { file, pointer: "" });
    const title = typeof target.schema === "object" ? target.schema.title : undefined;
    if (typeof title === "string") {
      if (target.file !== file) {
        const module = moduleName("types", target.file);
        if (!imports.has(module)) imports.set(module, new Set());
        imports.get(module)!.add(title);
      }
      return named(title, schema);
    }
    if (!schema.$ref.startsWith("#"))
      throw new Error(`schema/${file}: $ref ${schema.$ref} points at a schema without a title`);
  }
  // No keyword says what type it is: any JSON value.
  if (!TYPED_KEYWORDS.some((keyword) => keyword in schema)) return named("unknown", schema);
  const copy: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CONDITIONAL_KEYWORDS.includes(key)) continue;
    if (key === "allOf") {
      const kept = (value as unknown[]).filter(
        (part) => !Object.keys(part as object).every((k) => CONDITIONAL_KEYWORDS.includes(k) || k.startsWith("x-")),
      );
      if (kept.length > 0) copy.allOf = prepare(kept, file, registry, imports);
      continue;
    }
    if (DATA_KEYWORDS.includes(key)) copy[key] = value;
    else if (MAP_KEYWORDS.includes(key))
      copy[key] = Object.fromEntries(
        Object.entries(value as object).map(([name, sub]) => [name, prepare(sub, file, registry, imports)]),
      );
    else copy[key] = prepare(value, file, registry, imports);
  }
  return copy;
}

/** Drops json-schema-to-typescript's "referenced by ... via the definition ..." notes (and blocks left empty). */
function withoutReferenceNotes(text: string): string {
  return text
    .replace(
      /\n \*\n \* This interface was referenced by `[^`]+`'s JSON-Schema\n \* via the `definition` "[^"]*"\.\n/g,
      "\n",
    )
    .replace(
      /\/\*\*\n \* This interface was referenced by `[^`]+`'s JSON-Schema\n \* via the `definition` "[^"]*"\.\n \*\/\n/g,
      "",
    );
}

async function toTypeScript(schema: SchemaObject, name: string): Promise<string> {
  return withoutReferenceNotes(
    await compile(schema as JSONSchema, name, {
      bannerComment: "",
      additionalProperties: true,
      ignoreMinAndMaxItems: true,
      unreachableDefinitions: true,
      strictIndexSignatures: false,
      format: true,
      declareExternallyReferenced: true,
    }),
  );
}

/**
 * The module's text: banner, the imports of the titled types its body uses (a `$ref` collected
 * while preparing can vanish from the output, e.g. one json-schema-to-typescript folds into a
 * union), then the body.
 */
function withImports(file: string, module: string, imports: Map<string, Set<string>>, body: string): string {
  const used = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(body);
  const lines = [...imports.entries()]
    .filter(([from]) => from !== module)
    .map(([from, names]) => [from, [...names].filter(used).sort()] as const)
    .filter(([, names]) => names.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([from, names]) => `import type { ${names.join(", ")} } from "${relativeImport(module, from)}";`);
  return `${banner(`schema/${file}`)}${lines.length > 0 ? `${lines.join("\n")}\n\n` : ""}${body}`;
}

/**
 * Types of one schema file: its root schema (when it is one) and every `$defs` entry, each a named
 * type. They are compiled as definitions of a placeholder root, because json-schema-to-typescript
 * skips unreferenced definitions when the root itself is a union; the placeholder is removed.
 */
async function emitSchemaFile(registry: SchemaRegistry, file: string): Promise<[string, string]> {
  const module = moduleName("types", file);
  const imports = new Map<string, Set<string>>();
  const { $defs, $schema: _schema, title, description, ...rootBody } = registry.load(file) as SchemaObject;
  const definitions: Record<string, unknown> = { ...(($defs ?? {}) as Record<string, unknown>) };
  if (TYPED_KEYWORDS.some((keyword) => keyword in rootBody)) definitions.$root = { title, description, ...rootBody };
  const placeholder = prepare(
    { title: DEFINITIONS_ROOT, type: "object", additionalProperties: false, properties: {}, $defs: definitions },
    file,
    registry,
    imports,
  ) as SchemaObject;
  const body = (await toTypeScript(placeholder, DEFINITIONS_ROOT)).replace(
    new RegExp(`export interface ${DEFINITIONS_ROOT} \\{\\}\\n`),
    "",
  );
  if (body.includes(DEFINITIONS_ROOT))
    throw new Error(`schema/${file}: could not remove the placeholder type from the generated types`);
  return [`${module}.ts`, withImports(file, module, imports, body)];
}

/**
 * Types of one catalog group: every payload and result, plus an interface mapping each operation
 * name of the group to `{ payload; result }` (merged into `OperationMap`).
 */
async function emitGroup(registry: SchemaRegistry, catalog: Catalog, file: string): Promise<[string, string]> {
  const module = moduleName("types", file);
  const imports = new Map<string, Set<string>>();
  const group = registry.load(file) as SchemaObject & {
    operations: { payload: SchemaObject; result?: SchemaObject }[];
  };
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
export async function emitTypes(
  registry: SchemaRegistry,
  catalog: Catalog,
  schemaFiles: string[],
): Promise<Map<string, string>> {
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
