import { describe, expect, it } from "vitest";
import { Glass, httpTransport, type GlassError } from "glass-sdk";
import { fixtureToolCall } from "../../support/fixture-calls.js";
import {
  eventually,
  fixtureRequest,
  INITIALIZE_PARAMS,
  mcpHeaders,
  openHttpSession,
  post,
  bridgeHarnessPerTest,
  tryWebSocket,
  WsPeer,
  type UpgradeOutcome,
} from "../../support/bridge-harness.js";
import type { Bridge } from "../../../src/node/bridge/start-bridge.js";

// The places among `maxClients` sessions: a newcomer at the cap evicts the session idle longest
// (nothing in flight, idle at least `evictIdleAfterMs`; lease holders last), and a daemon that
// closes a new connection at once (its own client limit) refuses the session clearly.

const { cleanups, harness } = bridgeHarnessPerTest();

/** The minimum idle time before eviction in these tests. */
const EVICT_AFTER_MS = 200;
/**
 * The minimum in tests that also need a session NOT to qualify right after it was used: a margin
 * wide enough that a loaded machine does not let it become idle long enough meanwhile.
 */
const EVICT_AFTER_MS_WIDE = 1000;

/** Waits past the minimum idle time, so that every session silent since now may be evicted. */
function idleLongEnough(minimumMs = EVICT_AFTER_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, minimumMs + 100));
}

/** Opens a WebSocket session (handshake done), or fails. */
async function openWebSocket(bridge: Bridge): Promise<WsPeer> {
  const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
  if (!("socket" in upgrade)) throw new Error(`the upgrade was refused: ${upgrade.status} ${upgrade.body}`);
  const peer = new WsPeer(upgrade.socket);
  cleanups.push(async () => {
    peer.socket.close();
    await peer.closed;
  });
  await peer.handshake();
  return peer;
}

async function initialize(bridge: Bridge): Promise<Response> {
  return post(bridge, { jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS });
}

async function toolsList(bridge: Bridge, sessionId: string): Promise<Response> {
  return post(bridge, { jsonrpc: "2.0", id: "list", method: "tools/list" }, sessionId);
}

