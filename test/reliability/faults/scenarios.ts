/**
 * Fault scenarios that run the same way over more than one transport: the suites of this folder
 * over stdio, the socket, HTTP and WebSocket (stdio.test.ts, socket.test.ts, http.test.ts,
 * websocket.test.ts). Each `describe…` function registers one describe block, labelled
 * `${suite.label}: …`, with its tests; a test file calls it where the block stands in the file, so
 * the order of the tests is the file's. The other functions are steps and checks of a scenario
 * whose assertions differ by transport (the daemon dying mid-call), for the files' own tests.
 *
 * A test file sets itself up with `faultSuite(kind, label)`: every test, the file's own and the
 * ones registered here, starts its rig with `suite.start(...)` (and hands any extra client to
 * `suite.keepClient`), and the afterEach registered by `faultSuite` asserts that no mutation was
 * repeated and stops them.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  CancelledError,
  DeadlineExceededError,
  Glass,
  GlassError,
  LeaseError,
  OverloadedError,
  TransportClosedError,
} from "glass-sdk";
import {
  type ErrorClass,
  expectIdle,
  expectNoRepeatedMutation,
  expectReadAndMutationAnswered,
  failedWith,
  hasLeases,
  leaseIfAny,
  type LeaseTransportKind,
  mutate,
  observePayload,
  observeResult,
  type Outcome,
  read,
  retries,
  type Rig,
  type RigOptions,
  settle,
  startRig,
  succeeded,
  type TransportKind,
  waitUntil,
  wireEvents,
} from "../support/fault-rig.js";

/** One fault-suite file: the transport it runs over, how its describe labels start, and where its rigs go. */
export interface FaultSuite<K extends TransportKind = TransportKind> {
  /** The transport every rig of the suite runs over. */
  readonly kind: K;
  /** The start of the suite's describe labels, e.g. "faults over the socket". */
  readonly label: string;
  /** Starts a rig over the suite's transport; the file's afterEach asserts no mutation was repeated on it, then stops it. */
  start(options?: RigOptions): Promise<Rig>;
  /** Hands a second client to the file's afterEach, which closes it (before stopping the rig). */
  keepClient(glass: Glass): void;
}

/**
 * Sets up a fault-suite file over `kind` (call it once, at the top of the file): registers the
 * file's afterEach and returns the suite its tests start their rigs from. After each test, for the
 * rig the test started: no mutation was written, or received by an in-process daemon, twice
 * (`expectNoRepeatedMutation`); then the extra clients are closed and the rig is stopped, even when
 * that assertion fails.
 */
export function faultSuite<K extends TransportKind>(kind: K, label: string): FaultSuite<K> {
  const rigs: Rig[] = [];
  const extraClients: Glass[] = [];
  afterEach(async () => {
    const started = rigs.splice(0);
    try {
      for (const rig of started) expectNoRepeatedMutation(rig);
    } finally {
      for (const glass of extraClients.splice(0)) await glass.close().catch(() => undefined);
      for (const rig of started) await rig.stop();
    }
  });
  return {
    kind,
    label,
    async start(options = {}) {
      const rig = await startRig(kind, options);
      rigs.push(rig);
      return rig;
    },
    keepClient(glass) {
      extraClients.push(glass);
    },
  };
}

/** How the three calls of {@link crashMidCall} ended, on the rig they ran on. */
export interface CrashOutcomes {
  readonly rig: Rig;
  /** The mutation, received by the daemon before the crash. */
  readonly clicked: Outcome<unknown>;
  /** A read, received by the daemon before the crash. */
  readonly observed: Outcome<unknown>;
  /** The read that crashes the daemon (its third call). */
  readonly triggered: Outcome<unknown>;
}

/**
 * The daemon dies mid-call (every transport): starts a rig whose daemon crashes at its third call
 * (`crashAfterCalls: 2`, each call answered after `latencyMs`), takes the lease where there are
 * leases, then sends a mutation, a read once the daemon has received it, and a read once it has
 * received both: that third call crashes the daemon with the first two in flight.
 */
export async function crashMidCall(suite: FaultSuite, latencyMs: number): Promise<CrashOutcomes> {
  const rig = await suite.start({ faults: { crashAfterCalls: 2 }, latencyMs });
  await leaseIfAny(rig);
  const click = mutate(rig);
  await rig.untilCalls(1);
  const observe = read(rig);
  await rig.untilCalls(2);
  const trigger = read(rig); // call 3 crashes the daemon
  const [clicked, observed, triggered] = await Promise.all([click, observe, trigger]);
  return { rig, clicked, observed, triggered };
}

