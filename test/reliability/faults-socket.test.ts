/**
 * Fault injection over the daemon's Unix socket: an in-process mock daemon with faults, one client.
 * The socket has mutation leases, so the mutating call runs under a lease acquired first; the
 * daemon's own record (`daemon.calls`) says how often it received each call.
 */
import { describe, expect, it } from "vitest";
import { DeadlineExceededError, Glass, GlassError, LeaseError, TransportClosedError } from "glass-sdk";
import {
  expectIdle,
  expectReadAndMutationAnswered,
  failedWith,
  leaseIfAny,
  mutate,
  observePayload,
  observeResult,
  read,
  retries,
  settle,
  succeeded,
  waitUntil,
  wireEvents,
} from "./support/fault-rig.js";
import {
  describeCrashWithCallsQueued,
  describeDaemonStallsAndCancels,
  describeLeaseExpiryInWithLease,
  describeOverloadBurst,
  describeOversizedFrameEndsConnection,
  faultSuite,
} from "./support/shared-fault-scenarios.js";

const suite = faultSuite("socket", "faults over the socket");

describe("faults over the socket: the daemon dies", () => {
  it("mid-call: the written mutation fails with TransportClosedError mutationPossible, the reads without; nothing is retried; the lease is forgotten and the client says it is closed", async () => {
    const rig = await suite.start({ faults: { crashAfterCalls: 2 }, latencyMs: 2_000 });
    await leaseIfAny(rig);
    const click = mutate(rig);
    await rig.untilCalls(1);
    const observe = read(rig);
    await rig.untilCalls(2);
    const trigger = read(rig); // call 3: the daemon drops every client and forgets its lease
    const [clicked, observed, triggered] = await Promise.all([click, observe, trigger]);
    failedWith(clicked, TransportClosedError, {
      code: "transport.closed",
      mutationPossible: true,
      phase: "dispatch",
      operation: "browser.click",
    });
    failedWith(observed, TransportClosedError, { code: "transport.closed", mutationPossible: false });
    failedWith(triggered, TransportClosedError, { code: "transport.closed", mutationPossible: false });
    expect(rig.daemon!.crashed).toBe(true);
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(2);
    expect(retries(rig.events, "browser.observe")).toEqual([]);
    expect(rig.glass.lease).toBeUndefined();
    expect(rig.daemon!.activeLeases()).toEqual([]);

    failedWith(await read(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    failedWith(await mutate(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, true);
  });
});

describeCrashWithCallsQueued(suite);

describeDaemonStallsAndCancels(suite, "the written mutation");

describe("faults over the socket: a slow daemon and deadlines", () => {
  it("after 4 timed-out calls the cancels have freed the daemon's slots: the next read is answered", async () => {
    const rig = await suite.start({ latencyMs: 1_000 });
    for (let i = 0; i < 4; i++)
      failedWith(await read(rig, { deadlineMs: 100 }), DeadlineExceededError, { mutationPossible: false });
    expect(rig.wire.cancelled()).toHaveLength(4);
    expect(succeeded(await read(rig, { deadlineMs: 3_000 }, 5_000))).toEqual(observeResult);
    expect(retries(rig.events, "browser.observe")).toEqual([]);
    await expectIdle(rig.glass, false);
  });
});

describe("faults over the socket: the daemon sends half a frame and goes silent", () => {
  it("later calls end at their deadline (mutationPossible for the mutation), the half frame is dropped as a bad frame after frameTimeoutMs; the client stays open on a dead connection, and a new connection works", async () => {
    const rig = await suite.start({ faults: { partialFrameAfterCalls: 1 }, frameTimeoutMs: 300 });
    await leaseIfAny(rig);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 400 }), mutate(rig, { deadlineMs: 400 })]);
    failedWith(observed, DeadlineExceededError, { mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { mutationPossible: true });
    expect(rig.received("click")).toBe(1);
    await waitUntil(() => rig.wire.badFrames.length === 1, "the half frame was dropped");
    expect(rig.wire.badFrames[0]!.message).toMatch(/no complete frame from .* within 300 ms of its first byte/);
    failedWith(await settle(rig.glass.ping({ deadlineMs: 300 }), 3_000, "ping"), DeadlineExceededError, {
      mutationPossible: false,
    });
    expect(rig.glass.stats()).toMatchObject({ closed: false });

    const fresh = await Glass.connect(rig.newTransport());
    suite.keepClient(fresh);
    expect(await fresh.browser.observe(observePayload)).toEqual(observeResult);
  });
});

describeOversizedFrameEndsConnection(suite);

