import type { GlassRequest } from "../envelope/envelope-types.js";
import { GlassError } from "../errors/glass-error.js";
import { requiresLease, toolFor } from "../operations/lease-requirement.js";
import { isJsonObject } from "../validation/json-value.js";
import type { JsonRpcRequest } from "./json-rpc.js";

/**
 * Maps a Glass request envelope to the MCP `tools/call` message that carries it (§2): the request
 * id is the JSON-RPC id, the operation's tool is `params.name`, the payload is
 * `params.arguments`. Lease context (`sessionId`, `mutationLease`) is added to the arguments only
 * for operations that need a lease; read-only operations are never sent a token. Pure.
 */
export function toMcpRequest(request: GlassRequest): JsonRpcRequest {
  const payload: unknown = request.payload;
  if (!isJsonObject(payload)) {
    throw new GlassError({
      code: "payload.invalid",
      message: "an MCP tool's arguments must be a JSON object; wrap the value in an object",
      retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
      operation: request.operation,
      requestId: request.requestId,
    });
  }
  let args: Record<string, unknown> = payload;
  if (requiresLease(request.operation, payload) && (request.mutationLease !== undefined || request.sessionId !== undefined)) {
    args = { ...payload };
    const sessionId = request.sessionId ?? request.mutationLease?.sessionId;
    if (sessionId !== undefined) args.sessionId = sessionId;
    if (request.mutationLease !== undefined) args.mutationLease = { sessionId: request.mutationLease.sessionId, token: request.mutationLease.token };
  }
  return { jsonrpc: "2.0", id: request.requestId, method: "tools/call", params: { name: toolFor(request.operation), arguments: args } };
}
