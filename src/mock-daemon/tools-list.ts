import type { GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import { operationSummaries } from "../../generated/operation-summaries.js";
import { operations, type OperationDescriptor } from "../operations/catalog.js";
import { capabilityStatus, isEnabledStatus } from "./manifest.js";

/** A tool as `tools/list` describes it. */
export interface ListedTool {
  /** The MCP tool name. */
  name: string;
  /** The catalog's one-sentence summary. */
  description: string;
  /** JSON Schema of the arguments: any object (the catalog's payload schemas refer to other files). */
  inputSchema: { type: "object" };
}

const cache = new WeakMap<GlassCapabilityManifest, ListedTool[]>();

/**
 * The tools of `tools/list` (one page, no cursor): every tool of the catalog, except those whose
 * capability the manifest does not offer as usable.
 */
export function listTools(manifest: GlassCapabilityManifest): ListedTool[] {
  let tools = cache.get(manifest);
  if (tools === undefined) {
    const catalog: readonly OperationDescriptor[] = Object.values(operations);
    tools = catalog
      .filter((op) => {
        const status = op.capability === undefined ? "available" : capabilityStatus(manifest, op.capability);
        return status !== undefined && isEnabledStatus(status);
      })
      .map((op) => ({
        name: op.tool,
        description: operationSummaries[op.operation] ?? op.operation,
        inputSchema: { type: "object" as const },
      }));
    cache.set(manifest, tools);
  }
  return tools;
}
