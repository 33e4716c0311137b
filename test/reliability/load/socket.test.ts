/** Load over the daemon's Unix socket: 10,000 reads from 64 callers over one connection (in-process mock daemon, no latency). */
import { describe, it } from "vitest";
import { mockDaemonOnSocket } from "../../support/mock-daemon-transports.js";
import { runLoad } from "../support/load-run.js";

describe("load over the socket", () => {
  it("10,000 calls from 64 concurrent callers over one connection: each settles once, nothing is left, the heap comes back", async () => {
    await runLoad("socket", async () => {
      const mock = await mockDaemonOnSocket();
      return { transport: mock.transport(), stop: () => mock.stop() };
    });
  }, 120_000);
});
