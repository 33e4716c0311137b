import type { GlassResponse } from "../envelope/envelope-types.js";
import type { McpToolResult } from "../mcp/json-rpc.js";
import { utf8Length } from "../validation/byte-length.js";
import { isJsonObject } from "../validation/json-value.js";

/** Error details of these kinds travel as the tool failure's text itself (§2). */
const DOCUMENT_FAILURE_KINDS = new Set(["taskValidation", "taskCompilation", "webIrValidation"]);

/** Compact JSON texts of frozen fixture values, computed once each. */
const textCache = new WeakMap<object, string>();

function compactJson(value: unknown): string {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return JSON.stringify(value) ?? "null";
  let text = textCache.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    textCache.set(value, text);
  }
  return text;
}

/**
 * The MCP `tools/call` result that carries a Glass response, as the daemon writes it (§2):
 *
 * - success: one text item with the compact JSON of the result, and
 *   `_meta.contextCost {payloadBytes, estimatedTokens}` (UTF-8 bytes of the text, and a quarter of
 *   that rounded up); no `structuredContent`;
 * - failure: `isError: true` and one text item holding the error's `details` when they are a
 *   browser-free document failure `{kind: taskValidation | taskCompilation | webIrValidation, …}`,
 *   or else the error object itself. With `includeTrace` a second text item holds a trace.
 */
export function toMcpToolResult(response: GlassResponse, options: { includeTrace?: boolean } = {}): McpToolResult {
  if (response.ok) {
    const text = compactJson(response.result);
    const payloadBytes = utf8Length(text);
    return {
      content: [{ type: "text", text }],
      _meta: { contextCost: { payloadBytes, estimatedTokens: Math.ceil(payloadBytes / 4) } },
    };
  }
  const { details } = response.error;
  const documentFailure = isJsonObject(details) && typeof details.kind === "string" && DOCUMENT_FAILURE_KINDS.has(details.kind);
  const content: McpToolResult["content"] = [{ type: "text", text: compactJson(documentFailure ? details : response.error) }];
  if (options.includeTrace === true) {
    content.push({ type: "text", text: JSON.stringify({ trace: [{ step: "replay", outcome: response.error.code }] }) });
  }
  return { content, isError: true };
}
