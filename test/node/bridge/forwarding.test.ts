import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startBridge } from "../../../src/node/bridge/start-bridge.js";
import type { GlassResponse } from "glass-sdk";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { GOLDEN_FIXTURE_PATH, readGoldenFixture } from "../../support/golden-fixture.js";
import {
  CLI,
  eventually,
  fixtureRequest,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  ROOT,
  bridgeHarnessPerTest,
  tryWebSocket,
  WsPeer,
} from "../../support/bridge-harness.js";

const fixture = readGoldenFixture();
const responseFor = (requestId: string): GlassResponse =>
  fixture.responses.find((r) => r.requestId === requestId) as unknown as GlassResponse;

const { cleanups, harness } = bridgeHarnessPerTest();

describe("bridge forwarding over HTTP", () => {
  it("initialize gives a session id; a tools/call replayed from the golden fixture comes back; DELETE ends the upstream", async () => {
    const { bridge, daemon, logs } = await harness();
    const init = await post(bridge, { jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS });
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("application/json");
    const sessionId = init.headers.get("mcp-session-id");
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await init.json()).toMatchObject({
      jsonrpc: "2.0",
      id: "init",
      result: { protocolVersion: "2024-11-05", glassAgreement: { protocolVersion: 1 } },
    });
    expect((await post(bridge, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId!)).status).toBe(202);
    expect(daemon.clientCount()).toBe(1);

    for (const [id, requestId] of [
      [7, "observe-loans"],
      ["call-inspect", "inspect-ir-loans"],
      [8, "validate-task-fill-empty"],
    ] as const) {
      const call = await post(
        bridge,
        { jsonrpc: "2.0", id, method: "tools/call", params: fixtureToolCall(fixtureRequest(requestId)) },
        sessionId!,
      );
      expect(call.status).toBe(200);
      expect(call.headers.get("mcp-session-id")).toBe(sessionId);
      expect(await call.json()).toEqual({ jsonrpc: "2.0", id, result: expectedToolResult(responseFor(requestId)) });
    }
    expect(daemon.calls.map((c) => [c.id, c.tool])).toEqual([
      [7, "observe"],
      ["call-inspect", "inspectWebIr"],
      [8, "validateTask"],
    ]);

    const deleted = await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(bridge.token, sessionId!) });
    expect(deleted.status).toBe(200);
    await eventually(() => daemon.clientCount() === 0, "the daemon saw the upstream close");
    expect(bridge.sessionCount()).toBe(0);
    const after = await post(bridge, { jsonrpc: "2.0", id: 9, method: "tools/list" }, sessionId!);
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001 } });
    expect(logs.filter((line) => /^session [0-9a-f]{8} (started|ended)/.test(line))).toHaveLength(2);
  });

  it("needs a session id after initialize (400), knows only its own (404), and refuses a second initialize on a session (400)", async () => {
    const { bridge } = await harness();
    expect((await post(bridge, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(400);
    expect(
      (await post(bridge, { jsonrpc: "2.0", id: 1, method: "tools/list" }, "00000000-0000-4000-8000-000000000000"))
        .status,
    ).toBe(404);
    const sessionId = await openHttpSession(bridge);
    const again = await post(
      bridge,
      { jsonrpc: "2.0", id: 2, method: "initialize", params: INITIALIZE_PARAMS },
      sessionId,
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: { code: -32600 } });
    const notJson = await fetch(bridge.url, {
      method: "POST",
      headers: mcpHeaders(bridge.token, sessionId),
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
    const batch = await post(bridge, [{ jsonrpc: "2.0", id: 3, method: "ping" }], sessionId);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining("batches") } });
  });

  it("ends the session when initialize fails, handing out no session id", async () => {
    const { bridge, daemon } = await harness();
    const init = await post(bridge, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { ...INITIALIZE_PARAMS, protocolVersion: "1999-01-01" },
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(await init.json()).toMatchObject({ id: 1, error: { code: -32602 } });
    await eventually(() => daemon.clientCount() === 0 && bridge.sessionCount() === 0, "the failed session was closed");
  });

  it("answers the daemon's own request for an HTTP session with -32601, so the daemon never waits", async () => {
    const { bridge, daemon } = await harness({}, { faults: { serverRequestAfterCalls: 1 } });
    const sessionId = await openHttpSession(bridge);
    const call = await post(
      bridge,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
    );
    expect(call.status).toBe(200);
    await daemon.waitFor((d) => d.clientAnswers.length === 1);
    expect(daemon.clientAnswers[0]).toMatchObject({
      method: "elicitation/create",
      response: { id: "glass-server-1", error: { code: -32601 } },
    });
  });

  it("honours notifications/cancelled: the pending request ends with -32800 and the daemon stops the call", async () => {
    const { bridge, daemon } = await harness({}, { faults: { stallAfterCalls: 0 } });
    const sessionId = await openHttpSession(bridge);
    const pending = post(
      bridge,
      { jsonrpc: "2.0", id: "slow", method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
    );
    await daemon.waitFor((d) => d.calls.length === 1);
    const cancel = await post(
      bridge,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "slow", reason: "changed my mind" } },
      sessionId,
    );
    expect(cancel.status).toBe(202);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ jsonrpc: "2.0", id: "slow", error: { code: -32800 } });
    await daemon.waitFor((d) => d.inFlight() === 0);
  });

  it("cancels the daemon call when the HTTP client goes away before the answer", async () => {
    const { bridge, daemon } = await harness({}, { faults: { stallAfterCalls: 0 } });
    const sessionId = await openHttpSession(bridge);
    const controller = new AbortController();
    const pending = post(
      bridge,
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
      controller.signal,
    ).catch((error: unknown) => error);
    await daemon.waitFor((d) => d.calls.length === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await daemon.waitFor((d) => d.inFlight() === 0);
    expect(bridge.sessionCount()).toBe(1); // the session itself goes on
  });

  it("when the daemon crashes mid-call, the HTTP request gets -32603 and the bridge keeps serving new sessions", async () => {
    const { bridge, daemon, logs } = await harness({}, { faults: { crashAfterCalls: 1 } });
    const sessionId = await openHttpSession(bridge);
    const call = (id: number, session: string): Promise<Response> =>
      post(
        bridge,
        { jsonrpc: "2.0", id, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
        session,
      );
    expect((await call(1, sessionId)).status).toBe(200);
    const crashed = await call(2, sessionId);
    expect(crashed.status).toBe(200);
    expect(await crashed.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32603, message: "the daemon connection closed" },
    });
    expect(daemon.crashed).toBe(true);
    expect((await call(3, sessionId)).status).toBe(404); // the session ended with its daemon connection
    expect(logs.some((line) => /ended \(http\): the daemon connection closed/.test(line))).toBe(true);

    const fresh = await openHttpSession(bridge);
    const answer = await call(4, fresh);
    expect(await answer.json()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      result: expectedToolResult(responseFor("observe-loans")),
    });
  });

  it("closes an idle session and its daemon connection", async () => {
    const { bridge, daemon, logs } = await harness({ idleTimeoutMs: 150 });
    const sessionId = await openHttpSession(bridge);
    expect(daemon.clientCount()).toBe(1);
    await eventually(() => bridge.sessionCount() === 0 && daemon.clientCount() === 0, "the idle session was closed");
    expect((await post(bridge, { jsonrpc: "2.0", id: 1, method: "ping" }, sessionId)).status).toBe(404);
    expect(logs.some((line) => /ended \(http\): idle for 150 ms/.test(line))).toBe(true);
  });

  it("starts the daemon command once per session over stdio (-- node src/cli/main.ts mock-daemon)", async () => {
    const logs: string[] = [];
    const bridge = await startBridge({
      port: 0,
      upstream: {
        command: process.execPath,
        args: ["--import", "tsx", CLI, "mock-daemon", "--fixture", GOLDEN_FIXTURE_PATH],
        cwd: ROOT,
      },
      log: (line) => logs.push(line),
    });
    cleanups.push(() => bridge.close());
    const sessionId = await openHttpSession(bridge);
    const call = await post(
      bridge,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
    );
    expect(await call.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: expectedToolResult(responseFor("observe-loans")),
    });
    expect(logs[0]).toMatch(
      /started \(http, client 127\.0\.0\.1\) → `.*node.* --import tsx .*main\.ts mock-daemon --fixture .*protocol-golden-v1\.json`$/,
    );
    expect((await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(bridge.token, sessionId) })).status).toBe(
      200,
    );
    expect(bridge.sessionCount()).toBe(0);
  });

  it("answers 502 when the daemon cannot be reached, and takes no place", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-bridge-none-"));
    const logs: string[] = [];
    const bridge = await startBridge({
      port: 0,
      upstream: { socket: join(dir, "absent.sock") },
      log: (line) => logs.push(line),
    });
    cleanups.push(async () => {
      await bridge.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const init = await post(bridge, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    expect(init.status).toBe(502);
    expect(bridge.sessionCount()).toBe(0);
    expect(logs.some((line) => line.includes("no Glass daemon is listening"))).toBe(true);
  });
});

