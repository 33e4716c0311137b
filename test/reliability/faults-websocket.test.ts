/**
 * Fault injection over WebSocket: `webSocketTransport` (the `ws` package in Node 20) → the bridge
 * → an in-process socket mock daemon with faults. The bridge relays messages both ways as they
 * are: the daemon's answers (stray and duplicated ones too) and its own requests reach the client;
 * bad frames from the daemon are skipped by the bridge; a daemon crash becomes -32603 for the
 * pending requests, then the WebSocket closes with 1011.
 */
import { describe, expect, it } from "vitest";
import { GlassError, TransportClosedError } from "glass-sdk";
import {
  expectIdle,
  expectReadAndMutationAnswered,
  failedWith,
  leaseIfAny,
  mutate,
  observeResult,
  read,
  retries,
  settle,
  succeeded,
  waitUntil,
  wireEvents,
} from "./support/fault-rig.js";
import {
  describeBridgeHoldsHalfFrame,
  describeBridgeSkipsBadFrames,
  describeDaemonStallsAndCancels,
  describeLeaseExpiryInWithLease,
  describeOverloadBurst,
  faultSuite,
} from "./support/shared-fault-scenarios.js";

const suite = faultSuite("websocket", "faults over WebSocket (via the bridge)");

describe("faults over WebSocket (via the bridge): the daemon dies", () => {
  it("mid-call: the bridge answers the pending calls with -32603 (mcp.internalError, mutationPossible for the mutation), then closes the socket (1011): the client says it is closed and forgets the lease", async () => {
    const rig = await suite.start({ faults: { crashAfterCalls: 2 }, latencyMs: 2_000 });
    await leaseIfAny(rig);
    const click = mutate(rig);
    await rig.untilCalls(1);
    const observe = read(rig);
    await rig.untilCalls(2);
    const trigger = read(rig);
    const [clicked, observed, triggered] = await Promise.all([click, observe, trigger]);
    failedWith(clicked, GlassError, {
      code: "mcp.internalError",
      mutationPossible: true,
      phase: "dispatch",
      rawMessage: "the daemon connection closed",
    });
    failedWith(observed, GlassError, { code: "mcp.internalError", mutationPossible: false });
    failedWith(triggered, GlassError, { code: "mcp.internalError", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    expect(rig.received("observe")).toBe(2);
    expect(retries(rig.events, "browser.observe")).toEqual([]);
    await waitUntil(() => rig.wire.closes.length === 1, "the WebSocket closed");
    expect(rig.wire.closes[0]).toMatchObject({ code: "transport.closed", details: { closeCode: 1011 } });
    expect(rig.glass.lease).toBeUndefined();

    failedWith(await read(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    failedWith(await mutate(rig), TransportClosedError, { code: "transport.closed", mutationPossible: false });
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, true);
  });
});

describeDaemonStallsAndCancels(suite, "the mutation");

describeBridgeHoldsHalfFrame(suite);

describeBridgeSkipsBadFrames(suite);

describe("faults over WebSocket (via the bridge): the daemon answers what was not asked", () => {
  it("an unknown id: relayed by the bridge, ignored by the client (logged as unknownResponse); every call settles once with its own answer", async () => {
    const rig = await suite.start({ faults: { unknownIdAnswerAfterCalls: 1 } });
    await leaseIfAny(rig);
    succeeded(await read(rig));
    await expectReadAndMutationAnswered(rig);
    await waitUntil(() => wireEvents(rig.events).includes("unknownResponse"), "the stray answer was logged");
    expect(rig.wire.answersTo("mock-unknown-request")).toHaveLength(1);
    expect(rig.received("click")).toBe(1);
    await expectIdle(rig.glass, false);
  });

  it("the same id twice (a mutation's answer): relayed by the bridge; the call settles once, the duplicate is ignored and settles nothing else", async () => {
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

  it("a request of its own: relayed to the client, which answers -32601 (no handler) so the daemon never waits, and goes on", async () => {
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
      response: {
        id: "glass-server-1",
        error: { code: -32601, message: "the client does not handle elicitation/create" },
      },
    });
    expect(wireEvents(rig.events)).toContain("daemon request elicitation/create answered (methodNotFound)");
    const [observed, clicked] = await Promise.all([read(rig), mutate(rig)]);
    expect(succeeded(observed)).toEqual(observeResult);
    failedWith(clicked, GlassError, { code: "staleRevision" });
    await expectIdle(rig.glass, false);
  });

  it("a request of its own, with a handler registered: the handler's answer reaches the daemon", async () => {
    const rig = await suite.start({
      faults: { serverRequestAfterCalls: 1 },
      client: { serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) } },
    });
    succeeded(await read(rig));
    await settle(
      rig.daemon!.waitFor((d) => d.clientAnswers.length === 1),
      2_000,
      "the daemon receiving the client's answer",
    );
    expect(rig.daemon!.clientAnswers[0]).toMatchObject({
      response: { id: "glass-server-1", result: { action: "decline" } },
    });
    await expectIdle(rig.glass, false);
  });
});

describeOverloadBurst(suite);

describeLeaseExpiryInWithLease(suite);
