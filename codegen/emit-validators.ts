import type { Catalog } from "./catalog.js";
import { banner, moduleName, relativeImport, sourceImport } from "./output.js";
import type { SchemaLocation, SchemaRegistry } from "./schema-registry.js";
import { SizerCompiler } from "./sizer-compiler.js";
import { ValidatorCompiler, type CompiledFunction, type ValidationMode } from "./validator-compiler.js";

/** A validator exported by name from `generated/validators/index.ts`. */
export interface NamedEntry {
  /** Exported name, e.g. `validateGlassRequest`. */
  name: string;
  location: SchemaLocation;
  mode?: ValidationMode;
}

/** The doc comment of a named validator (the same in `generated/validators/` and `generated/validators-compact/`). */
export function namedValidatorDoc(entry: NamedEntry): string {
  return `/** Validates a value against ${entry.location.file}#${entry.location.pointer}${entry.mode === "strict" ? " (strict)" : ""}. */`;
}

/** Where each run-time helper the generated code may call is defined (imported directly, not via a barrel). */
const SUPPORT: Record<string, string> = {
  fail: "src/validation/generated-support",
  failUnion: "src/validation/generated-support",
  codePointLength: "src/validation/generated-support",
  duplicateIndex: "src/validation/generated-support",
  scratch: "src/validation/generated-support",
  joinPath: "src/validation/issue",
  joinIndex: "src/validation/issue",
  got: "src/validation/json-value",
  gotValue: "src/validation/json-value",
  checkJson: "src/validation/json-value",
  isJsonObject: "src/validation/json-value",
  utf8Length: "src/validation/byte-length",
  jsonByteLength: "src/validation/byte-length",
  jsonStringLength: "src/validation/byte-length",
  rules: "src/validation/rules/index",
  isIdentifierText: "src/validation/text-patterns",
  isNonWhiteSpaceText: "src/validation/text-patterns",
};

function supportImports(module: string, body: string): string[] {
  // Every validator's signature names ValidationIssue, from the module that also joins issue paths.
  const bySource = new Map<string, string[]>([["src/validation/issue", ["type ValidationIssue"]]]);
  for (const [name, source] of Object.entries(SUPPORT)) {
    if (!new RegExp(`\\b${name}\\b`).test(body)) continue;
    bySource.set(source, [...(bySource.get(source) ?? []), name]);
  }
  return [...bySource.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, names]) => {
      const typeOnly = names.every((name) => name.startsWith("type "));
      const list = typeOnly ? names.map((name) => name.slice("type ".length)) : names;
      return `import ${typeOnly ? "type " : ""}{ ${list.join(", ")} } from "${sourceImport(module, source)}";`;
    });
}

function moduleText(
  module: string,
  functions: Pick<CompiledFunction, "code" | "calls" | "constants">[],
  owners: Map<string, string>,
  sources: string[],
): string {
  const body = functions
    .map((fn) => `${fn.constants.length > 0 ? `${fn.constants.join("\n")}\n` : ""}${fn.code}`)
    .join("\n");
  const foreign = new Map<string, Set<string>>();
  for (const fn of functions) {
    for (const callee of fn.calls) {
      const owner = owners.get(callee)!;
      if (owner === module) continue;
      if (!foreign.has(owner)) foreign.set(owner, new Set());
      foreign.get(owner)!.add(callee);
    }
  }
  const imports = [
    ...supportImports(module, body),
    ...[...foreign.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([from, names]) => `import { ${[...names].sort().join(", ")} } from "${relativeImport(module, from)}";`),
  ];
  return `${banner(sources.map((file) => `schema/${file}`).join(", "))}${imports.join("\n")}\n\n${body}`;
}

/**
 * Compiles the validators: the named entries (envelope, documents, capabilities) and every
 * operation's payload and result. Writes one module per schema file under
 * `generated/validators/` and an index with the per-operation tables.
 */
export function emitValidators(registry: SchemaRegistry, catalog: Catalog, entries: NamedEntry[]): Map<string, string> {
  const moduleOf = (file: string): string => moduleName("validators", file);
  const sizers = new SizerCompiler(registry, moduleOf);
  const compiler = new ValidatorCompiler(registry, moduleOf, sizers);
  const named = entries.map((entry) => ({
    ...entry,
    fn: compiler.entry(entry.location, entry.mode, entry.name.replace(/^validate/, "").replace(/Strict$/, "")),
  }));
  const payloads = catalog.operations.map((op) => [op.operation, compiler.entry(op.payload)] as const);
  const results = catalog.operations.flatMap((op) =>
    op.result === undefined ? [] : [[op.operation, compiler.entry(op.result)] as const],
  );

  const byModule = new Map<string, Pick<CompiledFunction, "name" | "module" | "code" | "calls" | "constants">[]>();
  const owners = new Map<string, string>();
  sizers.drain();
  for (const fn of [...compiler.compiled(), ...sizers.compiled()]) {
    owners.set(fn.name, fn.module);
    if (!byModule.has(fn.module)) byModule.set(fn.module, []);
    byModule.get(fn.module)!.push(fn);
  }
  const files = new Map<string, string>();
  for (const [module, functions] of byModule) {
    const source = `${module.replace(/^validators\//, "")}.json`;
    const sourceFile = source.startsWith("operations/") ? source : source.replace(/\.json$/, ".schema.json");
    files.set(`${module}.ts`, moduleText(module, functions, owners, [sourceFile]));
  }

  const index = "validators/index";
  const used = new Map<string, Set<string>>();
  const use = (fn: string): string => {
    const owner = owners.get(fn)!;
    if (!used.has(owner)) used.set(owner, new Set());
    used.get(owner)!.add(fn);
    return fn;
  };
  const lines: string[] = [];
  for (const entry of named) {
    lines.push(namedValidatorDoc(entry));
    lines.push(
      entry.fn === entry.name
        ? `export { ${use(entry.fn)} };`
        : `export const ${entry.name}: GeneratedValidator = ${use(entry.fn)};`,
    );
  }
  lines.push(
    "",
    "/** The payload validator of every catalog operation, by operation name (frozen, without a prototype). */",
  );
  lines.push("export const payloadValidators: Readonly<Record<string, GeneratedValidator>> = lookupTable({");
  for (const [operation, fn] of payloads) lines.push(`  ${JSON.stringify(operation)}: ${use(fn)},`);
  lines.push(
    "});",
    "",
    "/** The result validator of every catalog operation whose result the protocol describes (frozen, without a prototype). */",
  );
  lines.push("export const resultValidators: Readonly<Record<string, GeneratedValidator>> = lookupTable({");
  for (const [operation, fn] of results) lines.push(`  ${JSON.stringify(operation)}: ${use(fn)},`);
  lines.push("});");
  const imports = [
    `import { lookupTable, type GeneratedValidator } from "${sourceImport(index, "src/validation/generated-support")}";`,
    ...[...used.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([from, names]) => `import { ${[...names].sort().join(", ")} } from "${relativeImport(index, from)}";`),
  ];
  files.set(`${index}.ts`, `${banner("schema/")}${imports.join("\n")}\n\n${lines.join("\n")}\n`);
  return files;
}
