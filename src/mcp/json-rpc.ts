import type { JsonValue } from "../validation/json-value.js";

/** A JSON-RPC 2.0 request id: MCP allows strings and numbers. */
export type JsonRpcId = string | number;

/**
 * A string key for a JSON-RPC id that keeps `1` and `"1"` apart, for records and logs keyed by id.
 * (A `Map` keyed by the id itself keeps them apart too.)
 */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}

/** A JSON-RPC 2.0 request (expects a response). */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: { [key: string]: unknown };
}

/** A JSON-RPC 2.0 notification (no id, no response). */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown };
}

/** The error member of a failed JSON-RPC response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful JSON-RPC 2.0 response. */
export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: { [key: string]: unknown };
}

/** A failed JSON-RPC 2.0 response (`id` is null for a parse error). */
export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** A JSON-RPC 2.0 response. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Any JSON-RPC 2.0 message a transport carries. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** JSON-RPC and MCP error codes the Glass daemon uses (§2 of the protocol). */
export const JsonRpcErrorCode = {
  /** Parse error (id null). */
  ParseError: -32700,
  /** Invalid request: bad jsonrpc/id, a second initialize, a duplicate active id, workflow already active. */
  InvalidRequest: -32600,
  /** Method not found. */
  MethodNotFound: -32601,
  /** Invalid params; Glass negotiation failed; unsupported MCP protocol version. */
  InvalidParams: -32602,
  /** Internal error. */
  InternalError: -32603,
  /** Not initialized: a request before notifications/initialized. */
  NotInitialized: -32002,
  /** Mutation lease required, or another lease error (the lease code in `data.details.code`). */
  LeaseError: -32003,
  /** The response would exceed 32 MiB; sent with the request's id instead of the result. */
  ResponseTooLarge: -32001,
  /** Overloaded: a limit was reached; retry later. */
  Overloaded: -32000,
  /** Request cancelled (after notifications/cancelled). */
  RequestCancelled: -32800,
} as const;

/**
 * MCP methods that only read, so that sending one again cannot repeat a side effect: the client
 * retries them on overload, and the HTTP transport sends them again in a new session.
 */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set(["ping", "tools/list", "prompts/list", "resources/list"]);

/** True for a value a JSON-RPC id may be: a string or a finite number. */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * True for a JSON object with `jsonrpc: "2.0"`: the shape every JSON-RPC message has, as a transport
 * checks what it reads (whoever handles the message checks the rest).
 */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === "2.0"
  );
}

/**
 * A successful JSON-RPC 2.0 response. Its id is the one given: a server answers a request whose id
 * was null with id null.
 */
export function jsonRpcSuccess<Id extends JsonRpcId | null>(
  id: Id,
  result: { [key: string]: unknown },
): Omit<JsonRpcSuccess, "id"> & { id: Id } {
  return { jsonrpc: "2.0", id, result };
}

/**
 * A failed JSON-RPC 2.0 response: `id` is null when the request's id is not known (a parse error)
 * or cannot be used; `data` is left out when not given.
 */
export function jsonRpcFailure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** True for a message that is a request (has an id and a method). */
export function isJsonRpcRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message && message.id !== undefined;
}

/** True for a message that is a notification (a method, no id). */
export function isJsonRpcNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

/** True for a message that is a response (no method). */
export function isJsonRpcResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}

/** The text content item MCP tool results carry. */
export interface McpTextContent {
  type: "text";
  text: string;
}

/** The result of an MCP `tools/call`. */
export interface McpToolResult {
  content: (McpTextContent | { type: string; [key: string]: unknown })[];
  isError?: boolean;
  structuredContent?: JsonValue;
  _meta?: { [key: string]: unknown };
}

/**
 * How one JSON-RPC message is framed on a byte stream (stdio, a Unix socket): a JSON line, or a
 * `Content-Length` header and body.
 */
export type Framing = "newline" | "content-length";
