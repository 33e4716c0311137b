import { describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassResponse } from "glass-sdk";
import { createReplayEngine, inMemoryTransport } from "glass-sdk/testing";
import { payloadDifferences } from "../../src/mock-daemon/payload-difference.js";
import { fixtureOf, golden, missOf, send } from "./support/replay-fixtures.js";

describe("a replay miss explains itself", () => {
  it("names the recorded payload and each field that differs from it", () => {
    const miss = missOf(send(golden, "browser.click", { target: "ref=r11:e4", expectedRevision: 7, timeoutMs: 5000 }));
    expect(miss.message).toBe(
      "no recorded answer for browser.click with this payload; the fixture has 1 answer for browser.click. " +
        'It differs at /expectedRevision: sent 7, recorded 11; /timeoutMs: sent 5000, not recorded. Recorded: {"target":"ref=r11:e4","expectedRevision":11}',
    );
    expect(miss.details).toEqual({
      operation: "browser.click",
      answersForOperation: 1,
      differences: [
        { path: "/expectedRevision", sent: 7, recorded: 11 },
        { path: "/timeoutMs", sent: 5000 },
      ],
      nearest: [
        { requestId: "click-renew", differenceCount: 2, payload: { target: "ref=r11:e4", expectedRevision: 11 } },
      ],
      payload: { target: "ref=r11:e4", expectedRevision: 7, timeoutMs: 5000 },
    });
  });

  it("ranks the recordings by how many fields differ, shows the nearest three first, earlier first on a tie", () => {
    const fixture = fixtureOf("browser.type", {
      four: { target: "a", text: "x", clear: true, submit: true },
      two: { target: "name", text: "Bob", clear: true },
      one: { target: "name", text: "Ada", clear: true },
      alsoOne: { target: "email", text: "Ada" },
      alsoTwo: { target: "other", text: "Ada", clear: false },
    });
    const miss = missOf(send(fixture, "browser.type", { target: "name", text: "Ada" }));
    expect(
      (miss.details.nearest as { requestId: string; differenceCount: number }[]).map((n) => [
        n.requestId,
        n.differenceCount,
      ]),
    ).toEqual([
      ["one", 1],
      ["alsoOne", 1],
      ["two", 2],
    ]);
    expect(miss.message).toContain("The nearest differs at /clear: not sent, recorded true. Nearest recorded: ");
    expect(miss.message).toContain(
      '{"target":"name","text":"Ada","clear":true} | {"target":"email","text":"Ada"} | {"target":"name","text":"Bob","clear":true}',
    );
  });

  it("points into nested objects and arrays with JSON pointers, escaping / and ~ in keys", () => {
    const sent = { target: { role: "button", name: "Save" }, steps: [1, 2, 3], "a/b~c": 1 };
    const recorded = { target: { role: "button", name: "Submit" }, steps: [1, 5], "a/b~c": 2 };
    expect(payloadDifferences(sent, recorded)).toEqual([
      { path: "/a~1b~0c", sent: 1, recorded: 2 },
      { path: "/steps/1", sent: 2, recorded: 5 },
      { path: "/steps/2", sent: 3 },
      { path: "/target/name", sent: "Save", recorded: "Submit" },
    ]);
    const miss = missOf(send(fixtureOf("browser.click", { save: recorded }), "browser.click", sent));
    expect(miss.message).toContain(
      'It differs at /a~1b~0c: sent 1, recorded 2; /steps/1: sent 2, recorded 5; /steps/2: sent 3, not recorded; /target/name: sent "Save", recorded "Submit"',
    );
  });

  it("keeps the message within 512 bytes and details within 16 KiB however large and different the payloads are", () => {
    const wide = (value: string): Record<string, string> =>
      Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field-${"é".repeat(30)}-${i}`, value.repeat(300)]));
    const recordings: Record<string, unknown> = {};
    for (let i = 0; i < 5; i++)
      recordings[`r-${"ü".repeat(40)}-${i}`] = { ...wide(`recorded-${i}-`), blob: "y".repeat(40_000) };
    const miss = missOf(
      send(fixtureOf("webIr.validate", recordings), "webIr.validate", { ...wide("sent-"), extra: "z".repeat(40_000) }),
    );
    expect(Buffer.byteLength(miss.message)).toBeLessThanOrEqual(512);
    expect(miss.message).toMatch(
      /^no recorded answer for webIr\.validate with this payload; the fixture has 5 answers for webIr\.validate\. The nearest differs at \/blob: not sent, recorded "y+…; /,
    );
    expect(Buffer.byteLength(JSON.stringify(miss.details))).toBeLessThanOrEqual(16 * 1024);
    expect(miss.details).toMatchObject({
      operation: "webIr.validate",
      payloadOmitted: expect.any(String),
      differencesOmitted: expect.any(Number),
    });
    const differences = miss.details.differences as Record<string, unknown>[];
    expect(differences.length).toBeGreaterThan(0);
    expect(differences[0]).toMatchObject({ path: "/blob", recordedPreview: expect.stringMatching(/^"y+…$/) });
    expect(miss.details.nearest).toHaveLength(3);
    for (const nearest of miss.details.nearest as Record<string, unknown>[])
      expect(nearest.payloadPreview).toMatch(/^\{"field-é+-0":"recorded-\d-recorded/);
  });

  it("still lists the recorded operations when the operation was never recorded", () => {
    const miss = missOf(send(golden, "browser.getText", { target: "ref=1" }));
    expect(miss.message).toBe(
      `no answers for browser.getText at all; recorded operations: ${createReplayEngine(golden).operations().join(", ")}`,
    );
    expect(miss.details).toEqual({ operation: "browser.getText", payload: { target: "ref=1" } });
  });
});

describe("a replay miss never shows a secret the recorder hid", () => {
  const SECRET = "s3cret-pw";
  /** Everything a miss puts in front of a person or a CI log. */
  const shown = (response: GlassResponse): string => JSON.stringify(missOf(response));

  it("shows [redacted] where the recording has it, and nowhere the secret", () => {
    const fixture = fixtureOf("browser.type", { password: { target: "r3:b9", text: "[redacted]" } });
    const response = send(fixture, "browser.type", { target: "r4:b9", text: SECRET });
    expect(shown(response)).not.toContain(SECRET);
    const miss = missOf(response);
    expect(miss.message).toContain('/target: sent "r4:b9", recorded "r3:b9"');
    expect(miss.details.payload).toEqual({ target: "r4:b9", text: "[redacted]" });
  });

  it("finds a secret inside a longer text by the recorded text around it, even where the message shortens values", () => {
    const long = `${SECRET}-and-then-some-more-characters-to-pass-the-preview-length`;
    const fixture = fixtureOf("browser.navigate", {
      signIn: { url: "https://shop.example/login?pw=[redacted]&step=1" },
    });
    const response = send(fixture, "browser.navigate", { url: `https://shop.example/login?pw=${long}&step=2` });
    // Not the whole secret, and no beginning of it cut off by a preview either.
    expect(shown(response)).not.toContain(SECRET.slice(0, 6));
  });

  it("hides the sent value, and the payload, when the secret cannot be told apart from the rest", () => {
    const fixture = fixtureOf("browser.navigate", { signIn: { url: "https://shop.example/login?pw=[redacted]" } });
    const response = send(fixture, "browser.navigate", { url: `https://other.example/login?password=${SECRET}` });
    expect(shown(response)).not.toContain(SECRET);
    const miss = missOf(response);
    expect(miss.details.differences).toEqual([
      { path: "/url", sent: "[redacted]", recorded: "https://shop.example/login?pw=[redacted]" },
    ]);
    expect(miss.details.payloadOmitted).toContain("hides a secret");
    expect(miss.details.payload).toBeUndefined();
  });

  it("through the client: the GlassError's message and details carry no secret", async () => {
    const fixture = fixtureOf("browser.type", { password: { target: "r3:b9", text: "[redacted]" } });
    const glass = await Glass.connect(inMemoryTransport(fixture));
    const error = await glass.browser.type({ target: "r5:b9", text: SECRET }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GlassError);
    expect(JSON.stringify((error as GlassError).toJSON())).not.toContain(SECRET);
    expect((error as GlassError).message).not.toContain(SECRET);
    await glass.close();
  });
});
