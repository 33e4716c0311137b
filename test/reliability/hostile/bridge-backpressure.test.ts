/**
 * Peers that stop reading. An authenticated WebSocket client sends 20,000 requests and never reads
 * a byte of the answers; another gets answers far larger than it reads; a daemon stops reading
 * what the bridge writes to it, under a WebSocket and under HTTP requests. The bridge must hold a
 * bounded number of bytes for each: it stops reading the client once `maxBufferedBytes` wait,
 * closes the socket with 1008 past `maxBufferedBytes` + 32 MiB, and answers HTTP requests -32000
 * while the daemon has that much unwritten. The bounds are checked on the bridge's own count of the
 * bytes it holds (its log line when the session ends), not by timing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBridge, type Bridge } from "../../../src/node/bridge/start-bridge.js";
import { INITIALIZE_PARAMS, eventually, mcpHeaders } from "../../support/bridge-harness.js";
import { delay } from "../support/bridge-raw-http.js";
import { startHostileDaemon, type HostileConnection, type HostileDaemon } from "../support/hostile-daemon.js";
import { openRawWebSocket, type RawWebSocket } from "../support/raw-websocket.js";

const TOKEN = "BaCkPrEsSuRe-bridge-token.Jv6Qm2Xt9Lc4Rw8Nb1_Hk5~Ps3";
const KiB = 1024;
const MiB = 1024 * KiB;
/** The daemon's own response limit, the largest answer the bridge relays. */
const MAX_ANSWER = 32 * MiB;
/** The bridge's cap on a session's requests in flight. */
const IN_FLIGHT = 64;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bridgeFor(daemon: HostileDaemon, maxBufferedBytes: number): Promise<{ bridge: Bridge; logs: string[] }> {
  const logs: string[] = [];
  const bridge = await startBridge({
    port: 0,
    token: TOKEN,
    upstream: { socket: daemon.path },
    maxBufferedBytes,
    log: (line) => logs.push(line),
  });
  cleanups.push(() => bridge.close());
  return { bridge, logs };
}

async function hostileDaemon(script: Parameters<typeof startHostileDaemon>[0]): Promise<HostileDaemon> {
  const daemon = await startHostileDaemon(script);
  cleanups.push(() => daemon.close());
  return daemon;
}

async function rawSession(bridge: Bridge): Promise<RawWebSocket> {
  const raw = await openRawWebSocket(bridge.port, TOKEN);
  cleanups.push(async () => raw.destroy());
  await raw.request("init", "initialize", INITIALIZE_PARAMS);
  raw.sendTexts([JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })]);
  return raw;
}

const toolCall = (id: number | string, extra = ""): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "observe", arguments: { pad: extra } } });

/** The numbers of the bridge's end-of-session line: the most that waited for the client and for the daemon. */
function peaks(logs: readonly string[]): { toClient: number; toDaemon: number } | undefined {
  const line = logs.find((candidate) => / at most \d+ bytes waited to be sent to its client/.test(candidate));
  if (line === undefined) return undefined;
  const match = /at most (\d+) bytes waited to be sent to its client and (\d+) to be written to its daemon/.exec(line);
  if (match === null) throw new Error(`unexpected line: ${line}`);
  return { toClient: Number(match[1]), toDaemon: Number(match[2]) };
}

/** Resolves once `read()` has not changed for `quietMs` (the peers have nothing left in flight). */
async function settled(read: () => number, quietMs = 400): Promise<number> {
  let last = read();
  let since = Date.now();
  for (;;) {
    await delay(20);
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return now;
  }
}

