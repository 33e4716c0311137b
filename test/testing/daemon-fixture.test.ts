/**
 * fixtures/glass-browser-shop.json, recorded from the real daemon (glass-browser, over stdio, in
 * headless Chromium) on the example shop by scripts/record-daemon-fixture.ts: every answer the
 * daemon gave validates under our result schemas, the recording holds no secret, and it replays —
 * each request through Glass against the mock daemon gets the answer the daemon gave.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, type OperationName, validateResult } from "glass-sdk";
import { createMockGlass, loadFixture } from "glass-sdk/testing";
import { callTyped, expectMatchesFixture, fixtureCases, recordedResponses } from "../support/fixture-outcomes.js";

const PATH = fileURLToPath(new URL("../../fixtures/glass-browser-shop.json", import.meta.url));
const fixture = await loadFixture(PATH);
const responses = recordedResponses(fixture);

describe("the fixture recorded from the real daemon (fixtures/glass-browser-shop.json)", () => {
  it("holds the shop's sign-in, answers and a staleRevision refusal, and not the password", () => {
    expect(fixture.requests.map((request) => request.operation)).toContain("browser.click");
    expect(
      fixture.responses.filter((response) => !response.ok).map((response) => (response.ok ? "" : response.error.code)),
    ).toEqual(["staleRevision"]);
    const text = readFileSync(PATH, "utf8");
    expect(text).not.toContain("correct horse");
    expect(text).toContain("[redacted]");
  });

  it.each(fixtureCases(fixture))("the daemon's answer to %s validates under our result schema", (_id, request) => {
    const response = responses.get(request.requestId)!;
    if (!response.ok) return;
    const checked = validateResult(request.operation as OperationName, response.result);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
  });

  describe("replayed through Glass against the mock daemon", () => {
    let glass: Glass;
    beforeAll(async () => {
      glass = await Glass.connect(createMockGlass({ fixture }).transport());
    });
    afterAll(async () => {
      await glass.close();
    });

    it.each(fixtureCases(fixture))("typed call %s gets the recorded answer", async (_id, request) => {
      expectMatchesFixture(await callTyped(glass, request, false), request, responses);
    });
  });
});
