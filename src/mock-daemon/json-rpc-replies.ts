import {
  isJsonRpcId,
  jsonRpcFailure,
  jsonRpcSuccess,
  JsonRpcErrorCode,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from "../mcp/json-rpc.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { utf8Length } from "../validation/byte-length.js";

/** The id of an answer: the request's id, or null (a null id, or one that could not be read). */
export type ReplyId = JsonRpcId | null;

/** A successful answer of the daemon (a request with a null id is answered with id null). */
export interface RpcSuccess {
  jsonrpc: "2.0";
  id: ReplyId;
  result: { [key: string]: unknown };
}

/** An answer of the daemon. */
export type RpcReply = RpcSuccess | JsonRpcFailure;

/** Anything the daemon writes to a client: answers, its own requests, and `notifications/cancelled` for one of them. */
export type DaemonMessage = RpcReply | JsonRpcRequest | JsonRpcNotification;

/**
 * The `error.data` every JSON-RPC error of the daemon carries (§2): a canonical `code`, the fixed
 * preflight advice, the message, and `details` (lease errors: `{code, retryable}`; otherwise null).
 */
export interface RpcErrorData {
  code: string;
  phase: "preflight";
  message: string;
  mutationPossible: false;
  retry: { classification: "safeAfterReobserve"; recommendedOperation: "inspect_page" };
  details: unknown;
}

/** A JSON-RPC error the daemon answers with, before it is addressed to a request. */
export interface RpcError {
  /** The JSON-RPC error code (§2). */
  code: number;
  /** What went wrong, in words (at most 512 UTF-8 bytes). */
  message: string;
  /** The daemon's wrapper. */
  data: RpcErrorData;
}

/** `data.code` of each JSON-RPC error code; any other code is `protocol.error`. */
const CANONICAL_CODES: ReadonlyMap<number, string> = new Map([
  [JsonRpcErrorCode.InvalidRequest, "protocol.invalidRequest"],
  [JsonRpcErrorCode.MethodNotFound, "protocol.methodNotFound"],
  [JsonRpcErrorCode.InvalidParams, "protocol.invalidParams"],
  [JsonRpcErrorCode.InternalError, "protocol.internal"],
  [JsonRpcErrorCode.RequestCancelled, "protocol.cancelled"],
  [JsonRpcErrorCode.LeaseError, "policy.mutationLease"],
  [JsonRpcErrorCode.NotInitialized, "protocol.notInitialized"],
  [JsonRpcErrorCode.Overloaded, "resource.busy"],
]);

/** The longest message, in UTF-8 bytes. */
export const MAX_ERROR_MESSAGE_BYTES = 512;
/** The largest `details`, in UTF-8 bytes of its JSON; larger ones are replaced by a note of their size. */
export const MAX_ERROR_DETAILS_BYTES = 16 * 1024;

/**
 * A JSON-RPC error with the daemon's `data` wrapper (§2): `data.code` is the canonical name of
 * `code`, the message is cut to 512 bytes, and `details` over 16 KiB become
 * `{truncated: true, originalBytes, maxBytes}`.
 */
export function rpcError(code: number, message: string, details: unknown = null): RpcError {
  const text = truncateUtf8(message, MAX_ERROR_MESSAGE_BYTES);
  return {
    code,
    message: text,
    data: {
      code: CANONICAL_CODES.get(code) ?? "protocol.error",
      phase: "preflight",
      message: text,
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      details: boundedDetails(details),
    },
  };
}

function boundedDetails(details: unknown): unknown {
  if (details === null || details === undefined) return null;
  const originalBytes = utf8Length(JSON.stringify(details));
  return originalBytes > MAX_ERROR_DETAILS_BYTES
    ? { truncated: true, originalBytes, maxBytes: MAX_ERROR_DETAILS_BYTES }
    : details;
}

/** A successful JSON-RPC response. */
export function rpcResult(id: ReplyId, result: { [key: string]: unknown }): RpcSuccess {
  return jsonRpcSuccess(id, result);
}

/** A failed JSON-RPC response (`id` null when the request's id was null or could not be read). */
export function rpcFailure(id: ReplyId, error: RpcError): JsonRpcFailure {
  return jsonRpcFailure(id, error.code, error.message, error.data);
}

/** `id` when it is a JSON-RPC id the daemon serves (a string, a finite number or null), else `undefined`. */
export function usableId(id: unknown): ReplyId | undefined {
  return id === null || isJsonRpcId(id) ? id : undefined;
}
