import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { type GlassErrorCode, LeaseErrorCode } from "../errors/error-codes.js";
import { isJsonObject } from "../validation/json-value.js";
import { boundedDetails, MAX_DETAILS_BYTES } from "./bounded-details.js";
import { JsonRpcErrorCode, type JsonRpcErrorObject } from "./json-rpc.js";
import { truncateUtf8 } from "./utf8-truncate.js";
import { boundedDaemonMessage } from "./daemon-message.js";

/** The SDK's codes for JSON-RPC protocol errors (a Map: the code is the daemon's, looked up as it came). */
const PROTOCOL_CODES: ReadonlyMap<unknown, GlassErrorCode> = new Map<unknown, GlassErrorCode>([
  [JsonRpcErrorCode.ParseError, "mcp.parseError"],
  [JsonRpcErrorCode.InvalidRequest, "mcp.invalidRequest"],
  [JsonRpcErrorCode.MethodNotFound, "mcp.methodNotFound"],
  [JsonRpcErrorCode.InvalidParams, "mcp.invalidParams"],
]);

const LEASE_CODES: ReadonlySet<string> = new Set(Object.values(LeaseErrorCode));
/** Lease codes after which a new lease can be acquired (§2): the lease is held by another client, expired or gone. */
const RETRYABLE_LEASE_CODES: ReadonlySet<string> = new Set([
  LeaseErrorCode.LeaseHeld,
  LeaseErrorCode.LeaseExpired,
  LeaseErrorCode.LeaseNotFound,
]);

/** What a -32003 error says: the lease code and whether acquiring a lease can help. */
interface LeaseProblem {
  code: string;
  retryable: boolean;
}

/**
 * Reads a -32003 error (§2): the daemon's wrapper `data` is `{code: "policy.mutationLease", ...,
 * details: {code, retryable}}`, with `details: null` for "mutation lease required". Older daemons
 * put the lease code (and `retryable`) directly in `data`; both are read.
 */
function leaseProblem(data: unknown): LeaseProblem {
  const wrapper = isJsonObject(data) ? data : {};
  const details = isJsonObject(wrapper.details) ? wrapper.details : undefined;
  const fromDetails = typeof details?.code === "string" && details.code !== "" ? details.code : undefined;
  const fromData = typeof wrapper.code === "string" && LEASE_CODES.has(wrapper.code) ? wrapper.code : undefined;
  const code = fromDetails ?? fromData ?? "leaseRequired";
  const flag = details !== undefined && fromDetails !== undefined ? details.retryable : wrapper.retryable;
  const retryable = typeof flag === "boolean" ? flag : code === "leaseRequired" || RETRYABLE_LEASE_CODES.has(code);
  return { code: truncateUtf8(code, 64), retryable };
}

/**
 * Maps a JSON-RPC error (§2's code table) to a Glass error object.
 *
 * - -32003: a lease problem (`leaseProblem`): `leaseRequired` is safe to send again once a
 *   lease is held; `leaseHeld`, `leaseExpired` and `leaseNotFound` after acquiring one and
 *   re-observing (another client may have acted meanwhile); `leaseNotOwner` and `invalidLease` are
 *   not retryable.
 * - -32000 `overloaded` (retry later), -32002 `notInitialized`, -32800 `cancelled`.
 * - -32001 `response.tooLarge`: the answer would have exceeded 32 MiB and was dropped; the action
 *   itself ran, so a mutating call may have changed the page.
 * - -32603 `mcp.internalError`; -32700, -32600, -32601, -32602 `mcp.*` (nothing happened).
 *
 * The daemon's wrapper `data` (`{code, phase, message, mutationPossible, retry, details}`, the same
 * defaults on every error) is kept in `details.data` beside `details.jsonRpcCode`; the client's own
 * judgement of phase, `mutationPossible` and retry — from the code and whether the call mutates —
 * goes first (the wrapper's own phase and retry are the protocol's defaults whatever the error);
 * only a wrapper saying `mutationPossible: true` changes it. Otherwise only a cancelled, failed or
 * oversized answer to a mutating call leaves `mutationPossible` true.
 */
