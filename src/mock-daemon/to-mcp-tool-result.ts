import type { GlassResponse } from "../envelope/envelope-types.js";
import type { McpToolResult } from "../mcp/json-rpc.js";
import { describeOperation } from "../operations/catalog.js";
import { utf8Length } from "../validation/byte-length.js";
import { isJsonObject } from "../validation/json-value.js";

/** Error details of these kinds travel as the tool failure's text itself (§2). */
const DOCUMENT_FAILURE_KINDS = new Set(["taskValidation", "taskCompilation", "webIrValidation"]);

/** The text the daemon answers every untyped tool failure with, the reason dropped (§2). */
export const BROWSER_TOOL_FAILED = "browser tool failed";

/** The operation whose answer carries no `_meta` (the daemon sends none with a screenshot). */
const NO_META_OPERATION = "browser.screenshot";

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

/** Options of {@link toMcpToolResult}. */
export interface ToMcpToolResultOptions {
  /** The operation answered: decides plain-text results (`resultText`) and the screenshot's missing `_meta`. */
  operation?: string;
  /** Add a second text item with a failure trace to a failure. */
  includeTrace?: boolean;
}

/**
 * The MCP `tools/call` result that carries a Glass response, as the daemon writes it (§2) — the
 * inverse of the client's lifting rule:
 *
 * - success: the first item is text — `result.text` as it is for an operation whose catalog entry
 *   has `resultText` (getText), else the compact JSON of the result, where a result that is an
 *   object with the single key `result` sends `result.result` (an array or other JSON value) and
 *   the keys `image` and `extraContent` are left out; `image {data, mimeType}` follows as an image
 *   item, then the items of `extraContent` as they are. `_meta.contextCost {payloadBytes,
 *   estimatedTokens}` (UTF-8 bytes of the text, and a quarter of that rounded up) comes with every
 *   text result except a screenshot's; never `structuredContent`;
 * - failure: `isError: true` and one text item holding the error's `details` when they are a
 *   browser-free document failure `{kind: taskValidation | taskCompilation | webIrValidation, …}`,
 *   or else the error object itself. With `includeTrace` a second text item holds a trace.
 */
export function toMcpToolResult(response: GlassResponse, options: ToMcpToolResultOptions = {}): McpToolResult {
  if (!response.ok) {
    const { details } = response.error;
    const documentFailure =
      isJsonObject(details) && typeof details.kind === "string" && DOCUMENT_FAILURE_KINDS.has(details.kind);
    return toolFailure(
      compactJson(documentFailure ? details : response.error),
      response.error.code,
      options.includeTrace === true,
    );
  }
  const { text, more } = successContent(response.result, options.operation);
  const content: McpToolResult["content"] = [{ type: "text", text }, ...more];
  if (options.operation === NO_META_OPERATION) return { content };
  const payloadBytes = utf8Length(text);
  return { content, _meta: { contextCost: { payloadBytes, estimatedTokens: Math.ceil(payloadBytes / 4) } } };
}

/**
 * A tool failure as the daemon sends it: `isError`, the text, no `_meta`; with `includeTrace` a
 * second text item holding a trace that names `outcome`.
 */
export function toolFailure(text: string, outcome: string, includeTrace: boolean): McpToolResult {
  const content: McpToolResult["content"] = [{ type: "text", text }];
  if (includeTrace) content.push({ type: "text", text: JSON.stringify({ trace: [{ step: "replay", outcome }] }) });
  return { content, isError: true };
}

function successContent(
  result: unknown,
  operation: string | undefined,
): { text: string; more: McpToolResult["content"] } {
  if (!isJsonObject(result)) return { text: compactJson(result), more: [] };
  if (operation !== undefined && describeOperation(operation)?.resultText === true && typeof result.text === "string") {
    return { text: result.text, more: [] };
  }
  const { image, extraContent } = result;
  const sendsImage = isJsonObject(image) && typeof image.data === "string" && typeof image.mimeType === "string";
  const sendsExtra = Array.isArray(extraContent) && extraContent.every(isJsonObject);
  if (!sendsImage && !sendsExtra) return { text: compactJson(bodyText(result)), more: [] };
  const rest: Record<string, unknown> = { ...result };
  const more: McpToolResult["content"] = [];
  if (sendsImage) {
    delete rest.image;
    more.push({ type: "image", data: image.data, mimeType: image.mimeType });
  }
  if (sendsExtra) {
    delete rest.extraContent;
    more.push(...(extraContent as McpToolResult["content"]));
  }
  return { text: compactJson(bodyText(rest)), more };
}

/** What the text carries for a result object: `result.result` when `result` is its only key, else the object. */
function bodyText(result: Record<string, unknown>): unknown {
  let only: string | undefined;
  for (const key in result) {
    if (only !== undefined) return result;
    only = key;
  }
  return only === "result" ? result.result : result;
}