/**
 * Asserts how the calls of {@link crashMidCall} failed: all three with `cls` and `code`, the
 * mutation with mutationPossible (phase "dispatch", and `mutationFields`), the reads without; the
 * daemon received both reads, and neither was retried. Returns the mutation's error.
 */
export function expectCallsFailedInCrash(
  crash: CrashOutcomes,
  cls: ErrorClass,
  code: string,
  mutationFields: Record<string, unknown>,
): GlassError {
  const error = failedWith(crash.clicked, cls, { code, mutationPossible: true, phase: "dispatch", ...mutationFields });
  failedWith(crash.observed, cls, { code, mutationPossible: false });
  failedWith(crash.triggered, cls, { code, mutationPossible: false });
  expect(crash.rig.received("observe")).toBe(2);
  expect(retries(crash.rig.events, "browser.observe")).toEqual([]);
  return error;
}

/**
 * Once the connection is gone for good (stdio, the socket, WebSocket): a read and a mutation fail
 * at once with TransportClosedError (mutationPossible false), the daemon received no other click
 * than the one before the crash, and the client says it is closed.
 */
export async function expectClosedForGood(rig: Rig): Promise<void> {
  failedWith(await read(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
  failedWith(await mutate(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
  expect(rig.received("click")).toBe(1);
  await expectIdle(rig.glass, true);
}

/**
 * Registers "`label`: the daemon dies with calls queued in the client" (socket, stdio): with one
 * call in flight at most, the call that crashes the daemon is the only one written
 * (mutationPossible); the queued read and mutation fail in preflight and are never sent.
 */
export function describeCrashWithCallsQueued(suite: FaultSuite<"socket" | "stdio">): void {
  describe(`${suite.label}: the daemon dies with calls queued in the client`, () => {
    it("a queued mutation is never sent once the connection is gone (TransportClosedError, mutationPossible false); the written one is mutationPossible", async () => {
      const rig = await suite.start({ faults: { crashAfterCalls: 0 }, client: { maxInFlight: 1 } });
      await leaseIfAny(rig);
      const first = mutate(rig); // call 1 crashes the daemon
      const queuedRead = read(rig);
      const queuedMutation = mutate(rig);
      const [written, observed, clicked] = await Promise.all([first, queuedRead, queuedMutation]);
      failedWith(written, TransportClosedError, {
        code: "transport.closed",
        mutationPossible: true,
        phase: "dispatch",
      });
      failedWith(observed, TransportClosedError, {
        code: "transport.closed",
        mutationPossible: false,
        phase: "preflight",
      });
      failedWith(clicked, TransportClosedError, {
        code: "transport.closed",
        mutationPossible: false,
        phase: "preflight",
      });
      expect(rig.received("click")).toBe(1);
      expect(rig.received("observe")).toBe(0);
      expect(retries(rig.events, "browser.click")).toEqual([]);
      // The queued read failed before it was written, but the connection is gone: there is nothing to retry on.
      expect(retries(rig.events, "browser.observe")).toEqual([]);
      await expectIdle(rig.glass, true);
    });
  });
}

/**
 * Registers "`label`: the daemon stalls" for a transport whose client sees the daemon's answers
 * to its cancels (socket, WebSocket): calls past their deadline fail at it, notifications/cancelled
 * ends them in the daemon, and an abort after the mutation was written cancels it.
 *
 * @param mutation How the first test's name calls the mutation: the socket suite says "the written
 *   mutation", the WebSocket suite "the mutation" (the same call either way).
 */
export function describeDaemonStallsAndCancels(
  suite: FaultSuite<"socket" | "websocket">,
  mutation: "the written mutation" | "the mutation",
): void {
  describe(`${suite.label}: the daemon stalls`, () => {
    it(`past the deadline: DeadlineExceededError at the deadline (mutationPossible for ${mutation}), notifications/cancelled ends the daemon's calls, nothing is retried, the connection still answers`, async () => {
      const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
      await leaseIfAny(rig);
      const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 300 }), mutate(rig, { deadlineMs: 300 })]);
      failedWith(observed, DeadlineExceededError, { code: "deadlineExceeded", mutationPossible: false });
      failedWith(clicked, DeadlineExceededError, {
        code: "deadlineExceeded",
        mutationPossible: true,
        phase: "dispatch",
      });
      expect(Math.max(observed.ms, clicked.ms)).toBeLessThan(2_000);
      expect(rig.received("click")).toBe(1);
      expect(rig.received("observe")).toBe(1);
      await settle(
        rig.daemon!.waitFor((d) => d.inFlight() === 0),
        2_000,
        "the daemon ending both cancelled calls",
      );
      succeeded(await settle(rig.glass.ping({ deadlineMs: 2_000 }), 3_000, "ping"));
      await expectIdle(rig.glass, false);
    });

    it("an abort after the mutation was written: CancelledError mutationPossible, the daemon's call is cancelled, never repeated", async () => {
      const rig = await suite.start({ faults: { stallAfterCalls: 0 } });
      await leaseIfAny(rig);
      const controller = new AbortController();
      const click = mutate(rig, { signal: controller.signal });
      await rig.untilCalls(1);
      controller.abort();
      failedWith(await click, CancelledError, { code: "cancelled", mutationPossible: true, phase: "dispatch" });
      await settle(
        rig.daemon!.waitFor((d) => d.inFlight() === 0),
        2_000,
        "the daemon ending the cancelled call",
      );
      expect(rig.received("click")).toBe(1);
      await expectIdle(rig.glass, false);
    });
  });
}

