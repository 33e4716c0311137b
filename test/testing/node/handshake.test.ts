import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { validateCapabilityAgreement, validateCapabilityManifest } from "../../../generated/validators/index.js";
import { runValidator } from "../../../src/envelope/validate.js";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { initializeParams, toolCall } from "../../support/raw-mcp-peer.js";

let harness: SocketHarness;
let restricted: SocketHarness;

beforeAll(async () => {
  // A daemon whose policy disables raw CDP and which offers workflow authoring as experimental.
  harness = await startSocketHarness({
    latencyMs: 150,
    capabilities: { rawCdp: "disabledByPolicy", workflowAuthoring: "experimental" },
  });
  restricted = await startSocketHarness({ capabilities: { webIr: "disabledByPolicy" }, schemas: { webIr: [1, 2] } });
});
afterEach(async () => {
  await harness.disconnectAll();
  await restricted.disconnectAll();
});
afterAll(async () => {
  await harness.stop();
  await restricted.stop();
});

async function initialize(glass?: unknown, protocolVersion?: string, on: SocketHarness = harness) {
  const peer = await on.connect();
  return { peer, response: await peer.request(1, "initialize", initializeParams(glass, protocolVersion)) };
}

describe("mock daemon handshake", () => {
  it("answers initialize with server info, a valid manifest and an agreement on what was asked", async () => {
    const { response } = await initialize({
      protocolVersions: [1],
      schemas: { webIr: [1], task: [1] },
      requires: ["webIr"],
      optional: ["taskProtocol", "rawCdp", "noSuchThing"],
    });
    const result = response.result!;
    expect(result.protocolVersion).toBe("2024-11-05");
    expect(result.capabilities).toEqual({ tools: {} });
    expect(result.serverInfo).toMatchObject({ name: "glass-sdk-mock-daemon" });
    expect(runValidator(validateCapabilityManifest, result.glass)).toMatchObject({ ok: true });
    expect(runValidator(validateCapabilityAgreement, result.glassAgreement)).toMatchObject({ ok: true });
    expect(result.glassAgreement).toEqual({
      protocolVersion: 1,
      agreedSchemas: { webIr: 1, task: 1 },
      capabilities: expect.objectContaining({
        webIr: { status: "available" },
        taskProtocol: { status: "available" },
        rawCdp: { status: "disabledByPolicy" },
      }),
      constraints: (result.glass as { constraints: unknown }).constraints,
    });
    const capabilities = (result.glassAgreement as { capabilities: Record<string, unknown> }).capabilities;
    // As the daemon does: the named capabilities it knows, and no other.
    expect(Object.keys(capabilities).sort()).toEqual(["rawCdp", "taskProtocol", "webIr"]);
  });

  it("enables localDaemon on the socket, and lists mcpStdio as the daemon does on both transports", async () => {
    const { response } = await initialize();
    const manifest = response.result!.glass as {
      capabilities: Record<string, boolean>;
      constraints: { browserFamily: string; maxSessions: number };
    };
    expect(manifest.capabilities.localDaemon).toBe(true);
    expect(manifest.capabilities.mcpStdio).toBe(true);
    expect(manifest.constraints).toMatchObject({ browserFamily: "chromium", maxSessions: 4 });
  });

  it("agrees to everything offered when the client sends no glass negotiation", async () => {
    const { response } = await initialize();
    const agreement = response.result!.glassAgreement as {
      agreedSchemas: Record<string, number>;
      capabilities: Record<string, unknown>;
    };
    expect(Object.keys(agreement.agreedSchemas)).toEqual(
      expect.arrayContaining(["action", "observation", "workflow", "checkpoint", "webIr", "task"]),
    );
    expect(agreement.capabilities).toMatchObject({
      webIr: { status: "available" },
      localDaemon: { status: "available" },
    });
  });

  it("agrees on the highest schema version both sides speak", async () => {
    const { response } = await initialize({ schemas: { webIr: [1, 2, 3] } }, undefined, restricted);
    expect((response.result!.glassAgreement as { agreedSchemas: unknown }).agreedSchemas).toEqual({ webIr: 2 });
  });

  it("accepts MCP protocol version 2025-11-25 and echoes it", async () => {
    const { response } = await initialize(undefined, "2025-11-25");
    expect(response.result!.protocolVersion).toBe("2025-11-25");
  });

  it("rejects an unsupported MCP protocol version with -32602 naming the supported ones", async () => {
    const { response } = await initialize(undefined, "2099-01-01");
    expect(response.error).toMatchObject({ code: -32602 });
    expect(response.error!.message).toContain("2024-11-05");
    expect(response.error!.message).toContain("2025-11-25");
  });

  it.each([
    ["an unknown schema name", { schemas: { teleport: [1] } }, /glass\.schemas\.teleport: unknown schema/],
    ["an empty version list", { schemas: { webIr: [] } }, /version list of schema webIr is empty/],
    ["no common schema version", { schemas: { action: [2, 3] } }, /no common version of schema action/],
    ["an unknown required capability", { requires: ["timeTravel"] }, /glass\.requires\.timeTravel: unknown capability/],
    [
      "a disabled required capability",
      { requires: ["rawCdp"] },
      /glass\.requires\.rawCdp: capability is not enabled \(DisabledByPolicy\)/,
    ],
    [
      "an experimental required capability the client does not accept",
      { requires: ["workflowAuthoring"] },
      /workflowAuthoring: experimental capability requires acceptsExperimental=true/,
    ],
    [
      "no common Glass protocol version",
      { protocolVersions: [2] },
      /glass\.protocolVersions: unsupported protocols \[2\]; expected 1/,
    ],
    [
      "a malformed negotiation",
      { schemas: { webIr: [1] }, acceptsExperimental: "yes" },
      /invalid glass negotiation: acceptsExperimental/,
    ],
  ])("fails initialize with -32602 for %s", async (_name, glass, message) => {
    const { response } = await initialize(glass);
    expect(response.error?.code).toBe(-32602);
    expect(response.error!.message).toMatch(message);
  });

  it("agrees to an experimental required capability when the client accepts experimental ones", async () => {
    const { response } = await initialize({ requires: ["workflowAuthoring"], acceptsExperimental: true });
    expect((response.result!.glassAgreement as { capabilities: unknown }).capabilities).toMatchObject({
      workflowAuthoring: { status: "experimental" },
    });
  });

  it("fails initialize when a required capability was switched off by the daemon's options", async () => {
    const { response } = await initialize({ requires: ["webIr"] }, undefined, restricted);
    expect(response.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/glass\.requires\.webIr: capability is not enabled \(DisabledByPolicy\)/),
    });
  });

  it("lets a client try initialize again after a failed one", async () => {
    const { peer, response } = await initialize({ requires: ["timeTravel"] });
    expect(response.error?.code).toBe(-32602);
    const again = await peer.request(2, "initialize", initializeParams());
    expect(again.result).toBeDefined();
  });

  it("rejects a second initialize with -32600", async () => {
    const peer = await harness.connectReady();
    const second = await peer.request(2, "initialize", initializeParams());
    expect(second.error).toMatchObject({ code: -32600, message: expect.stringContaining("already") });
  });

  it("answers requests before notifications/initialized with -32002, ping included", async () => {
    const peer = await harness.connect();
    expect((await peer.request(1, "tools/list")).error?.code).toBe(-32002);
    expect((await peer.request(2, "ping")).error?.code).toBe(-32002);
    await peer.request(3, "initialize", initializeParams());
    expect((await peer.request(4, "tools/call", toolCall("observe", { level: "summary" }))).error?.code).toBe(-32002);
    peer.notify("notifications/initialized");
    expect((await peer.request(5, "tools/list")).result).toBeDefined();
  });

  it("rejects a request whose id is still active with -32600", async () => {
    const peer = await harness.connectReady();
    peer.send({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: toolCall("observe", { level: "summary" }) });
    peer.send({ jsonrpc: "2.0", id: "dup", method: "ping" });
    const first = await peer.response("dup");
    expect(first.error).toMatchObject({ code: -32600, message: expect.stringContaining("duplicate request id") });
    await peer.waitFor((r) => r.message?.id === "dup" && r.message.result !== undefined);
    expect(peer.responses("dup")).toHaveLength(2);
  });

  it("answers ping with {} and lists no prompts or resources", async () => {
    const peer = await harness.connectReady();
    expect((await peer.request(1, "ping")).result).toEqual({});
    expect((await peer.request(2, "prompts/list")).result).toEqual({ prompts: [] });
    expect((await peer.request(3, "resources/list")).result).toEqual({ resources: [] });
  });

  it("answers an unknown method with -32601 and a malformed message with -32600", async () => {
    const peer = await harness.connectReady();
    expect((await peer.request(1, "browser/teleport")).error?.code).toBe(-32601);
    peer.send({ jsonrpc: "1.0", id: 2, method: "ping" });
    expect((await peer.response(2)).error?.code).toBe(-32600);
    peer.send({ jsonrpc: "2.0", id: { no: 1 }, method: "ping" });
    expect((await peer.response(null)).error?.code).toBe(-32600);
  });
});
