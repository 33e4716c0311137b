import { describe, expect, it } from "vitest";
import { JsonRpcErrorCode } from "../../src/mcp/json-rpc.js";
import { rpcError, rpcFailure, rpcResult, usableId } from "../../src/mock-daemon/json-rpc-replies.js";

describe("rpcError: the daemon's data wrapper", () => {
  it("names the lease and overload codes as the daemon does, and a code outside its table protocol.error", () => {
    expect(rpcError(JsonRpcErrorCode.LeaseError, "m").data.code).toBe("policy.mutationLease");
    expect(rpcError(JsonRpcErrorCode.Overloaded, "m").data.code).toBe("resource.busy");
    expect(rpcError(JsonRpcErrorCode.RequestCancelled, "m").data.code).toBe("protocol.cancelled");
    expect(rpcError(JsonRpcErrorCode.ParseError, "m").data.code).toBe("protocol.error");
    expect(rpcError(-1, "m").data.code).toBe("protocol.error");
  });

  it("carries the fixed preflight advice, the message twice and null details by default", () => {
    expect(rpcError(-32601, "no such method")).toEqual({
      code: -32601,
      message: "no such method",
      data: {
        code: "protocol.methodNotFound",
        phase: "preflight",
        message: "no such method",
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        details: null,
      },
    });
    expect(rpcError(-32601, "m", undefined).data.details).toBeNull();
  });
});

describe("rpcResult and rpcFailure", () => {
  it("address an answer to the request's id, or to null", () => {
    expect(rpcResult("r-1", { ok: true })).toEqual({ jsonrpc: "2.0", id: "r-1", result: { ok: true } });
    const error = rpcError(-32000, "busy");
    expect(rpcFailure(null, error)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "busy", data: error.data },
    });
  });
});

describe("usableId", () => {
  it("keeps a string, a finite number or null, and refuses anything else", () => {
    for (const id of ["r", 0, 2.5, null]) expect(usableId(id)).toBe(id);
    for (const id of [undefined, Number.NaN, Number.POSITIVE_INFINITY, true, {}, []])
      expect(usableId(id), String(id)).toBeUndefined();
  });
});
