/**
 * Fault injection over HTTP: `httpTransport` → the bridge → an in-process socket mock daemon with
 * faults. The bridge gives the HTTP session its own daemon connection and sits in the middle of
 * every fault: it turns a daemon crash into a JSON-RPC -32603 answer for the pending requests and
 * ends the session (the transport then starts a new one on the next message), skips bad frames
 * from the daemon, drops answers nobody is waiting for, and answers the daemon's own requests with
 * -32601 itself (an HTTP client has no stream to receive them on).
 */
import { describe, expect, it } from "vitest";
import { CancelledError, DeadlineExceededError, GlassError, LeaseError } from "glass-sdk";
import {
  expectIdle,
  expectNoRepeatedMutation,
  expectReadAndMutationAnswered,
  failedWith,
  leaseIfAny,
  mutate,
  observeResult,
  read,
  retries,
  type Rig,
  settle,
  succeeded,
  waitUntil,
  wireEvents,
} from "../support/fault-rig.js";
import {
  crashMidCall,
  describeBridgeHoldsHalfFrame,
  describeBridgeSkipsBadFrames,
  describeLeaseExpiryInWithLease,
  describeOverloadBurst,
  expectCallsFailedInCrash,
  expectDaemonGotAnswer,
  faultSuite,
} from "./scenarios.js";

const suite = faultSuite("http", "faults over HTTP (via the bridge)");

describe("faults over HTTP (via the bridge): the daemon dies", () => {
  it("mid-call: the bridge answers the pending calls with -32603, so they fail with mcp.internalError (mutationPossible for the mutation); the next read starts a new session and succeeds; the old lease is gone", async () => {
    const crash = await crashMidCall(suite, 500);
    const { rig } = crash;
    expectCallsFailedInCrash(crash, GlassError, "mcp.internalError", { rawMessage: "the daemon connection closed" });
    expect(rig.daemon!.crashed).toBe(true);
    expect(rig.bridgeLogs.some((line) => /ended \(http\): the daemon connection closed/.test(line))).toBe(true);

    // The session is gone (404): the transport replays initialize in a new session and sends the read again.
    expect(succeeded(await read(rig))).toEqual(observeResult);
    expect(rig.wire.sent.filter((m) => "method" in m && m.method === "initialize")).toHaveLength(1); // the replay is the transport's own
    // The lease died with the daemon connection and the client forgot it with the new session: a
    // mutation now fails with a LeaseError (leaseRequired), and is not retried.
    failedWith(await mutate(rig), LeaseError, {
      code: expect.stringMatching(/^lease(NotFound|Required)$/),
      mutationPossible: false,
    });
    expect(expectNoRepeatedMutation(rig)).toBe(2);
    await expectIdle(rig.glass, false);
  });
});

/*
 * Over HTTP the pending calls get -32603 from the bridge when the daemon connection behind the
 * session dies, and the next message starts a new session (a new daemon client, without the lease).
 * The transport reports the new session, so the client forgets the old lease and withLease()
 * acquires a new one.
 */
describe("over HTTP, after the daemon connection behind the session dies, the new session forgets the old lease", () => {
  it("withLease after the crash acquires a new lease and runs its block", async () => {
    const rig = await suite.start({ faults: { crashAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    failedWith(await mutate(rig), GlassError, { code: "mcp.internalError", mutationPossible: true }); // call 2 crashes the daemon
    succeeded(await read(rig)); // a new session
    const block = await settle(
      rig.glass.withLease(async () => "ran", { ttlMs: 10_000 }),
      5_000,
      "withLease",
    );
    expect(
      block.ok ? block.value : `${(block.error as GlassError).code}: ${(block.error as GlassError).rawMessage}`,
    ).toBe("ran");
  });
});

describe("faults over HTTP (via the bridge): the daemon stalls", () => {
  it("past the deadline: DeadlineExceededError at the deadline (mutationPossible for the mutation), nothing is retried, the session still answers", async () => {
    const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
    await leaseIfAny(rig);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 300 }), mutate(rig, { deadlineMs: 300 })]);
    failedWith(observed, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: true, phase: "dispatch" });
    expect(Math.max(observed.ms, clicked.ms)).toBeLessThan(2_000);
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(1);
    succeeded(await settle(rig.glass.ping({ deadlineMs: 2_000 }), 3_000, "ping"));
    await waitUntil(() => rig.glass.stats().inFlight === 0, "the cancel grace released the slots");
    expect(rig.glass.stats()).toMatchObject({ inFlight: 0, queued: 0, closed: false });
    // The cancels reach the daemon: see the describe below.
  });
});

