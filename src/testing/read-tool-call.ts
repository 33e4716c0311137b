import type { GlassMutationLease, GlassRequest } from "../envelope/envelope-types.js";
import type { JsonRpcId } from "../mcp/json-rpc.js";
import { operationFor } from "../operations/lease-requirement.js";
import type { JsonValue } from "../validation/json-value.js";
import { isJsonObject } from "../validation/json-value.js";

/** Fields of `params.arguments` that belong to MCP, not to the canonical payload (§2). */
export const MCP_ONLY_ARGUMENTS: ReadonlySet<string> = new Set(["sessionId", "mutationLease", "leaseToken", "responseMode", "includeTrace"]);

/** A `tools/call` read as the Glass request it carries. */
export interface ToolCall {
  /** `params.name`. */
  tool: string;
  /** `params.arguments` as sent (an empty object when absent). */
  arguments: Record<string, unknown>;
  /**
   * The Glass request: the JSON-RPC id as `requestId` (a number as its decimal text), the
   * catalog operation of the tool (or `browser.<tool>`), the canonical payload (the arguments
   * without the MCP-only fields), and `sessionId`/`mutationLease` when the arguments carry them.
   */
  request: GlassRequest;
  /** The lease token sent, from `mutationLease.token` or `leaseToken`; `undefined` when none was. */
  leaseToken: unknown;
  /** Whether any lease context (`mutationLease` or `leaseToken`) was sent. */
  carriesLease: boolean;
  /** Whether the caller asked for a failure trace. */
  includeTrace: boolean;
}

/**
 * Reads the params of a `tools/call` (§2). Returns the reason they are unusable (the message of a
 * -32602 answer) when `name` is not a non-empty string or `arguments` is present but not an object.
 */
export function readToolCall(id: JsonRpcId, params: unknown): ToolCall | string {
  if (!isJsonObject(params) || typeof params.name !== "string" || params.name === "") {
    return "tools/call needs params.name, the name of a tool";
  }
  const args = params.arguments ?? {};
  if (!isJsonObject(args)) return "params.arguments of tools/call must be an object";
  const payload: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(args)) {
    if (!MCP_ONLY_ARGUMENTS.has(key)) payload[key] = value as JsonValue;
  }
  const request: GlassRequest = {
    protocolVersion: 1,
    requestId: typeof id === "number" ? String(id) : id,
    operation: operationFor(params.name),
    payload,
  };
  if (typeof args.sessionId === "string") request.sessionId = args.sessionId;
  if (isJsonObject(args.mutationLease)) request.mutationLease = args.mutationLease as unknown as GlassMutationLease;
  const leaseToken = isJsonObject(args.mutationLease) ? args.mutationLease.token : args.leaseToken;
  return {
    tool: params.name,
    arguments: args,
    request,
    leaseToken,
    carriesLease: args.mutationLease !== undefined || args.leaseToken !== undefined,
    includeTrace: args.includeTrace === true,
  };
}
