import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { isJsonObject } from "../validation/json-value.js";
import { JsonRpcErrorCode, type JsonRpcErrorObject } from "./json-rpc.js";
import { truncateUtf8 } from "./utf8-truncate.js";

const PROTOCOL_CODES: Record<number, string> = {
  [JsonRpcErrorCode.ParseError]: GlassErrorCode.ParseError,
  [JsonRpcErrorCode.InvalidRequest]: GlassErrorCode.InvalidRequest,
  [JsonRpcErrorCode.MethodNotFound]: GlassErrorCode.MethodNotFound,
  [JsonRpcErrorCode.InvalidParams]: GlassErrorCode.InvalidParams,
};

/**
 * Maps a JSON-RPC error (§2's code table) to a Glass error object. Lease errors (-32003) take the
 * daemon's `data.code` as their code (`leaseRequired` when it gives none); -32000 is `overloaded`,
 * -32002 `notInitialized`, -32800 `cancelled`; the rest are `mcp.*`. Only a cancelled or failed
 * mutating call may have reached the browser, so only then is `mutationPossible` true.
 */
export function jsonRpcErrorToGlass(error: JsonRpcErrorObject, mutating: boolean): GlassErrorObject {
  const message = truncateUtf8(typeof error.message === "string" && error.message !== "" ? error.message : `JSON-RPC error ${error.code}`, 512);
  const details: Record<string, unknown> = { jsonRpcCode: error.code };
  if (error.data !== undefined) details.data = error.data;
  switch (error.code) {
    case JsonRpcErrorCode.LeaseError: {
      const data = isJsonObject(error.data) ? error.data : {};
      const code = typeof data.code === "string" && data.code !== "" ? truncateUtf8(data.code, 64) : GlassErrorCode.LeaseRequired;
      const retryable = typeof data.retryable === "boolean" ? data.retryable : code === GlassErrorCode.LeaseRequired;
      return {
        code,
        message,
        phase: "preflight",
        mutationPossible: false,
        retry: { classification: retryable ? "safeImmediate" : "notRetryable", recommendedOperation: "acquire_lease" },
        retryable,
        details,
      };
    }
    case JsonRpcErrorCode.Overloaded:
      return { code: GlassErrorCode.Overloaded, message, phase: "preflight", mutationPossible: false, retry: { classification: "safeImmediate", recommendedOperation: "retry_later" }, retryable: true, details };
    case JsonRpcErrorCode.NotInitialized:
      return { code: GlassErrorCode.NotInitialized, message, phase: "preflight", mutationPossible: false, retry: { classification: "safeImmediate", recommendedOperation: "initialize" }, details };
    case JsonRpcErrorCode.RequestCancelled:
      return {
        code: GlassErrorCode.Cancelled,
        message,
        phase: "dispatch",
        mutationPossible: mutating,
        retry: mutating ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" } : { classification: "safeImmediate", recommendedOperation: "retry" },
        details,
      };
    case JsonRpcErrorCode.InternalError:
      return {
        code: GlassErrorCode.InternalError,
        message,
        phase: mutating ? "dispatch" : "preflight",
        mutationPossible: mutating,
        retry: { classification: mutating ? "safeAfterReobserve" : "unknown", recommendedOperation: "inspect_page" },
        details,
      };
    default: {
      const code = PROTOCOL_CODES[error.code];
      if (code !== undefined) {
        return { code, message, phase: "preflight", mutationPossible: false, retry: { classification: "notRetryable", recommendedOperation: "fix_request" }, details };
      }
      return { code: `mcp.error${error.code}`.slice(0, 64), message, phase: "dispatch", mutationPossible: mutating, retry: { classification: "unknown", recommendedOperation: "inspect_page" }, details };
    }
  }
}
