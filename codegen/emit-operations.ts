import type { Catalog, CatalogOperation } from "./catalog.js";
import { groupInterfaceName } from "./emit-types.js";
import { banner, moduleName, relativeImport, sourceImport } from "./output.js";

/** One row of the compact operation table (see src/operations/operation-table.ts). */
function row(op: CatalogOperation): string {
  const tool = op.tool === op.method ? 0 : op.tool;
  const cells: unknown[] = [op.operation, tool, op.lease, op.expectedRevision ? 1 : 0, op.retrySafe ? 1 : 0];
  if (op.capability !== undefined || op.resultText) cells.push(op.capability ?? 0);
  if (op.resultText) cells.push(1);
  return `  ${JSON.stringify(cells)},`;
}

/** `generated/operations.ts`: the operation table (compact rows, expanded at load) and the lease-exempt tool list. */
function operationsModule(catalog: Catalog): string {
  const module = "operations";
  return `${banner("schema/glass-operations-v1.json and schema/operations/")}import type { OperationName } from "./operation-map.js";
import type { OperationDescriptor } from "${sourceImport(module, "src/operations/descriptor")}";
import { expandOperationTable, type OperationRow } from "${sourceImport(module, "src/operations/operation-table")}";

/** [operation, tool (0: the method name), lease, expectedRevision, retrySafe, capability (0: none)?, resultText?] per catalog operation. */
const rows: readonly OperationRow[] = [
${catalog.operations.map(row).join("\n")}
];

/** Every operation of the catalog, keyed by canonical operation name. */
export const operations: Readonly<Record<OperationName, OperationDescriptor>> = expandOperationTable(rows);

/**
 * MCP tools that are read-only (§4): they must not be sent a mutation lease. Every tool not listed
 * here mutates, so the generic request path treats unknown tools as needing a lease.
 */
export const leaseExemptTools: ReadonlySet<string> = new Set(${JSON.stringify(catalog.leaseExemptTools)});
`;
}

/** `generated/operation-map.ts`: operation name → `{ payload; result }` for every catalog operation. */
function operationMapModule(catalog: Catalog): string {
  const module = "operation-map";
  const groups = catalog.groups.map((file) => ({ name: groupInterfaceName(file), from: relativeImport(module, moduleName("types", file)) }));
  return `${banner("schema/operations/")}${groups.map((g) => `import type { ${g.name} } from "${g.from}";`).join("\n")}

/** The payload and result type of every catalog operation, keyed by operation name. */
export interface OperationMap extends ${groups.map((g) => g.name).join(", ")} {}

/** The name of a catalog operation. */
export type OperationName = keyof OperationMap;

/** The payload type of a catalog operation. */
export type PayloadOf<Op extends OperationName> = OperationMap[Op]["payload"];

/** The result type of a catalog operation. */
export type ResultOf<Op extends OperationName> = OperationMap[Op]["result"];
`;
}

/** `generated/methods.ts`: the typed method signatures of every operation namespace. */
function methodsModule(catalog: Catalog): string {
  const namespaces = [...new Set(catalog.operations.map((op) => op.namespace))];
  const interfaceName = (ns: string): string => `Glass${ns[0]!.toUpperCase()}${ns.slice(1)}Methods`;
  const blocks = namespaces.map((ns) => {
    const methods = catalog.operations
      .filter((op) => op.namespace === ns)
      .map((op) => {
        const lease = op.lease === "required" ? "Mutating: needs a mutation lease on the daemon socket." : op.lease === "none" ? "Read-only." : "Needs a mutation lease depending on its payload.";
        const key = JSON.stringify(op.operation);
        return `  /**\n   * ${op.summary}\n   *\n   * Operation \`${op.operation}\` (MCP tool \`${op.tool}\`). ${lease}\n   */\n  ${op.method}(payload${op.payloadOptional ? "?" : ""}: OperationMap[${key}]["payload"], options?: CallOptions): Promise<OperationMap[${key}]["result"]>;`;
      });
    return `/** Typed methods of the \`${ns}\` operations. \`CallOptions\` is the client's per-call options type. */\nexport interface ${interfaceName(ns)}<CallOptions> {\n${methods.join("\n\n")}\n}`;
  });
  return `${banner("schema/operations/")}import type { OperationMap } from "./operation-map.js";

${blocks.join("\n\n")}

/** Every operation namespace of the catalog, as properties of the client. */
export interface GlassOperationNamespaces<CallOptions> {
${namespaces.map((ns) => `  /** The \`${ns}.*\` operations. */\n  readonly ${ns}: ${interfaceName(ns)}<CallOptions>;`).join("\n")}
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

/** Emits the operation table, the operation map, the method signatures and the summaries. */
export function emitOperations(catalog: Catalog): Map<string, string> {
  return new Map([
    ["operations.ts", operationsModule(catalog)],
    ["operation-summaries.ts", summariesModule(catalog)],
    ["operation-map.ts", operationMapModule(catalog)],
    ["methods.ts", methodsModule(catalog)],
  ]);
}
