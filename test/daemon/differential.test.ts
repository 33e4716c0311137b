/**
 * Mock versus daemon, step by step: the same journeys on the example shop — the shop session
 * (test/daemon/support/journeys.ts, the session of fixtures/glass-browser-shop.json) and the
 * examples' sign-in (examples/contract-test/sign-in.ts, which examples/record-and-replay.ts records)
 * — against the real daemon in Chromium and against the mock daemon's simulated shop at the same
 * origin, compared call by call: the outcome (an answer, or an error with its code and retry advice)
 * and the answer's top-level keys. Every difference is listed in {@link JOURNEY_DIFFERENCES} with
 * its reason; the test fails on any other, and on a listed one that went away.
 */
import { describe, expect, it } from "vitest";
import { createMockGlass } from "glass-sdk/testing";
import { signIn } from "../../examples/contract-test/sign-in.js";
import { requireInstalledDaemon } from "./support/real-daemon.js";
import { type Journey, journeySteps, recordJourney, SHOP_PASSWORD, shopSession } from "./support/journeys.js";

requireInstalledDaemon();

/** The examples' sign-in on the shop, then the page's text. */
const exampleSignIn: Journey = async (glass, origin) => {
  await glass.browser.navigate({ url: `${origin}/login` });
  const title = await signIn(glass, "ada@example.com", SHOP_PASSWORD);
  if (!title.startsWith("Orders")) throw new Error(`signIn landed on "${title}", not the orders`);
  await glass.browser.getText();
};

/** A reference used again after the action it was taken for moved the page on: a real daemon refuses it. */
const referenceReused: Journey = async (glass, origin) => {
  await glass.browser.navigate({ url: `${origin}/login` });
  const login = await glass.browser.observe({ level: "interactive" });
  const email =
    login.level === "interactive"
      ? login.regions.flatMap((region) => region.targets ?? []).find((target) => target.name === "Email")?.reference
      : undefined;
  if (email === undefined) throw new Error("the sign-in page has no Email field");
  await glass.browser.type({ target: email, text: "ada@example.com" });
  await glass.browser.type({ target: email, text: "again" }).catch(() => undefined);
};

const JOURNEYS: Readonly<Record<string, Journey>> = {
  "the shop session": shopSession,
  "the examples' sign-in": exampleSignIn,
  "a reference used after the page moved on": referenceReused,
};

/**
 * The steps where the mock answers otherwise than the daemon, as `daemon | mock`, with the reason
 * the difference stays. Keyed by journey, then `<n> <operation>`.
 */
const JOURNEY_DIFFERENCES: Readonly<
  Record<string, Readonly<Record<string, { daemon: string; mock: string; reason: string }>>>
> = {};

describe("journeys on the shop, mock versus daemon", () => {
  for (const [name, journey] of Object.entries(JOURNEYS)) {
    it(`${name} differs only where the list of differences says`, async () => {
      const daemon = journeySteps(await recordJourney(journey));
      const mock = journeySteps(
        await recordJourney(journey, async (origin) => ({
          transport: createMockGlass({ site: { origin } }).transport(),
          close: () => {},
        })),
      );
      expect(mock.map((step) => step.split(":")[0])).toEqual(daemon.map((step) => step.split(":")[0]));
      const found: Record<string, { daemon: string; mock: string }> = {};
      daemon.forEach((step, index) => {
        const [key, answer] = [step.slice(0, step.indexOf(":")), step.slice(step.indexOf(":") + 2)];
        const mockAnswer = mock[index]!.slice(mock[index]!.indexOf(":") + 2);
        if (answer !== mockAnswer) found[key] = { daemon: answer, mock: mockAnswer };
      });
      const listed = Object.fromEntries(
        Object.entries(JOURNEY_DIFFERENCES[name] ?? {}).map(([key, { daemon: d, mock: m }]) => [
          key,
          { daemon: d, mock: m },
        ]),
      );
      expect(found).toEqual(listed);
    }, 120_000);
  }
});
