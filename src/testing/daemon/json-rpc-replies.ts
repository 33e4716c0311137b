import type { JsonRpcFailure, JsonRpcId, JsonRpcSuccess } from "../../mcp/json-rpc.js";

/** A JSON-RPC error the daemon answers with, before it is addressed to a request. */
export interface RpcError {
  /** The JSON-RPC error code (§2). */
  code: number;
  /** What went wrong, in words. */
  message: string;
  /** Structured data, e.g. `{code, retryable}` of a lease error. */
  data?: unknown;
}

/** A successful JSON-RPC response. */
export function rpcResult(id: JsonRpcId, result: { [key: string]: unknown }): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

/** A failed JSON-RPC response (`id` null when the request's id could not be read). */
export function rpcFailure(id: JsonRpcId | null, error: RpcError): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: error.data === undefined ? { code: error.code, message: error.message } : { ...error } };
}

/** `id` when it is usable as a JSON-RPC id (a string or a finite number), else `undefined`. */
export function usableId(id: unknown): JsonRpcId | undefined {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
}

/** Shorthand for an {@link RpcError}. */
export function rpcError(code: number, message: string, data?: unknown): RpcError {
  return data === undefined ? { code, message } : { code, message, data };
}
