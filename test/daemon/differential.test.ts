/**
 * Mock versus daemon, step by step: the same journey (the example shop's sign-in, as
 * test/daemon/support/shop-session.ts runs it) against the real daemon in Chromium and against the
 * mock daemon's simulated shop at the same origin, compared call by call — the outcome (an answer,
 * or an error with its code and retry advice) and the answer's top-level keys. Every difference is
 * listed in {@link JOURNEY_DIFFERENCES} with its reason; the test fails on any other, and on a
 * listed one that went away.
 */
import { describe, expect, it } from "vitest";
import { createMockGlass } from "glass-sdk/testing";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import { journeySteps, recordShopSession } from "./support/shop-session.js";

requireInstalledDaemon();

/**
 * The steps where the mock answers otherwise than the daemon, as `daemon | mock`, with the reason
 * the difference stays. Keyed by `<n> <operation>`.
 */
const JOURNEY_DIFFERENCES: Readonly<Record<string, { daemon: string; mock: string; reason: string }>> = {};

describe("the shop journey, mock versus daemon", () => {
  it("differs only where the list of differences says", async () => {
    const daemon = journeySteps(await recordShopSession());
    const mock = journeySteps(await recordShopSession(async (origin) => ({ transport: createMockGlass({ site: { origin } }).transport(), close: () => {} })));
    expect(mock.map((step) => step.split(":")[0])).toEqual(daemon.map((step) => step.split(":")[0]));
    const found: Record<string, { daemon: string; mock: string }> = {};
    daemon.forEach((step, index) => {
      const [key, answer] = [step.slice(0, step.indexOf(":")), step.slice(step.indexOf(":") + 2)];
      const mockAnswer = mock[index]!.slice(mock[index]!.indexOf(":") + 2);
      if (answer !== mockAnswer) found[key] = { daemon: answer, mock: mockAnswer };
    });
    const listed = Object.fromEntries(Object.entries(JOURNEY_DIFFERENCES).map(([key, { daemon: d, mock: m }]) => [key, { daemon: d, mock: m }]));
    expect(found).toEqual(listed);
  }, 120_000);
});
