/**
 * Fault injection over WebSocket: `webSocketTransport` (the `ws` package in Node 20) → the bridge
 * → an in-process socket mock daemon with faults. The bridge relays messages both ways as they
 * are: the daemon's answers (stray and duplicated ones too) and its own requests reach the client;
 * bad frames from the daemon are skipped by the bridge; a daemon crash becomes -32603 for the
 * pending requests, then the WebSocket closes with 1011.
 */
import { describe, expect, it } from "vitest";
import { GlassError } from "glass-sdk";
import { expectIdle, read, succeeded, waitUntil, wireEvents } from "../support/fault-rig.js";
import {
  crashMidCall,
  describeBridgeHoldsHalfFrame,
  describeBridgeSkipsBadFrames,
  describeDaemonStallsAndCancels,
  describeLeaseExpiryInWithLease,
  describeOverloadBurst,
  describeStrayMessages,
  expectCallsFailedInCrash,
  expectClosedForGood,
  expectDaemonGotAnswer,
  expectStrayAnswerReceived,
  faultSuite,
} from "./scenarios.js";

const suite = faultSuite("websocket", "faults over WebSocket (via the bridge)");

describe("faults over WebSocket (via the bridge): the daemon dies", () => {
  it("mid-call: the bridge answers the pending calls with -32603 (mcp.internalError, mutationPossible for the mutation), then closes the socket (1011): the client says it is closed and forgets the lease", async () => {
    const crash = await crashMidCall(suite, 2_000);
    const { rig } = crash;
    expectCallsFailedInCrash(crash, GlassError, "mcp.internalError", { rawMessage: "the daemon connection closed" });
    expect(rig.received("click")).toBe(1);
    await waitUntil(() => rig.wire.closes.length === 1, "the WebSocket closed");
    expect(rig.wire.closes[0]).toMatchObject({ code: "transport.closed", details: { closeCode: 1011 } });
    expect(rig.glass.lease).toBeUndefined();
    await expectClosedForGood(rig);
  });
});

describeDaemonStallsAndCancels(suite, "the mutation");

describeBridgeHoldsHalfFrame(suite);

describeBridgeSkipsBadFrames(suite);

describeStrayMessages(suite, {
  unknownId: expectStrayAnswerReceived,
  clientAnswer: async (rig) => {
    await expectDaemonGotAnswer(rig, {
      method: "elicitation/create",
      response: {
        id: "glass-server-1",
        error: { code: -32601, message: "the client does not handle elicitation/create" },
      },
    });
    expect(wireEvents(rig.events)).toContain("daemon request elicitation/create answered (methodNotFound)");
  },
});

// The client relays the daemon's request to a handler of its own, where one is registered.
describe("faults over WebSocket (via the bridge): the daemon answers what was not asked", () => {
  it("a request of its own, with a handler registered: the handler's answer reaches the daemon", async () => {
    const rig = await suite.start({
      faults: { serverRequestAfterCalls: 1 },
      client: { serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) } },
    });
    succeeded(await read(rig));
    await expectDaemonGotAnswer(rig, { response: { id: "glass-server-1", result: { action: "decline" } } });
    await expectIdle(rig.glass, false);
  });
});

describeOverloadBurst(suite);

describeLeaseExpiryInWithLease(suite);
