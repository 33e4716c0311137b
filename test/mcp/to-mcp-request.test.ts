import { describe, expect, it } from "vitest";
import { createRequest, type GlassRequest } from "glass-sdk";
import { toMcpRequest } from "glass-sdk/protocol";
import { leased } from "./support/leased-request.js";

describe("toMcpRequest", () => {
  it("sends the request id as the JSON-RPC id, the tool as params.name and the payload as arguments", () => {
    const request = createRequest("webIr.inspect", { ir: { schemaVersion: 1 } } as never, { requestId: "inspect-7" });
    expect(toMcpRequest(request)).toEqual({
      jsonrpc: "2.0",
      id: "inspect-7",
      method: "tools/call",
      params: { name: "inspectWebIr", arguments: { ir: { schemaVersion: 1 } } },
    });
  });

  it("sends the lease token alone as arguments.leaseToken to a mutating call, and nothing to a read-only one", () => {
    expect(toMcpRequest(leased("browser.click", { target: "ref=1" })).params).toEqual({
      name: "click",
      arguments: { target: "ref=1", leaseToken: "t-1" },
    });
    expect(toMcpRequest(leased("browser.executeIntent", { candidateId: "c-1" })).params).toEqual({
      name: "executeIntent",
      arguments: { candidateId: "c-1", leaseToken: "t-1" },
    });
    expect(toMcpRequest(leased("browser.observe", { level: "summary" })).params).toEqual({
      name: "observe",
      arguments: { level: "summary" },
    });
    expect(toMcpRequest(leased("browser.findTarget", { intent: "renew" })).params).toEqual({
      name: "findTarget",
      arguments: { intent: "renew" },
    });
  });

  it("sends no lease context at all when the envelope has a session id but no lease", () => {
    const request = {
      protocolVersion: 1,
      requestId: "r-2",
      sessionId: "s-1",
      operation: "browser.click",
      payload: { target: "ref=1" },
    } as GlassRequest;
    expect(toMcpRequest(request).params).toEqual({ name: "click", arguments: { target: "ref=1" } });
  });

  it("decides conditional lease rules from the payload", () => {
    expect(toMcpRequest(leased("browser.sessionSnapshot", { operation: "create" })).params).toMatchObject({
      arguments: { leaseToken: "t-1" },
    });
    expect(toMcpRequest(leased("browser.sessionSnapshot", { operation: "list" })).params).toEqual({
      name: "sessionSnapshot",
      arguments: { operation: "list" },
    });
    expect(
      toMcpRequest(leased("task.execute", { task: { task: "table.extract" }, expectedRevision: 1 })).params,
    ).not.toHaveProperty("arguments.leaseToken");
    expect(
      toMcpRequest(leased("task.execute", { task: { task: "form.submit" }, expectedRevision: 1 })).params,
    ).toHaveProperty("arguments.leaseToken", "t-1");
  });

  it("treats tools outside the catalog by the read-only list: unknown tools mutate", () => {
    expect(toMcpRequest(leased("browser.project.read", {})).params).toEqual({ name: "project.read", arguments: {} });
    expect(toMcpRequest(leased("browser.project.edit", {})).params).toEqual({
      name: "project.edit",
      arguments: { leaseToken: "t-1" },
    });
  });

  it("does not change the caller's payload object", () => {
    const payload = { target: "ref=1" };
    toMcpRequest(leased("browser.click", payload));
    expect(payload).toEqual({ target: "ref=1" });
  });

  it("refuses a payload that is not an object, since MCP arguments are one", () => {
    expect(() =>
      toMcpRequest({ protocolVersion: 1, requestId: "r", operation: "browser.observe", payload: [1] } as GlassRequest),
    ).toThrow(/arguments must be a JSON object/);
  });
});
