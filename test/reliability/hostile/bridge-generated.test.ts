/**
 * Property test of the bridge against a daemon that answers with generated hostile messages: deep
 * (arrays or objects, relayable or far past what a serialiser can write back), wide, long, numbers
 * that grow when written back, errors with such data, and around the answer garbage lines, stray
 * and duplicate answers, notifications and requests of the daemon's own. For every case, over
 * WebSocket and over HTTP: the call gets its answer (or -32603 when that answer cannot be relayed)
 * with its id; a WebSocket closes with 1011 only when the daemon sent an unrelayable message with
 * no id; the bridge never throws (an exception would fail the run) and serves the next case; and
 * the process grows by less than a stated bound over the run.
 *
 * Seeded: every run generates the same cases. `GLASS_PROPERTY_SEED=<n>` runs another seed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBridge, type Bridge } from "../../../src/node/bridge/start-bridge.js";
import { INITIALIZE_PARAMS, mcpHeaders, tryWebSocket, WsPeer } from "../../support/bridge-harness.js";
import { baseSeed, recordGeneratedCases } from "../support/generated-cases.js";
import { startHostileDaemon, type HostileDaemon } from "../support/hostile-daemon.js";
import {
  answerLine,
  caseArbitrary,
  extraLines,
  isUnrelayable,
  type DaemonCase,
  type Extra,
  type Answer,
} from "../support/hostile-messages.js";

const TOKEN = "PrOpErTiEs-bridge-token.Kc5Wq1Xn8Lz3Rv7Mb2_Td6~Hj4";
const SEED = baseSeed(20261203);
const RUNS = 60;
/** How much the whole process may grow over the run (generous: transient parse and serialise buffers). */
const MEMORY_BOUND_BYTES = 256 * 1024 * 1024;

const answerRelayable = (answer: Answer): boolean =>
  !((answer.kind === "deep" || answer.kind === "errorWithData") && isUnrelayable(answer.levels));
const closesSocket = (extra: Extra): boolean => extra.kind === "notification" && isUnrelayable(extra.levels);

/** The cases the daemon plays, by the call's id. */
const cases = new Map<string, DaemonCase>();
let daemon: HostileDaemon;
let bridge: Bridge;

beforeAll(async () => {
  daemon = await startHostileDaemon((message, connection) => {
    if (!("method" in message) || !("id" in message)) return;
    const id = String(message.id);
    const played = cases.get(id);
    if (played === undefined) return connection.send({ jsonrpc: "2.0", id: message.id, result: {} });
    const answer = answerLine(id, played.answer);
    for (const extra of played.before) for (const line of extraLines(id, extra, answer)) connection.send(line);
    connection.send(answer);
    for (const extra of played.after) for (const line of extraLines(id, extra, answer)) connection.send(line);
  });
  bridge = await startBridge({ port: 0, token: TOKEN, upstream: { socket: daemon.path }, log: () => undefined });
});

afterAll(async () => {
  await bridge?.close();
  await daemon?.close();
});

async function webSocketSession(): Promise<WsPeer> {
  const upgrade = await tryWebSocket(bridge.wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
  if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
  const peer = new WsPeer(upgrade.socket);
  await peer.handshake();
  return peer;
}

async function httpSession(): Promise<string> {
  const response = await fetch(bridge.url, {
    method: "POST",
    headers: mcpHeaders(TOKEN),
    body: JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: INITIALIZE_PARAMS }),
  });
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

/** What a client must see for its call in this case. */
function expectAnswer(played: DaemonCase, id: string, answer: Record<string, unknown> | undefined): void {
  expect(answer, `the answer to ${id}`).toBeDefined();
  expect(answer!.id).toBe(id);
  if (!answerRelayable(played.answer)) {
    expect(answer).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/could not be relayed/) as unknown as string },
    });
  } else if (played.answer.kind === "errorWithData") {
    expect(answer).toMatchObject({ error: { code: -32603, message: "tool failed" } });
  } else {
    expect(answer).toHaveProperty("result");
  }
}

describe("hostile bridge: generated daemon messages", () => {
  it(`${RUNS} generated cases over WebSocket and HTTP: each call answered with its id, the bridge serving on`, async (context) => {
    let peer = await webSocketSession();
    let sessionId = await httpSession();
    let serial = 0;
    const rssBefore = process.memoryUsage().rss;
    const details = await fc.check(
      fc.asyncProperty(caseArbitrary, async (played) => {
        // Over HTTP: a 200 with the answer, or -32603 for that id.
        const httpId = `http-${serial++}`;
        cases.set(httpId, played);
        const response = await fetch(bridge.url, {
          method: "POST",
          headers: mcpHeaders(TOKEN, sessionId),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: httpId,
            method: "tools/call",
            params: { name: "observe", arguments: {} },
          }),
        });
        expect(response.status).toBe(200);
        expectAnswer(played, httpId, (await response.json()) as Record<string, unknown>);

        // Over WebSocket: the answer first; the socket closes with 1011 only for an unrelayable notification.
        const wsId = `ws-${serial++}`;
        cases.set(wsId, played);
        // A "duplicate" before is the answer itself, already sent: a close after it comes too late to lose it.
        const firstAnswer = played.before.findIndex((extra) => extra.kind === "duplicate");
        const closedEarly = played.before.slice(0, firstAnswer === -1 ? undefined : firstAnswer).some(closesSocket);
        const closedLate = !closedEarly && [...played.before, ...played.after].some(closesSocket);
        peer.send({ jsonrpc: "2.0", id: wsId, method: "tools/call", params: { name: "observe", arguments: {} } });
        const outcome = await Promise.race([
          peer.waitFor((m) => m.id === wsId && !("method" in m), 5000).then((answer) => ({ answer })),
          peer.closed.then((closed) => ({ closed })),
        ]);
        if ("answer" in outcome) {
          expect(closedEarly).toBe(false);
          expectAnswer(played, wsId, outcome.answer);
        }
        if (closedEarly || closedLate) {
          expect(await peer.closed).toMatchObject({ code: 1011 });
          peer = await webSocketSession();
        } else {
          // The socket is still open and serves the next call.
          expect(await peer.request(`ping-${wsId}`, "tools/list")).toHaveProperty("result");
        }
        // HTTP: the session still serves.
        const ping = await fetch(bridge.url, {
          method: "POST",
          headers: mcpHeaders(TOKEN, sessionId),
          body: JSON.stringify({ jsonrpc: "2.0", id: `ping-${httpId}`, method: "tools/list" }),
        });
        expect(ping.status).toBe(200);
        await ping.text();
      }),
      { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
    );
    recordGeneratedCases(context, details.numRuns);
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `property failed (seed ${SEED})`);
    // Nothing of the cases is kept: the process (bridge, daemon and test together) grew by less
    // than a generous bound, far below what keeping every answer would cost.
    const grownBy = process.memoryUsage().rss - rssBefore;
    console.info(
      `${details.numRuns} generated daemon cases through the bridge: RSS grew by ${Math.round(grownBy / 1024 / 1024)} MB`,
    );
    expect(grownBy).toBeLessThan(MEMORY_BOUND_BYTES);
    peer.socket.close();
    await peer.closed;
    await fetch(bridge.url, { method: "DELETE", headers: mcpHeaders(TOKEN, sessionId) });
    sessionId = "";
    expect(bridge.sessionCount()).toBe(0);
  }, 90_000);
});
