import { JsonRpcErrorCode } from "../mcp/json-rpc.js";
import { requiresLease } from "../operations/catalog.js";
import type { ToolCall } from "./read-tool-call.js";
import { isJsonObject } from "../validation/json-value.js";
import { rpcError, type RpcError } from "./json-rpc-replies.js";
import type { LeaseFailure, LeaseGrant, LeaseManager } from "./leases.js";

/** The lease methods of the daemon socket (§4). */
export const LEASE_METHODS: ReadonlySet<string> = new Set([
  "glass/lease/acquire",
  "glass/lease/renew",
  "glass/lease/release",
]);

/** The daemon's text for a mutating call without a lease token (-32003, details null). */
export const LEASE_REQUIRED_MESSAGE = "mutation lease required; call glass/lease/acquire first";

/** The shortest and longest lease, in ms (§4). */
const MIN_TTL_MS = 100;
const MAX_TTL_MS = 900_000;

/**
 * Runs `glass/lease/acquire {ttlMs}`, `glass/lease/renew {token, ttlMs}` or `glass/lease/release
 * {token}` for `clientId` (§4; other params are ignored): the result, or the error to answer with.
 * `ttlMs` missing or not a non-negative integer, or a missing token, is -32602; a `ttlMs` outside
 * 100..900000 is -32003 `invalidLease`; lease outcomes are -32003 with `details {code, retryable}`.
 */
export function handleLeaseMethod(
  leases: LeaseManager,
  clientId: string,
  method: string,
  params: unknown,
): { result: { [key: string]: unknown } } | { error: RpcError } {
  const args = isJsonObject(params) ? params : {};
  const { ttlMs, token } = args;
  // The daemon's own texts and order (glass-browser 0.3.14): the token first, then ttlMs.
  const needsTtl = method !== "glass/lease/release";
  if (method !== "glass/lease/acquire" && typeof token !== "string") {
    return { error: rpcError(JsonRpcErrorCode.InvalidParams, `${method} requires string token`) };
  }
  if (needsTtl && !(typeof ttlMs === "number" && Number.isSafeInteger(ttlMs) && ttlMs >= 0)) {
    return { error: rpcError(JsonRpcErrorCode.InvalidParams, `${method} requires numeric ttlMs`) };
  }
  if (needsTtl && ((ttlMs as number) < MIN_TTL_MS || (ttlMs as number) > MAX_TTL_MS)) {
    return {
      error: leaseError({
        code: "invalidLease",
        message: `invalid lease input: ttlMs must be ${MIN_TTL_MS}..=${MAX_TTL_MS}`,
        retryable: false,
      }),
    };
  }
  if (method === "glass/lease/acquire") return outcome(leases.acquire(clientId, ttlMs as number));
  if (method === "glass/lease/renew") return outcome(leases.renew(clientId, token as string, ttlMs as number));
  return outcome(leases.release(clientId, token as string));
}

/**
 * The lease gate of a `tools/call` on the socket (§4), `undefined` when the call may run. Only
 * mutating tools are gated: they need the token of the lease this client holds (-32003 "mutation
 * lease required", details null, without one; the lease's own -32003 error otherwise). A read-only
 * tool is never gated, whatever it carries. Like the daemon, a call without any `arguments` skips
 * the gate.
 */
export function checkToolLease(leases: LeaseManager, clientId: string, call: ToolCall): RpcError | undefined {
  const { request } = call;
  if (!call.argumentsSent || !requiresLease(request.operation, request.payload)) return undefined;
  if (call.leaseToken === undefined) return rpcError(JsonRpcErrorCode.LeaseError, LEASE_REQUIRED_MESSAGE);
  const refused = leases.authorize(clientId, call.leaseToken);
  return refused === undefined ? undefined : leaseError(refused);
}

function outcome(
  value: LeaseGrant | { sessionId: string; released: true } | LeaseFailure,
): { result: { [key: string]: unknown } } | { error: RpcError } {
  return "code" in value ? { error: leaseError(value) } : { result: { ...value } };
}

function leaseError(failure: LeaseFailure): RpcError {
  return rpcError(JsonRpcErrorCode.LeaseError, failure.message, { code: failure.code, retryable: failure.retryable });
}
