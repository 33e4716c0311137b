// The operation catalog: what the SDK knows about each operation (its descriptor), the generated
// table of them expanded at load, and the lookups every layer asks it (tool <-> operation name,
// whether a call needs a lease, whether it may be retried).

import type { OperationName } from "../../generated/operation-map.js";
import { leaseExemptTools, operationRows } from "../../generated/operations.js";

/**
 * When an operation needs a mutation lease (§4 of the protocol): always (`"required"`), never
 * (`"none"`, read-only), or depending on a field of its payload.
 */
export type LeaseRequirement =
  | "required"
  | "none"
  | { readonly requiredWhen: LeaseCondition }
  | { readonly requiredUnless: LeaseCondition };

/** A payload field (dotted path, e.g. `task.task`) and the values the condition matches. */
export interface LeaseCondition {
  readonly field: string;
  readonly in: readonly string[];
}

/** What the SDK knows about one catalog operation. */
export interface OperationDescriptor {
  /** Canonical Glass operation name, e.g. `browser.click`. */
  readonly operation: string;
  /** MCP tool name, e.g. `click`. */
  readonly tool: string;
  /** The client namespace the typed method lives in (`browser`, `webIr`, `task`). */
  readonly namespace: string;
  /** The typed method's name within its namespace (`click`, `diff`). */
  readonly method: string;
  /** Whether the operation needs a mutation lease. */
  readonly lease: LeaseRequirement;
  /** Whether the payload accepts `expectedRevision`. */
  readonly expectedRevision: boolean;
  /** Whether sending it twice cannot repeat a side effect, so the client may retry it. */
  readonly retrySafe: boolean;
  /** The capability the daemon must agree to for this operation, when there is one. */
  readonly capability?: string;
  /**
   * Present when the daemon answers with plain text rather than JSON (`getText`): the client lifts
   * that text to the result `{text}` without parsing it.
   */
  readonly resultText?: true;
}

/**
 * One operation as the generated table writes it, compactly:
 * `[operation, tool (0 when it is the method name), lease, expectedRevision (0/1), retrySafe (0/1), capability (0 when none)?, resultText (1)?]`.
 */
type OperationRow = readonly [string, string | 0, LeaseRequirement, 0 | 1, 0 | 1, (string | 0)?, 1?];

/**
 * Expands the generated rows into frozen descriptors keyed by operation name, in a frozen object
 * without a prototype: `operations["constructor"]` is `undefined`, as for any name not in the catalog.
 */
function expandOperationTable<Name extends string>(
  rows: readonly OperationRow[],
): Readonly<Record<Name, OperationDescriptor>> {
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

/** Every operation of the catalog, keyed by canonical operation name. */
export const operations: Readonly<Record<OperationName, OperationDescriptor>> = expandOperationTable(operationRows);

const catalog: Readonly<Record<string, OperationDescriptor>> = operations;
const byTool = new Map<string, OperationDescriptor>(Object.values(catalog).map((op) => [op.tool, op]));

/** The catalog entry of an operation, if it is in the catalog. */
export function describeOperation(operation: string): OperationDescriptor | undefined {
  return Object.hasOwn(catalog, operation) ? catalog[operation] : undefined;
}

/**
 * The MCP tool an operation is sent as: the catalog's tool, or for other operations the name after
 * `browser.` (§2: operation = "browser." + tool), or the operation itself.
 */
export function toolFor(operation: string): string {
  const known = describeOperation(operation);
  if (known !== undefined) return known.tool;
  return operation.startsWith("browser.") ? operation.slice("browser.".length) : operation;
}

/** The canonical operation name of an MCP tool (the inverse of {@link toolFor}). */
export function operationFor(tool: string): string {
  return byTool.get(tool)?.operation ?? `browser.${tool}`;
}

function fieldValue(payload: unknown, field: string): unknown {
  let value = payload;
  for (const part of field.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function matches(condition: LeaseCondition, payload: unknown): boolean {
  const value = fieldValue(payload, condition.field);
  return typeof value === "string" && condition.in.includes(value);
}

/**
 * Whether this call needs a mutation lease (§4): catalog operations by their rule (some depend on
 * the payload, e.g. `sessionSnapshot` with `operation: "create"`); any other tool unless it is one
 * of the read-only tools. A call that needs a lease mutates: it is never retried automatically.
 */
export function requiresLease(operation: string, payload: unknown): boolean {
  const known = describeOperation(operation);
  if (known === undefined) return !leaseExemptTools.has(toolFor(operation));
  const lease = known.lease;
  if (lease === "required") return true;
  if (lease === "none") return false;
  return "requiredWhen" in lease ? matches(lease.requiredWhen, payload) : !matches(lease.requiredUnless, payload);
}

/**
 * Whether a call is safe to send twice (read-only), so the client may retry it on its own: the
 * catalog's flag (conditional operations count as unsafe), or for other operations being a
 * read-only tool.
 */
export function isRetrySafe(operation: string, payload: unknown): boolean {
  const known = describeOperation(operation);
  return known !== undefined ? known.retrySafe : !requiresLease(operation, payload);
}
