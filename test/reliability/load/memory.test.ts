/** Load over the in-memory transport (the fast control: no bytes, no sockets): 10,000 reads from 64 callers over one connection. */
import { describe, it } from "vitest";
import { inMemoryTransport, type GoldenFixture } from "glass-sdk/testing";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { runLoad } from "../support/load-run.js";

const fixture = readGoldenFixture() as unknown as GoldenFixture;

describe("load over the in-memory transport", () => {
  it("10,000 calls from 64 concurrent callers over one connection: each settles once, nothing is left, the heap comes back", async () => {
    await runLoad("memory", async () => ({ transport: inMemoryTransport(fixture), stop: async () => {} }));
  }, 120_000);
});
