import type { Catalog, CatalogOperation } from "./catalog.js";
import { CompactProgramCompiler } from "./compact-program.js";
import { programLines } from "./emit-compact-validators.js";
import type { NamedEntry } from "./emit-validators.js";
import { banner, sourceImport } from "./output.js";
import { locationKey, type SchemaRegistry } from "./schema-registry.js";

/**
 * The named validators the client itself calls on every page (the error object of a failure, the
 * request envelopes `glass.send` is given, the identifiers and operation names of calls, the
 * capability manifest and agreement of the handshake). `core` modules export only these, so that a
 * browser bundle takes them without the catalog's validators.
 */
export const CORE_VALIDATORS = [
  "validateGlassRequest",
  "validateGlassErrorObject",
  "validateGlassIdentifier",
  "validateGlassOperationName",
  "validateCapabilityManifest",
  "validateCapabilityAgreement",
];

/**
 * The named document validators (whole schema files, such as `validateTaskDocument`) that check a
 * top-level field of an operation's payload as written there by `$ref`: `task.compile`'s `task`
 * and `ir`. The preflight reads them to say which document a failure is in.
 */
export function payloadDocuments(
  registry: SchemaRegistry,
  operation: CatalogOperation,
  entries: NamedEntry[],
): { field: string; entry: NamedEntry }[] {
  const located = registry.at(operation.payload);
  if (typeof located.schema === "boolean") return [];
  const properties = (located.schema.properties ?? {}) as Record<string, unknown>;
  return Object.entries(properties).flatMap(([field, schema]) => {
    const ref = (schema as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== "string") return [];
    const target = locationKey(registry.resolve(ref, located));
    const entry = entries.find(
      (named) => named.location.pointer === "" && named.mode !== "strict" && locationKey(named.location) === target,
    );
    return entry === undefined ? [] : [{ field, entry }];
  });
}

/**
 * For the compiled validators (generated/validators/): `core.ts`, the client's named validators
 * (see CORE_VALIDATORS), and `by-operation.ts`, every operation's validators at once, from the
 * index's tables.
 */
export function emitCompiledOperationValidators(
  registry: SchemaRegistry,
  catalog: Catalog,
  entries: NamedEntry[],
): Map<string, string> {
  const documents = catalog.operations.flatMap((op) => {
    const parts = payloadDocuments(registry, op, entries);
    return parts.length === 0 ? [] : [{ operation: op.operation, parts }];
  });
  const documentNames = [...new Set(documents.flatMap(({ parts }) => parts.map(({ entry }) => entry.name)))].sort();
  const byOperation = "validators/by-operation";
  const core = [
    "/** The named validators the client calls on every page (a browser bundle swaps this module for the compact one). */",
    `export { ${CORE_VALIDATORS.join(", ")} } from "./index.js";`,
  ];
  const lookup = [
    `import { operationValidatorTable, type OperationValidators } from "${sourceImport(byOperation, "src/validation/operation-validators")}";`,
    `import { ${["payloadValidators", "resultValidators", ...documentNames].join(", ")} } from "./index.js";`,
    "",
    "/**",
    " * The validators of every catalog operation, at once (`undefined` outside the catalog). The browser",
    " * build bundlers take swaps this module for one that loads them on first use (a promise).",
    " */",
    "export const operationValidators: (operation: string) => OperationValidators | undefined = operationValidatorTable(payloadValidators, resultValidators, {",
    ...documents.map(
      ({ operation, parts }) =>
        `  ${JSON.stringify(operation)}: { ${parts.map(({ field, entry }) => `${JSON.stringify(field)}: ${entry.name}`).join(", ")} },`,
    ),
    "});",
  ];
  return new Map([
    ["validators/core.ts", `${banner("schema/")}${core.join("\n")}\n`],
    [`${byOperation}.ts`, `${banner("schema/")}${lookup.join("\n")}\n`],
  ]);
}

/** The file name of an operation's module (`browser.observe` → `operations/browser.observe`). */
const operationModule = (operation: string): string => `operations/${operation}`;

/**
 * For the compact validators (generated/validators-compact/), what the browser build bundlers take
 * uses instead of the whole catalog's program: `core.ts`, a program of the client's named validators
 * only; `operations/<operation>.ts`, a program of one operation's payload, result and documents;
 * and `by-operation.ts`, which loads an operation's module on its first call (a bundler makes each
 * a chunk of its own).
 */
export function emitCompactOperationValidators(
  registry: SchemaRegistry,
  catalog: Catalog,
  entries: NamedEntry[],
): Map<string, string> {
  const files = new Map<string, string>();
  const coreModule = "validators-compact/core";
  const core = new CompactProgramCompiler(registry);
  const coreEntries = CORE_VALIDATORS.map((name) => {
    const entry = entries.find((named) => named.name === name);
    if (entry === undefined) throw new Error(`codegen: ${name} is not a named validator`);
    return { name, node: core.entry(entry.location) };
  });
  const coreProgram = core.program();
  files.set(
    `${coreModule}.ts`,
    `${banner("schema/")}${[
      ...programLines(coreModule, coreProgram.nodes, "The client's named validators"),
      ...coreEntries.map(
        ({ name, node }) =>
          `/** See generated/validators/index.ts. */\nexport const ${name}: GeneratedValidator = /* @__PURE__ */ validator(${coreProgram.map(node)});`,
      ),
    ].join("\n")}\n`,
  );

  for (const op of catalog.operations) {
    const module = `validators-compact/${operationModule(op.operation)}`;
    const compiler = new CompactProgramCompiler(registry);
    const payload = compiler.entry(op.payload);
    const result = op.result === undefined ? undefined : compiler.entry(op.result);
    const documents = payloadDocuments(registry, op, entries).map(({ field, entry }) => ({
      field,
      node: compiler.entry(entry.location),
    }));
    const { nodes, map } = compiler.program();
    const lines = [
      ...programLines(module, nodes, `The validators of ${op.operation}`),
      `/** The payload of \`${op.operation}\`. */`,
      `export const payload: GeneratedValidator = /* @__PURE__ */ validator(${map(payload)});`,
      `/** The result of \`${op.operation}\`${result === undefined ? " (any JSON: the protocol gives no shape)" : ""}. */`,
      `export const result: GeneratedValidator | undefined = ${result === undefined ? "undefined" : `/* @__PURE__ */ validator(${map(result)})`};`,
    ];
    if (documents.length > 0) {
      lines.push(
        "/** The documents the payload carries whole, by field. */",
        `export const documents: Readonly<Record<string, GeneratedValidator>> = { ${documents.map(({ field, node }) => `${JSON.stringify(field)}: /* @__PURE__ */ validator(${map(node)})`).join(", ")} };`,
      );
    }
    files.set(`${module}.ts`, `${banner("schema/")}${lines.join("\n")}\n`);
  }

  const byOperation = "validators-compact/by-operation";
  const lookup = [
    `import { lazyOperationValidators, type OperationValidatorsLookup } from "${sourceImport(byOperation, "src/validation/operation-validators")}";`,
    `import { operations } from "${sourceImport(byOperation, "src/operations/catalog")}";`,
    "",
    "/**",
    " * The validators of every catalog operation, each loaded from its own module on first use",
    " * (`undefined` outside the catalog). The loaders are in the order of the catalog's operations.",
    " */",
    "export const operationValidators: OperationValidatorsLookup = lazyOperationValidators(operations, [",
    ...catalog.operations.map((op) => `  () => import("./${operationModule(op.operation)}.js"),`),
    "]);",
  ];
  files.set(`${byOperation}.ts`, `${banner("schema/")}${lookup.join("\n")}\n`);
  return files;
}
