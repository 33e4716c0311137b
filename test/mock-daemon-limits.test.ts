import { afterEach, describe, expect, it } from "vitest";
import { startSocketHarness, type SocketHarness } from "./support/mock-daemon-harness.js";
import { RawPeer, toolCall } from "./support/raw-mcp-peer.js";

const observe = toolCall("observe", { level: "summary" });
let harness: SocketHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

describe("mock daemon socket limits", () => {
  it("serves at most 4 clients: the 5th gets a -32000 error and is closed", async () => {
    harness = await startSocketHarness();
    for (let i = 0; i < 4; i++) await harness.connectReady();
    const fifth = await RawPeer.connect(harness.path);
    const refusal = await fifth.response(null);
    expect(refusal.error).toMatchObject({ code: -32000, message: expect.stringContaining("too many clients") });
    await fifth.closed;
    expect(harness.daemon.clientCount()).toBe(4);
  });

  it("lets 4 requests of one client be in flight and answers the 5th with -32000", async () => {
    harness = await startSocketHarness({ latencyMs: 150 });
    const peer = await harness.connectReady();
    for (let id = 1; id <= 5; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
    expect((await peer.response(5)).error).toMatchObject({ code: -32000, message: expect.stringContaining("this client") });
    for (let id = 1; id <= 4; id++) expect((await peer.response(id)).result).toBeDefined();
    expect((await peer.request(6, "tools/call", observe)).result).toBeDefined();
  });

  it("limits the requests in flight on the whole daemon", async () => {
    harness = await startSocketHarness({ latencyMs: 150, limits: { maxInFlightPerClient: 4, maxInFlightTotal: 6 } });
    const first = await harness.connectReady();
    const second = await harness.connectReady();
    for (let id = 1; id <= 4; id++) first.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
    await harness.daemon.waitFor((d) => d.calls.length === 4);
    for (let id = 1; id <= 3; id++) second.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
    expect((await second.response(3)).error).toMatchObject({ code: -32000, message: expect.stringContaining("on the daemon") });
    expect((await second.response(2)).result).toBeDefined();
  });
});

describe("mock daemon framing", () => {
  it("answers a newline request over 8 KiB with -32700 (id null) and goes on", async () => {
    harness = await startSocketHarness();
    const peer = await harness.connectReady();
    peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: toolCall("observe", { pad: "x".repeat(9 * 1024) }) });
    expect((await peer.response(null)).error).toMatchObject({ code: -32700, message: expect.stringContaining("8192") });
    expect((await peer.request(2, "ping")).result).toEqual({});
    expect(peer.responses(1)).toEqual([]);
  });

  it("accepts a large request with Content-Length and answers in Content-Length framing", async () => {
    harness = await startSocketHarness();
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("observe", { pad: "x".repeat(64 * 1024) }), "content-length");
    expect(answer.result!.isError).toBe(true);
    const received = peer.received.find((r) => r.message?.id === 1)!;
    expect(received.framing).toBe("content-length");
    expect((await peer.request(2, "ping")).result).toEqual({});
    expect(peer.received.find((r) => r.message?.id === 2)!.framing).toBe("newline");
  });

  it("answers each bad frame with -32700 and reads on", async () => {
    harness = await startSocketHarness();
    const peer = await harness.connectReady();
    peer.sendRaw("this is not json\nContent-Length: nope\r\n\r\n");
    peer.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect((await peer.response(3)).result).toEqual({});
    await peer.waitFor(() => peer.responses(null).length === 2);
    expect(peer.responses(null).every((r) => r.error?.code === -32700)).toBe(true);
  });

  it("drops a frame whose bytes stop arriving for the frame timeout with -32700", async () => {
    harness = await startSocketHarness({ limits: { frameTimeoutMs: 100 } });
    const peer = await harness.connectReady();
    peer.sendRaw('{"jsonrpc":"2.0","id":1,"met');
    const parseError = await peer.response(null, 2000);
    expect(parseError.error).toMatchObject({ code: -32700, message: expect.stringContaining("100 ms") });
    peer.sendRaw('hod":"ping"}\n');
    expect((await peer.request(2, "ping")).result).toEqual({});
    expect(peer.responses(1)).toEqual([]);
  });

  it("turns an answer over the response limit into -32603", async () => {
    harness = await startSocketHarness({ limits: { maxResponseBytes: 4096 } });
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("observe", { pad: "x".repeat(5000) }));
    expect(answer.error).toMatchObject({ code: -32603, message: expect.stringContaining("response limit") });
  });
});
