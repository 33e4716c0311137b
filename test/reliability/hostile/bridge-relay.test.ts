/**
 * Messages the bridge cannot relay, against the real `glass-sdk bridge` process: a hostile daemon
 * answers with 50,000 levels of nesting (which no JSON serialiser with a call stack can write back
 * out), sends such a notification or request of its own, and clients send the same to the bridge.
 * The bridge must not die: the one call fails with -32603 (over WebSocket and over HTTP alike),
 * a message with no id to answer closes that one socket with 1011, and every other session, and
 * new ones, go on being served by the same process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE_PARAMS, tryWebSocket, WsPeer } from "../../support/bridge-harness.js";
import { nestedArrays, responseLineWith, startHostileDaemon, type HostileDaemon } from "../support/hostile-daemon.js";
import { runCli, startupLine, type CliRun } from "../support/secrets-cli.js";

const TOKEN = "ReLaY-bridge-token.Hq4Wd8Zm1Xc6Vb3Nt7_Kf2~Lp9";
const LEVELS = 50_000;
const deep = nestedArrays(LEVELS);
/** What the daemon's server requests got back from the bridge, by request id. */
const answersToDaemon = new Map<unknown, Record<string, unknown>>();

let daemon: HostileDaemon;
let cli: CliRun;
let url: string;
let wsUrl: string;

beforeAll(async () => {
  daemon = await startHostileDaemon((message, connection) => {
    if (!("method" in message)) {
      answersToDaemon.set(message.id, message);
      return;
    }
    if (!("id" in message)) return;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    const ok = { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "{}" }] } };
    switch (name) {
      case "deep-answer":
        return connection.send(responseLineWith(message.id, deep));
      case "deep-notification":
        connection.send(ok);
        return connection.send(
          `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${deep}}}`,
        );
      case "deep-request":
        connection.send(
          `{"jsonrpc":"2.0","id":"from-daemon","method":"elicitation/create","params":{"message":"?","requestedSchema":${deep}}}`,
        );
        return connection.send(ok);
      default:
        return connection.send(ok);
    }
  });
  cli = runCli(["bridge", "--port", "0", "--token", TOKEN, "--socket", daemon.path]);
  await cli.waitFor(/browser pages: /);
  ({ url, wsUrl } = startupLine(cli.stderr()));
}, 30_000);

afterAll(async () => {
  await cli?.stop();
  await daemon?.close();
});

const call = (name: string): Record<string, unknown> => ({ name, arguments: {} });

