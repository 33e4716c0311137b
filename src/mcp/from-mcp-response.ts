import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { responseEnvelope } from "../envelope/response-envelope.js";
import { requiresLease } from "../operations/lease-requirement.js";
import { isJsonObject } from "../validation/json-value.js";
import { jsonRpcErrorToGlass } from "./json-rpc-error-to-glass.js";
import type { JsonRpcResponse } from "./json-rpc.js";
import { liftToolError } from "./lift-tool-error.js";

/** The first text item of an MCP tool result, if any. */
function firstText(result: Record<string, unknown>): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  for (const item of content) {
    if (isJsonObject(item) && item.type === "text" && typeof item.text === "string") return item.text;
  }
  return undefined;
}

/**
 * Maps the daemon's answer to a `tools/call` back to the Glass response envelope of `request`
 * (§2): a text result is parsed as the typed result (text that is not JSON is kept as a string);
 * an `isError` result is lifted to a typed error ({@link liftToolError}); a JSON-RPC error is mapped
 * by the code table ({@link jsonRpcErrorToGlass}). The envelope carries the request's id and
 * correlation id. Pure.
 */
export function fromMcpResponse(message: JsonRpcResponse, request: GlassRequest): GlassResponse {
  if ("error" in message) return responseEnvelope(request, false, jsonRpcErrorToGlass(message.error, requiresLease(request.operation, request.payload)));
  const result = isJsonObject(message.result) ? message.result : {};
  const text = firstText(result);
  if (result.isError === true) return responseEnvelope(request, false, liftToolError(text ?? "", requiresLease(request.operation, request.payload)));
  if (text === undefined) return responseEnvelope(request, true, result.structuredContent ?? null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return responseEnvelope(request, true, parsed);
}