describe("bridge forwarding over WebSocket", () => {
  it("relays a session opened with the glass-bearer subprotocol, both ways, and closes the upstream with the socket", async () => {
    const { bridge, daemon } = await harness({}, { faults: { serverRequestAfterCalls: 1 } });
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status} ${upgrade.body}`);
    expect(upgrade.socket.protocol).toBe("mcp");
    const peer = new WsPeer(upgrade.socket);
    expect(await peer.handshake()).toMatchObject({ id: "init", result: { protocolVersion: "2024-11-05" } });
    const tools = await peer.request(1, "tools/list");
    expect((tools.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    const call = await peer.request("c1", "tools/call", fixtureToolCall(fixtureRequest("inspect-ir-loans")));
    expect(call).toEqual({ jsonrpc: "2.0", id: "c1", result: expectedToolResult(responseFor("inspect-ir-loans")) });

    // The daemon's own request reaches the WebSocket client, which answers it.
    const asked = await peer.waitFor((m) => m.method === "elicitation/create");
    peer.send({ jsonrpc: "2.0", id: asked.id, result: { action: "decline" } });
    await daemon.waitFor((d) => d.clientAnswers.length === 1);
    expect(daemon.clientAnswers[0]).toMatchObject({
      method: "elicitation/create",
      response: { result: { action: "decline" } },
    });

    upgrade.socket.close(1000);
    await peer.closed;
    await eventually(
      () => daemon.clientCount() === 0 && bridge.sessionCount() === 0,
      "the upstream closed with the socket",
    );
  });

  it("answers a frame that is not JSON-RPC with a JSON-RPC error and keeps the session", async () => {
    const { bridge } = await harness();
    const upgrade = await tryWebSocket(`${bridge.wsUrl}?token=${bridge.token}`, ["mcp"]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    upgrade.socket.send("{oops");
    expect(await peer.waitFor((m) => m.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(await peer.handshake()).toHaveProperty("result");
    upgrade.socket.close();
  });

  it("when the daemon crashes, pending WebSocket requests get -32603 and the socket closes with 1011", async () => {
    const { bridge } = await harness({}, { faults: { crashAfterCalls: 0 } });
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await peer.handshake();
    const answer = await peer.request(1, "tools/call", fixtureToolCall(fixtureRequest("observe-loans")));
    expect(answer).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "the daemon connection closed" } });
    expect(await peer.closed).toEqual({ code: 1011, reason: "the daemon connection closed" });
    await eventually(() => bridge.sessionCount() === 0, "the session ended");
  });

  it("closing the bridge ends every session: pending HTTP requests get an error, WebSockets close with 1001", async () => {
    const { bridge, daemon } = await harness({}, { faults: { stallAfterCalls: 0 } });
    const sessionId = await openHttpSession(bridge);
    const pending = post(
      bridge,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      sessionId,
    );
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await daemon.waitFor((d) => d.calls.length === 1);
    await bridge.close();
    expect(await (await pending).json()).toMatchObject({
      id: 1,
      error: { code: -32603, message: expect.stringContaining("shutting down") },
    });
    expect((await peer.closed).code).toBe(1001);
    await eventually(() => daemon.clientCount() === 0, "every upstream closed");
  });
});
