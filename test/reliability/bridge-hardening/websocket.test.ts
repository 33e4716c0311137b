/**
 * WebSocket messages over the bridge's limit: a single frame, a message fragmented into frames that
 * are each under the limit, and the exact boundary. Over the limit the socket closes with 1009, the
 * session ends, its daemon connection closes, and the oversized message never reaches the daemon.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixtureToolCall } from "../../support/fixture-calls.js";
import {
  eventually,
  fixtureRequest,
  startBridgeHarness,
  tryWebSocket,
  WsPeer,
  type BridgeHarness,
} from "../../support/bridge-harness.js";
import { findSecrets } from "../support/secrets-scan.js";

const TOKEN = "WeBsOcKeT-bridge-token.Rk2Vn7Qx4Mz9Lw1Hp6Tb3_Jc8~Sd5";
const MAX_MESSAGE = 1024;

const harnesses: BridgeHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.stop();
});

async function session(): Promise<{ harness: BridgeHarness; peer: WsPeer }> {
  const harness = await startBridgeHarness({ token: TOKEN, maxMessageBytes: MAX_MESSAGE });
  harnesses.push(harness);
  const upgrade = await tryWebSocket(harness.bridge.wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
  if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
  const peer = new WsPeer(upgrade.socket);
  await peer.handshake();
  await eventually(() => harness.daemon.clientCount() === 1, "the daemon saw the session");
  return { harness, peer };
}

/** A tools/call whose JSON text is exactly `bytes` long (padding in an extra argument). */
function toolCallOfSize(id: string, bytes: number): string {
  const params = fixtureToolCall(fixtureRequest("observe-loans"));
  const base = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { ...params, arguments: { ...params.arguments, pad: "" } },
  });
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { ...params, arguments: { ...params.arguments, pad: "x".repeat(bytes - base.length) } },
  });
  if (Buffer.byteLength(text) !== bytes) throw new Error(`could not build a ${bytes}-byte message`);
  return text;
}

/** Asserts the session ended because of an oversized message, and that the daemon saw no call. */
async function expectEndedBy1009(harness: BridgeHarness, peer: WsPeer): Promise<void> {
  expect((await peer.closed).code).toBe(1009);
  await eventually(
    () => harness.bridge.sessionCount() === 0 && harness.daemon.clientCount() === 0,
    "the session and its daemon connection ended",
  );
  expect(harness.daemon.calls).toEqual([]);
  expect(
    harness.logs.some((line) =>
      new RegExp(
        `ended \\(websocket\\): the WebSocket closed \\(1009\\): a message over the limit of ${MAX_MESSAGE} bytes`,
      ).test(line),
    ),
  ).toBe(true);
  expect(
    findSecrets(
      harness.logs.map((text, i) => ({ source: `log ${i}`, text })),
      [{ label: "bridge token", value: TOKEN }],
    ),
  ).toEqual([]);
}

describe("bridge hardening: WebSocket messages over the limit", () => {
  it("a tools/call over the limit closes the socket with 1009, ends the session and never reaches the daemon", async () => {
    const { harness, peer } = await session();
    peer.socket.send(toolCallOfSize("big", MAX_MESSAGE * 4));
    await expectEndedBy1009(harness, peer);
  });

  it("a message fragmented into frames that are each under the limit is judged by its total size (1009)", async () => {
    const { harness, peer } = await session();
    const text = toolCallOfSize("fragmented", MAX_MESSAGE + 200);
    const half = Math.floor(text.length / 2);
    // Each frame alone is under the limit; the message they make is not.
    peer.socket.send(text.slice(0, half), { fin: false });
    peer.socket.send(text.slice(half), { fin: true });
    await expectEndedBy1009(harness, peer);
  });

  it("a message of exactly the limit goes through; one byte more closes with 1009", async () => {
    const { harness, peer } = await session();
    const atLimit = await peer.request(
      "at-limit",
      "tools/call",
      (JSON.parse(toolCallOfSize("at-limit", MAX_MESSAGE)) as { params: Record<string, unknown> }).params,
    );
    expect(atLimit).toMatchObject({ id: "at-limit" });
    expect(harness.daemon.calls.map((c) => c.id)).toEqual(["at-limit"]);
    peer.socket.send(toolCallOfSize("over", MAX_MESSAGE + 1));
    expect((await peer.closed).code).toBe(1009);
    await eventually(
      () => harness.bridge.sessionCount() === 0 && harness.daemon.clientCount() === 0,
      "the session ended",
    );
    expect(harness.daemon.calls.map((c) => c.id)).toEqual(["at-limit"]);
  });

  it("a request in flight when the oversized message arrives is not answered on a closed socket, and a new session works", async () => {
    const harness = await startBridgeHarness(
      { token: TOKEN, maxMessageBytes: MAX_MESSAGE },
      { faults: { stallAfterCalls: 0 } },
    );
    harnesses.push(harness);
    const upgrade = await tryWebSocket(harness.bridge.wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
    if (!("socket" in upgrade)) throw new Error(`upgrade refused: ${upgrade.status}`);
    const peer = new WsPeer(upgrade.socket);
    await peer.handshake();
    peer.send({
      jsonrpc: "2.0",
      id: "stalled",
      method: "tools/call",
      params: fixtureToolCall(fixtureRequest("observe-loans")),
    });
    await harness.daemon.waitFor((d) => d.calls.length === 1);
    peer.socket.send(toolCallOfSize("big", MAX_MESSAGE * 2));
    expect((await peer.closed).code).toBe(1009);
    // The daemon connection closes with the session, which ends the stalled call on the daemon's side.
    await eventually(
      () => harness.bridge.sessionCount() === 0 && harness.daemon.clientCount() === 0,
      "the session ended",
    );
    await harness.daemon.waitFor((d) => d.inFlight() === 0);
    expect(harness.daemon.calls.map((c) => c.id)).toEqual(["stalled"]);

    const again = await tryWebSocket(harness.bridge.wsUrl, ["mcp", `glass-bearer.${TOKEN}`]);
    if (!("socket" in again)) throw new Error(`a new session was refused: ${again.status}`);
    const fresh = new WsPeer(again.socket);
    expect(await fresh.handshake()).toHaveProperty("result");
    again.socket.close();
    await fresh.closed;
  });

  it("a binary frame closes the socket with 1003 and never reaches the daemon", async () => {
    const { harness, peer } = await session();
    peer.socket.send(Buffer.from(toolCallOfSize("binary", 300)), { binary: true });
    expect((await peer.closed).code).toBe(1003);
    await eventually(
      () => harness.bridge.sessionCount() === 0 && harness.daemon.clientCount() === 0,
      "the session ended",
    );
    expect(harness.daemon.calls).toEqual([]);
  });
});
