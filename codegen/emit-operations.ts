import type { Catalog, CatalogOperation, NamedType, ResultCase } from "./catalog.js";
import type { DeclaredTypes } from "./emit-type-index.js";
import { groupInterfaceName } from "./emit-types.js";
import { banner, moduleName, relativeImport, sourceImport } from "./output.js";

/** One row of the compact operation table (see `OperationRow` in src/operations/catalog.ts). */
function row(op: CatalogOperation): string {
  const tool = op.tool === op.method ? 0 : op.tool;
  const cells: unknown[] = [op.operation, tool, op.lease, op.expectedRevision ? 1 : 0, op.retrySafe ? 1 : 0];
  if (op.capability !== undefined || op.resultText) cells.push(op.capability ?? 0);
  if (op.resultText) cells.push(1);
  return `  ${JSON.stringify(cells)},`;
}

/**
 * `generated/operations.ts`: the operation table as compact rows (src/operations/catalog.ts expands
 * them at load and checks their shape) and the lease-exempt tool list. It imports nothing, so the
 * catalog can build on it without a cycle.
 */
function operationsModule(catalog: Catalog): string {
  return `${banner("schema/glass-operations-v1.json and schema/operations/")}/** [operation, tool (0: the method name), lease, expectedRevision, retrySafe, capability (0: none)?, resultText?] per catalog operation. */
export const operationRows = [
${catalog.operations.map(row).join("\n")}
] as const;

/**
 * MCP tools that are read-only (§4): they must not be sent a mutation lease. Every tool not listed
 * here mutates, so the generic request path treats unknown tools as needing a lease.
 */
export const leaseExemptTools: ReadonlySet<string> = new Set(${JSON.stringify(catalog.leaseExemptTools)});

/** The operations whose tool takes the \`responseMode\` call option. */
export const responseModeOperations: ReadonlySet<string> = new Set(${JSON.stringify(operationsWith(catalog, "responseMode"))});

/** The operations whose tool takes the \`includeTrace\` call option. */
export const traceOperations: ReadonlySet<string> = new Set(${JSON.stringify(operationsWith(catalog, "includeTrace"))});
`;
}

/** The names of the operations that take a call option. */
function operationsWith(catalog: Catalog, option: "responseMode" | "includeTrace"): string[] {
  return catalog.operations.filter((op) => op[option]).map((op) => op.operation);
}

/** A union of string literal types (\`never\` when empty). */
function literalUnion(values: string[]): string {
  return values.length === 0 ? "never" : values.map((value) => JSON.stringify(value)).join(" | ");
}

/** \`generated/operation-map.ts\`: operation name → `{ payload; result }` for every catalog operation. */
function operationMapModule(catalog: Catalog): string {
  const module = "operation-map";
  const groups = catalog.groups.map((file) => ({
    name: groupInterfaceName(file),
    from: relativeImport(module, moduleName("types", file)),
  }));
  return `${banner("schema/operations/")}import type { JsonValue } from "${sourceImport(module, "src/validation/json-value")}";
${groups.map((g) => `import type { ${g.name} } from "${g.from}";`).join("\n")}

/** The payload and result type of every catalog operation, keyed by operation name. */
export interface OperationMap extends ${groups.map((g) => g.name).join(", ")} {}

/** The name of a catalog operation. */
export type OperationName = keyof OperationMap;

/**
 * The payload type of an operation: the catalog's type for a catalog operation, any JSON for
 * another named operation, and \`unknown\` when the operation is not known statically (a plain
 * \`string\`).
 */
export type PayloadOf<Op extends string> = string extends Op ? unknown : Op extends OperationName ? OperationMap[Op]["payload"] : JsonValue;

/** The result type of a catalog operation. */
export type ResultOf<Op extends OperationName> = OperationMap[Op]["result"];

/** The operations whose tool takes the \`responseMode\` call option. */
export type ResponseModeOperation = ${literalUnion(operationsWith(catalog, "responseMode"))};

/** The operations whose tool takes the \`includeTrace\` call option. */
export type TraceOperation = ${literalUnion(operationsWith(catalog, "includeTrace"))};
`;
}