/**
 * Registers "`label`: the daemon sends half a frame and goes silent" over the bridge (HTTP,
 * WebSocket): the bridge holds the half frame, so later calls end at their deadline and the client
 * stays open on a session that no longer answers; a second client (a new HTTP session, a new
 * WebSocket connection) is answered.
 */
export function describeBridgeHoldsHalfFrame(suite: FaultSuite<"http" | "websocket">): void {
  const fresh = suite.kind === "http" ? "a new session" : "a new connection";
  describe(`${suite.label}: the daemon sends half a frame and goes silent`, () => {
    it(`later calls end at their deadline (mutationPossible for the mutation); the bridge holds the half frame, the client stays open on a session that no longer answers, and ${fresh} works`, async () => {
      const rig = await suite.start({ faults: { partialFrameAfterCalls: 1 } });
      await leaseIfAny(rig);
      expect(succeeded(await read(rig))).toEqual(observeResult);
      const [observed, clicked] = await Promise.all([read(rig, { deadlineMs: 400 }), mutate(rig, { deadlineMs: 400 })]);
      failedWith(observed, DeadlineExceededError, { mutationPossible: false });
      failedWith(clicked, DeadlineExceededError, { mutationPossible: true });
      expect(rig.received("click")).toBe(1);
      expect(rig.wire.badFrames).toEqual([]);
      failedWith(await settle(rig.glass.ping({ deadlineMs: 300 }), 3_000, "ping"), DeadlineExceededError, {
        mutationPossible: false,
      });
      expect(rig.glass.stats()).toMatchObject({ closed: false });

      const second = await Glass.connect(rig.newTransport());
      suite.keepClient(second);
      expect(await second.browser.observe(observePayload)).toEqual(observeResult);
    });
  });
}

/**
 * Registers "`label`: the daemon sends a frame past 32 MiB" over stdio and the socket: a Glass
 * daemon never does (it answers -32001 instead), so the client ends the connection as soon as the
 * frame passes the bound, and every call in flight fails at once with `transport.closed`
 * (`details.reason: "frameTooLarge"`, the frame's size and the bound), long before its deadline;
 * a written mutation says it may have happened. A new connection works.
 */
