import type { GlassRequest } from "../envelope/envelope-types.js";
import { GlassError } from "../errors/glass-error.js";
import { requiresLease, toolFor } from "../operations/catalog.js";
import { isJsonObject } from "../validation/json-value.js";
import type { JsonRpcRequest } from "./json-rpc.js";

/**
 * Maps a Glass request envelope to the MCP `tools/call` message that carries it (§2): the request
 * id is the JSON-RPC id, the operation's tool is `params.name`, the payload is
 * `params.arguments`. The lease context goes as `arguments.leaseToken` alone — the daemon needs no
 * session id, and `executeIntent` and `actAndVerify` fail when `sessionId` or `mutationLease` is
 * among their arguments — and only to operations that need a lease: read-only operations are never
 * sent a token (six of them refuse any unlisted argument). The envelope's `sessionId` never
 * travels. `callArguments` (the call's `responseMode`, `includeTrace`) are added to the payload's.
 * Pure; the caller's payload object is not changed.
 */
export function toMcpRequest(request: GlassRequest, callArguments?: Readonly<Record<string, unknown>>): JsonRpcRequest {
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
  const token = request.mutationLease?.token;
  const withOptions =
    callArguments === undefined || Object.keys(callArguments).length === 0 ? payload : { ...payload, ...callArguments };
  const args =
    token !== undefined && requiresLease(request.operation, payload)
      ? { ...withOptions, leaseToken: token }
      : withOptions;
  return {
    jsonrpc: "2.0",
    id: request.requestId,
    method: "tools/call",
    params: { name: toolFor(request.operation), arguments: args },
  };
}
