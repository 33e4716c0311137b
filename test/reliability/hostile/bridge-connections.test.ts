/**
 * A local process that holds the bridge's connections, and a bridge listening beyond loopback.
 * Any process on the machine can open TCP connections to the bridge without the token: by keeping
 * `maxConnections` idle sockets open, and re-opening each one as it closes, it used to keep every
 * new client out. Now a newcomer evicts the oldest connection that has not presented the token, a
 * connection that sends nothing is closed after `firstByteTimeoutMs`, and connections that have
 * presented the token are never evicted. And `--host 0.0.0.0 --allow-remote` says where the bridge
 * really listens and warns that it is reachable from the network.
 */
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { httpTransport } from "../../../src/transport/http-transport.js";
import {
  eventually,
  startBridgeHarness,
  tryWebSocket,
  WsPeer,
  type BridgeHarness,
} from "../../support/bridge-harness.js";
import { rawClient, type RawClient } from "../support/bridge-raw-http.js";
import { runCli } from "../support/secrets-cli.js";

const TOKEN = "CoNnEcTiOnS-bridge-token.Xb7Lq3Wm9Rz1Vc5Nt2_Hd8~Kf4";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(options: Parameters<typeof startBridgeHarness>[0]): Promise<BridgeHarness> {
  const started = await startBridgeHarness({ token: TOKEN, ...options });
  cleanups.push(() => started.stop());
  return started;
}

/** A local process that keeps `count` idle connections open, opening a new one whenever one closes. */
function connectionHog(port: number, count: number): { clients: RawClient[]; reopened(): number; stop(): void } {
  const clients: RawClient[] = [];
  let running = true;
  let reopened = 0;
  const open = (): void => {
    const client = rawClient(port);
    clients.push(client);
    void client.outcome.then(() => {
      if (!running) return;
      reopened++;
      open();
    });
  };
  for (let i = 0; i < count; i++) open();
  cleanups.push(() => {
    running = false;
    for (const client of clients) client.destroy();
  });
  return {
    clients,
    reopened: () => reopened,
    stop: () => {
      running = false;
      for (const client of clients) client.destroy();
    },
  };
}

async function webSocketSession(url: string): Promise<WsPeer> {
  const upgrade = await tryWebSocket(url, ["mcp", `glass-bearer.${TOKEN}`]);
  if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
  const peer = new WsPeer(upgrade.socket);
  await peer.handshake();
  cleanups.push(async () => {
    peer.socket.close();
    await peer.closed;
  });
  return peer;
}

