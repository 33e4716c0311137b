/**
 * fixtures/glass-browser-shop.json was recorded from the real daemon (scripts/record-daemon-fixture.ts):
 * today's daemon, recording the same session, still answers it alike — the same calls, the same
 * outcomes (an answer, or the same error code), answers with the same keys — so the fixture the
 * replay tests use is still what the daemon says.
 */
import { describe, expect, it } from "vitest";
import type { GlassResponse } from "glass-sdk";
import { loadFixture } from "glass-sdk/testing";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import { recordShopSession } from "./support/shop-session.js";

requireInstalledDaemon();

/** What a recorded answer says, without the values that differ from run to run (ids, ports, revisions, times). */
function outline(response: GlassResponse): string {
  if (!response.ok) return `error ${response.error.code}`;
  const result = response.result;
  return result !== null && typeof result === "object" && !Array.isArray(result) ? `result {${Object.keys(result).sort().join(", ")}}` : `result ${typeof result}`;
}

describe("the fixture recorded from the real daemon", () => {
  it("is what the daemon answers today: the same calls and outcomes, answers with the same keys", async () => {
    const committed = await loadFixture(new URL("../../fixtures/glass-browser-shop.json", import.meta.url));
    const today = await recordShopSession();
    const shape = (fixture: typeof today): string[] => {
      const answers = new Map(fixture.responses.map((response) => [response.requestId, response]));
      return fixture.requests.map((request) => `${request.operation}: ${answers.has(request.requestId) ? outline(answers.get(request.requestId)!) : "no answer"}`);
    };
    expect(shape(today)).toEqual(shape(committed));
  });
});
