import { describe, expect, it } from "vitest";
import {
  idKey,
  isJsonRpcId,
  isJsonRpcMessage,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  jsonRpcFailure,
  jsonRpcSuccess,
  type JsonRpcMessage,
} from "../../src/mcp/json-rpc.js";

describe("idKey", () => {
  it('keeps the ids 1 and "1" apart, and gives equal ids one key', () => {
    expect(idKey(1)).not.toBe(idKey("1"));
    expect(idKey("r-1")).toBe(idKey("r-1"));
    expect(idKey(7)).toBe(idKey(7));
  });
});

describe("isJsonRpcId", () => {
  it("takes strings and finite numbers, nothing else", () => {
    for (const id of ["", "r-1", 0, -3, 1.5]) expect(isJsonRpcId(id), String(id)).toBe(true);
    for (const id of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, true, {}, ["1"]])
      expect(isJsonRpcId(id), String(id)).toBe(false);
  });
});

describe("isJsonRpcMessage", () => {
  it('takes any object with jsonrpc "2.0", and refuses arrays, other versions and non-objects', () => {
    expect(isJsonRpcMessage({ jsonrpc: "2.0" })).toBe(true);
    expect(isJsonRpcMessage({ jsonrpc: "2.0", id: 1, result: {} })).toBe(true);
    for (const value of [{ jsonrpc: "1.0", id: 1 }, { id: 1, method: "ping" }, [{ jsonrpc: "2.0" }], null, "2.0", 2])
      expect(isJsonRpcMessage(value), JSON.stringify(value)).toBe(false);
  });
});

describe("jsonRpcSuccess and jsonRpcFailure", () => {
  it("build responses with the id given, null included", () => {
    expect(jsonRpcSuccess(3, { ok: true })).toEqual({ jsonrpc: "2.0", id: 3, result: { ok: true } });
    expect(jsonRpcSuccess(null, {})).toEqual({ jsonrpc: "2.0", id: null, result: {} });
    expect(jsonRpcFailure(null, -32700, "parse error")).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "parse error" },
    });
  });

  it("leave data out of a failure unless it is given, and keep a null data", () => {
    expect("data" in jsonRpcFailure("r", -32003, "lease").error).toBe(false);
    expect(jsonRpcFailure("r", -32003, "lease", null).error).toEqual({ code: -32003, message: "lease", data: null });
    expect(jsonRpcFailure("r", -32003, "lease", { details: { code: "leaseHeld" } }).error.data).toEqual({
      details: { code: "leaseHeld" },
    });
  });
});

describe("telling requests, notifications and responses apart", () => {
  const request: JsonRpcMessage = { jsonrpc: "2.0", id: 0, method: "ping" };
  const notification: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/cancelled", params: {} };
  const success: JsonRpcMessage = { jsonrpc: "2.0", id: 0, result: {} };
  const failure: JsonRpcMessage = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } };

  it("classifies each message as exactly one kind", () => {
    const kinds = (message: JsonRpcMessage): boolean[] => [
      isJsonRpcRequest(message),
      isJsonRpcNotification(message),
      isJsonRpcResponse(message),
    ];
    expect(kinds(request)).toEqual([true, false, false]);
    expect(kinds(notification)).toEqual([false, true, false]);
    expect(kinds(success)).toEqual([false, false, true]);
    expect(kinds(failure)).toEqual([false, false, true]);
  });

  it("does not take a method with an undefined id for a request", () => {
    const odd = { jsonrpc: "2.0", id: undefined, method: "ping" } as unknown as JsonRpcMessage;
    expect(isJsonRpcRequest(odd)).toBe(false);
    expect(isJsonRpcResponse(odd)).toBe(false);
  });
});