describe("hostile bridge: a WebSocket client that never reads", () => {
  it("20,000 requests, never read: the bridge stops reading the client, forwards a bounded number and holds a bounded number of bytes", async () => {
    const ANSWER_TEXT = 2 * KiB;
    const REQUESTS = 20_000;
    const SOFT = 256 * KiB;
    // Ids of 1 KiB: every answer and every refusal carries its id back, so each request costs the
    // bridge at least 1 KiB of output (20 MB in all), more than the kernel's socket buffers hold.
    const idOf = (i: number): string => `${i}-${"i".repeat(KiB)}`;
    const ID_BYTES = KiB + 8;
    let answered = 0;
    const daemon = await hostileDaemon((message, connection) => {
      if (!("id" in message) || !("method" in message)) return;
      answered++;
      connection.send({
        jsonrpc: "2.0",
        id: message.id,
        result: { content: [{ type: "text", text: "x".repeat(ANSWER_TEXT) }] },
      });
    });
    const { bridge, logs } = await bridgeFor(daemon, SOFT);
    const raw = await rawSession(bridge);
    raw.stopReading();
    raw.sendTexts(Array.from({ length: REQUESTS }, (_, i) => toolCall(idOf(i))));

    const fellBehind = (): boolean => logs.some((line) => /the client reads slower than it asks/.test(line));
    // Either the bridge stops reading the client, or (without backpressure) every request reaches the daemon.
    await eventually(
      () => fellBehind() || answered >= REQUESTS,
      "the bridge stopped reading the client or forwarded everything",
      15_000,
    );
    const forwarded = await settled(() => answered);
    raw.destroy();
    await eventually(
      () => peaks(logs) !== undefined || (bridge.sessionCount() === 0 && !fellBehind()),
      "the session ended",
    );
    const peak = peaks(logs);
    console.info(
      `a client that never reads: ${forwarded} of ${REQUESTS} requests forwarded; the bridge held at most ${peak?.toClient ?? "?"} bytes for it`,
    );

    expect(fellBehind()).toBe(true);
    // The bound, counted by the bridge: what it held for the client never passed the point where
    // it stopped reading, plus the answers to the requests it had already forwarded (at most 64
    // in flight) and the answers to what it had already taken in from the socket (a few chunks).
    expect(peak).toBeDefined();
    expect(peak!.toClient).toBeLessThanOrEqual(SOFT + IN_FLIGHT * (ANSWER_TEXT + ID_BYTES + 200) + 512 * KiB);
    expect(peak!.toClient).toBeLessThanOrEqual(SOFT + MAX_ANSWER);
    // Only part of the flood reached the daemon: what fit in the kernel's socket buffers and the
    // bridge's bound, not 20,000 answers (60 MB).
    expect(forwarded * (ANSWER_TEXT + ID_BYTES)).toBeLessThan(24 * MiB);
    expect(forwarded).toBeLessThan(REQUESTS / 2);
    expect(bridge.sessionCount()).toBe(0);
  }, 20_000);

  it("answers far larger than the client reads: past maxBufferedBytes + 32 MiB the one socket is closed with 1008", async () => {
    const SOFT = 1 * MiB;
    const CALLS = 48;
    const ANSWER = "y".repeat(1 * MiB);
    const held: { id: unknown; connection: HostileConnection }[] = [];
    const daemon = await hostileDaemon((message, connection) => {
      if (!("id" in message) || !("method" in message)) return;
      if (message.method === "tools/list")
        return connection.send({ jsonrpc: "2.0", id: message.id, result: { tools: [] } });
      held.push({ id: message.id, connection });
      // Hold every answer until all are asked, then send them at once: 48 MiB for a client that reads nothing.
      if (held.length === CALLS)
        for (const call of held)
          call.connection.send(
            `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":{"content":[{"type":"text","text":"${ANSWER}"}]}}`,
          );
    });
    const { bridge, logs } = await bridgeFor(daemon, SOFT);
    const other = await rawSession(bridge);
    const raw = await rawSession(bridge);
    raw.stopReading();
    raw.sendTexts(Array.from({ length: CALLS }, (_, i) => toolCall(i)));

    const closedLine = (): string | undefined =>
      logs.find((line) => /ended \(websocket\): the WebSocket closed \(1008\)/.test(line));
    await eventually(() => closedLine() !== undefined, "the bridge closed the socket that does not read", 15_000);
    expect(closedLine()).toMatch(
      /the client does not read its messages: \d+ bytes wait to be sent to it and \d+ more would pass the limit of 34603008/,
    );
    const peak = peaks(logs);
    expect(peak).toBeDefined();
    console.info(
      `answers larger than the client reads: the bridge held at most ${peak!.toClient} bytes for it, then closed it with 1008`,
    );
    expect(peak!.toClient).toBeLessThanOrEqual(SOFT + MAX_ANSWER);
    await eventually(() => daemon.connections() === 1, "the closed session's daemon connection closed");
    // The other session is untouched.
    expect(await other.request("after", "tools/list")).toMatchObject({ id: "after" });
    expect(bridge.sessionCount()).toBe(1);
  }, 20_000);
});

