/**
 * The generator: `schema/` → `generated/`.
 *
 *   npm run codegen                         writes generated/
 *   npm run codegen:check                   exits 1 when generated/ is stale
 *   npm run codegen -- infer <samples.json> prints a draft JSON Schema inferred from result samples
 *   npm run codegen -- --help               prints the usage; an unknown argument is refused (exit 2)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "./catalog.js";
import { emitCompactValidators } from "./emit-compact-validators.js";
import { emitCompactOperationValidators, emitCompiledOperationValidators } from "./emit-operation-validators.js";
import { emitOperations } from "./emit-operations.js";
import { collectDeclaredTypes, emitTypeIndex } from "./emit-type-index.js";
import { emitTypes, groupInterfaceName } from "./emit-types.js";
import { emitValidators, type NamedEntry } from "./emit-validators.js";
import { inferSchemaFromFile } from "./infer.js";
import { SchemaRegistry } from "./schema-registry.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_DIR = join(ROOT, "schema");
const GENERATED_DIR = join(ROOT, "generated");

/** Schema files whose root (or `$defs`) become named types. */
const SCHEMA_FILES = [
  "glass-protocol-v1.schema.json",
  "glass-capabilities-v1.schema.json",
  "web-ir-v1.schema.json",
  "task-v1.schema.json",
  "operations/browser-defs.schema.json",
  "operations/browser-results.schema.json",
];

const envelope = (pointer: string) => ({ file: "glass-protocol-v1.schema.json", pointer });
const capabilities = (pointer: string) => ({ file: "glass-capabilities-v1.schema.json", pointer });

/** Validators exported by name (the rest are reached through the operation tables). */
const NAMED_VALIDATORS: NamedEntry[] = [
  { name: "validateGlassRequest", location: envelope("/$defs/request") },
  { name: "validateGlassResponse", location: envelope("/$defs/response") },
  { name: "validateGlassResponseStrict", location: envelope("/$defs/response"), mode: "strict" },
  { name: "validateGlassIdentifier", location: envelope("/$defs/identifier") },
  { name: "validateGlassOperationName", location: envelope("/$defs/operationName") },
  { name: "validateGlassDeadlineMs", location: envelope("/$defs/deadlineMs") },
  { name: "validateGlassMutationLease", location: envelope("/$defs/mutationLease") },
  { name: "validateGlassErrorObject", location: envelope("/$defs/error") },
  { name: "validateWebIrDocument", location: { file: "web-ir-v1.schema.json", pointer: "" } },
  { name: "validateTaskDocument", location: { file: "task-v1.schema.json", pointer: "" } },
  { name: "validateCapabilityManifest", location: capabilities("/$defs/manifest") },
  { name: "validateCapabilityAgreement", location: capabilities("/$defs/agreement") },
  { name: "validateGlassNegotiation", location: capabilities("/$defs/negotiation") },
];

async function generate(): Promise<Map<string, string>> {
  const registry = new SchemaRegistry(SCHEMA_DIR);
  const catalog = loadCatalog(registry);
  const files = new Map<string, string>();
  const types = await emitTypes(registry, catalog, SCHEMA_FILES);
  const declared = collectDeclaredTypes(types);
  for (const [path, text] of types) files.set(path, text);
  const [indexPath, indexText] = emitTypeIndex(declared, new Set(catalog.groups.map(groupInterfaceName)));
  files.set(indexPath, indexText);
  for (const [path, text] of emitValidators(registry, catalog, NAMED_VALIDATORS)) files.set(path, text);
  for (const [path, text] of emitCompactValidators(registry, catalog, NAMED_VALIDATORS)) files.set(path, text);
  for (const [path, text] of emitCompiledOperationValidators(registry, catalog, NAMED_VALIDATORS))
    files.set(path, text);
  for (const [path, text] of emitCompactOperationValidators(registry, catalog, NAMED_VALIDATORS)) files.set(path, text);
  for (const [path, text] of emitOperations(catalog, declared)) files.set(path, text);
  return files;
}

function existingFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? existingFiles(path) : [relative(GENERATED_DIR, path)];
  });
}

/** What `npm run codegen -- --help` prints. */
const USAGE = `Usage:
  npm run codegen                                   write generated/ from schema/ and codegen/
  npm run codegen:check                             (= npm run codegen -- --check) exit 1 when generated/ is stale, writing nothing
  npm run codegen -- infer <samples.json> [Type]    print a draft JSON Schema inferred from result samples
  npm run codegen -- --help                         show this help
`;

/** What the command line asks for; a {@link UsageError} for one it cannot run. */
type Command =
  | { kind: "help" }
  | { kind: "generate"; check: boolean }
  | { kind: "infer"; file: string; typeName?: string };

class UsageError extends Error {}

function parseArgs(args: readonly string[]): Command {
  if (args.includes("--help") || args.includes("-h")) return { kind: "help" };
  if (args[0] === "infer") {
    const [, file, typeName, ...extra] = args;
    if (file === undefined || file.startsWith("-"))
      throw new UsageError("infer needs the samples file: npm run codegen -- infer <samples.json> [Type]");
    if (extra.length > 0 || typeName?.startsWith("-"))
      throw new UsageError(
        `infer takes the samples file and an optional type name, nothing more: ${JSON.stringify([typeName, ...extra].join(" "))}`,
      );
    return typeName === undefined ? { kind: "infer", file } : { kind: "infer", file, typeName };
  }
  let check = false;
  for (const arg of args) {
    if (arg === "--check") check = true;
    else throw new UsageError(`unknown ${arg.startsWith("-") ? "option" : "argument"}: ${arg}`);
  }
  return { kind: "generate", check };
}

async function main(args: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`codegen: ${error.message}\nRun \`npm run codegen -- --help\` for usage.`);
    return 2;
  }
  if (command.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.kind === "infer") {
    process.stdout.write(`${JSON.stringify(await inferSchemaFromFile(command.file, command.typeName), null, 2)}\n`);
    return 0;
  }
  const { check } = command;
  const files = await generate();
  const stale: string[] = [];
  for (const [path, text] of files) {
    const target = join(GENERATED_DIR, path);
    let current: string | undefined;
    try {
      current = readFileSync(target, "utf8");
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    stale.push(`${current === undefined ? "missing" : "changed"}: generated/${path}`);
    if (!check) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
  for (const path of existingFiles(GENERATED_DIR)) {
    if (files.has(path)) continue;
    stale.push(`not generated: generated/${path}`);
    if (!check) rmSync(join(GENERATED_DIR, path));
  }
  if (check) {
    if (stale.length === 0) {
      console.log(`generated/ is up to date (${files.size} files).`);
      return 0;
    }
    console.error(`generated/ is stale; run \`npm run codegen\` and commit the result:\n  ${stale.join("\n  ")}`);
    return 1;
  }
  console.log(
    stale.length === 0
      ? `generated/ was already up to date (${files.size} files).`
      : `wrote generated/ (${stale.length} of ${files.size} files changed).`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