export function jsonRpcErrorToGlass(given: JsonRpcErrorObject, mutating: boolean): GlassErrorObject {
  // Read as it came: a daemon may send anything, and this never throws.
  const error: Partial<JsonRpcErrorObject> = isJsonObject(given) ? given : {};
  const jsonRpcCode = typeof error.code === "number" ? error.code : undefined;
  const wrapper = isJsonObject(error.data) ? error.data : undefined;
  const said =
    typeof error.message === "string" && error.message !== ""
      ? error.message
      : typeof wrapper?.message === "string" && wrapper.message !== ""
        ? wrapper.message
        : "";
  const message = boundedDaemonMessage(said || `JSON-RPC error ${String(jsonRpcCode)}`);
  const details: Record<string, unknown> = { jsonRpcCode: jsonRpcCode ?? null };
  if (error.data !== undefined) details.data = boundedDetails(error.data, MAX_DETAILS_BYTES - 64);
  const daemonSaysMutated = wrapper?.mutationPossible === true;
  switch (jsonRpcCode) {
    case JsonRpcErrorCode.LeaseError: {
      const { code, retryable } = leaseProblem(error.data);
      const required = code === "leaseRequired";
      const classification = required ? "safeImmediate" : retryable ? "safeAfterReobserve" : "notRetryable";
      return {
        code,
        message: required
          ? boundedDaemonMessage(
              `${said || "mutation lease required"}: mutating calls on the daemon socket need the mutation lease (glass.withLease or glass.acquireLease)`,
            )
          : message,
        phase: "preflight",
        mutationPossible: false,
        retry: {
          classification,
          recommendedOperation: code === LeaseErrorCode.InvalidLease ? "fix_request" : "acquire_lease",
        },
        retryable,
        details,
      };
    }
    case JsonRpcErrorCode.Overloaded:
      return {
        code: "overloaded",
        message,
        phase: "preflight",
        mutationPossible: false,
        retry: { classification: "safeImmediate", recommendedOperation: "retry_later" },
        retryable: true,
        details,
      };
    case JsonRpcErrorCode.NotInitialized:
      return {
        code: "notInitialized",
        message,
        phase: "preflight",
        mutationPossible: false,
        retry: { classification: "safeImmediate", recommendedOperation: "initialize" },
        details,
      };
    case JsonRpcErrorCode.ResponseTooLarge: {
      const why = mutating
        ? "the action ran, but its answer would exceed the daemon's 32 MiB limit and was dropped — observe the page before deciding"
        : "the answer would exceed the daemon's 32 MiB limit and was dropped: ask for less (a smaller region or clip, responseMode minimal, a lower quality)";
      return {
        code: "response.tooLarge",
        message: boundedDaemonMessage(`${why} (${said || "response too large"})`),
        phase: "postDispatch",
        mutationPossible: mutating,
        retry: mutating
          ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }
          : { classification: "notRetryable", recommendedOperation: "narrow_request" },
        details,
      };
    }
    case JsonRpcErrorCode.RequestCancelled:
      return {
        code: "cancelled",
        message,
        phase: "dispatch",
        mutationPossible: mutating || daemonSaysMutated,
        retry: mutating
          ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }
          : { classification: "safeImmediate", recommendedOperation: "retry" },
        details,
      };
    case JsonRpcErrorCode.InternalError:
      return {
        code: "mcp.internalError",
        message,
        phase: mutating ? "dispatch" : "preflight",
        mutationPossible: mutating || daemonSaysMutated,
        retry: { classification: mutating ? "safeAfterReobserve" : "unknown", recommendedOperation: "inspect_page" },
        details,
      };
    default: {
      const code = PROTOCOL_CODES.get(jsonRpcCode);
      if (code !== undefined) {
        return {
          code,
          message,
          phase: "preflight",
          mutationPossible: daemonSaysMutated,
          retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
          details,
        };
      }
      return {
        code: truncateUtf8(`mcp.error${String(jsonRpcCode)}`, 64),
        message,
        phase: "dispatch",
        mutationPossible: mutating || daemonSaysMutated,
        retry: { classification: "unknown", recommendedOperation: "inspect_page" },
        details,
      };
    }
  }
}
