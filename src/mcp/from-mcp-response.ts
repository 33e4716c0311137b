import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { responseEnvelope } from "../envelope/response-envelope.js";
import { describeOperation, requiresLease, toolFor } from "../operations/lease-requirement.js";
import { isJsonObject } from "../validation/json-value.js";
import { jsonRpcErrorToGlass } from "./json-rpc-error-to-glass.js";
import type { JsonRpcResponse } from "./json-rpc.js";
import { liftToolError } from "./lift-tool-error.js";
import { liftToolResult } from "./lift-tool-result.js";

/**
 * Maps the daemon's answer to a `tools/call` back to the Glass response envelope of `request`
 * (§2): a successful result is lifted by the result rule ({@link liftToolResult}; plain text for
 * operations whose catalog entry says `resultText`); an `isError` result is lifted to a typed
 * error ({@link liftToolError}) from its first text item, keeping the other items; a JSON-RPC
 * error is mapped by the code table ({@link jsonRpcErrorToGlass}). The envelope carries the
 * request's id and correlation id. Pure.
 */
export function fromMcpResponse(message: JsonRpcResponse, request: GlassRequest): GlassResponse {
  const { operation, payload } = request;
  if ("error" in message) return responseEnvelope(request, false, jsonRpcErrorToGlass(message.error, requiresLease(operation, payload)));
  const result = isJsonObject(message.result) ? message.result : {};
  if (result.isError !== true) return responseEnvelope(request, true, liftToolResult(result, { resultText: describeOperation(operation)?.resultText === true }));
  const content: readonly unknown[] = Array.isArray(result.content) ? result.content : [];
  const first = content.findIndex((item) => isJsonObject(item) && item.type === "text" && typeof item.text === "string");
  const text = first === -1 ? "" : ((content[first] as { text: string }).text);
  const others = content.filter((_, index) => index !== first);
  return responseEnvelope(request, false, liftToolError(text, { tool: toolFor(operation), mutating: requiresLease(operation, payload) }, others));
}
