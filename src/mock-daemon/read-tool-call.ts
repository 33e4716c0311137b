import type { GlassRequest } from "../envelope/envelope-types.js";
import type { JsonRpcId } from "../mcp/json-rpc.js";
import { operationFor } from "../operations/catalog.js";
import { utf8Length } from "../validation/byte-length.js";
import type { JsonValue } from "../validation/json-value.js";
import { isJsonObject } from "../validation/json-value.js";
import { isIdentifierText } from "../validation/text-patterns.js";
import { asDaemonDecodes } from "./web-ir-leniency.js";

/** Fields of `params.arguments` that belong to MCP, not to the canonical payload (§2). */
export const MCP_ONLY_ARGUMENTS: ReadonlySet<string> = new Set([
  "sessionId",
  "mutationLease",
  "leaseToken",
  "responseMode",
  "includeTrace",
]);

/** Tool names the daemon also answers to, and the tool each one is (§7). */
const TOOL_ALIASES: ReadonlyMap<string, string> = new Map([
  ["dom", "getDOM"],
  ["text", "getText"],
]);

/**
 * The top-level payload keys of the browser-free operations (§2): the daemon rebuilds their typed
 * payload from these and drops any other top-level key (`draft` is what older daemons took for
 * `ir`, kept so that fixtures recorded against them still match).
 */
const BROWSER_FREE_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ["webIr.inspect", ["ir", "draft"]],
  ["webIr.validate", ["ir", "draft"]],
  ["webIr.diff", ["before", "after"]],
  ["webIr.continuity", ["before", "after", "entityId"]],
  ["task.validate", ["task"]],
  ["task.compile", ["task", "ir", "draft"]],
  ["task.execute", ["task", "expectedRevision", "confirmed"]],
]);

/** The longest identifier, in UTF-8 bytes (§1). */
const MAX_IDENTIFIER_BYTES = 128;

/** A `tools/call` read as the Glass request it carries. */
export interface ToolCall {
  /** `params.name`, as sent. */
  tool: string;
  /** `params.arguments` as sent (an empty object when absent). */
  arguments: Record<string, unknown>;
  /** Whether `params.arguments` was present at all. */
  argumentsSent: boolean;
  /**
   * The Glass request: the JSON-RPC id as `requestId` (a string as it is, a number as its JSON
   * text, a null id as `"null"`), the operation of the tool (aliases resolved; `browser.<tool>`
   * outside the catalog), and the canonical payload — for a browser-free tool only its own
   * top-level keys, for a browser tool the arguments without the MCP-only fields — with
   * `sessionId`/`mutationLease` when the arguments carry them.
   */
  request: GlassRequest;
  /** The lease token sent: `mutationLease.token` if it is a string, else `leaseToken` if it is one. */
  leaseToken: string | undefined;
  /** Whether any lease context (`mutationLease` or `leaseToken`) was sent. */
  carriesLease: boolean;
  /** Whether the caller asked for a failure trace. */
  includeTrace: boolean;
}

/** Whether `text` is a Glass identifier (§1): non-empty, ≤ 128 UTF-8 bytes, no whitespace or control characters. */
export function isIdentifier(text: string): boolean {
  return (
    isIdentifierText(text) && (text.length * 3 <= MAX_IDENTIFIER_BYTES || utf8Length(text) <= MAX_IDENTIFIER_BYTES)
  );
}

/**
 * Reads the params of a `tools/call` (§2) sent with `id` (`undefined` for one sent as a
 * notification). Returns the reason they are unusable — the message of a -32602 answer — when a
 * string id is not an identifier, `name` is missing or not a string, `arguments` is present but
 * not an object, or a string `arguments.sessionId` is not an identifier or differs from
 * `arguments.mutationLease.sessionId`. Everything else about the arguments is the tool's business.
 */
export function readToolCall(id: JsonRpcId | null | undefined, params: unknown): ToolCall | string {
  if (typeof id === "string" && !isIdentifier(id)) {
    return "the id of a tools/call must be an identifier: non-empty, at most 128 UTF-8 bytes, no whitespace or control characters";
  }
  if (!isJsonObject(params) || typeof params.name !== "string")
    return "tools/call needs params.name, the name of a tool";
  const argumentsSent = params.arguments !== undefined;
  const args = argumentsSent ? params.arguments : {};
  if (!isJsonObject(args)) return "params.arguments of tools/call must be an object";
  const { sessionId, mutationLease, leaseToken } = args;
  const lease = isJsonObject(mutationLease) ? mutationLease : undefined;
  if (typeof sessionId === "string") {
    if (!isIdentifier(sessionId)) return "arguments.sessionId must be an identifier";
    if (typeof lease?.sessionId === "string" && lease.sessionId !== sessionId)
      return "arguments.sessionId must equal arguments.mutationLease.sessionId";
  }
  const tool = TOOL_ALIASES.get(params.name) ?? params.name;
  const operation = operationFor(tool);
  const request: GlassRequest = {
    protocolVersion: 1,
    requestId: requestIdFor(id),
    operation,
    payload: canonicalPayload(operation, args),
  };
  if (typeof sessionId === "string") request.sessionId = sessionId;
  if (typeof lease?.sessionId === "string" && typeof lease.token === "string")
    request.mutationLease = { sessionId: lease.sessionId, token: lease.token };
  return {
    tool: params.name,
    arguments: args,
    argumentsSent,
    request,
    leaseToken:
      typeof lease?.token === "string" ? lease.token : typeof leaseToken === "string" ? leaseToken : undefined,
    carriesLease: mutationLease !== undefined || leaseToken !== undefined,
    includeTrace: args.includeTrace === true,
  };
}

/** The Glass `requestId` of a call sent with `id` (§2): a string as it is, a number as its JSON text, `"null"`, or `"notification"` for none. */
export function requestIdFor(id: JsonRpcId | null | undefined): string {
  return id === undefined ? "notification" : id === null ? "null" : typeof id === "number" ? JSON.stringify(id) : id;
}

function canonicalPayload(operation: string, args: Record<string, unknown>): Record<string, JsonValue> {
  const payload: Record<string, JsonValue> = {};
  const keys = BROWSER_FREE_KEYS.get(operation);
  if (keys !== undefined) {
    for (const key of keys) if (args[key] !== undefined) payload[key] = args[key] as JsonValue;
    return asDaemonDecodes(operation, payload);
  }
  for (const [key, value] of Object.entries(args)) {
    if (!MCP_ONLY_ARGUMENTS.has(key)) payload[key] = value as JsonValue;
  }
  return payload;
}
