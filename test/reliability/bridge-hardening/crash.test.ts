/**
 * A daemon CHILD that crashes: the bridge's upstream is the command line of
 * `glass-sdk bridge -- <node> --import tsx src/cli/main.ts mock-daemon --faults '{"crashAfterCalls":1}'`
 * (one daemon process per client session; each crashes on its own second call). The in-flight
 * request gets a JSON-RPC error, the bridge logs the crash (exit code and the daemon's stderr), the
 * session ends, and a new session (a new child) works.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseBridgeArgs } from "../../../src/cli/bridge-command.js";
import { startBridge, type Bridge } from "../../../src/node/bridge/start-bridge.js";
import type { GlassResponse } from "glass-sdk";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { GOLDEN_FIXTURE_PATH, readGoldenFixture } from "../../support/golden-fixture.js";
import {
  CLI,
  eventually,
  fixtureRequest,
  mcpHeaders,
  openHttpSession,
  post,
  ROOT,
  tryWebSocket,
  WsPeer,
} from "../../support/bridge-harness.js";
import { findSecrets } from "../support/secrets-scan.js";

const TOKEN = "CrAsH-bridge-token.Pv3Ld8Wq1Zk6Nx9Hr4Tm7_Bc2~Gf5";
const observe = readGoldenFixture().responses.find((r) => r.requestId === "observe-loans") as unknown as GlassResponse;

const bridges: Bridge[] = [];
afterEach(async () => {
  for (const bridge of bridges.splice(0)) await bridge.close();
});

/** A bridge whose upstream is exactly what the CLI makes of `-- <node> --import tsx main.ts mock-daemon --fixture <golden> --faults …`. */
async function crashingChildBridge(logs: string[]): Promise<Bridge> {
  const parsed = parseBridgeArgs(
    [
      "--port",
      "0",
      "--token",
      TOKEN,
      "--",
      process.execPath,
      "--import",
      "tsx",
      CLI,
      "mock-daemon",
      "--fixture",
      GOLDEN_FIXTURE_PATH,
      "--faults",
      '{"crashAfterCalls":1}',
    ],
    {},
  );
  expect(parsed.upstream).toEqual({
    command: process.execPath,
    args: [
      "--import",
      "tsx",
      CLI,
      "mock-daemon",
      "--fixture",
      GOLDEN_FIXTURE_PATH,
      "--faults",
      '{"crashAfterCalls":1}',
    ],
  });
  const bridge = await startBridge({
    port: parsed.port,
    token: parsed.token,
    upstream: { ...parsed.upstream, cwd: ROOT },
    log: (line) => logs.push(line),
  });
  bridges.push(bridge);
  return bridge;
}

const call = (bridge: Bridge, id: number, sessionId: string): Promise<Response> =>
  post(
    bridge,
    { jsonrpc: "2.0", id, method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
    sessionId,
  );

describe("bridge hardening: a daemon child that crashes", () => {
  it("over HTTP: the in-flight request gets -32603, the bridge logs the crash, and a new session works", async () => {
    const logs: string[] = [];
    const bridge = await crashingChildBridge(logs);
    const sessionId = await openHttpSession(bridge);
    expect(await (await call(bridge, 1, sessionId)).json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: expectedToolResult(observe),
    });

    const started = Date.now();
    const crashed = await call(bridge, 2, sessionId);
    const reportedAfterMs = Date.now() - started;
    expect(crashed.status).toBe(200);
    expect(await crashed.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32603, message: "the daemon connection closed" },
    });
    expect(reportedAfterMs).toBeLessThan(5000);

    // The bridge reports it: the session ended because the daemon exited, quoting its stderr.
    const ended = logs.find((line) => line.startsWith(`session ${sessionId.slice(0, 8)} ended (http)`));
    expect(ended).toMatch(
      /ended \(http\): the daemon connection closed: .*exited with code 1; the end of its stderr:\n.*crashing on purpose \(crashAfterCalls fault\)/s,
    );
    expect(bridge.sessionCount()).toBe(0);
    expect((await call(bridge, 3, sessionId)).status).toBe(404);

    // A new session gets a new daemon child, which serves.
    const fresh = await openHttpSession(bridge);
    expect(fresh).not.toBe(sessionId);
    expect(await (await call(bridge, 4, fresh)).json()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      result: expectedToolResult(observe),
    });
    expect((await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(TOKEN, fresh) })).status).toBe(200);
    await eventually(() => bridge.sessionCount() === 0, "the fresh session ended");
    console.info(`daemon child crash reported to the HTTP client after ${reportedAfterMs} ms`);
    expect(
      findSecrets(
        logs.map((text, i) => ({ source: `log ${i}`, text })),
        [{ label: "bridge token", value: TOKEN }],
      ),
    ).toEqual([]);
  });

  it("over WebSocket: the pending request gets -32603, the socket closes with 1011, and a new session works", async () => {
    const logs: string[] = [];
    const bridge = await crashingChildBridge(logs);
    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await peer.handshake();
    expect(await peer.request(1, "tools/call", fixtureToolCall(fixtureRequest("observe-loans")))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: expectedToolResult(observe),
    });
    expect(await peer.request(2, "tools/call", fixtureToolCall(fixtureRequest("observe-loans")))).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32603, message: "the daemon connection closed" },
    });
    expect(await peer.closed).toEqual({ code: 1011, reason: "the daemon connection closed" });
    await eventually(() => bridge.sessionCount() === 0, "the session ended");
    expect(
      logs.some((line) => /ended \(websocket\): the daemon connection closed: .*exited with code 1/s.test(line)),
    ).toBe(true);

    const sessionId = await openHttpSession(bridge);
    expect(await (await call(bridge, 3, sessionId)).json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: expectedToolResult(observe),
    });
  });
});
