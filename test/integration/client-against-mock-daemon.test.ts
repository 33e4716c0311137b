import { afterEach, describe, expect, it } from "vitest";
import {
  CancelledError,
  DeadlineExceededError,
  Glass,
  LeaseError,
  TransportClosedError,
  type GlassRequest,
  type GlassResponse,
} from "glass-sdk";
import type { GoldenFixture } from "glass-sdk/testing";
import { readGoldenFixture } from "../support/golden-fixture.js";
import { domNode } from "../support/result-samples.js";
import { mockDaemonOnSocket, mockDaemonOverStdio, type SocketMock } from "../support/mock-daemon-transports.js";

const fixture = readGoldenFixture();
const payloadOf = (requestId: string) => fixture.requests.find((r) => r.requestId === requestId)!.payload as never;
const observePayload = payloadOf("observe-loans");
const clickPayload = payloadOf("click-renew");

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function socketMock(options: Parameters<typeof mockDaemonOnSocket>[0] = {}): Promise<SocketMock> {
  const mock = await mockDaemonOnSocket(options);
  cleanups.push(() => mock.stop());
  return mock;
}

async function connect(
  transport: Parameters<typeof Glass.connect>[0],
  options: Parameters<typeof Glass.connect>[1] = {},
): Promise<Glass> {
  const glass = await Glass.connect(transport, options);
  cleanups.push(() => glass.close());
  return glass;
}

describe("client against the mock daemon: session", () => {
  it("shares one initialize among concurrent first calls (a second would be refused with -32600)", async () => {
    const mock = await socketMock();
    const glass = Glass.create(mock.transport(), { retry: false });
    cleanups.push(() => glass.close());
    const results = await Promise.all(Array.from({ length: 8 }, () => glass.browser.observe(observePayload)));
    expect(results).toHaveLength(8);
    expect(mock.daemon.calls).toHaveLength(8);
    expect(glass.agreement?.protocolVersion).toBe(1);
  });

  it("answers the daemon's own request with -32601 when no handler is registered", async () => {
    const mock = await socketMock({ faults: { serverRequestAfterCalls: 1 } });
    const glass = await connect(mock.transport());
    await glass.browser.observe(observePayload);
    await mock.daemon.waitFor((daemon) => daemon.clientAnswers.length === 1);
    expect(mock.daemon.clientAnswers[0]).toMatchObject({
      method: "elicitation/create",
      response: { error: { code: -32601 } },
    });
    await expect(glass.browser.observe(observePayload)).resolves.toBeDefined();
  });
});

describe("client against the mock daemon: deadlines and cancellation", () => {
  it("a deadline sends notifications/cancelled (the daemon ends the call) and rejects with DeadlineExceededError", async () => {
    const mock = await socketMock({ faults: { stallAfterCalls: 0 } });
    const glass = await connect(mock.transport());
    const error = await glass.browser.observe(observePayload, { deadlineMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({ mutationPossible: false, operation: "browser.observe" });
    await mock.daemon.waitFor((daemon) => daemon.inFlight() === 0);
  });

  it("an abort cancels a mutating call that was written and marks it mutationPossible", async () => {
    const mock = await socketMock({ faults: { stallAfterCalls: 0 } });
    const glass = await connect(mock.transport());
    const controller = new AbortController();
    const click = glass
      .withLease(() => glass.browser.click(clickPayload, { signal: controller.signal }), { ttlMs: 10_000 })
      .catch((e: unknown) => e);
    await mock.daemon.waitFor((daemon) => daemon.calls.length === 1);
    controller.abort();
    const error = await click;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ mutationPossible: true, phase: "dispatch" });
    await mock.daemon.waitFor((daemon) => daemon.inFlight() === 0);
  });
});