async function webSocketSession(): Promise<WsPeer> {
  const upgrade = await tryWebSocket(wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
  if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status} ${upgrade.body}`);
  const peer = new WsPeer(upgrade.socket);
  await peer.handshake();
  return peer;
}

const headers = (sessionId?: string): Record<string, string> => ({
  Authorization: `Bearer ${TOKEN}`,
  "Content-Type": "application/json",
  Accept: "application/json",
  ...(sessionId === undefined ? {} : { "Mcp-Session-Id": sessionId }),
});

async function httpSession(): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS }),
  });
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

async function httpPost(sessionId: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: headers(sessionId), body });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function expectAlive(): void {
  expect(cli.child.exitCode).toBeNull();
  expect(cli.child.signalCode).toBeNull();
}

describe("hostile bridge: messages that cannot be relayed", () => {
  it("a daemon answer nested 50,000 levels fails that one WebSocket call with -32603; the socket and other sessions go on", async () => {
    const peer = await webSocketSession();
    const other = await webSocketSession();
    const failed = await peer.request(1, "tools/call", call("deep-answer"));
    expect(failed).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32603 } });
    expect((failed.error as { message: string }).message).toMatch(/could not be relayed/);
    expectAlive();
    // The same socket, another session and a new session all still work.
    expect(await peer.request(2, "tools/call", call("ok"))).toMatchObject({ id: 2, result: {} });
    expect(await other.request(3, "tools/call", call("ok"))).toMatchObject({ id: 3, result: {} });
    const fresh = await webSocketSession();
    expect(await fresh.request(4, "tools/call", call("ok"))).toMatchObject({ id: 4, result: {} });
    for (const open of [peer, other, fresh]) open.socket.close();
    await Promise.all([peer.closed, other.closed, fresh.closed]);
  });

  it("over HTTP the same answer is a JSON-RPC -32603 for that request (200, not a 500), and the session goes on", async () => {
    const sessionId = await httpSession();
    const failed = await httpPost(
      sessionId,
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: call("deep-answer") }),
    );
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32603 } });
    expect((failed.json.error as { message: string }).message).toMatch(/could not be relayed/);
    expectAlive();
    const ok = await httpPost(
      sessionId,
      JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: call("ok") }),
    );
    expect(ok).toMatchObject({ status: 200, json: { id: 8, result: {} } });
    await fetch(url, { method: "DELETE", headers: headers(sessionId) });
  });

  it("a daemon notification that cannot be relayed closes only that socket, with 1011", async () => {
    const peer = await webSocketSession();
    const other = await webSocketSession();
    expect(await peer.request(1, "tools/call", call("deep-notification"))).toMatchObject({ id: 1, result: {} });
    expect(await peer.closed).toEqual({
      code: 1011,
      reason: expect.stringMatching(/could not be relayed/) as unknown as string,
    });
    expectAlive();
    expect(await other.request(2, "tools/call", call("ok"))).toMatchObject({ id: 2, result: {} });
    const fresh = await webSocketSession();
    expect(await fresh.request(3, "tools/call", call("ok"))).toMatchObject({ id: 3, result: {} });
    for (const open of [other, fresh]) open.socket.close();
    await Promise.all([other.closed, fresh.closed]);
  });

  it("a daemon request that cannot be relayed is answered -32603 to the daemon; the socket goes on", async () => {
    const peer = await webSocketSession();
    expect(await peer.request(1, "tools/call", call("deep-request"))).toMatchObject({ id: 1, result: {} });
    await expect
      .poll(() => answersToDaemon.get("from-daemon"))
      .toMatchObject({ id: "from-daemon", error: { code: -32603 } });
    expect(peer.received.some((message) => message.method === "elicitation/create")).toBe(false);
    expect(await peer.request(2, "tools/call", call("ok"))).toMatchObject({ id: 2, result: {} });
    expectAlive();
    peer.socket.close();
    await peer.closed;
  });

  it("a client that sends 50,000 levels (and an unterminated 4 MiB nesting) gets an error for that message; the bridge serves on", async () => {
    const deepRequest = (id: number): string =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ok","arguments":{"a":${deep}}}}`;
    const deepObjects = (id: number): string =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"ok","arguments":${'{"a":'.repeat(LEVELS)}1${"}".repeat(LEVELS)}}}`;
    const unterminated = "[".repeat(4 * 1024 * 1024 - 16);

    const peer = await webSocketSession();
    peer.socket.send(deepRequest(1));
    expect(await peer.waitFor((m) => m.id === 1)).toMatchObject({ id: 1, error: { code: -32603 } });
    peer.socket.send(deepObjects(2));
    expect(await peer.waitFor((m) => m.id === 2)).toMatchObject({ id: 2, error: { code: -32603 } });
    peer.socket.send(unterminated);
    expect(await peer.waitFor((m) => m.id === null)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await peer.request(3, "tools/call", call("ok"))).toMatchObject({ id: 3, result: {} });

    const sessionId = await httpSession();
    expect(await httpPost(sessionId, deepRequest(4))).toMatchObject({
      status: 200,
      json: { id: 4, error: { code: -32603 } },
    });
    expect(await httpPost(sessionId, deepObjects(5))).toMatchObject({
      status: 200,
      json: { id: 5, error: { code: -32603 } },
    });
    expect((await httpPost(sessionId, unterminated)).status).toBe(400);
    expect(
      await httpPost(sessionId, JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/call", params: call("ok") })),
    ).toMatchObject({ status: 200, json: { id: 6, result: {} } });
    expectAlive();
    peer.socket.close();
    await peer.closed;
    await fetch(url, { method: "DELETE", headers: headers(sessionId) });
  });

  it("the process is still the one that started, and stops cleanly", async () => {
    expectAlive();
    expect(cli.stderr()).not.toMatch(/RangeError|Maximum call stack/);
    expect(await cli.stop()).toBe(0);
    expect(cli.stderr().split(TOKEN).length - 1).toBe(0);
  });
});