export function describeOversizedFrameEndsConnection(suite: FaultSuite<"stdio" | "socket">): void {
  describe(`${suite.label}: the daemon sends a frame past 32 MiB`, () => {
    it("the client ends the connection at once: the calls in flight fail with transport.closed (frameTooLarge), not at their deadlines; a new connection works", async () => {
      const rig = await suite.start({ faults: { oversizedFrameAfterCalls: 1 } });
      expect(succeeded(await read(rig))).toEqual(observeResult);
      // The frame follows the first answer; these calls' answers would come after it.
      const [observed, clicked] = await Promise.all([
        read(rig, { deadlineMs: 20_000 }, 15_000),
        mutate(rig, { deadlineMs: 20_000 }, 15_000),
      ]);
      for (const outcome of [observed, clicked]) {
        const error = failedWith(outcome, TransportClosedError, {
          code: "transport.closed",
          details: { reason: "frameTooLarge", framing: "newline", maxBytes: 33_554_432 },
        });
        expect(error.rawMessage).toMatch(
          /sent a frame that passed \d+ bytes, past the 33554432-byte bound on an answer .*: the connection was closed/,
        );
        expect(outcome.ms).toBeLessThan(10_000);
      }
      console.info(
        `${suite.kind}: the calls in flight failed after ${observed.ms} and ${clicked.ms} ms (deadline 20 000 ms)`,
      );
      failedWith(observed, TransportClosedError, { mutationPossible: false });
      const click = clicked.ok ? undefined : (clicked.error as TransportClosedError);
      expect(click?.mutationPossible).toBe(click?.phase === "dispatch");
      expect(rig.wire.badFrames).toHaveLength(1);
      expect(rig.wire.badFrames[0]!.message).toMatch(/newline-delimited frame is longer than 33554432 bytes/);
      await expectIdle(rig.glass, true);

      const fresh = await Glass.connect(rig.newTransport());
      suite.keepClient(fresh);
      expect(await fresh.browser.observe(observePayload)).toEqual(observeResult);
    });
  });
}

/**
 * Registers "`label`: the daemon sends a bad frame" over the bridge (HTTP, WebSocket): a frame past
 * 32 MiB ends the bridge's connection to that daemon and the session (a Glass daemon never sends
 * one), failing the call behind it at once; a malformed frame is skipped and logged, and the client
 * sees nothing of it.
 */
export function describeBridgeSkipsBadFrames(suite: FaultSuite<"http" | "websocket">): void {
  describe(`${suite.label}: the daemon sends a bad frame`, () => {
    it("oversized (over 32 MiB): the bridge ends that daemon connection and the session (and logs why); the call whose answer was behind it fails at once, and a new session works", async () => {
      const rig = await suite.start({ faults: { oversizedFrameAfterCalls: 1 }, latencyMs: 100 });
      // Two reads at once: the frame follows the first answer, so the second answer is behind it.
      const outcomes = await Promise.all([
        read(rig, { deadlineMs: 20_000 }, 15_000),
        read(rig, { deadlineMs: 20_000 }, 15_000),
      ]);
      expect(outcomes.filter((outcome) => outcome.ok).map(succeeded)).toEqual([observeResult]);
      const failed = outcomes.find((outcome) => !outcome.ok)!;
      failedWith(failed, GlassError, {
        code: "mcp.internalError",
        mutationPossible: false,
        message: expect.stringMatching(/the daemon connection closed/),
      });
      expect(failed.ms).toBeLessThan(10_000);
      await waitUntil(
        () =>
          rig.bridgeLogs.some((line) =>
            /the daemon connection closed: .*sent a frame that passed \d+ bytes, past the 33554432-byte bound/.test(
              line,
            ),
          ),
        "the bridge logged why the session ended",
      );
      expect(rig.wire.badFrames).toEqual([]);

      const fresh = await Glass.connect(rig.newTransport());
      suite.keepClient(fresh);
      expect(await fresh.browser.observe(observePayload)).toEqual(observeResult);
    });

    it("malformed (not JSON): the bridge skips it (and logs it); the client sees nothing of it and every call is answered", async () => {
      const rig = await suite.start({ faults: { malformedFrameAfterCalls: 1 } });
      await leaseIfAny(rig);
      succeeded(await read(rig));
      await expectReadAndMutationAnswered(rig);
      await waitUntil(
        () => rig.bridgeLogs.some((line) => /skipped a bad frame from the daemon: .*not valid JSON/.test(line)),
        "the bridge logged the skipped frame",
      );
      expect(rig.wire.badFrames).toEqual([]);
      expect(rig.received("click")).toBe(1);
      await expectIdle(rig.glass, false);
    });
  });
}

/**
 * Registers "`label`: the daemon sends a bad frame" for a transport whose client reads the daemon's
 * frames itself (stdio, the socket): a malformed frame (not JSON) is skipped and reported as a bad
 * frame, and the calls that follow are answered.
 *
 * @param alsoCheck What the suite checks besides, after the bad frame was reported.
 */