/*
 * Over HTTP, `send()` resolves only when the POST's answer starts, and the bridge answers a
 * request with JSON only when the daemon has answered it. exchange() sends notifications/cancelled
 * only once the request counts as written (`onWritten`), so for a call the daemon has not answered
 * — exactly the calls a deadline or an abort cuts off — the cancel is deferred forever: the daemon
 * keeps running the call, the bridge keeps the HTTP request open, and the client keeps it pending.
 */
/**
 * Waits (1 s at most) until the daemon runs none of the cut-off calls, then asserts that the client
 * sent `cancels` cancels, the daemon ended the calls and the client awaits no answer.
 */
async function expectCancelsEndedTheCalls(rig: Rig, cancels: number): Promise<void> {
  await waitUntil(() => rig.daemon!.inFlight() === 0, "the daemon ended the cancelled calls", 1_000).catch(
    () => undefined,
  );
  expect({
    cancelsSent: rig.wire.cancelled().length,
    daemonInFlight: rig.daemon!.inFlight(),
    awaitingAnswer: rig.glass.stats().awaitingAnswer,
  }).toEqual({
    cancelsSent: cancels,
    daemonInFlight: 0,
    awaitingAnswer: 0,
  });
}

describe("over HTTP, a call cut off by its deadline or an abort sends notifications/cancelled", () => {
  it("deadline: the daemon is told to cancel both calls and ends them; the client awaits nothing", async () => {
    const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
    await leaseIfAny(rig);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 200 }), mutate(rig, { deadlineMs: 200 })]);
    failedWith(observed, DeadlineExceededError, { mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { mutationPossible: true });
    await expectCancelsEndedTheCalls(rig, 2);
  });

  it("abort: an aborted mutation's cancel reaches the daemon (CancelledError mutationPossible either way)", async () => {
    const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
    await leaseIfAny(rig);
    const controller = new AbortController();
    const click = mutate(rig, { signal: controller.signal });
    await rig.untilCalls(1);
    controller.abort();
    failedWith(await click, CancelledError, { code: "cancelled", mutationPossible: true });
    await expectCancelsEndedTheCalls(rig, 1);
    expect(rig.received("click")).toBe(1);
  });

  it("consequence: after 4 timed-out calls the daemon still runs them, so the session's next read is refused -32000 (over the socket it succeeds)", async () => {
    const rig = await suite.start({ latencyMs: 2_000 }); // long enough to outlast the four timeouts even on a busy machine
    for (let i = 0; i < 4; i++)
      failedWith(await read(rig, { deadlineMs: 100 }), DeadlineExceededError, { mutationPossible: false });
    await waitUntil(() => rig.glass.stats().inFlight === 0, "the client released its slots");
    const next = await read(rig, { deadlineMs: 4_000 }, 6_000);
    expect(
      next.ok
        ? "answered"
        : `${(next.error as GlassError).name} ${(next.error as GlassError).code} after ${retries(rig.events, "browser.observe").length} retries`,
    ).toBe("answered");
  });
});

describeBridgeHoldsHalfFrame(suite);

describeBridgeSkipsBadFrames(suite);

describe("faults over HTTP (via the bridge): the daemon answers what was not asked", () => {
  it("an unknown id: the bridge drops it; every call settles once with its own answer", async () => {
    const rig = await suite.start({ faults: { unknownIdAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await expectReadAndMutationAnswered(rig);
    expect(rig.wire.answersTo("mock-unknown-request")).toEqual([]);
    expect(wireEvents(rig.events)).toEqual([]);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("the same id twice (a mutation's answer): the call settles once; the bridge drops the duplicate", async () => {
    const rig = await suite.start({ faults: { duplicateAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    failedWith(await mutate(rig), GlassError, { code: "staleRevision", mutationPossible: false });
    expect(succeeded(await read(rig))).toEqual(observeResult);
    const [clickId] = rig.wire.toolCallIds("click");
    expect(rig.wire.answersTo(clickId)).toHaveLength(1);
    expect(wireEvents(rig.events)).toEqual([]);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("a request of its own: the bridge answers it -32601 for the HTTP client, so the daemon never waits; the client goes on", async () => {
    const rig = await suite.start({ faults: { serverRequestAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await expectDaemonGotAnswer(rig, {
      method: "elicitation/create",
      response: { id: "glass-server-1", error: { code: -32601, message: expect.stringContaining("HTTP endpoint") } },
    });
    expect(rig.wire.received.some((m) => "method" in m)).toBe(false);
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision" });
    await expectIdle(rig.glass, false);
  });
});

describeOverloadBurst(suite);

describeLeaseExpiryInWithLease(suite);
