import type { LeaseRequirement, OperationDescriptor } from "./descriptor.js";

/**
 * One operation as the generated table writes it, compactly:
 * `[operation, tool (0 when it is the method name), lease, expectedRevision (0/1), retrySafe (0/1), capability (0 when none)?, resultText (1)?]`.
 */
export type OperationRow = readonly [string, string | 0, LeaseRequirement, 0 | 1, 0 | 1, (string | 0)?, 1?];

/**
 * Expands the generated rows into frozen descriptors keyed by operation name, in a frozen object
 * without a prototype: `operations["constructor"]` is `undefined`, as for any name not in the catalog.
 */
export function expandOperationTable<Name extends string>(rows: readonly OperationRow[]): Readonly<Record<Name, OperationDescriptor>> {
  const table = Object.create(null) as Record<string, OperationDescriptor>;
  for (const [operation, tool, lease, expectedRevision, retrySafe, capability, resultText] of rows) {
    const dot = operation.indexOf(".");
    const method = operation.slice(dot + 1);
    table[operation] = Object.freeze({
      operation,
      tool: tool === 0 ? method : tool,
      namespace: operation.slice(0, dot),
      method,
      lease,
      expectedRevision: expectedRevision === 1,
      retrySafe: retrySafe === 1,
      ...(capability === undefined || capability === 0 ? {} : { capability }),
      ...(resultText === 1 ? { resultText: true as const } : {}),
    });
  }
  return Object.freeze(table) as Readonly<Record<Name, OperationDescriptor>>;
}
