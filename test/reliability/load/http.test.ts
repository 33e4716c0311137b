/** Load over HTTP: 10,000 reads from 64 callers over one client (one HTTP session) through the bridge to an in-process socket mock daemon. */
import { describe, it } from "vitest";
import { httpTransport } from "glass-sdk";
import { startBridgeHarness } from "../../support/bridge-harness.js";
import { runLoad } from "../support/load-run.js";

describe("load over HTTP (via the bridge)", () => {
  it("10,000 calls from 64 concurrent callers over one session: each settles once, nothing is left, the heap comes back", async () => {
    await runLoad("http", async () => {
      const harness = await startBridgeHarness();
      return {
        transport: httpTransport({ url: harness.bridge.url, token: harness.bridge.token }),
        stop: () => harness.stop(),
      };
    });
  }, 120_000);
});
