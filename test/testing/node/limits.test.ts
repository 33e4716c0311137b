import { afterEach, describe, expect, it } from "vitest";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { RawPeer, toolCall } from "../../support/raw-mcp-peer.js";

const observe = toolCall("observe", { level: "summary" });
let harness: SocketHarness | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

describe("mock daemon socket limits", () => {
  it("serves at most 4 clients: the 5th is closed without a reply", async () => {
    harness = await startSocketHarness();
    for (let i = 0; i < 4; i++) await harness.connectReady();
    const fifth = await RawPeer.connect(harness.path);
    await fifth.closed;
    expect(fifth.received).toEqual([]);
    expect(harness.daemon.clientCount()).toBe(4);
  });

  it("lets 4 requests of one client be in flight and answers the 5th with -32000", async () => {
    harness = await startSocketHarness({ latencyMs: 150 });
    const peer = await harness.connectReady();
    for (let id = 1; id <= 5; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
    expect((await peer.response(5)).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining("this client"),
    });
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
    expect((await second.response(3)).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining("on the daemon"),
    });
    expect((await second.response(2)).result).toBeDefined();
  });
});

describe("mock daemon framing", () => {
  it("closes the connection without a reply on a newline request over 8 KiB, and reports why", async () => {
    const violations: string[] = [];
    harness = await startSocketHarness({
      onFramingViolation: (client, reason) => violations.push(`${client}: ${reason}`),
    });
    const peer = await harness.connectReady();
    peer.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: toolCall("observe", { pad: "x".repeat(9 * 1024) }),
    });
    await peer.closed;
    expect(peer.responses(1)).toEqual([]);
    expect(peer.responses(null)).toEqual([]);
    expect(violations).toEqual([expect.stringMatching(/^client-1: .*8191/)]);
  });

  it("accepts a large request with Content-Length and answers in Content-Length framing", async () => {
    harness = await startSocketHarness();
    const peer = await harness.connectReady();
    const answer = await peer.request(
      1,
      "tools/call",
      toolCall("observe", { pad: "x".repeat(64 * 1024) }),
      "content-length",
    );
    expect(answer.result!.isError).toBe(true);
    const received = peer.received.find((r) => r.message?.id === 1)!;
    expect(received.framing).toBe("content-length");
    expect((await peer.request(2, "ping")).result).toEqual({});
    expect(peer.received.find((r) => r.message?.id === 2)!.framing).toBe("newline");
  });

  it("answers the requests before a bad frame, then closes the connection without a reply to it or after it", async () => {
    harness = await startSocketHarness({ latencyMs: 100 });
    const peer = await harness.connectReady();
    const before = peer.received.length;
    peer.sendRaw(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: toolCall("observe", { level: "summary" }) })}\nContent-Length: nope\r\n\r\n${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })}\n`,
    );
    await peer.closed;
    expect(peer.received.slice(before).map((r) => r.message?.id)).toEqual([1]);
    expect(harness.daemon.inFlight()).toBe(0);
  });

  it("answers a well-framed body that is not JSON with -32700 (id null) and reads on", async () => {
    harness = await startSocketHarness();
    const peer = await harness.connectReady();
    peer.sendRaw("this is not json\nContent-Length: 3\r\n\r\n{x}");
    peer.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect((await peer.response(3)).result).toEqual({});
    expect(peer.responses(null).map((r) => r.error?.code)).toEqual([-32700, -32700]);
    expect(peer.received.filter((r) => r.message?.id === null).map((r) => r.framing)).toEqual([
      "newline",
      "content-length",
    ]);
  });

  it("closes a connection whose frame does not arrive within the frame timeout, without a reply", async () => {
    harness = await startSocketHarness({ limits: { frameTimeoutMs: 100 } });
    const peer = await harness.connectReady();
    const started = Date.now();
    peer.sendRaw('{"jsonrpc":"2.0","id":1,"met');
    await peer.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(peer.responses(1)).toEqual([]);
    expect(peer.responses(null)).toEqual([]);
  });

  it("answers -32001 with the request's id when the answer would be over the response limit", async () => {
    harness = await startSocketHarness({ limits: { maxResponseBytes: 4096 } });
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("observe", { pad: "x".repeat(5000) }));
    expect(answer.error).toMatchObject({
      code: -32001,
      message: expect.stringContaining("response limit"),
      data: { code: "protocol.error" },
    });
  });
});
