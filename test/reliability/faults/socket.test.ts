/**
 * Fault injection over the daemon's Unix socket: an in-process mock daemon with faults, one client.
 * The socket has mutation leases, so the mutating call runs under a lease acquired first; the
 * daemon's own record (`daemon.calls`) says how often it received each call.
 */
import { describe, expect, it } from "vitest";
import { DeadlineExceededError, Glass, type GlassError, LeaseError, TransportClosedError } from "glass-sdk";
import {
  expectIdle,
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
} from "../support/fault-rig.js";
import {
  crashMidCall,
  describeCrashWithCallsQueued,
  describeDaemonStallsAndCancels,
  describeLeaseExpiryInWithLease,
  describeMalformedFrameSkipped,
  describeOverloadBurst,
  describeOversizedFrameEndsConnection,
  describeStrayMessages,
  expectCallsFailedInCrash,
  expectClosedForGood,
  expectDaemonGotAnswer,
  faultSuite,
} from "./scenarios.js";

const suite = faultSuite("socket", "faults over the socket");

describe("faults over the socket: the daemon dies", () => {
  it("mid-call: the written mutation fails with TransportClosedError mutationPossible, the reads without; nothing is retried; the lease is forgotten and the client says it is closed", async () => {
    // Call 3 crashes the daemon: it drops every client and forgets its lease.
    const crash = await crashMidCall(suite, 2_000);
    const { rig } = crash;
    expectCallsFailedInCrash(crash, TransportClosedError, "transport.closed", { operation: "browser.click" });
    expect(rig.daemon!.crashed).toBe(true);
    expect(rig.received("click")).toBe(1);
    expect(rig.glass.lease).toBeUndefined();
    expect(rig.daemon!.activeLeases()).toEqual([]);
    await expectClosedForGood(rig);
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

describeMalformedFrameSkipped(suite);

describeStrayMessages(suite, {
  clientAnswer: (rig) =>
    expectDaemonGotAnswer(rig, {
      method: "elicitation/create",
      response: { id: "glass-server-1", error: { code: -32601 } },
    }),
});

describeOverloadBurst(suite);

describeLeaseExpiryInWithLease(suite);

/*
 * A call cut off by its deadline (or an abort) sends notifications/cancelled and gives its
 * in-flight slot back after cancelGraceMs, but its entry in the MCP session's pending map goes only
 * when an answer arrives or the connection closes: McpSession.forget(), documented for exactly this
 * ("stops waiting (after a cancel)"), is never called (exchange.ts, holdSlotUntilSettled). With a
 * daemon that never answers the cancel — here one gone silent after half a frame; over HTTP every
 * daemon, see http.test.ts — each cut-off call stays pending, with its closures, for as long as the
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