/** A payload property name as a TypeScript property key. */
function propertyKey(field: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(field) ? field : JSON.stringify(field);
}

/** `a`, `a or b`, `a, b or c` (each in backticks, as JSON). */
function listOf(values: string[]): string {
  const quoted = values.map((value) => `\`${JSON.stringify(value)}\``);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)!}`;
}

/** One overload of a result case: its payload type (the payload narrowed by the case), optionality and documentation line. */
function caseOverload(
  payload: string,
  payloadOptional: boolean,
  { when }: ResultCase,
  resultName: string,
): { payload: string; optional: boolean; doc: string } {
  const key = propertyKey(when.field);
  const field = `\`${when.field}\``;
  if ("present" in when)
    return {
      payload: `${payload} & { ${key}: NonNullable<${payload}[${JSON.stringify(when.field)}]> }`,
      optional: false,
      doc: `With ${field} given, it resolves to a \`${resultName}\`.`,
    };
  if ("absent" in when)
    return {
      payload: `${payload} & { ${key}?: undefined }`,
      optional: payloadOptional,
      doc: `Without ${field}, it resolves to a \`${resultName}\`.`,
    };
  const values = when.in.map((value) => JSON.stringify(value)).join(" | ");
  if (when.orAbsent === true)
    return {
      payload: `${payload} & { ${key}?: ${values} }`,
      optional: payloadOptional,
      doc: `With ${field} ${listOf(when.in)}, or without it, it resolves to a \`${resultName}\`.`,
    };
  return {
    payload: `${payload} & { ${key}: ${values} }`,
    optional: false,
    doc: `With ${field} ${listOf(when.in)}, it resolves to a \`${resultName}\`.`,
  };
}

/**
 * The signatures of one operation's method, with their documentation: one overload per result case
 * (in catalog order), then the general one, typed with the named payload and result types.
 */
function methodSignatures(op: CatalogOperation, typeName: (type: NamedType) => string): string[] {
  const lease =
    op.lease === "required"
      ? "Mutating: needs a mutation lease on the daemon socket."
      : op.lease === "none"
        ? "Read-only."
        : "Needs a mutation lease depending on its payload.";
  const head = [op.summary, "", `Operation \`${op.operation}\` (MCP tool \`${op.tool}\`). ${lease}`];
  const payload = typeName(op.payloadType);
  const result = op.resultType === undefined ? "unknown" : typeName(op.resultType);
  const options = [
    CALL_OPTIONS,
    ...(op.responseMode ? [op.resultFollowsMode ? "ResponseModeOption<Mode>" : "ResponseModeOption"] : []),
    ...(op.includeTrace ? ["TraceOption"] : []),
  ].join(" & ");
  const generic = op.resultFollowsMode ? `<Mode extends ResponseMode = "minimal">` : "";
  const inMode = (type: string): string => (op.resultFollowsMode ? `ResultInMode<${type}, Mode>` : type);
  const signature = (lines: string[], payloadType: string, optional: boolean, resultType: string): string =>
    `  /**\n${lines.map((line) => (line === "" ? "   *" : `   * ${line}`)).join("\n")}\n   */\n  ${op.method}${generic}(payload${optional ? "?" : ""}: ${payloadType}, options?: ${options}): Promise<${inMode(resultType)}>;`;
  if (op.resultFollowsMode)
    head.push("", "Its result type follows `options.responseMode` (the daemon's default is `minimal`).");
  const cases = (op.resultCases ?? []).map((resultCase) => {
    const name = typeName(resultCase.result);
    const overload = caseOverload(payload, op.payloadOptional, resultCase, name);
    return signature([...head, overload.doc], overload.payload, overload.optional, name);
  });
  const general =
    op.resultType === undefined
      ? "The catalog gives no result schema: it resolves to any JSON."
      : cases.length > 0
        ? `Any other payload resolves to a \`${result}\`.`
        : undefined;
  return [...cases, signature(general === undefined ? head : [...head, general], payload, op.payloadOptional, result)];
}

/** The generic parameter of the method interfaces; no schema type may take its name. */
const CALL_OPTIONS = "CallOptions";

