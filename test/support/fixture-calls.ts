import { operations } from "../../src/operations/catalog.js";
import type { GlassRequest, GlassResponse } from "glass-sdk";

const catalog: Record<string, { tool: string }> = operations;

/** The tools/call params that carry a fixture request (§2): its tool, its payload plus its lease context. */
export function fixtureToolCall(
  request: GlassRequest,
  lease?: { sessionId: string; token: string },
): { name: string; arguments: Record<string, unknown> } {
  const name = catalog[request.operation]?.tool ?? request.operation.replace(/^browser\./, "");
  const args: Record<string, unknown> = { ...(request.payload as Record<string, unknown>) };
  const mutationLease = lease ?? request.mutationLease;
  if (mutationLease !== undefined) {
    args.sessionId = mutationLease.sessionId;
    args.mutationLease = mutationLease;
  } else if (request.sessionId !== undefined) {
    args.sessionId = request.sessionId;
  }
  return { name, arguments: args };
}

/**
 * The MCP tool result the wire conventions give for a recorded response of `operation`, written out
 * independently of the daemon's code (§2 and the lifting rule, inverted): a success is one text
 * item — the page text of a plain-text operation (getText), the JSON of `result.result` when that is
 * the result's only key, else the compact JSON of the result without `image` and `extraContent` —
 * then the image item and the extra items, with its context cost (not for a screenshot); a failure
 * is `isError` with the details of a document failure, or else the error object.
 */
export function expectedToolResult(response: GlassResponse, operation?: string): Record<string, unknown> {
  if (!response.ok) {
    const details = response.error.details as { kind?: string } | undefined;
    const documentFailure = ["taskValidation", "taskCompilation", "webIrValidation"].includes(details?.kind ?? "");
    return {
      content: [{ type: "text", text: JSON.stringify(documentFailure ? details : response.error) }],
      isError: true,
    };
  }
  const result = response.result as Record<string, unknown>;
  const content: Record<string, unknown>[] = [];
  if (operation === "browser.getText") {
    content.push({ type: "text", text: result.text });
  } else {
    const { image, extraContent, ...rest } = result as {
      image?: { data: string; mimeType: string };
      extraContent?: Record<string, unknown>[];
    };
    const body =
      Object.keys(rest).length === 1 && "result" in rest
        ? rest.result
        : image === undefined && extraContent === undefined
          ? result
          : rest;
    content.push({ type: "text", text: JSON.stringify(body) });
    if (image !== undefined) content.push({ type: "image", data: image.data, mimeType: image.mimeType });
    content.push(...(extraContent ?? []));
  }
  if (operation === "browser.screenshot") return { content };
  const payloadBytes = Buffer.byteLength(content[0]!.text as string, "utf8");
  return { content, _meta: { contextCost: { payloadBytes, estimatedTokens: Math.ceil(payloadBytes / 4) } } };
}