describe("faults over the socket: the daemon sends a bad frame", () => {
  it("malformed (not JSON): it is skipped as a bad frame; the calls that follow are answered and the client stays usable", async () => {
    const rig = await suite.start({ faults: { malformedFrameAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await expectReadAndMutationAnswered(rig);
    await waitUntil(() => rig.wire.badFrames.length === 1, "the malformed frame was reported");
    expect(rig.wire.badFrames[0]!.message).toMatch(/not valid JSON/);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });
});

describe("faults over the socket: the daemon answers what was not asked", () => {
  it("an unknown id: the answer is ignored (logged as unknownResponse); every call settles once with its own answer", async () => {
    const rig = await suite.start({ faults: { unknownIdAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await expectReadAndMutationAnswered(rig);
    await waitUntil(() => wireEvents(rig.events).includes("unknownResponse"), "the stray answer was logged");
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("the same id twice (a mutation's answer): the call settles once, the duplicate is ignored and settles nothing else", async () => {
    const rig = await suite.start({ faults: { duplicateAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    failedWith(await mutate(rig), GlassError, { code: "staleRevision", mutationPossible: false });
    const [clickId] = rig.wire.toolCallIds("click");
    await waitUntil(() => rig.wire.answersTo(clickId).length === 2, "the duplicate arrived");
    expect(wireEvents(rig.events)).toEqual(["unknownResponse"]);
    expect(succeeded(await read(rig))).toEqual(observeResult);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("a request of its own: the client answers -32601 (no handler) so the daemon never waits, and goes on", async () => {
    const rig = await suite.start({ faults: { serverRequestAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await settle(
      rig.daemon!.waitFor((d) => d.clientAnswers.length === 1),
      2_000,
      "the daemon receiving the client's answer",
    );
    expect(rig.daemon!.clientAnswers[0]).toMatchObject({
      method: "elicitation/create",
      response: { id: "glass-server-1", error: { code: -32601 } },
    });
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision" });
    await expectIdle(rig.glass, false);
  });
});

describeOverloadBurst(suite);

describeLeaseExpiryInWithLease(suite);

/*
 * A call cut off by its deadline (or an abort) sends notifications/cancelled and gives its
 * in-flight slot back after cancelGraceMs, but its entry in the MCP session's pending map goes only
 * when an answer arrives or the connection closes: McpSession.forget(), documented for exactly this
 * ("stops waiting (after a cancel)"), is never called (exchange.ts, holdSlotUntilSettled). With a
 * daemon that never answers the cancel — here one gone silent after half a frame; over HTTP every
 * daemon, see faults-http — each cut-off call stays pending, with its closures, for as long as the
 * connection lives, and glass.stats() never reads idle again. Same over stdio and WebSocket.
 */
describe("a cut-off call the daemon never answers stops being awaited after the cancel grace period", () => {
  it("after the cancel grace, glass.stats().awaitingAnswer is back to 0", async () => {
    const rig = await suite.start({ faults: { partialFrameAfterCalls: 1 } });
    succeeded(await read(rig));
    for (let i = 0; i < 3; i++)
      failedWith(await read(rig, { deadlineMs: 100 }), DeadlineExceededError, { mutationPossible: false });
    await waitUntil(() => rig.glass.stats().inFlight === 0, "the cancel grace released the slots");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.glass.stats()).toEqual({ inFlight: 0, queued: 0, awaitingAnswer: 0, closed: false });
  });
});

/*
 * When the daemon answers a mutating call with LeaseError leaseExpired (or leaseNotFound /
 * invalidLease), the lease the client attached is dead — and the error's own advice is
 * `retry: {safeAfterReobserve, acquire_lease}` (acquire a new lease, re-observe, then decide: another
 * client may have acted meanwhile). But the client keeps the dead lease (LeaseKeeper drops a
 * lease only when a *renewal* fails): acquireLease() and withLease() then fail locally with
 * leaseHeld ("this client already holds the mutation lease") without asking the daemon, until the
 * caller calls releaseLease() — which itself fails with leaseExpired. Following the advice fails.
 */
describe("after the daemon says the lease expired, the client drops it and can acquire a new one", () => {
  it("a LeaseError leaseExpired on a mutation, then acquireLease() as the error advises: a new lease is granted", async () => {
    const rig = await suite.start({ faults: { leaseExpiresAfterMs: 100 } });
    await leaseIfAny(rig);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const expired = failedWith(await mutate(rig), LeaseError, { code: "leaseExpired", mutationPossible: false });
    expect(expired.retry).toEqual({ classification: "safeAfterReobserve", recommendedOperation: "acquire_lease" });
    const again = await settle(rig.glass.acquireLease({ ttlMs: 60_000 }), 5_000, "acquireLease");
    expect(
      again.ok ? "granted" : `${(again.error as GlassError).code}: ${(again.error as GlassError).rawMessage}`,
    ).toBe("granted");
  });
});
