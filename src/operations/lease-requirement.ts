import { leaseExemptTools, operations } from "../../generated/operations.js";
import type { LeaseCondition, OperationDescriptor } from "./descriptor.js";

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
