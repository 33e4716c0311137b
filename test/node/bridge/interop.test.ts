import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import type { GlassResponse } from "glass-sdk";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { eventually, fixtureRequest, startBridgeHarness, type BridgeHarness } from "../../support/bridge-harness.js";

const fixture = readGoldenFixture();
const responseFor = (requestId: string): GlassResponse =>
  fixture.responses.find((r) => r.requestId === requestId) as unknown as GlassResponse;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.unstubAllGlobals();
});

async function harness(): Promise<BridgeHarness> {
  const started = await startBridgeHarness();
  cleanups.push(() => started.stop());
  return started;
}

/** Lists the tools and replays two fixture calls (observe, inspectWebIr) through an SDK client. */
async function listAndCall(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["observe", "inspectWebIr", "click"]));
  for (const requestId of ["observe-loans", "inspect-ir-loans"]) {
    const result = await client.callTool(fixtureToolCall(fixtureRequest(requestId)));
    expect(result).toEqual(expectedToolResult(responseFor(requestId)));
  }
}

describe("the official MCP SDK client through the bridge", () => {
  it("StreamableHTTPClientTransport (token in requestInit.headers) lists tools and calls them; terminateSession ends the upstream", async () => {
    const { bridge, daemon } = await harness();
    const transport = new StreamableHTTPClientTransport(new URL(bridge.url), {
      requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
    });
    const client = new Client({ name: "sdk-interop", version: "1.0.0" });
    cleanups.push(() => client.close());
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toMatchObject({ name: "glass-sdk-mock-daemon" });
    await listAndCall(client);
    expect(daemon.calls.map((call) => call.tool)).toEqual(["observe", "inspectWebIr"]);
    await transport.terminateSession();
    await eventually(() => daemon.clientCount() === 0 && bridge.sessionCount() === 0, "the session ended");
    // The client's GET for a server stream was answered 405, which the SDK takes as "no stream": no error.
    expect(errors).toEqual([]);
  });

  it("WebSocketClientTransport (token in ?token=) lists tools and calls them", async () => {
    if (globalThis.WebSocket === undefined) vi.stubGlobal("WebSocket", WebSocket); // Node 20 has no global WebSocket
    const { bridge, daemon, logs } = await harness();
    const transport = new WebSocketClientTransport(
      new URL(`${bridge.wsUrl}?token=${encodeURIComponent(bridge.token)}`),
    );
    const client = new Client({ name: "sdk-interop-ws", version: "1.0.0" });
    cleanups.push(() => client.close());
    await client.connect(transport);
    await listAndCall(client);
    await client.close();
    await eventually(() => daemon.clientCount() === 0 && bridge.sessionCount() === 0, "the session ended");
    expect(logs.filter((line) => line.includes(bridge.token))).toEqual([]);
  });
});
