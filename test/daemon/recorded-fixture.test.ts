/**
 * fixtures/glass-browser-shop.json was recorded from the real daemon (scripts/record-daemon-fixture.ts):
 * today's daemon, recording the same session, still answers it alike — the same calls, the same
 * outcomes (an answer, or the same error code), answers with the same keys — so the fixture the
 * replay tests use is still what the daemon says.
 */
import { describe, expect, it } from "vitest";
import { loadFixture } from "glass-sdk/testing";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import { journeySteps, recordShopSession } from "./support/shop-session.js";

requireInstalledDaemon();

describe("the fixture recorded from the real daemon", () => {
  it("is what the daemon answers today: the same calls and outcomes, answers with the same keys", async () => {
    const committed = await loadFixture(new URL("../../fixtures/glass-browser-shop.json", import.meta.url));
    const today = await recordShopSession();
    expect(journeySteps(today)).toEqual(journeySteps(committed));
  });
});
