/**
 * Load over stdio: 10,000 reads from 64 callers over one connection to the mock daemon CLI (a child
 * process, no latency). The daemon's own heap is in that process; what is measured here is the
 * client's, and the child's handles (process, pipes), which must all be gone after close.
 */
import { describe, it } from "vitest";
import { stdioMock } from "../support/fault-rig.js";
import { runLoad } from "../support/load-run.js";

describe("load over stdio", () => {
  it("10,000 calls from 64 concurrent callers over one connection: each settles once, nothing is left, the heap comes back", async () => {
    await runLoad("stdio", async () => {
      const transport = stdioMock();
      return { transport, stop: async () => {} };
    });
  }, 120_000);
});