describe("hostile bridge: a local process that holds every connection", () => {
  it("a client still gets in while another process keeps maxConnections idle sockets open and re-opens them", async () => {
    const MAX = 8;
    // A long first-byte timeout: here it is eviction alone that lets the client in.
    const { bridge, logs } = await harness({ maxConnections: MAX, firstByteTimeoutMs: 60_000 });
    const hog = connectionHog(bridge.port, MAX);
    await Promise.all(hog.clients.map((client) => client.connected));

    for (let round = 0; round < 3; round++) {
      const glass = await Glass.connect(httpTransport({ url: bridge.url, token: TOKEN }), { deadlineMs: 5000 });
      await expect(glass.browser.observe({ level: "summary" }, { deadlineMs: 5000 })).resolves.toBeDefined();
      await glass.close();
    }
    expect(
      logs.some((line) =>
        /^evicted a connection from 127\.0\.0\.1 that had not presented the token, to admit a new one \(maxConnections 8\)$/.test(
          line,
        ),
      ),
    ).toBe(true);
    // The hog was evicted and came back: it never held the client out.
    expect(hog.reopened()).toBeGreaterThan(0);
    hog.stop();
  });

  it("connections that presented the token are never evicted: with every place held by one, a newcomer is closed at once", async () => {
    const MAX = 3;
    const { bridge, logs } = await harness({ maxConnections: MAX, maxClients: MAX, firstByteTimeoutMs: 60_000 });
    const sessions = [await webSocketSession(bridge.wsUrl), await webSocketSession(bridge.wsUrl)];
    // One place left: an idle socket takes it, and the next newcomer evicts it (it never showed the token).
    const idle = rawClient(bridge.port);
    await idle.connected;
    const newcomer = rawClient(bridge.port);
    await newcomer.connected;
    expect((await idle.outcome).closedByPeer).toBe(true);
    expect(newcomer.isOpen()).toBe(true);
    newcomer.destroy();
    // A third session takes the last place; now every place has presented the token.
    sessions.push(await webSocketSession(bridge.wsUrl));
    const refused = rawClient(bridge.port);
    expect((await refused.outcome).closedByPeer).toBe(true);
    expect(
      logs.some((line) =>
        /^refused a connection from 127\.0\.0\.1: all 3 connections have presented the token \(maxConnections\)$/.test(
          line,
        ),
      ),
    ).toBe(true);
    // All three sessions still work.
    for (const [i, peer] of sessions.entries())
      expect(await peer.request(`after-${i}`, "tools/list")).toHaveProperty("result");
  });

  it("a connection that sends no byte is closed after firstByteTimeoutMs; one that has started its request is left to the request timeouts", async () => {
    const { bridge, logs } = await harness({ firstByteTimeoutMs: 300, headersTimeoutMs: 8000, requestTimeoutMs: 8000 });
    const silent = rawClient(bridge.port);
    const started = rawClient(bridge.port, { initial: "POST /mcp HTTP/1.1\r\n" });
    await Promise.all([silent.connected, started.connected]);
    // Well before the 8 s headers timeout.
    await eventually(() => !silent.isOpen(), "the silent connection was closed", 5000);
    const outcome = await silent.outcome;
    expect(outcome.closedByPeer).toBe(true);
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(started.isOpen()).toBe(true);
    expect(
      logs.some((line) => /^closed a connection from 127\.0\.0\.1: no byte within 300 ms \(408\)$/.test(line)),
    ).toBe(true);
    started.destroy();
  });
});

describe("hostile bridge: listening beyond loopback", () => {
  it("--host 0.0.0.0 --allow-remote prints the real address and every interface it answers at, with a warning", async () => {
    const cli = runCli([
      "bridge",
      "--port",
      "0",
      "--host",
      "0.0.0.0",
      "--allow-remote",
      "--token",
      TOKEN,
      "--socket",
      "/nonexistent/glass.sock",
    ]);
    cleanups.push(async () => void (await cli.stop()));
    await cli.waitFor(/browser pages: /);
    const stderr = cli.stderr();
    const port = /listening on 0\.0\.0\.0:(\d+) \(every IPv4 interface\): /.exec(stderr)?.[1];
    expect(port, stderr).toBeDefined();
    expect(stderr).toMatch(
      /^glass-sdk bridge: warning: the bridge is reachable from the network: it listens on 0\.0\.0\.0:\d+ \(every IPv4 interface\)/m,
    );
    expect(stderr).not.toMatch(/listening on http:\/\/127\.0\.0\.1/);
    const ipv4 = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((entry) => entry.family === "IPv4")
      .map((entry) => entry.address);
    expect(ipv4.length).toBeGreaterThan(0);
    for (const address of ipv4) expect(stderr).toContain(`http://${address}:${port!}/mcp`);
    expect(await cli.stop()).toBe(0);
  });

  it("a loopback bridge prints its one URL and no warning", async () => {
    const cli = runCli(["bridge", "--port", "0", "--token", TOKEN, "--socket", "/nonexistent/glass.sock"]);
    cleanups.push(async () => void (await cli.stop()));
    await cli.waitFor(/browser pages: /);
    expect(cli.stderr()).toMatch(
      /^glass-sdk bridge: listening on http:\/\/127\.0\.0\.1:\d+\/mcp \(and ws:\/\/127\.0\.0\.1:\d+\/mcp\) — token: the one you gave/m,
    );
    expect(cli.stderr()).not.toMatch(/warning/);
  });
});
