import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import type { JsonRpcMessage } from "../../src/mcp/json-rpc.js";
import { createReplayEngine } from "../../src/mock-daemon/replay-engine.js";
import { inMemoryTransport } from "../../src/testing/in-memory-transport.js";
import type { GlassTransport, TransportHandlers } from "../../src/transport/transport.js";
import {
  callTyped,
  expectMatchesFixture,
  fixtureCases,
  goldenFixture,
  itMatchesTheWholeFixture,
  recordedResponses,
} from "../support/fixture-outcomes.js";

const recorded = recordedResponses();
const observe = { level: "summary" } as const;

/** Starts a transport with handlers that collect what arrives. */
async function started(
  transport: GlassTransport,
): Promise<{ messages: JsonRpcMessage[]; closes: (GlassError | undefined)[]; errors: GlassError[] }> {
  const seen = {
    messages: [] as JsonRpcMessage[],
    closes: [] as (GlassError | undefined)[],
    errors: [] as GlassError[],
  };
  const handlers: TransportHandlers = {
    onMessage: (message) => seen.messages.push(message),
    onClose: (error) => seen.closes.push(error),
    onError: (error) => seen.errors.push(error),
  };
  await transport.start(handlers);
  return seen;
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("the whole golden fixture through Glass over inMemoryTransport", () => {
  let glass: Glass;
  beforeAll(async () => {
    glass = await Glass.connect(inMemoryTransport(goldenFixture));
  });
  afterAll(async () => {
    await glass.close();
  });

  it("connects like to a stdio daemon: manifest, agreement, kind memory, 8 in flight", () => {
    const transport = inMemoryTransport(goldenFixture);
    expect(transport.kind).toBe("memory");
    expect(transport.maxInFlight).toBe(8);
    expect(glass.manifest?.capabilities.mcpStdio).toBe(true);
    expect(glass.manifest?.capabilities.localDaemon).toBe(false); // as the daemon over stdio: listed, not enabled
    expect(glass.supports("localDaemon")).toBe(false);
    expect(glass.serverInfo?.name).toBe("glass-sdk-mock-daemon");
  });

  itMatchesTheWholeFixture(() => glass);

  it("answers a request the fixture does not have with mock.unmatched", async () => {
    const error = await glass.browser.observe({ level: "detailed" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GlassError);
    expect((error as GlassError).code).toBe("mock.unmatched");
  });

  it("hands the client copies: changing a result does not change the next answer", async () => {
    const first = (await glass.browser.observe(observe)) as unknown as Record<string, unknown>;
    const original = structuredClone(first);
    first.revision = "tampered";
    expect(await glass.browser.observe(observe)).toEqual(original);
  });
});

describe("inMemoryTransport options", () => {
  it("accepts a replay engine as well as a fixture", async () => {
    const glass = await Glass.connect(inMemoryTransport(createReplayEngine(goldenFixture)));
    const request = goldenFixture.requests[0]!;
    expect(await glass.send(request, { validate: false })).toEqual(recorded.get(request.requestId));
    await glass.close();
  });

  it("mode socket: leases work, mutating calls carry the token and still equal the fixture", async () => {
    const transport = inMemoryTransport(goldenFixture, { mode: "socket" });
    expect(transport.maxInFlight).toBe(4);
    const glass = await Glass.connect(transport);
    expect(glass.manifest?.capabilities.localDaemon).toBe(true);
    for (const [, request] of fixtureCases()) {
      expectMatchesFixture(await glass.withLease(() => callTyped(glass, request, false), { ttlMs: 10_000 }), request);
    }
    const withToken = transport.calls.filter((call) => "leaseToken" in call.arguments).map((call) => call.tool);
    expect(withToken.sort()).toEqual(["click", "workflow"]);
    await glass.close();
  });

  it("smaller daemon limits: the transport advertises them, so concurrent calls queue instead of being refused", async () => {
    expect(inMemoryTransport(goldenFixture, { limits: { maxActivePerSession: 2 } }).maxInFlight).toBe(2);
    expect(inMemoryTransport(goldenFixture, { mode: "socket", limits: { maxInFlightPerClient: 3 } }).maxInFlight).toBe(
      3,
    );
    expect(inMemoryTransport(goldenFixture, { mode: "socket", limits: { maxInFlightTotal: 1 } }).maxInFlight).toBe(1);
    const glass = await Glass.connect(
      inMemoryTransport(goldenFixture, { limits: { maxActivePerSession: 2 }, latencyMs: 5 }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => glass.browser.observe(observe, { retry: false })),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    await glass.close();
  });

  it("a client's own maxInFlight above the daemon's limit still provokes overloaded (-32000)", async () => {
    const glass = await Glass.connect(
      inMemoryTransport(goldenFixture, { limits: { maxActivePerSession: 2 }, latencyMs: 20 }),
      { maxInFlight: 8 },
    );
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => glass.browser.observe(observe, { retry: false })),
    );
    const codes = results.map((result) => (result.status === "rejected" ? (result.reason as GlassError).code : "ok"));
    expect(codes.filter((code) => code === "ok")).toHaveLength(2);
    expect(codes.filter((code) => code === "overloaded")).toHaveLength(4);
    await glass.close();
  });

  it("mode stdio (the default) has no leases: acquiring one fails with method not found", async () => {
    const glass = await Glass.connect(inMemoryTransport(goldenFixture));
    await expect(glass.acquireLease({ ttlMs: 10_000 })).rejects.toThrow(/leases exist only on the daemon socket/);
    await glass.close();
  });

  it("capabilities: a capability switched off shows in the manifest and its tools fail", async () => {
    const glass = await Glass.connect(
      inMemoryTransport(goldenFixture, { capabilities: { webIr: "disabledByPolicy" } }),
    );
    expect(glass.supports("webIr")).toBe(false);
    const inspect = goldenFixture.requests.find((request) => request.operation === "webIr.inspect")!;
    const outcome = await callTyped(glass, inspect, false);
    expect(outcome.ok ? undefined : outcome.error.code).toBe("capability.unavailable");
    await glass.close();
  });

  it("latencyMs delays each tool call's answer", async () => {
    const glass = await Glass.connect(inMemoryTransport(goldenFixture, { latencyMs: 60 }));
    const started = Date.now();
    await glass.browser.observe(observe);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    await glass.close();
  });

  it("faults: a stalled call ends with its deadline, and the daemon sees the cancel", async () => {
    const transport = inMemoryTransport(goldenFixture, { faults: { stallAfterCalls: 0 } });
    const glass = await Glass.connect(transport);
    await expect(glass.browser.observe(observe, { deadlineMs: 50 })).rejects.toMatchObject({
      code: "deadlineExceeded",
    });
    expect(transport.calls).toHaveLength(1);
    await glass.close();
  });

  it("faults: a crash closes the transport with transport.closed", async () => {
    const glass = await Glass.connect(inMemoryTransport(goldenFixture, { faults: { crashAfterCalls: 0 } }));
    await expect(glass.browser.observe(observe)).rejects.toMatchObject({ code: "transport.closed" });
    await glass.close();
  });
});

describe("inMemoryTransport as a GlassTransport", () => {
  it("delivers messages asynchronously, in order, as JSON copies", async () => {
    const transport = inMemoryTransport(goldenFixture);
    const seen = await started(transport);
    const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping", params: {} };
    const sending = transport.send(ping);
    expect(seen.messages).toEqual([]);
    await sending;
    await transport.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await settle();
    // Before the handshake even ping is -32002 (§3): what matters here is order and timing.
    expect(seen.messages).toEqual([
      { jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32002 }) },
      { jsonrpc: "2.0", id: 2, error: expect.objectContaining({ code: -32002 }) },
    ]);
    await transport.close();
  });

  it("enforces the session rules of the daemon (tools/call before initialize is -32002)", async () => {
    const transport = inMemoryTransport(goldenFixture);
    const seen = await started(transport);
    await transport.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "observe", arguments: observe },
    });
    await settle();
    expect(seen.messages).toEqual([{ jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32002 }) }]);
    await transport.close();
  });

  it("close() calls onClose once without an error; send after it rejects with transport.closed", async () => {
    const transport = inMemoryTransport(goldenFixture);
    const seen = await started(transport);
    await transport.close();
    await transport.close();
    expect(seen.closes).toEqual([undefined]);
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toMatchObject({
      code: "transport.closed",
    });
  });

  it("is started once", async () => {
    const transport = inMemoryTransport(goldenFixture);
    await started(transport);
    await expect(started(transport)).rejects.toMatchObject({ code: "transport.unavailable" });
    await transport.close();
  });

  it("reports the malformed-frame fault through onError and goes on", async () => {
    const wire: string[] = [];
    const transport = inMemoryTransport(goldenFixture, { faults: { malformedFrameAfterCalls: 1 } });
    const glass = await Glass.connect(transport, {
      logger: (event) => event.type === "wire" && wire.push(event.detail),
    });
    await glass.browser.observe(observe);
    await glass.browser.observe(observe);
    await glass.close();
    expect(wire).toContain("badFrame");
    expect(transport.calls).toHaveLength(2);
  });
});
