/** Load over WebSocket: 10,000 reads from 64 callers over one WebSocket through the bridge to an in-process socket mock daemon. */
import { describe, it } from "vitest";
import { webSocketTransport } from "glass-sdk";
import { startBridgeHarness } from "../../support/bridge-harness.js";
import { runLoad } from "../support/load-run.js";

describe("load over WebSocket (via the bridge)", () => {
  it("10,000 calls from 64 concurrent callers over one WebSocket: each settles once, nothing is left, the heap comes back", async () => {
    await runLoad("websocket", async () => {
      const harness = await startBridgeHarness();
      return {
        transport: webSocketTransport({ url: harness.bridge.wsUrl, token: harness.bridge.token }),
        stop: () => harness.stop(),
      };
    });
  }, 120_000);
});
