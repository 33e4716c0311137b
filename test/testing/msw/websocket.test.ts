// Runs in the vitest project "websocket" (vitest.config.ts): Node 20 has a global WebSocket, the
// one MSW's ws.link intercepts, only with --experimental-websocket.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { createGlassWsHandlers } from "../../../src/testing/msw/msw-ws-handlers.js";
import { webSocketTransport } from "../../../src/transport/websocket-transport.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import {
  callTyped,
  expectMatchesFixture,
  fixtureCases,
  goldenFixture,
  itMatchesTheWholeFixture,
  recordedResponses,
} from "../../support/fixture-outcomes.js";

const ENDPOINT = "ws://glass.test/mcp";
const SECURED_URL = "ws://secured.glass.test/mcp";
const SOCKET_MODE_URL = "ws://socket.glass.test/mcp";
const TOKEN = "test-token-0123456789abcdef";
const recorded = recordedResponses();

const server = setupServer(
  ...createGlassWsHandlers({ fixture: goldenFixture, url: ENDPOINT }),
  ...createGlassWsHandlers({ fixture: goldenFixture, url: SECURED_URL, token: TOKEN }),
  ...createGlassWsHandlers({ fixture: goldenFixture, url: SOCKET_MODE_URL, mode: "socket" }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A raw WebSocket client: every text frame it receives, parsed, and a way to wait for more. */
class RawClient {
  readonly received: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly socket: WebSocket;
  readonly #waiters = new Set<() => void>();

  constructor(url: string, protocols: string[] = ["mcp"]) {
    this.socket = new WebSocket(url, protocols);
    this.socket.addEventListener("message", (event: MessageEvent) => {
      this.received.push(typeof event.data === "string" ? safeParse(event.data) : event.data);
      for (const wake of [...this.#waiters]) wake();
    });
    this.closed = new Promise((resolve) =>
      this.socket.addEventListener("close", (event: CloseEvent) => resolve({ code: event.code, reason: event.reason })),
    );
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.addEventListener("open", () => resolve());
      this.socket.addEventListener("error", () => reject(new Error("the WebSocket failed to open")));
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Waits until `count` frames have arrived in all. */
  async frames(count: number): Promise<unknown[]> {
    while (this.received.length < count) await new Promise<void>((resolve) => this.#waiters.add(resolve));
    return this.received.slice(0, count);
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsed: text };
  }
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw-ws", version: "1" } },
};

async function readyClient(url = ENDPOINT, protocols?: string[]): Promise<RawClient> {
  const client = new RawClient(url, protocols);
  await client.opened();
  client.send(INITIALIZE);
  await client.frames(1);
  client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return client;
}

describe("createGlassWsHandlers over a raw WebSocket", () => {
  it("the global WebSocket exists (the project runs with --experimental-websocket)", () => {
    expect(typeof globalThis.WebSocket).toBe("function");
  });

  it("one JSON-RPC message per text frame: initialize, then a tool call of the fixture", async () => {
    const client = await readyClient();
    const [initialized] = await client.frames(1);
    expect(initialized).toMatchObject({ id: 0, result: { serverInfo: { name: "glass-sdk-mock-daemon" } } });
    const request = goldenFixture.requests[0]!;
    client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: fixtureToolCall(request) });
    const frames = await client.frames(2);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 1, result: expectedToolResult(recorded.get(request.requestId)!) });
    client.socket.close();
  });

  it("a frame that is not JSON is answered with -32700 and the connection goes on", async () => {
    const client = await readyClient();
    client.send("{not json");
    client.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    const frames = await client.frames(3);
    expect(frames[1]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(frames[2]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    client.socket.close();
  });

  it("each connection is its own session", async () => {
    const first = await readyClient();
    const second = new RawClient(ENDPOINT);
    await second.opened();
    second.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect((await second.frames(1))[0]).toMatchObject({ id: 1, error: { code: -32002 } });
    first.socket.close();
    second.socket.close();
  });

  it("a connection that does not ask for the mcp subprotocol is closed with 1002", async () => {
    const client = new RawClient(ENDPOINT, ["chat"]);
    expect((await client.closed).code).toBe(1002);
  });

  it("with a token: closed with 1008 without it, served with glass-bearer.<token>", async () => {
    const refused = new RawClient(SECURED_URL);
    expect((await refused.closed).code).toBe(1008);
    const client = await readyClient(SECURED_URL, ["mcp", `glass-bearer.${TOKEN}`]);
    expect((await client.frames(1))[0]).toMatchObject({ id: 0, result: {} });
    client.socket.close();
  });

  it("closing the connection releases its lease (mode socket)", async () => {
    const first = await readyClient(SOCKET_MODE_URL);
    first.send({ jsonrpc: "2.0", id: 1, method: "glass/lease/acquire", params: { ttlMs: 60_000 } });
    expect((await first.frames(2))[1]).toMatchObject({ id: 1, result: { token: expect.any(String) } });
    const second = await readyClient(SOCKET_MODE_URL);
    second.send({ jsonrpc: "2.0", id: 1, method: "glass/lease/acquire", params: { ttlMs: 60_000 } });
    expect((await second.frames(2))[1]).toMatchObject({
      id: 1,
      error: { code: -32003, data: { code: "policy.mutationLease", details: { code: "leaseHeld" } } },
    });
    first.socket.close();
    await first.closed;
    await new Promise((resolve) => setTimeout(resolve, 10));
    second.send({ jsonrpc: "2.0", id: 2, method: "glass/lease/acquire", params: { ttlMs: 60_000 } });
    expect((await second.frames(3))[2]).toMatchObject({ id: 2, result: { token: expect.any(String) } });
    second.socket.close();
  });
});

describe("the whole golden fixture through Glass over webSocketTransport and the MSW handlers", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(webSocketTransport({ url: ENDPOINT }));
  });
  afterAll(async () => {
    await glass.close();
  });

  itMatchesTheWholeFixture(() => glass);

  it("under a mutation lease (mode socket), the fixture's calls still equal it", async () => {
    const leased = await Glass.connect(webSocketTransport({ url: SOCKET_MODE_URL }));
    for (const [, request] of fixtureCases()) {
      expectMatchesFixture(await leased.withLease(() => callTyped(leased, request, false), { ttlMs: 10_000 }), request);
    }
    await leased.close();
  });

  it("with a token, over the secured handlers", async () => {
    const secured = await Glass.connect(webSocketTransport({ url: SECURED_URL, token: TOKEN }));
    const request = goldenFixture.requests[0]!;
    expectMatchesFixture(await callTyped(secured, request, true), request);
    await secured.close();
  });
});
