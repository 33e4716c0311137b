import type { GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import type { McpToolResult } from "../mcp/json-rpc.js";
import { describeOperation, toolFor } from "../operations/catalog.js";
import { isJsonObject } from "../validation/json-value.js";
import { readToolCall } from "./read-tool-call.js";
import { deepFreeze } from "./deep-freeze.js";
import type { ReplayEngine } from "./replay-engine.js";
import { toMcpToolResult } from "./to-mcp-tool-result.js";
import { capabilityFailure } from "./tool-call.js";

/**
 * The answers of a mock daemon in fast mode: one precomputed MCP tool result per tool, by tool
 * name. Made once when the daemon starts; shared and frozen.
 */
export type FastAnswers = ReadonlyMap<string, McpToolResult>;

/**
 * Precomputes the fast-mode answers: for each read-only catalog operation (lease `none`) in the
 * fixture, the tool result of its first recorded request — the recorded result or error, or the
 * `capability.unavailable` failure when the manifest switched its capability off. Mutating and
 * conditional operations are left out: their calls keep the full path (lease checks and all).
 */
export function buildFastAnswers(engine: ReplayEngine, manifest: GlassCapabilityManifest): FastAnswers {
  const answers = new Map<string, McpToolResult>();
  for (const request of engine.requests()) {
    if (describeOperation(request.operation)?.lease !== "none") continue;
    const tool = toolFor(request.operation);
    if (answers.has(tool)) continue;
    const call = readToolCall(request.requestId, { name: tool, arguments: request.payload });
    if (typeof call === "string") continue;
    answers.set(
      tool,
      deepFreeze(
        toMcpToolResult(capabilityFailure(manifest, call) ?? engine.answer(request), { operation: request.operation }),
      ),
    );
  }
  return answers;
}

/**
 * Whether a `tools/call` may take the fast path: its arguments are an object (or absent) without
 * lease context, `responseMode` or `includeTrace`, which the full path checks and answers to.
 */
export function fastPathAllowed(params: Record<string, unknown> | undefined): boolean {
  const args = params?.arguments;
  if (args === undefined) return true;
  if (!isJsonObject(args)) return false;
  return (
    args.mutationLease === undefined &&
    args.leaseToken === undefined &&
    args.sessionId === undefined &&
    args.responseMode === undefined &&
    args.includeTrace === undefined
  );
}
