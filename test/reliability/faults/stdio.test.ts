/**
 * Fault injection over stdio: the mock daemon CLI as a child process (`--faults JSON`), one client.
 * The daemon runs in another process, so what it received is read off the wire the client wrote
 * (it cannot have received more). stdio has no leases: mutating calls need none.
 */
import { describe, expect, it } from "vitest";
import { DeadlineExceededError, GlassError, TransportClosedError } from "glass-sdk";
import {
  expectIdle,
  failedWith,
  mutate,
  observeResult,
  read,
  type Rig,
  settle,
  succeeded,
  waitUntil,
  wireEvents,
} from "../support/fault-rig.js";
import {
  crashMidCall,
  describeCrashWithCallsQueued,
  describeMalformedFrameSkipped,
  describeOverloadBurst,
  describeOversizedFrameEndsConnection,
  describeStrayMessages,
  expectCallsFailedInCrash,
  expectClosedForGood,
  expectStrayAnswerReceived,
  faultSuite,
} from "./scenarios.js";

const suite = faultSuite("stdio", "faults over stdio");

describe("faults over stdio: the daemon dies", () => {
  it("mid-call: the written mutation fails with TransportClosedError mutationPossible, the reads without; nothing is retried; the client then says it is closed", async () => {
    // Call 3 crashes the daemon: the CLI exits with 1.
    const crash = await crashMidCall(suite, 2_000);
    const error = expectCallsFailedInCrash(crash, TransportClosedError, "transport.closed", {
      operation: "browser.click",
    });
    expect(error.message).toMatch(/exited with code 1/);
    expect(error.message).toMatch(/observe before deciding/);
    expect(crash.rig.received("click")).toBe(1);
    await expectClosedForGood(crash.rig);
  });
});

describeCrashWithCallsQueued(suite);

describe("faults over stdio: the daemon stalls", () => {
  it("past the deadline: DeadlineExceededError at the deadline (mutationPossible for the written mutation), notifications/cancelled ends the daemon's calls, nothing is retried, the connection still answers", async () => {
    const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 300 }), mutate(rig, { deadlineMs: 300 })]);
    failedWith(observed, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: true, phase: "dispatch" });
    expect(observed.ms).toBeLessThan(2_000);
    expect(clicked.ms).toBeLessThan(2_000);
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(1);
    const ids = [...rig.wire.toolCallIds("observe"), ...rig.wire.toolCallIds("click")];
    expect(rig.wire.cancelled().sort()).toEqual([...ids].sort());
    await waitUntil(
      () => ids.every((id) => rig.wire.answersTo(id).length === 1),
      "the daemon answered both cancelled calls",
    );
    expect(ids.map((id) => (rig.wire.answersTo(id)[0] as { error?: { code: number } }).error?.code)).toEqual([
      -32800, -32800,
    ]);

    succeeded(await settle(rig.glass.ping({ deadlineMs: 2_000 }), 3_000, "ping"));
    await expectIdle(rig.glass, false);
  });
});

describe("faults over stdio: the daemon sends half a frame and goes silent", () => {
  it("later calls end at their deadline (mutationPossible for the mutation), the half frame is dropped as a bad frame after frameTimeoutMs; the client stays open on a connection that no longer answers", async () => {
    const rig = await suite.start({ faults: { partialFrameAfterCalls: 1 }, frameTimeoutMs: 300 });
    expect(succeeded(await read(rig))).toEqual(observeResult);
    const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 400 }), mutate(rig, { deadlineMs: 400 })]);
    failedWith(observed, DeadlineExceededError, { mutationPossible: false });
    failedWith(clicked, DeadlineExceededError, { mutationPossible: true });
    expect(rig.received("click")).toBe(1);
    await waitUntil(() => rig.wire.badFrames.length === 1, "the half frame was dropped");
    expect(rig.wire.badFrames[0]!.message).toMatch(/no complete frame from .* within 300 ms of its first byte/);
    expect(wireEvents(rig.events)).toContain("badFrame");
    failedWith(await settle(rig.glass.ping({ deadlineMs: 300 }), 3_000, "ping"), DeadlineExceededError, {
      mutationPossible: false,
    });
    expect(rig.glass.stats()).toMatchObject({ closed: false });
  });
});

describeOversizedFrameEndsConnection(suite);

describeMalformedFrameSkipped(suite, (rig) => expect(wireEvents(rig.events)).toEqual(["badFrame"]));

/** The daemon runs in another process: its request, and the client's answer, are seen on the wire. */
async function expectClientAnsweredOnTheWire(rig: Rig): Promise<void> {
  await waitUntil(
    () => rig.wire.sent.some((m) => (m as { id?: unknown }).id === "glass-server-1"),
    "the client answered the daemon's request",
  );
  expect(rig.wire.sent.find((m) => (m as { id?: unknown }).id === "glass-server-1")).toMatchObject({
    error: { code: -32601 },
  });
  expect(wireEvents(rig.events)).toContain("daemon request elicitation/create answered (methodNotFound)");
}

describeStrayMessages(suite, { unknownId: expectStrayAnswerReceived, clientAnswer: expectClientAnsweredOnTheWire });

describeOverloadBurst(suite);

describe("faults over stdio: leases", () => {
  it("there are none: withLease fails with mcp.methodNotFound before running its block, and nothing is sent", async () => {
    const rig = await suite.start();
    let ran = false;
    const outcome = await settle(
      rig.glass.withLease(() => {
        ran = true;
      }),
      5_000,
      "withLease",
    );
    failedWith(outcome, GlassError, { code: "mcp.methodNotFound", mutationPossible: false });
    expect(ran).toBe(false);
    expect(rig.received("click")).toBe(0);
    succeeded(await read(rig));
    await expectIdle(rig.glass, false);
  });
});
