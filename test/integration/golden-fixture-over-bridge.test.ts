import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, httpTransport, webSocketTransport, type GlassTransport } from "glass-sdk";
import { requiresLease } from "glass-sdk/protocol";
import { callTyped, expectMatchesFixture, fixtureCases } from "../support/fixture-outcomes.js";
import { startBridgeHarness, type BridgeHarness } from "../support/bridge-harness.js";

const cases = fixtureCases();

describe.each([
  [
    "HTTP",
    (harness: BridgeHarness): GlassTransport => httpTransport({ url: harness.bridge.url, token: harness.bridge.token }),
  ],
  [
    "WebSocket",
    (harness: BridgeHarness): GlassTransport =>
      webSocketTransport({ url: harness.bridge.wsUrl, token: harness.bridge.token }),
  ],
] as const)(
  "the whole golden fixture through Glass over %s, via the bridge in front of the mock daemon",
  (_name, transport) => {
    let harness: BridgeHarness;
    let glass: Glass;
    beforeAll(async () => {
      harness = await startBridgeHarness();
      glass = await Glass.connect(transport(harness));
    });
    afterAll(async () => {
      await glass.close();
      await harness.stop();
    });

    it.each(cases)("%s equals the fixture", async (_id, request) => {
      const run = () => callTyped(glass, request, false);
      expectMatchesFixture(
        requiresLease(request.operation, request.payload) ? await glass.withLease(run, { ttlMs: 10_000 }) : await run(),
        request,
      );
    });

    it("never logged the token", () => {
      expect(harness.logs.join("\n")).not.toContain(harness.bridge.token);
    });
  },
);
