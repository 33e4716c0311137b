import { operations } from "../../generated/operations.js";
import type { GlassRequest, GlassResponse } from "../../src/index.js";

const catalog: Record<string, { tool: string }> = operations;

/** The tools/call params that carry a fixture request (§2): its tool, its payload plus its lease context. */
export function fixtureToolCall(request: GlassRequest, lease?: { sessionId: string; token: string }): { name: string; arguments: Record<string, unknown> } {
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
 * The MCP tool result the wire conventions give for a recorded response, written out independently
 * of the daemon's code: a success is the compact result JSON with its context cost; a failure is
 * `isError` with the details of a document failure, or else the error object.
 */
export function expectedToolResult(response: GlassResponse): Record<string, unknown> {
  if (response.ok) {
    const text = JSON.stringify(response.result);
    const payloadBytes = Buffer.byteLength(text, "utf8");
    return { content: [{ type: "text", text }], _meta: { contextCost: { payloadBytes, estimatedTokens: Math.ceil(payloadBytes / 4) } } };
  }
  const details = response.error.details as { kind?: string } | undefined;
  const documentFailure = ["taskValidation", "taskCompilation", "webIrValidation"].includes(details?.kind ?? "");
  return { content: [{ type: "text", text: JSON.stringify(documentFailure ? details : response.error) }], isError: true };
}