describe("bridge sessions at the cap: evicting an idle session", () => {
  it("gives a new HTTP session the place of the session idle longest; the evicted one gets 404 and its daemon connection is closed first", async () => {
    // Four places on the bridge, four on the daemon: the newcomer's daemon connection must wait
    // for the evicted one to be gone, or the daemon would close it at once.
    const { bridge, daemon, logs } = await harness({ maxClients: 4, evictIdleAfterMs: EVICT_AFTER_MS });
    const oldest = await openHttpSession(bridge);
    await idleLongEnough();
    const others = [await openHttpSession(bridge), await openHttpSession(bridge), await openHttpSession(bridge)];
    expect(daemon.clientCount()).toBe(4);

    const newcomer = await initialize(bridge);
    expect(newcomer.status).toBe(200);
    const newcomerId = newcomer.headers.get("mcp-session-id");
    expect(await newcomer.json()).toMatchObject({ id: "init", result: { protocolVersion: "2024-11-05" } });
    expect(bridge.sessionCount()).toBe(4);
    expect(daemon.clientCount()).toBe(4);

    const evicted = await toolsList(bridge, oldest);
    expect(evicted.status).toBe(404);
    expect(await evicted.json()).toMatchObject({ error: { code: -32001 } });
    for (const sessionId of [...others, newcomerId!]) expect((await toolsList(bridge, sessionId)).status).toBe(200);
    const ended = logs.filter((line) => /ended \(http\): evicted/.test(line));
    expect(ended).toHaveLength(1);
    expect(ended[0]).toContain(`session ${oldest.slice(0, 8)} ended (http): evicted: idle for`);
    expect(ended[0]).toContain("maxClients 4");
  });

  it("never evicts a session with a request in flight, nor one idle for less than evictIdleAfterMs: the newcomer gets 503", async () => {
    const { bridge, daemon } = await harness(
      { maxClients: 2, evictIdleAfterMs: EVICT_AFTER_MS_WIDE },
      { faults: { stallAfterCalls: 0 } },
    );
    const busy = await openHttpSession(bridge);
    const stalled = post(
      bridge,
      { jsonrpc: "2.0", id: "slow", method: "tools/call", params: fixtureToolCall(fixtureRequest("observe-loans")) },
      busy,
    );
    await daemon.waitFor((d) => d.calls.length === 1);
    await idleLongEnough(EVICT_AFTER_MS_WIDE);
    const recent = await openHttpSession(bridge);

    const refused = await initialize(bridge);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringContaining("none idle long enough") },
    });
    expect(await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`])).toMatchObject({ status: 503 });
    expect((await toolsList(bridge, recent)).status).toBe(200);

    // Once the call is answered the busy session is idle again, and after the minimum it gives way.
    await post(bridge, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "slow" } }, busy);
    expect((await stalled).status).toBe(200);
    await idleLongEnough(EVICT_AFTER_MS_WIDE);
    await toolsList(bridge, recent);
    expect((await initialize(bridge)).status).toBe(200);
    expect((await toolsList(bridge, busy)).status).toBe(404);
  });

  it("lets only one of two concurrent newcomers take the one evictable place; the other gets 503", async () => {
    const { bridge, daemon } = await harness({ maxClients: 1, evictIdleAfterMs: EVICT_AFTER_MS });
    await openHttpSession(bridge);
    await idleLongEnough();
    const answers = await Promise.all([initialize(bridge), initialize(bridge)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 503]);
    expect(bridge.sessionCount()).toBe(1);
    expect(daemon.clientCount()).toBe(1);
  });

  it("evicts sessions holding the mutation lease last, and the daemon releases the evicted holder's lease", async () => {
    const { bridge, daemon, logs } = await harness({ maxClients: 2, evictIdleAfterMs: EVICT_AFTER_MS_WIDE });
    const holder = await openHttpSession(bridge);
    const acquired = await post(
      bridge,
      { jsonrpc: "2.0", id: "lease", method: "glass/lease/acquire", params: { ttlMs: 60_000 } },
      holder,
    );
    expect(await acquired.json()).toMatchObject({ result: { token: expect.any(String) } });
    const plain = await openHttpSession(bridge);
    await idleLongEnough(EVICT_AFTER_MS_WIDE);

    // Both qualify and the holder has been idle longer, but the one without the lease goes first.
    const newcomer = await initialize(bridge);
    expect(newcomer.status).toBe(200);
    const newcomerId = newcomer.headers.get("mcp-session-id")!;
    expect((await toolsList(bridge, plain)).status).toBe(404);
    expect(daemon.activeLeases()).toHaveLength(1);

    // When the holder is the only one idle long enough, it goes too, and its lease with it.
    await idleLongEnough(EVICT_AFTER_MS_WIDE);
    expect((await post(bridge, { jsonrpc: "2.0", id: "ping", method: "ping" }, newcomerId)).status).toBe(200);
    const next = await initialize(bridge);
    expect(next.status).toBe(200);
    const nextId = next.headers.get("mcp-session-id")!;
    expect((await toolsList(bridge, holder)).status).toBe(404);
    expect(
      logs.some(
        (line) =>
          line.includes(`session ${holder.slice(0, 8)} ended (http): evicted`) &&
          line.includes("holding the mutation lease"),
      ),
    ).toBe(true);
    expect(daemon.activeLeases()).toEqual([]);
    await post(bridge, { jsonrpc: "2.0", method: "notifications/initialized" }, nextId);
    const again = await post(
      bridge,
      { jsonrpc: "2.0", id: "lease", method: "glass/lease/acquire", params: { ttlMs: 60_000 } },
      nextId,
    );
    expect(await again.json()).toMatchObject({ result: { token: expect.any(String) } });
  });

  it("counts a released lease as none: its session is evicted like any other", async () => {
    const { bridge } = await harness({ maxClients: 2, evictIdleAfterMs: EVICT_AFTER_MS });
    const released = await openHttpSession(bridge);
    const acquired = (await (
      await post(bridge, { jsonrpc: "2.0", id: 1, method: "glass/lease/acquire", params: { ttlMs: 60_000 } }, released)
    ).json()) as {
      result: { token: string };
    };
    const release = await post(
      bridge,
      { jsonrpc: "2.0", id: 2, method: "glass/lease/release", params: { token: acquired.result.token } },
      released,
    );
    expect(await release.json()).toMatchObject({ result: { released: true } });
    await idleLongEnough();
    const plain = await openHttpSession(bridge);
    await idleLongEnough();

    expect((await initialize(bridge)).status).toBe(200);
    expect((await toolsList(bridge, released)).status).toBe(404);
    expect((await toolsList(bridge, plain)).status).toBe(200);
  });

  it("shares the places between HTTP and WebSocket: each evicts the other, and an evicted WebSocket closes with 1000", async () => {
    const { bridge, daemon, logs } = await harness({ maxClients: 1, evictIdleAfterMs: EVICT_AFTER_MS });
    const socket = await openWebSocket(bridge);
    await idleLongEnough();

    const httpSession = await openHttpSession(bridge);
    const closed = await socket.closed;
    expect(closed.code).toBe(1000);
    expect(closed.reason).toContain("evicted");
    expect(logs.some((line) => /ended \(websocket\): evicted/.test(line))).toBe(true);

    await idleLongEnough();
    const upgrade: UpgradeOutcome = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    expect(upgrade).toHaveProperty("socket");
    if ("socket" in upgrade) {
      const peer = new WsPeer(upgrade.socket);
      expect(await peer.handshake()).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
      peer.socket.close();
      await peer.closed;
    }
    expect((await toolsList(bridge, httpSession)).status).toBe(404);
    await eventually(() => daemon.clientCount() === 0, "every daemon connection closed");
  });

  it("fails the evicted HTTP client's next mutation clearly: never sent, mutationPossible false, sessionExpired", async () => {
    const { bridge, daemon } = await harness({ maxClients: 1, evictIdleAfterMs: EVICT_AFTER_MS });
    const glass = await Glass.connect(httpTransport({ url: bridge.url, token: bridge.token }));
    cleanups.push(() => glass.close());
    await idleLongEnough();
    const other = await openHttpSession(bridge);
    expect((await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(bridge.token, other) })).status).toBe(200);

    const envelope = await glass.send(fixtureRequest("click-renew"));
    if (envelope.ok) throw new Error("the mutation succeeded after its session was evicted");
    const { error } = envelope;
    expect(error).toMatchObject({
      code: "transport.closed",
      mutationPossible: false,
      details: { sessionExpired: true },
    });
    expect(error.message).toMatch(/expired.*NOT sent again/);
    expect(daemon.calls.filter((call) => call.tool === "click")).toEqual([]);
    // The transport started a new session: the client goes on from there.
    expect(await glass.request("browser.observe", {})).toBeDefined();
  });
});

describe("bridge sessions past the daemon's own client limit", () => {
  it("refuses the 5th HTTP session with 503 saying the daemon closed the connection and what to change, not -32603 later", async () => {
    const { bridge, daemon, logs } = await harness({ maxClients: 6 });
    for (let i = 0; i < 4; i++) await openHttpSession(bridge);
    expect(daemon.clientCount()).toBe(4);

    const fifth = await initialize(bridge);
    expect(fifth.status).toBe(503);
    expect(fifth.headers.get("mcp-session-id")).toBeNull();
    const body = (await fifth.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBeNull();
    expect(body.error.message).toBe(
      "Service Unavailable: the Glass daemon closed the new connection before answering, as it does past its client limit (4): " +
        "close other clients of the daemon or lower --max-clients (now 6)",
    );
    await eventually(() => bridge.sessionCount() === 4, "the refused session gave its place back");
    expect(logs.some((line) => /ended \(http\): refused by the daemon/.test(line))).toBe(true);
  });

  it("turns it into a TransportUnavailableError for httpTransport that quotes the bridge", async () => {
    const { bridge } = await harness({ maxClients: 6 });
    for (let i = 0; i < 4; i++) await openHttpSession(bridge);
    const failed = await Glass.connect(httpTransport({ url: bridge.url, token: bridge.token, maxRetries: 0 })).then(
      () => undefined,
      (error: unknown) => error as GlassError,
    );
    expect(failed).toMatchObject({ code: "transport.unavailable", details: { status: 503 } });
    expect(failed?.message).toMatch(
      /could not start a session \(HTTP 503\): .*daemon closed the new connection.*lower --max-clients \(now 6\)/,
    );
    expect(failed?.message).not.toMatch(/raise its --max-clients/);
  });

  it("refuses the 5th WebSocket session with 503 or, once upgraded, close code 1013 and the reason — never -32603", async () => {
    const { bridge, daemon } = await harness({ maxClients: 6 });
    for (let i = 0; i < 4; i++) await openWebSocket(bridge);
    expect(daemon.clientCount()).toBe(4);

    const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${bridge.token}`]);
    if ("socket" in upgrade) {
      const peer = new WsPeer(upgrade.socket);
      peer.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS });
      const closed = await peer.closed;
      expect(closed.code).toBe(1013);
      expect(closed.reason).toMatch(/daemon refused the connection.*lower --max-clients/);
      expect(peer.received).toEqual([]);
    } else {
      expect(upgrade.status).toBe(503);
      expect(upgrade.body).toMatch(/daemon closed the new connection.*lower --max-clients \(now 6\)/);
    }
    await eventually(() => bridge.sessionCount() === 4, "the refused session gave its place back");
  });
});