describe("hostile bridge: a daemon that stops reading", () => {
  it("under a WebSocket client: the bridge stops reading the client once maxBufferedBytes wait for the daemon", async () => {
    const SOFT = 256 * KiB;
    let daemonSide: HostileConnection | undefined;
    let notifications = 0;
    const daemon = await hostileDaemon((message, connection) => {
      if (message.method === "notifications/initialized") {
        daemonSide = connection;
        connection.stopReading();
      } else if (message.method === "notifications/progress") notifications++;
    });
    const { bridge, logs } = await bridgeFor(daemon, SOFT);
    const raw = await rawSession(bridge);
    // 32 MB of notifications (no answer expected, so no in-flight cap applies).
    const pad = "z".repeat(16 * KiB);
    raw.sendTexts(
      Array.from({ length: 2000 }, () =>
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: 1, message: pad },
        }),
      ),
    );

    const fellBehind = (): boolean => logs.some((line) => /the daemon reads slower than the client sends/.test(line));
    // Either the bridge stops reading the client, or (without backpressure) it takes all 32 MB in.
    await eventually(
      () => fellBehind() || raw.socket.writableLength === 0,
      "the bridge stopped reading or took everything",
      15_000,
    );
    expect(fellBehind()).toBe(true);
    // The client's writes stay in its own socket: the bridge is not reading them.
    expect(raw.socket.writableLength).toBeGreaterThan(8 * MiB);
    // Once the daemon reads again, everything flows: the bridge reads the client again.
    daemonSide!.resumeReading();
    await eventually(() => notifications === 2000, "every notification reached the daemon", 15_000);
    raw.socket.end();
    await eventually(() => peaks(logs) !== undefined, "the session ended");
    const peak = peaks(logs)!;
    console.info(`a daemon that stops reading: the bridge held at most ${peak.toDaemon} bytes for it`);
    // What waited for the daemon passed the bound by at most what the bridge had already taken in.
    expect(peak.toDaemon).toBeLessThanOrEqual(SOFT + 1 * MiB);
  }, 20_000);

  it("under HTTP requests: once maxBufferedBytes wait for the daemon, further requests are answered -32000 at once", async () => {
    const SOFT = 256 * KiB;
    const daemon = await hostileDaemon((message, connection) => {
      if (message.method === "notifications/initialized") connection.stopReading();
    });
    const { bridge } = await bridgeFor(daemon, SOFT);
    const initialize = await fetch(bridge.url, {
      method: "POST",
      headers: mcpHeaders(TOKEN),
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS }),
    });
    const sessionId = initialize.headers.get("mcp-session-id")!;
    await initialize.text();
    expect(
      (
        await fetch(bridge.url, {
          method: "POST",
          headers: mcpHeaders(TOKEN, sessionId),
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        })
      ).status,
    ).toBe(202);

    const aborter = new AbortController();
    const pad = "w".repeat(512 * KiB);
    const answers: Record<string, unknown>[] = [];
    // 60 requests of 512 KiB (30 MiB): the kernel takes a few MiB, then the bound applies.
    for (let i = 1; i <= 60; i++) {
      void fetch(bridge.url, {
        method: "POST",
        headers: mcpHeaders(TOKEN, sessionId),
        body: toolCall(i, pad),
        signal: aborter.signal,
      })
        .then(async (response) => answers.push((await response.json()) as Record<string, unknown>))
        .catch(() => undefined);
      await delay(5);
    }
    await eventually(() => answers.length > 0, "a request was answered while the daemon is not reading", 15_000);
    expect(answers[0]).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/the daemon is not reading/) as unknown as string },
    });
    aborter.abort();
  }, 20_000);
});