describe("client against the mock daemon: leases (socket)", () => {
  it("a mutating call without a lease fails with LeaseError leaseRequired and is not retried", async () => {
    const mock = await socketMock();
    const glass = await connect(mock.transport());
    const error = await glass.browser.click(clickPayload).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseError);
    expect(error).toMatchObject({ code: "leaseRequired", mutationPossible: false });
    expect(mock.daemon.calls).toHaveLength(1);
  });

  it("a second client cannot take a held lease (leaseHeld) until the first releases it", async () => {
    const mock = await socketMock();
    const first = await connect(mock.transport());
    const second = await connect(mock.transport());
    await first.acquireLease({ ttlMs: 10_000 });
    await expect(second.acquireLease({ ttlMs: 10_000 })).rejects.toMatchObject({ code: "leaseHeld", retryable: true });
    await first.releaseLease();
    await expect(second.acquireLease({ ttlMs: 10_000 })).resolves.toMatchObject({ sessionId: expect.any(String) });
  });

  it("an expired lease fails the call with leaseExpired", async () => {
    const mock = await socketMock({ faults: { leaseExpiresAfterMs: 30 } });
    const glass = await connect(mock.transport());
    await glass.acquireLease({ ttlMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(glass.browser.click(clickPayload)).rejects.toMatchObject({ code: "leaseExpired" });
  });

  it("never sends the token with read-only calls, and releases the lease on close", async () => {
    const mock = await socketMock();
    const glass = await Glass.connect(mock.transport());
    await glass.acquireLease({ ttlMs: 10_000 });
    await glass.browser.observe(observePayload);
    await glass.webIr.validate(payloadOf("validate-ir-search"));
    await expect(glass.browser.click(clickPayload)).rejects.toMatchObject({ code: "staleRevision" });
    const tokenCarriers = mock.daemon.calls
      .filter((call) => "mutationLease" in call.arguments || "leaseToken" in call.arguments)
      .map((call) => call.tool);
    expect(tokenCarriers).toEqual(["click"]);
    expect(mock.daemon.activeLeases()).toHaveLength(1);
    await glass.close();
    await mock.daemon.waitFor((daemon) => daemon.activeLeases().length === 0);
  });
});

describe("client against the mock daemon: flow control and faults", () => {
  it("50 concurrent calls over the socket stay within the daemon's 4 per client (no -32000, no retries)", async () => {
    const mock = await socketMock({ latencyMs: 5 });
    const glass = await connect(mock.transport(), { retry: false });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, mock.daemon.inFlight())), 1);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => glass.browser.observe(observePayload)));
    clearInterval(sampler);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(peak).toBeLessThanOrEqual(4);
    expect(mock.daemon.calls).toHaveLength(50);
  });

  it("a daemon crash mid-call rejects every pending call, with mutationPossible only for the written mutation", async () => {
    const mock = await socketMock({ faults: { stallAfterCalls: 0, crashAfterCalls: 2 } });
    const glass = await connect(mock.transport());
    await glass.acquireLease({ ttlMs: 10_000 });
    const click = glass.browser.click(clickPayload).catch((e: unknown) => e);
    const observe = glass.browser.observe(observePayload).catch((e: unknown) => e);
    await mock.daemon.waitFor((daemon) => daemon.calls.length === 2);
    const third = glass.browser.observe(observePayload).catch((e: unknown) => e);
    const [clickError, observeError, thirdError] = await Promise.all([click, observe, third]);
    expect(clickError).toBeInstanceOf(TransportClosedError);
    expect(clickError).toMatchObject({ mutationPossible: true, operation: "browser.click" });
    expect(observeError).toMatchObject({ code: "transport.closed", mutationPossible: false });
    expect(thirdError).toMatchObject({ code: "transport.closed", mutationPossible: false });
    await expect(glass.browser.observe(observePayload)).rejects.toMatchObject({ code: "transport.closed" });
  });

  it("a stdio daemon that exits mid-call rejects the pending call with TransportClosedError", async () => {
    const glass = await connect(mockDaemonOverStdio(["--faults", JSON.stringify({ crashAfterCalls: 1 })]));
    await glass.browser.observe(observePayload);
    const error = await glass.browser.observe(observePayload).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportClosedError);
    expect((error as Error).message).toMatch(/exit|closed/);
  });

  it("a malformed frame from the daemon does not wedge the connection", async () => {
    const mock = await socketMock({ faults: { malformedFrameAfterCalls: 1 } });
    const glass = await connect(mock.transport());
    await glass.browser.observe(observePayload);
    await expect(glass.browser.observe(observePayload, { deadlineMs: 5000 })).resolves.toBeDefined();
  });

  it("a request above 8 KiB goes out with Content-Length (the daemon refuses longer newline frames)", async () => {
    const glass = await connect(mockDaemonOverStdio(["--fixture", "fixtures/protocol-golden-v1.json"]));
    const big = {
      protocolVersion: 1,
      requestId: "big-1",
      operation: "browser.type",
      payload: { text: "x".repeat(20_000), target: "ref=1" },
    } as GlassRequest;
    const response = await glass.send(big, { validate: false, deadlineMs: 5000 } as never);
    expect(response).toMatchObject({ ok: false, error: { code: "mock.unmatched" } });
  });

  it("receives a 20 MiB response", async () => {
    const base = readGoldenFixture();
    const huge = "é".repeat(10 * 1024 * 1024); // 20 MiB of UTF-8
    const custom: GoldenFixture = {
      ...base,
      requests: [{ protocolVersion: 1, requestId: "dom-1", operation: "browser.getDOM", payload: {} }],
      responses: [
        {
          protocolVersion: 1,
          requestId: "dom-1",
          ok: true,
          result: { ...domNode("#document", ""), children: [domNode("#text", huge)] },
        },
      ],
      invalidResponses: [],
    } as unknown as GoldenFixture;
    const mock = await socketMock({ fixture: custom });
    const glass = await connect(mock.transport());
    const text = (await glass.browser.getDOM({}, { deadlineMs: 60_000 })).children[0]!.node_value;
    expect(text.length).toBe(huge.length);
    expect(text === huge).toBe(true);
  }, 60_000);

  it("a response envelope is checked before it is believed", async () => {
    const base = readGoldenFixture();
    const custom = {
      ...base,
      requests: [
        { protocolVersion: 1, requestId: "v-1", operation: "webIr.validate", payload: payloadOf("validate-ir-search") },
      ],
      responses: [{ protocolVersion: 1, requestId: "v-1", ok: true, result: { valid: false } }],
    } as unknown as GoldenFixture;
    const mock = await socketMock({ fixture: custom });
    const glass = await connect(mock.transport());
    const response: GlassResponse = await glass.send(custom.requests[0] as unknown as GlassRequest);
    expect(response).toMatchObject({
      ok: false,
      error: {
        code: "response.invalid",
        details: { issues: expect.arrayContaining([{ path: "result.valid", reason: "must be true (got false)" }]) },
      },
    });
  });
});
