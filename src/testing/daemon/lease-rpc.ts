import { JsonRpcErrorCode } from "../../mcp/json-rpc.js";
import { requiresLease } from "../../operations/lease-requirement.js";
import type { ToolCall } from "../read-tool-call.js";
import { isJsonObject } from "../../validation/json-value.js";
import { rpcError, type RpcError } from "./json-rpc-replies.js";
import { leaseFailure, type LeaseFailure, type LeaseGrant, type LeaseManager } from "./leases.js";

/** The lease methods of the daemon socket (§4). */
export const LEASE_METHODS: ReadonlySet<string> = new Set(["glass/lease/acquire", "glass/lease/renew", "glass/lease/release"]);

const MIN_TTL_MS = 1000;
const MAX_TTL_MS = 900_000;

/**
 * Runs `glass/lease/acquire {ttlMs}`, `glass/lease/renew {token, ttlMs}` or `glass/lease/release
 * {token}` for `clientId`: the result, or the error to answer with (-32602 for bad params, -32003
 * with `data {code, retryable}` for a lease problem).
 */
export function handleLeaseMethod(
  leases: LeaseManager,
  clientId: string,
  method: string,
  params: unknown,
): { result: { [key: string]: unknown } } | { error: RpcError } {
  const args = isJsonObject(params) ? params : {};
  const ttlMs = args.ttlMs;
  const needsTtl = method !== "glass/lease/release";
  if (needsTtl && !(typeof ttlMs === "number" && Number.isInteger(ttlMs) && ttlMs >= MIN_TTL_MS && ttlMs <= MAX_TTL_MS)) {
    return { error: rpcError(JsonRpcErrorCode.InvalidParams, `${method} needs ttlMs, a whole number of milliseconds from ${MIN_TTL_MS} to ${MAX_TTL_MS}`) };
  }
  if (method === "glass/lease/acquire") return outcome(leases.acquire(clientId, ttlMs as number));
  const token = args.token;
  if (typeof token !== "string" || token === "") return { error: rpcError(JsonRpcErrorCode.InvalidParams, `${method} needs token, the lease token`) };
  return outcome(method === "glass/lease/renew" ? leases.renew(clientId, token, ttlMs as number) : leases.release(clientId, token));
}

/**
 * The lease gate of a `tools/call` on the socket (§4): a mutating tool needs the token of the lease
 * this client holds (-32003 `leaseRequired` without one, or the lease's own error); a read-only
 * tool must not be sent one (-32602). `undefined` when the call may run.
 */
export function checkToolLease(leases: LeaseManager, clientId: string, call: ToolCall): RpcError | undefined {
  const { request } = call;
  if (!requiresLease(request.operation, request.payload)) {
    return call.carriesLease ? rpcError(JsonRpcErrorCode.InvalidParams, `read-only tool ${call.tool} must not carry a mutation lease`) : undefined;
  }
  if (!call.carriesLease) return leaseError(leaseFailure("leaseRequired", "mutation lease required"));
  const lease = call.arguments.mutationLease;
  const refused = leases.authorize(clientId, call.leaseToken, [call.arguments.sessionId, isJsonObject(lease) ? lease.sessionId : undefined]);
  return refused === undefined ? undefined : leaseError(refused);
}

function outcome(value: LeaseGrant | { sessionId: string; released: true } | LeaseFailure): { result: { [key: string]: unknown } } | { error: RpcError } {
  return "code" in value ? { error: leaseError(value) } : { result: { ...value } };
}

function leaseError(failure: LeaseFailure): RpcError {
  return rpcError(JsonRpcErrorCode.LeaseError, failure.message, { code: failure.code, retryable: failure.retryable });
}