/**
 * `generated/methods.ts`: the typed method signatures of every operation namespace, using the named
 * payload and result types (checked to be declared by the generated type modules).
 */
function methodsModule(catalog: Catalog, declared: DeclaredTypes): string {
  const module = "methods";
  const imports = new Map<string, Set<string>>();
  const typeNameFor =
    (op: CatalogOperation) =>
    (type: NamedType): string => {
      const from = moduleName("types", type.file);
      if (!(declared.get(from) ?? []).includes(type.name)) {
        throw new Error(
          `schema/${op.file}: ${op.operation} uses the type ${type.name}, which generated/${from}.ts does not declare (is it a titled schema, and is its title a plain type name?)`,
        );
      }
      if (type.name === CALL_OPTIONS)
        throw new Error(
          `schema/${type.file}: the title ${CALL_OPTIONS} is reserved for the generated methods' options type`,
        );
      if (!imports.has(from)) imports.set(from, new Set());
      imports.get(from)!.add(type.name);
      return type.name;
    };
  const namespaces = [...new Set(catalog.operations.map((op) => op.namespace))];
  const interfaceName = (ns: string): string => `Glass${ns[0]!.toUpperCase()}${ns.slice(1)}Methods`;
  const blocks = namespaces.map((ns) => {
    const methods = catalog.operations
      .filter((op) => op.namespace === ns)
      .map((op) => methodSignatures(op, typeNameFor(op)).join("\n\n"));
    return `/** Typed methods of the \`${ns}\` operations. \`${CALL_OPTIONS}\` is the client's per-call options type. */\nexport interface ${interfaceName(ns)}<${CALL_OPTIONS}> {\n${methods.join("\n\n")}\n}`;
  });
  const importLines = [...imports]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([from, names]) =>
        `import type {\n${[...names]
          .sort()
          .map((name) => `  ${name},`)
          .join("\n")}\n} from "${relativeImport(module, from)}";`,
    );
  const ops = catalog.operations;
  const optionTypes = [
    ...(ops.some((op) => op.resultFollowsMode) ? ["ResponseMode", "ResultInMode"] : []),
    ...(ops.some((op) => op.responseMode) ? ["ResponseModeOption"] : []),
    ...(ops.some((op) => op.includeTrace) ? ["TraceOption"] : []),
  ].sort();
  if (optionTypes.length > 0)
    importLines.push(
      `import type { ${optionTypes.join(", ")} } from "${sourceImport(module, "src/operations/response-mode")}";`,
    );
  return `${banner("schema/operations/")}${importLines.join("\n")}

${blocks.join("\n\n")}

/** Every operation namespace of the catalog, as properties of the client. */
export interface GlassOperationNamespaces<${CALL_OPTIONS}> {
${namespaces.map((ns) => `  /** The \`${ns}.*\` operations. */\n  readonly ${ns}: ${interfaceName(ns)}<${CALL_OPTIONS}>;`).join("\n")}
}

/** The namespace names, in catalog order. */
export const operationNamespaces = ${JSON.stringify(namespaces)} as const;
`;
}

/** `generated/operation-summaries.ts`: one sentence per operation (kept apart so clients need not ship it). */
function summariesModule(catalog: Catalog): string {
  const entries = catalog.operations.map((op) => `  ${JSON.stringify(op.operation)}: ${JSON.stringify(op.summary)},`);
  return `${banner("schema/operations/")}/** What each catalog operation does, in one sentence, by operation name (e.g. for tools/list descriptions). */
export const operationSummaries: Readonly<Record<string, string>> = {
${entries.join("\n")}
};
`;
}

/**
 * Emits the operation table, the operation map, the method signatures and the summaries.
 * `declared` holds the names each generated type module declares, for the method signatures.
 */
export function emitOperations(catalog: Catalog, declared: DeclaredTypes): Map<string, string> {
  return new Map([
    ["operations.ts", operationsModule(catalog)],
    ["operation-summaries.ts", summariesModule(catalog)],
    ["operation-map.ts", operationMapModule(catalog)],
    ["methods.ts", methodsModule(catalog, declared)],
  ]);
}