export function describeMalformedFrameSkipped(
  suite: FaultSuite<"stdio" | "socket">,
  alsoCheck: (rig: Rig) => void = () => undefined,
): void {
  describe(`${suite.label}: the daemon sends a bad frame`, () => {
    it("malformed (not JSON): it is skipped as a bad frame; the calls that follow are answered and the client stays usable", async () => {
      const rig = await suite.start({ faults: { malformedFrameAfterCalls: 1 } });
      await leaseIfAny(rig);
      succeeded(await read(rig));
      await expectReadAndMutationAnswered(rig);
      await waitUntil(() => rig.wire.badFrames.length === 1, "the malformed frame was reported");
      expect(rig.wire.badFrames[0]!.message).toMatch(/not valid JSON/);
      alsoCheck(rig);
      expect(rig.received("click")).toBe(1);
      await expectIdle(rig.glass, false);
    });
  });
}

/** What a suite checks of its own in {@link describeStrayMessages}. */
export interface StrayMessageChecks {
  /** The unknown-id test, once the stray answer was logged: what else the suite checks. */
  unknownId?: (rig: Rig) => void;
  /** The daemon-request test, before the calls that follow: how the suite sees the client's -32601 answer. */
  clientAnswer: (rig: Rig) => Promise<void>;
}

/**
 * Registers "`label`: the daemon answers what was not asked" for a transport whose client receives
 * everything the daemon sends (stdio, the socket; WebSocket, where the bridge relays it, and the
 * tests' names say so): an answer to an unknown id is ignored (logged as unknownResponse), a second
 * answer to a mutation settles nothing else, and a request of the daemon's own is answered -32601
 * (no handler), so the daemon never waits; every call is answered as before.
 */
