import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { parseFaults, type MockDaemonFaults } from "../../../src/mock-daemon/faults.js";
import { startMockDaemon } from "../../../src/testing/node/start-mock-daemon.js";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { handshake, RawPeer, toolCall } from "../../support/raw-mcp-peer.js";

const observe = toolCall("observe", { level: "summary" });
let harness: SocketHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

async function withFaults(faults: MockDaemonFaults, latencyMs = 0): Promise<RawPeer> {
  harness = await startSocketHarness({ faults, latencyMs });
  return harness.connectReady();
}

describe("mock daemon faults", () => {
  it("stallAfterCalls: answers the first calls, then never answers until cancelled", async () => {
    const peer = await withFaults({ stallAfterCalls: 1 });
    expect((await peer.request(1, "tools/call", observe)).result).toBeDefined();
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: observe });
    expect(await peer.quietFor(150)).toEqual([]);
    expect(harness!.daemon.inFlight()).toBe(1);
    peer.notify("notifications/cancelled", { requestId: 2 });
    expect((await peer.response(2)).error?.code).toBe(-32800);
    expect((await peer.request(3, "ping")).result).toEqual({});
  });

  it("crashAfterCalls on the socket: drops every client when call N+1 arrives, forgets the lease, keeps listening", async () => {
    const peer = await withFaults({ crashAfterCalls: 1 });
    await peer.request("lease", "glass/lease/acquire", { ttlMs: 60_000 });
    const bystander = await harness!.connectReady();
    expect((await peer.request(1, "tools/call", observe)).result).toBeDefined();
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: observe });
    await Promise.all([peer.closed, bystander.closed]);
    expect(peer.responses(2)).toEqual([]);
    expect(harness!.daemon.crashed).toBe(true);
    expect(harness!.daemon.activeLeases()).toEqual([]);
    const after = await harness!.connectReady();
    expect((await after.request(3, "tools/call", observe)).result).toBeDefined();
  });

  it("crashAfterCalls over in-process stdio: ends the output and stops the daemon", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let crashed = false;
    const daemon = await startMockDaemon({
      stdin,
      stdout,
      faults: { crashAfterCalls: 0 },
      onCrash: () => (crashed = true),
    });
    const peer = new RawPeer(stdout, stdin);
    await handshake(peer);
    peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: observe });
    await peer.closed;
    await daemon.stopped;
    expect(crashed).toBe(true);
    expect(peer.responses(1)).toEqual([]);
  });

  it("malformedFrameAfterCalls: writes one frame that is not JSON after answering call N", async () => {
    const peer = await withFaults({ malformedFrameAfterCalls: 1 });
    await peer.request(1, "tools/call", observe);
    const garbage = await peer.waitFor((r) => r.framing === "garbage");
    expect(peer.received.indexOf(garbage)).toBe(peer.received.findIndex((r) => r.message?.id === 1) + 1);
    await peer.request(2, "tools/call", observe);
    expect(peer.received.filter((r) => r.framing === "garbage")).toHaveLength(1);
  });

  it("partialFrameAfterCalls: writes half a frame after call N and then nothing more", async () => {
    const peer = await withFaults({ partialFrameAfterCalls: 1 });
    await peer.request(1, "tools/call", observe);
    peer.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(await peer.quietFor(150)).toEqual([]);
  });

  it("serverRequestAfterCalls: sends the client a glass-server-N request and records its answer", async () => {
    const peer = await withFaults({ serverRequestAfterCalls: 1 });
    await peer.request(1, "tools/call", observe);
    const request = (await peer.waitFor((r) => r.message?.method === "elicitation/create")).message!;
    expect(request).toMatchObject({ jsonrpc: "2.0", id: "glass-server-1", params: expect.any(Object) });
    peer.send({ jsonrpc: "2.0", id: "glass-server-1", error: { code: -32601, message: "method not found" } });
    await harness!.daemon.waitFor((d) => d.clientAnswers.length === 1);
    expect(harness!.daemon.clientAnswers[0]).toEqual({
      clientId: expect.any(String),
      method: "elicitation/create",
      response: { jsonrpc: "2.0", id: "glass-server-1", error: { code: -32601, message: "method not found" } },
    });
  });

  it("overloadBurst: refuses calls N+1 to N+count with -32000, then answers again", async () => {
    const peer = await withFaults({ overloadBurst: { afterCalls: 1, count: 2 } });
    expect((await peer.request(1, "tools/call", observe)).result).toBeDefined();
    expect((await peer.request(2, "tools/call", observe)).error?.code).toBe(-32000);
    expect((await peer.request(3, "tools/call", observe)).error?.code).toBe(-32000);
    expect((await peer.request(4, "tools/call", observe)).result).toBeDefined();
  });

  it("duplicateAnswerAfterCalls: writes the answer to call N twice", async () => {
    const peer = await withFaults({ duplicateAnswerAfterCalls: 2 });
    await peer.request(1, "tools/call", observe);
    await peer.request(2, "tools/call", observe);
    await peer.request(3, "ping");
    expect(peer.responses(1)).toHaveLength(1);
    expect(peer.responses(2)).toHaveLength(2);
    expect(peer.responses(2)[1]).toEqual(peer.responses(2)[0]);
  });

  it("unknownIdAnswerAfterCalls: writes a response to an id the client never used", async () => {
    const peer = await withFaults({ unknownIdAnswerAfterCalls: 1 });
    await peer.request(1, "tools/call", observe);
    const stray = await peer.response("mock-unknown-request");
    expect(stray.result).toBeDefined();
  });

  it("records every call it receives, with the connection it came on", async () => {
    const peer = await withFaults({}, 0);
    await peer.request(1, "tools/call", toolCall("observe", { level: "summary", responseMode: "compact" }));
    expect(harness!.daemon.calls).toEqual([
      {
        number: 1,
        clientId: "client-1",
        id: 1,
        tool: "observe",
        operation: "browser.observe",
        arguments: { level: "summary", responseMode: "compact" },
        requestId: "1",
        payload: { level: "summary" },
        outcome: {
          ok: false,
          error: { code: "tool.failed", message: "browser tool failed", phase: "preflight", mutationPossible: false },
        },
      },
    ]);
  });
});

describe("parseFaults", () => {
  it("accepts the documented faults and names a bad one", () => {
    expect(parseFaults({ stallAfterCalls: 2, overloadBurst: { afterCalls: 0, count: 3 } })).toEqual({
      stallAfterCalls: 2,
      overloadBurst: { afterCalls: 0, count: 3 },
    });
    expect(() => parseFaults({ stallAfterCals: 2 })).toThrow(/unknown fault "stallAfterCals"/);
    expect(() => parseFaults({ crashAfterCalls: -1 })).toThrow(/crashAfterCalls must be a whole number/);
    expect(() => parseFaults({ overloadBurst: 3 })).toThrow(/overloadBurst/);
  });
});
