import { operations } from "../../generated/operations.js";
import type { OperationDescriptor } from "../operations/descriptor.js";
import type { CallOptions } from "./options.js";

/** Runs one operation for a typed method. */
export type OperationInvoker = (operation: string, payload: unknown, options: CallOptions | undefined) => Promise<unknown>;

/**
 * Gives the client one property per catalog namespace (`browser`, `webIr`, `task`) holding one
 * method per operation (`glass.browser.click(payload, options)`), built from the generated
 * operation table; their types come from the generated method signatures. A method whose payload
 * has no required field may be called without one.
 */
export function attachOperationNamespaces(target: object, invoke: OperationInvoker): void {
  const namespaces = new Map<string, Record<string, (payload?: unknown, options?: CallOptions) => Promise<unknown>>>();
  for (const op of Object.values(operations) as OperationDescriptor[]) {
    let methods = namespaces.get(op.namespace);
    if (methods === undefined) {
      methods = {};
      namespaces.set(op.namespace, methods);
    }
    const operation = op.operation;
    methods[op.method] = (payload?: unknown, options?: CallOptions) => invoke(operation, payload ?? {}, options);
  }
  for (const [name, methods] of namespaces) {
    Object.defineProperty(target, name, { value: Object.freeze(methods), enumerable: true });
  }
}
