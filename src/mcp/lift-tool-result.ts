import { isJsonObject } from "../validation/json-value.js";

/** How the daemon's text is read: as JSON (the default), or as plain text never parsed (`getText`). */
export interface LiftOptions {
  /** The operation's catalog flag `resultText`: the first text item is the result `{text}` as sent. */
  resultText?: boolean;
}

/** The image of a result, as the daemon sent it: base64 `data` and its `mimeType`. */
export interface LiftedImage {
  data: string;
  mimeType: string;
}

/** A text content item (`{type: "text", text}`), the kind the body comes from. */
function isTextItem(item: unknown): item is { type: "text"; text: string } {
  return isJsonObject(item) && item.type === "text" && typeof item.text === "string";
}

/** An image content item (`{type: "image", data, mimeType}`). */
function isImageItem(item: unknown): item is { type: "image"; data: string; mimeType: string } {
  return (
    isJsonObject(item) && item.type === "image" && typeof item.data === "string" && typeof item.mimeType === "string"
  );
}

/**
 * The body a text item stands for: `{text}` for an operation that answers in plain text; else the
 * parsed JSON when it is an object, `{result: value}` for any other JSON value (array, string,
 * number, boolean, null — the shape the daemon's response modes give arrays), and `{text}` for
 * text that is not JSON.
 */
function bodyOfText(text: string, options: LiftOptions): Record<string, unknown> {
  if (options.resultText === true) return { text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text };
  }
  return isJsonObject(parsed) ? parsed : { result: parsed };
}

/**
 * Lifts a successful MCP `tools/call` result (`isError` not true) to the Glass result, by the one
 * rule every part of glass-sdk follows:
 *
 * 1. the body comes from the first `text` item ({@link bodyOfText}); with no text item at all, from
 *    `structuredContent` when it is an object, else `{}`;
 * 2. the first `image` item becomes `body.image = {data, mimeType}` (base64 as sent);
 * 3. every other content item — a second text, a second image, audio, a resource, anything — is
 *    kept as sent, in order, in `body.extraContent` (present only when there is one);
 * 4. `_meta` (the daemon's context cost) is not part of the result.
 *
 * So `getText` gives `{text}`, `cookies` `{result: Cookie[]}`, `screenshot` its metadata plus
 * `image`. Nothing the daemon sends in `content` is lost. Pure; the result is a fresh object.
 */
export function liftToolResult(result: Record<string, unknown>, options: LiftOptions = {}): Record<string, unknown> {
  const content: readonly unknown[] = Array.isArray(result.content) ? result.content : [];
  let body: Record<string, unknown> | undefined;
  let image: LiftedImage | undefined;
  const extraContent: unknown[] = [];
  for (const item of content) {
    if (body === undefined && isTextItem(item)) body = bodyOfText(item.text, options);
    else if (image === undefined && isImageItem(item)) image = { data: item.data, mimeType: item.mimeType };
    else extraContent.push(item);
  }
  if (body === undefined) body = isJsonObject(result.structuredContent) ? { ...result.structuredContent } : {};
  if (image !== undefined) body.image = image;
  if (extraContent.length > 0) body.extraContent = extraContent;
  return body;
}
