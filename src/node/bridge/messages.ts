/**
 * The JSON-RPC messages the bridge relays: what a client sent, parsed and sorted (or the error it
 * is answered with), and what goes to a client, written as JSON text within bounds.
 */
import {
  JsonRpcErrorCode,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../mcp/json-rpc.js";
import { isJsonObject } from "../../validation/json-value.js";
import { FrameLimits } from "../framing/frame-limits.js";

/** One message from a bridge client, sorted by what the bridge does with it. */
export type ClientMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

/** A client message, or why it cannot be forwarded (answered with this JSON-RPC error). */
export type ParsedClientMessage = ClientMessage | { kind: "invalid"; error: JsonRpcFailure };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses what a client sent (an HTTP body or a WebSocket text frame): one JSON-RPC 2.0 message,
 * as an object. Invalid UTF-8 or JSON → -32700; a batch (an array) → -32600, since the daemon does
 * not take batches and MCP dropped them; anything else that is not a JSON-RPC message → -32600.
 */
export function parseClientMessage(data: Uint8Array | string): ParsedClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(typeof data === "string" ? data : utf8.decode(data));
  } catch {
    return invalid(null, JsonRpcErrorCode.ParseError, "parse error: the message is not valid UTF-8 JSON");
  }
  if (Array.isArray(value))
    return invalid(
      null,
      JsonRpcErrorCode.InvalidRequest,
      "JSON-RPC batches are not supported: send one message at a time",
    );
  if (!isJsonObject(value) || value.jsonrpc !== "2.0")
    return invalid(
      null,
      JsonRpcErrorCode.InvalidRequest,
      'invalid request: expected a JSON-RPC 2.0 message object (jsonrpc: "2.0")',
    );
  const hasId = Object.hasOwn(value, "id");
  const id = value.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (typeof value.method === "string") {
    if (value.params !== undefined && !isJsonObject(value.params)) {
      return invalid(validId ? id : null, JsonRpcErrorCode.InvalidRequest, "invalid request: params must be an object");
    }
    if (!hasId) return { kind: "notification", message: value as unknown as JsonRpcNotification };
    if (!validId)
      return invalid(null, JsonRpcErrorCode.InvalidRequest, "invalid request: id must be a string or a number");
    return { kind: "request", message: value as unknown as JsonRpcRequest };
  }
  if (value.method === undefined && validId && (Object.hasOwn(value, "result") || Object.hasOwn(value, "error"))) {
    return { kind: "response", message: value as unknown as JsonRpcResponse };
  }
  return invalid(
    validId ? id : null,
    JsonRpcErrorCode.InvalidRequest,
    "invalid request: a message needs a method (request, notification) or a result or error (response)",
  );
}

/** A JSON-RPC error response. */
export function rpcErrorResponse(id: JsonRpcId | null, code: number, message: string): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function invalid(id: JsonRpcId | null, code: number, message: string): ParsedClientMessage {
  return { kind: "invalid", error: rpcErrorResponse(id, code, message) };
}

/** The largest message the bridge relays to a client: the daemon's own response limit (32 MiB). */
export const MAX_RELAYED_BYTES: number = FrameLimits.maxResponseBytes;

/** A message as it goes to a client (its JSON text and that text's UTF-8 length), or why it cannot go. */
export type RelayText = { ok: true; text: string; bytes: number } | { ok: false; problem: string };

/**
 * The JSON text of a message for a client. A message the daemon sent may have no text within
 * bounds: nested so deeply that serialising it exhausts the call stack (the frame reader parses
 * any depth; `JSON.stringify` does not write it back), or larger than {@link MAX_RELAYED_BYTES}
 * once serialised. Never throws: that is reported as the problem, for the caller to fail the one
 * call (or the one connection) it belongs to.
 */
export function relayText(message: JsonRpcMessage): RelayText {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    return { ok: false, problem: unserialisable(error) };
  }
  if (text === undefined) return { ok: false, problem: "it has no JSON form" };
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_RELAYED_BYTES)
    return { ok: false, problem: `it is ${bytes} bytes, over the ${MAX_RELAYED_BYTES} bytes the bridge relays` };
  return { ok: true, text, bytes };
}

/** What a client gets for its request when the daemon's answer to it cannot be relayed (-32603, with its id). */
export function unrelayableAnswer(id: JsonRpcId | null, problem: string): JsonRpcFailure {
  return rpcErrorResponse(id, JsonRpcErrorCode.InternalError, `the daemon's answer could not be relayed: ${problem}`);
}

function unserialisable(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return "it is nested too deeply to serialise";
  return `it cannot be serialised (${error instanceof Error ? error.message : String(error)})`;
}
