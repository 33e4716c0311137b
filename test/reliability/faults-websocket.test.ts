/**
 * Fault injection over WebSocket: `webSocketTransport` (the `ws` package in Node 20) → the bridge
 * → an in-process socket mock daemon with faults. The bridge relays messages both ways as they
 * are: the daemon's answers (stray and duplicated ones too) and its own requests reach the client;
 * bad frames from the daemon are skipped by the bridge; a daemon crash becomes -32603 for the
 * pending requests, then the WebSocket closes with 1011.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CancelledError, DeadlineExceededError, Glass, GlassError, LeaseError, OverloadedError, TransportClosedError } from "../../src/index.js";
import {
  expectIdle,
  expectNoRepeatedMutation,
  failedWith,
  leaseIfAny,
  mutate,
  observePayload,
  observeResult,
  read,
  retries,
  settle,
  startRig,
  succeeded,
  waitUntil,
  wireEvents,
  type Rig,
} from "./support/fault-rig.js";

let rig: Rig | undefined;
const extraClients: Glass[] = [];
afterEach(async () => {
  const current = rig;
  rig = undefined;
  try {
    if (current !== undefined) expectNoRepeatedMutation(current); // in every scenario: no mutation was written, or received, twice
  } finally {
    for (const glass of extraClients.splice(0)) await glass.close().catch(() => undefined);
    await current?.stop();
  }
});

describe("faults over WebSocket (via the bridge): the daemon dies", () => {
  it("mid-call: the bridge answers the pending calls with -32603 (mcp.internalError, mutationPossible for the mutation), then closes the socket (1011): the client says it is closed and forgets the lease", async () => {
    rig = await startRig("websocket", { faults: { crashAfterCalls: 2 }, latencyMs: 2_000 });
    await leaseIfAny(rig);
    const click = mutate(rig);
    await rig.untilCalls(1);
    const observe = read(rig);
    await rig.untilCalls(2);
    const trigger = read(rig);
    const [clicked, observed, triggered] = await Promise.all([click, observe, trigger]);
    failedWith(clicked, GlassError, { code: "mcp.internalError", mutationPossible: true, phase: "dispatch", rawMessage: "the daemon connection closed" });
    failedWith(observed, GlassError, { code: "mcp.internalError", mutationPossible: false });
    failedWith(triggered, GlassError, { code: "mcp.internalError", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(2);
    expect(retries(rig.events, "browser.observe")).toEqual([]);
    await waitUntil(() => rig!.wire.closes.length === 1, "the WebSocket closed");
    expect(rig.wire.closes[0]).toMatchObject({ code: "transport.closed", details: { closeCode: 1011 } });
    expect(rig.glass.lease).toBeUndefined();

    failedWith(await read(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    failedWith(await mutate(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, true);
  });
});

describe("faults over WebSocket (via the bridge): the daemon stalls", () => {
  it("past the deadline: DeadlineExceededError at the deadline (mutationPossible for the mutation), notifications/cancelled ends the daemon's calls, nothing is retried, the connection still answers", async () => {
    rig = await startRig("websocket", { faults: { stallAfterCalls: 0 } });
    await leaseIfAny(rig);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 300 }), mutate(rig, { deadlineMs: 300 })]);
    failedWith(observed, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: true, phase: "dispatch" });
    expect(Math.max(observed.ms, clicked.ms)).toBeLessThan(2_000);
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(1);
    await settle(rig.daemon!.waitFor((d) => d.inFlight() === 0), 2_000, "the daemon ending both cancelled calls");
    succeeded(await settle(rig.glass.ping({ deadlineMs: 2_000 }), 3_000, "ping"));
    await expectIdle(rig.glass, false);
  });

  it("an abort after the mutation was written: CancelledError mutationPossible, the daemon's call is cancelled, never repeated", async () => {
    rig = await startRig("websocket", { faults: { stallAfterCalls: 0 } });
    await leaseIfAny(rig);
    const controller = new AbortController();
    const click = mutate(rig, { signal: controller.signal });
    await rig.untilCalls(1);
    controller.abort();
    failedWith(await click, CancelledError, { code: "cancelled", mutationPossible: true, phase: "dispatch" });
    await settle(rig.daemon!.waitFor((d) => d.inFlight() === 0), 2_000, "the daemon ending the cancelled call");
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });
});

describe("faults over WebSocket (via the bridge): the daemon sends half a frame and goes silent", () => {
  it("later calls end at their deadline (mutationPossible for the mutation); the bridge holds the half frame, the client stays open on a session that no longer answers, and a new connection works", async () => {
    rig = await startRig("websocket", { faults: { partialFrameAfterCalls: 1 } });
    await leaseIfAny(rig);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 400 }), mutate(rig, { deadlineMs: 400 })]);
    failedWith(observed, DeadlineExceededError, { mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { mutationPossible: true });
    expect(rig.received("click")).toBe(1);
    expect(rig.wire.badFrames).toEqual([]);
    failedWith(await settle(rig.glass.ping({ deadlineMs: 300 }), 3_000, "ping"), DeadlineExceededError, { mutationPossible: false });
    expect(rig.glass.stats()).toMatchObject({ closed: false });

    const fresh = await Glass.connect(rig.newTransport());
    extraClients.push(fresh);
    expect(await fresh.browser.observe(observePayload)).toEqual(observeResult);
  });
});

describe("faults over WebSocket (via the bridge): the daemon sends a bad frame", () => {
  it("oversized (over 32 MiB): the bridge skips it (and logs it); the client sees nothing of it and every call is answered", async () => {
    rig = await startRig("websocket", { faults: { oversizedFrameAfterCalls: 1 } });
    await leaseIfAny(rig);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision", mutationPossible: false });
    await waitUntil(() => rig!.bridgeLogs.some((line) => /skipped a bad frame from the daemon: .*33554432/.test(line)), "the bridge logged the skipped frame");
    expect(rig.wire.badFrames).toEqual([]);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("malformed (not JSON): the bridge skips it (and logs it); the client sees nothing of it and every call is answered", async () => {
    rig = await startRig("websocket", { faults: { malformedFrameAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision", mutationPossible: false });
    await waitUntil(() => rig!.bridgeLogs.some((line) => /skipped a bad frame from the daemon: .*not valid JSON/.test(line)), "the bridge logged the skipped frame");
    expect(rig.wire.badFrames).toEqual([]);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });
});

describe("faults over WebSocket (via the bridge): the daemon answers what was not asked", () => {
  it("an unknown id: relayed by the bridge, ignored by the client (logged as unknownResponse); every call settles once with its own answer", async () => {
    rig = await startRig("websocket", { faults: { unknownIdAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision", mutationPossible: false });
    await waitUntil(() => wireEvents(rig!.events).includes("unknownResponse"), "the stray answer was logged");
    expect(rig.wire.answersTo("mock-unknown-request")).toHaveLength(1);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("the same id twice (a mutation's answer): relayed by the bridge; the call settles once, the duplicate is ignored and settles nothing else", async () => {
    rig = await startRig("websocket", { faults: { duplicateAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    failedWith(await mutate(rig), GlassError, { code: "staleRevision", mutationPossible: false });
    const [clickId] = rig.wire.toolCallIds("click");
    await waitUntil(() => rig!.wire.answersTo(clickId).length === 2, "the duplicate arrived");
    expect(wireEvents(rig.events)).toEqual(["unknownResponse"]);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("a request of its own: relayed to the client, which answers -32601 (no handler) so the daemon never waits, and goes on", async () => {
    rig = await startRig("websocket", { faults: { serverRequestAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await settle(rig.daemon!.waitFor((d) => d.clientAnswers.length === 1), 2_000, "the daemon receiving the client's answer");
    expect(rig.daemon!.clientAnswers[0]).toMatchObject({ method: "elicitation/create", response: { id: "glass-server-1", error: { code: -32601, message: "the client does not handle elicitation/create" } } });
    expect(wireEvents(rig.events)).toContain("daemon request elicitation/create answered (methodNotFound)");
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision" });
    await expectIdle(rig.glass, false);
  });

  it("a request of its own, with a handler registered: the handler's answer reaches the daemon", async () => {
    rig = await startRig("websocket", {
      faults: { serverRequestAfterCalls: 1 },
      client: { serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) } },
    });
    succeeded(await read(rig));
    await settle(rig.daemon!.waitFor((d) => d.clientAnswers.length === 1), 2_000, "the daemon receiving the client's answer");
    expect(rig.daemon!.clientAnswers[0]).toMatchObject({ response: { id: "glass-server-1", result: { action: "decline" } } });
    await expectIdle(rig.glass, false);
  });
});

describe("faults over WebSocket (via the bridge): the daemon answers -32000 in a burst", () => {
  it("shorter than the retries: the read is retried and succeeds", async () => {
    rig = await startRig("websocket", { faults: { overloadBurst: { afterCalls: 0, count: 2 } } });
    expect(succeeded(await read(rig))).toEqual(observeResult);
    expect(rig.received("observe")).toBe(3);
    expect(retries(rig.events, "browser.observe").map((r) => r.code)).toEqual(["overloaded", "overloaded"]);
    await expectIdle(rig.glass, false);
  });

  it("longer than the retries: the read fails with OverloadedError after 1 + maxRetries attempts, and the next read succeeds", async () => {
    rig = await startRig("websocket", { faults: { overloadBurst: { afterCalls: 0, count: 3 } } });
    failedWith(await read(rig), OverloadedError, { code: "overloaded", mutationPossible: false });
    expect(rig.received("observe")).toBe(3);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    await expectIdle(rig.glass, false);
  });

  it("a mutation under the lease fails at once with OverloadedError (mutationPossible false) and was sent exactly once", async () => {
    rig = await startRig("websocket", { faults: { overloadBurst: { afterCalls: 0, count: 1 } } });
    await leaseIfAny(rig);
    failedWith(await mutate(rig), OverloadedError, { code: "overloaded", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    expect(retries(rig.events, "browser.click")).toEqual([]);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    await expectIdle(rig.glass, false);
  });
});

describe("faults over WebSocket (via the bridge): the lease expires in the middle of a withLease block", () => {
  it("before any renewal: the next mutation fails with LeaseError leaseExpired and is not retried; the lease is dropped and the block's signal aborts at once", async () => {
    rig = await startRig("websocket", { faults: { leaseExpiresAfterMs: 100 } });
    let signalAbortedAtError: boolean | undefined;
    const block = rig.glass.withLease(
      async (_lease, signal) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const clicked = await mutate(rig!, { signal });
        signalAbortedAtError = signal.aborted;
        return clicked;
      },
      { ttlMs: 60_000 },
    );
    const clicked = succeeded(await settle(block, 5_000, "the withLease block"));
    failedWith(clicked, LeaseError, { code: "leaseExpired", mutationPossible: false, retryable: true });
    // The daemon refused the lease: the client drops it and aborts the block's signal, so the block stops mutating.
    expect(signalAbortedAtError).toBe(true);
    expect(rig.received("click")).toBe(1);
    expect(rig.glass.lease).toBeUndefined();
    expect(rig.daemon!.activeLeases()).toEqual([]);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    await expectIdle(rig.glass, false);
  });

  it("at the renewal: the renewal fails, the block's signal aborts with the LeaseError, and a mutation given that signal is never sent", async () => {
    rig = await startRig("websocket", { faults: { leaseExpiresAfterMs: 50 } });
    const block = rig.glass.withLease(
      async (_lease, signal) => {
        await settle(new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true })), 3_000, "the block's signal aborting");
        return { reason: signal.reason as unknown, lease: rig!.glass.lease, clicked: await mutate(rig!, { signal }) };
      },
      { ttlMs: 1_000, renewBeforeMs: 900 },
    );
    const { reason, lease, clicked } = succeeded(await settle(block, 5_000, "the withLease block"));
    expect(reason).toBeInstanceOf(LeaseError);
    expect(reason).toMatchObject({ code: "leaseExpired" });
    expect(lease).toBeUndefined();
    failedWith(clicked, CancelledError, { code: "cancelled", mutationPossible: false });
    expect(rig.received("click")).toBe(0);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    await expectIdle(rig.glass, false);
  });
});
