import type { GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { responseEnvelope } from "../envelope/create-request.js";
import { describeOperation, requiresLease, toolFor } from "../operations/catalog.js";
import { pathPastDepth, TOO_DEEP_REASON } from "../validation/json-depth.js";
import { isJsonObject } from "../validation/json-value.js";
import { answerProblem, responseInvalid, toolResultProblem } from "./answer-check.js";
import { jsonRpcErrorToGlass } from "./json-rpc-error-to-glass.js";
import type { JsonRpcResponse } from "./json-rpc.js";
import { liftToolError } from "./lift-tool-error.js";
import { liftToolResult } from "./lift-tool-result.js";

/**
 * Maps the daemon's answer to a `tools/call` back to the Glass response envelope of `request`
 * (§2): a successful result is lifted by the result rule (`liftToolResult`; plain text for
 * operations whose catalog entry says `resultText`); an `isError` result is lifted to a typed
 * error ({@link liftToolError}) from its first text item, keeping the other items; a JSON-RPC
 * error is mapped by the code table ({@link jsonRpcErrorToGlass}). An answer that cannot be read —
 * nested past the SDK's depth bound (the message itself, or the JSON of its text), with an `error`
 * that is not an error object, or with a result that is not a tools/call result
 * (`toolResultProblem`: not an object, `content` not an array, an item not an object, a text
 * item without string text) — becomes `response.invalid` after dispatch
 * (`mutationPossible` for a mutating call). The envelope carries the request's id and
 * correlation id. Pure; never throws.
 */
export function fromMcpResponse(message: JsonRpcResponse, request: GlassRequest): GlassResponse {
  const { operation, payload } = request;
  const mutating = requiresLease(operation, payload);
  const problem = answerProblem(message);
  if (problem !== undefined) return responseEnvelope(request, false, responseInvalid(operation, [problem], mutating));
  if ("error" in message) return responseEnvelope(request, false, jsonRpcErrorToGlass(message.error, mutating));
  const malformed = toolResultProblem(message.result);
  if (malformed !== undefined)
    return responseEnvelope(request, false, responseInvalid(operation, [malformed], mutating));
  const result = message.result as Record<string, unknown>;
  if (result.isError !== true) {
    const body = liftToolResult(result, { resultText: describeOperation(operation)?.resultText === true });
    const deep = pathPastDepth(body, "result");
    return deep === undefined
      ? responseEnvelope(request, true, body)
      : responseEnvelope(
          request,
          false,
          responseInvalid(operation, [{ path: deep, reason: TOO_DEEP_REASON }], mutating),
        );
  }
  const content: readonly unknown[] = Array.isArray(result.content) ? result.content : [];
  const first = content.findIndex(
    (item) => isJsonObject(item) && item.type === "text" && typeof item.text === "string",
  );
  const text = first === -1 ? "" : (content[first] as { text: string }).text;
  const others = content.filter((_, index) => index !== first);
  return responseEnvelope(request, false, liftToolError(text, { tool: toolFor(operation), mutating }, others));
}
