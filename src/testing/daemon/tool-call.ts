import type { GlassCapabilityManifest } from "../../../generated/types/glass-capabilities-v1.js";
import type { GlassResponse } from "../../envelope/envelope-types.js";
import { JsonRpcErrorCode, type JsonRpcId, type McpToolResult } from "../../mcp/json-rpc.js";
import { describeOperation } from "../../operations/lease-requirement.js";
import { readToolCall, type ToolCall } from "../read-tool-call.js";
import { toMcpToolResult } from "../to-mcp-tool-result.js";
import type { DaemonContext } from "./daemon-context.js";
import { rpcError, type RpcError } from "./json-rpc-replies.js";
import { checkToolLease } from "./lease-rpc.js";
import { capabilityStatus, isEnabledStatus } from "./manifest.js";

/** A `tools/call` refused at once with a JSON-RPC error, or accepted and answerable. */
export type ToolCallStart = { kind: "refuse"; error: RpcError } | { kind: "accept"; call: ToolCall; answer: () => McpToolResult };

/**
 * Reads a `tools/call` and decides whether it may run: -32602 for unusable params (or a lease sent
 * to a read-only tool), -32003 for a lease problem on the socket (stdio has no leases). An accepted
 * call's `answer()` replays the fixture's answer as an MCP tool result; a tool whose capability
 * the daemon has switched off fails with `capabilityUnavailable`.
 */
export function startToolCall(context: DaemonContext, clientId: string, id: JsonRpcId, params: unknown): ToolCallStart {
  const call = readToolCall(id, params);
  if (typeof call === "string") return { kind: "refuse", error: rpcError(JsonRpcErrorCode.InvalidParams, call) };
  if (context.leases !== undefined) {
    const refused = checkToolLease(context.leases, clientId, call);
    if (refused !== undefined) return { kind: "refuse", error: refused };
  }
  return {
    kind: "accept",
    call,
    answer: () => toMcpToolResult(capabilityFailure(context.manifest, call) ?? context.engine.answer(call.request), { includeTrace: call.includeTrace }),
  };
}

/** The failure of a catalog tool whose capability is not usable on a daemon with this manifest, if it is not. */
export function capabilityFailure(manifest: GlassCapabilityManifest, call: ToolCall): GlassResponse | undefined {
  const capability = describeOperation(call.request.operation)?.capability;
  if (capability === undefined) return undefined;
  const status = capabilityStatus(manifest, capability);
  if (status !== undefined && isEnabledStatus(status)) return undefined;
  return {
    protocolVersion: 1,
    requestId: call.request.requestId,
    ok: false,
    error: {
      code: "capabilityUnavailable",
      message: `${call.tool} needs capability ${capability}, which is ${status ?? "not offered"} on this daemon`,
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "inspect_capabilities" },
    },
  };
}