export function describeStrayMessages(
  suite: FaultSuite<"stdio" | "socket" | "websocket">,
  checks: StrayMessageChecks,
): void {
  // Over WebSocket the bridge relays what the daemon sends, and the tests' names say so.
  const names =
    suite.kind === "websocket"
      ? {
          unknownId:
            "an unknown id: relayed by the bridge, ignored by the client (logged as unknownResponse); every call settles once with its own answer",
          sameIdTwice:
            "the same id twice (a mutation's answer): relayed by the bridge; the call settles once, the duplicate is ignored and settles nothing else",
          request:
            "a request of its own: relayed to the client, which answers -32601 (no handler) so the daemon never waits, and goes on",
        }
      : {
          unknownId:
            "an unknown id: the answer is ignored (logged as unknownResponse); every call settles once with its own answer",
          sameIdTwice:
            "the same id twice (a mutation's answer): the call settles once, the duplicate is ignored and settles nothing else",
          request:
            "a request of its own: the client answers -32601 (no handler) so the daemon never waits, and goes on",
        };
  describe(`${suite.label}: the daemon answers what was not asked`, () => {
    it(names.unknownId, async () => {
      const rig = await suite.start({ faults: { unknownIdAnswerAfterCalls: 1 } });
      await leaseIfAny(rig);
      succeeded(await read(rig));
      await expectReadAndMutationAnswered(rig);
      await waitUntil(() => wireEvents(rig.events).includes("unknownResponse"), "the stray answer was logged");
      checks.unknownId?.(rig);
      expect(rig.received("click")).toBe(1);
      await expectIdle(rig.glass, false);
    });

    it(names.sameIdTwice, async () => {
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

    it(names.request, async () => {
      const rig = await suite.start({ faults: { serverRequestAfterCalls: 1 } });
      await leaseIfAny(rig);
      succeeded(await read(rig));
      await checks.clientAnswer(rig);
      const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
      expect(succeeded(observed)).toEqual(observeResult);
      failedWith(clicked, GlassError, { code: "staleRevision" });
      await expectIdle(rig.glass, false);
    });
  });
}

/** The stray answer of `unknownIdAnswerAfterCalls` (id "mock-unknown-request") reached the client, once. */
export function expectStrayAnswerReceived(rig: Rig): void {
  expect(rig.wire.answersTo("mock-unknown-request")).toHaveLength(1);
}

/**
 * Waits (2 s at most) until the in-process daemon has an answer to the request of its own
 * (`serverRequestAfterCalls`), from the client or the bridge, and asserts it matches `answer`.
 */
export async function expectDaemonGotAnswer(rig: Rig, answer: Record<string, unknown>): Promise<void> {
  await settle(
    rig.daemon!.waitFor((d) => d.clientAnswers.length === 1),
    2_000,
    "the daemon receiving the answer to its request",
  );
  expect(rig.daemon!.clientAnswers[0]).toMatchObject(answer);
}

/**
 * Registers "`label`: the daemon answers -32000 in a burst" (every transport): a burst shorter than
 * the retries is retried away, a longer one fails the read with OverloadedError after
 * 1 + maxRetries attempts, and a mutation is sent once and never retried. Where the transport has
 * leases the mutation runs under one, and its test's name says so ("a mutation under the lease");
 * over stdio it needs none ("a mutation").
 */
export function describeOverloadBurst(suite: FaultSuite): void {
  const mutation = hasLeases(suite.kind) ? "a mutation under the lease" : "a mutation";
  describe(`${suite.label}: the daemon answers -32000 in a burst`, () => {
    it("shorter than the retries: the read is retried and succeeds", async () => {
      const rig = await suite.start({ faults: { overloadBurst: { afterCalls: 0, count: 2 } } });
      expect(succeeded(await read(rig))).toEqual(observeResult);
      expect(rig.received("observe")).toBe(3);
      expect(retries(rig.events, "browser.observe").map((r) => r.code)).toEqual(["overloaded", "overloaded"]);
      await expectIdle(rig.glass, false);
    });

    it("longer than the retries: the read fails with OverloadedError after 1 + maxRetries attempts, and the next read succeeds", async () => {
      const rig = await suite.start({ faults: { overloadBurst: { afterCalls: 0, count: 3 } } });
      failedWith(await read(rig), OverloadedError, { code: "overloaded", mutationPossible: false });
      expect(rig.received("observe")).toBe(3);
      expect(succeeded(await read(rig))).toEqual(observeResult);
      await expectIdle(rig.glass, false);
    });

    it(`${mutation} fails at once with OverloadedError (mutationPossible false) and was sent exactly once`, async () => {
      const rig = await suite.start({ faults: { overloadBurst: { afterCalls: 0, count: 1 } } });
      await leaseIfAny(rig);
      failedWith(await mutate(rig), OverloadedError, { code: "overloaded", mutationPossible: false });
      expect(rig.received("click")).toBe(1);
      expect(retries(rig.events, "browser.click")).toEqual([]);
      expect(succeeded(await read(rig))).toEqual(observeResult);
      await expectIdle(rig.glass, false);
    });
  });
}

/**
 * Registers "`label`: the lease expires in the middle of a withLease block" (every transport with
 * leases): before any renewal, the next mutation fails with LeaseError leaseExpired, is not
 * retried, and the block's signal aborts at once; at the renewal, the block's signal aborts with
 * the LeaseError and a mutation given that signal is never sent.
 */
export function describeLeaseExpiryInWithLease(suite: FaultSuite<LeaseTransportKind>): void {
  describe(`${suite.label}: the lease expires in the middle of a withLease block`, () => {
    it("before any renewal: the next mutation fails with LeaseError leaseExpired and is not retried; the lease is dropped and the block's signal aborts at once", async () => {
      const rig = await suite.start({ faults: { leaseExpiresAfterMs: 100 } });
      let signalAbortedAtError: boolean | undefined;
      const block = rig.glass.withLease(
        async (_lease, signal) => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          const clicked = await mutate(rig, { signal });
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
      expect(retries(rig.events, "browser.click")).toEqual([]);
      expect(rig.glass.lease).toBeUndefined();
      expect(rig.daemon!.activeLeases()).toEqual([]);
      expect(succeeded(await read(rig))).toEqual(observeResult);
      await expectIdle(rig.glass, false);
    });

    it("at the renewal: the renewal fails, the block's signal aborts with the LeaseError, and a mutation given that signal is never sent", async () => {
      const rig = await suite.start({ faults: { leaseExpiresAfterMs: 50 } });
      const block = rig.glass.withLease(
        async (_lease, signal) => {
          await settle(
            new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true })),
            3_000,
            "the block's signal aborting",
          );
          return { reason: signal.reason as unknown, lease: rig.glass.lease, clicked: await mutate(rig, { signal }) };
        },
        { ttlMs: 1_000, renewBeforeMs: 900 }, // renews 100 ms after acquiring, when the lease has really expired
      );
      const { reason, lease, clicked } = succeeded(await settle(block, 5_000, "the withLease block"));
      expect(reason).toBeInstanceOf(LeaseError);
      expect(reason).toMatchObject({ code: "leaseExpired" });
      expect(lease).toBeUndefined();
      failedWith(clicked, CancelledError, { code: "cancelled", mutationPossible: false });
      expect(rig.received("click")).toBe(0);
      expect(rig.events.some((e) => e.type === "lease" && e.action === "lost")).toBe(true);
      expect(succeeded(await read(rig))).toEqual(observeResult);
      await expectIdle(rig.glass, false);
    });
  });
}
