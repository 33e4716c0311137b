import { describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassRequest } from "glass-sdk";
import { createReplayEngine, inMemoryTransport, type ReplayEngineOptions } from "glass-sdk/testing";
import { readIgnoredFields, withoutIgnored } from "../../src/mock-daemon/replay-match.js";
import { fixtureOf, golden, missOf, send } from "./support/replay-fixtures.js";

describe("readIgnoredFields", () => {
  it("ignores nothing for a missing or empty list", () => {
    expect(readIgnoredFields(undefined)).toBeUndefined();
    expect(readIgnoredFields([])).toBeUndefined();
  });

  it("reads entries starting with / (and the empty pointer) as JSON pointers, any other as field names", () => {
    const ignored = readIgnoredFields(["/target/name", "expectedRevision", ""]);
    expect([...ignored!.pointers].sort()).toEqual(["", "/target/name"]);
    expect([...ignored!.names]).toEqual(["expectedRevision"]);
  });

  it("refuses an entry that is not a string", () => {
    expect(() => readIgnoredFields([5 as unknown as string])).toThrow(TypeError);
  });
});

describe("withoutIgnored", () => {
  it("nulls an array item at a pointer, so the items after it keep their places", () => {
    const payload = { steps: [{ id: "a" }, { id: "b" }, { id: "c" }] };
    expect(withoutIgnored(payload, readIgnoredFields(["/steps/1"])!)).toEqual({
      steps: [{ id: "a" }, null, { id: "c" }],
    });
  });

  it("reads ~1 and ~0 in a pointer as / and ~ in a key", () => {
    const payload = { "a/b": 1, "c~d": 2, e: 3 };
    expect(withoutIgnored(payload, readIgnoredFields(["/a~1b", "/c~0d"])!)).toEqual({ e: 3 });
  });

  it("makes the whole payload null for the empty pointer, and does not change the payload given", () => {
    const payload = { a: { b: 1 } };
    expect(withoutIgnored(payload, readIgnoredFields([""])!)).toBeNull();
    const copy = withoutIgnored(payload, readIgnoredFields(["b"])!);
    expect(copy).toEqual({ a: {} });
    expect(payload).toEqual({ a: { b: 1 } });
  });
});

describe("matching options", () => {
  const click = { target: "ref=r11:e4", expectedRevision: 11 };

  it("ignores a field by name wherever it occurs, so any expectedRevision gets the recorded answer", () => {
    const engine = createReplayEngine(golden, { match: { ignore: ["expectedRevision"] } });
    const answer = engine.answer({
      protocolVersion: 1,
      requestId: "live",
      operation: "browser.click",
      payload: { target: "ref=r11:e4", expectedRevision: 99 },
    });
    expect(answer).toMatchObject({ requestId: "live", ok: false, error: { code: "staleRevision" } });
    expect(engine.has("browser.click", { target: "ref=r11:e4" })).toBe(true);
    expect(engine.has("browser.click", { target: "ref=r99:e1", expectedRevision: 11 })).toBe(false);
    const nested = fixtureOf("task.execute", { run: { task: { id: "t", expectedRevision: 3 }, expectedRevision: 3 } });
    expect(
      send(
        nested,
        "task.execute",
        { task: { id: "t", expectedRevision: 8 } },
        { match: { ignore: ["expectedRevision"] } },
      ).ok,
    ).toBe(true);
  });

  it("ignores one field by JSON pointer and leaves fields of the same name elsewhere compared", () => {
    const fixture = fixtureOf("task.execute", { run: { task: { id: "t", expectedRevision: 3 }, expectedRevision: 3 } });
    const options: ReplayEngineOptions = { match: { ignore: ["/expectedRevision"] } };
    expect(
      send(fixture, "task.execute", { task: { id: "t", expectedRevision: 3 }, expectedRevision: 8 }, options).ok,
    ).toBe(true);
    const miss = missOf(
      send(fixture, "task.execute", { task: { id: "t", expectedRevision: 8 }, expectedRevision: 8 }, options),
    );
    expect(miss.details.differences).toEqual([{ path: "/task/expectedRevision", sent: 8, recorded: 3 }]);
  });

  it("takes a matcher of the test's own, asked with the sent and the recorded payload of the same operation", () => {
    const asked: unknown[][] = [];
    const engine = createReplayEngine(golden, {
      match: {
        matcher: (operation, sent, recorded) => {
          asked.push([operation, sent, recorded]);
          return (sent as { target?: unknown }).target === (recorded as { target?: unknown }).target;
        },
      },
    });
    expect(
      engine.answer({
        protocolVersion: 1,
        requestId: "a",
        operation: "browser.click",
        payload: { target: "ref=r11:e4", expectedRevision: 40 },
      }),
    ).toMatchObject({ error: { code: "staleRevision" } });
    expect(asked).toEqual([["browser.click", { target: "ref=r11:e4", expectedRevision: 40 }, click]]);
    expect(
      missOf(
        engine.answer({
          protocolVersion: 1,
          requestId: "b",
          operation: "browser.click",
          payload: { target: "ref=r1:e1", expectedRevision: 11 },
        }),
      ).message,
    ).toContain('It differs at /target: sent "ref=r1:e1", recorded "ref=r11:e4"');
  });

  it("reaches the client through the in-memory transport", async () => {
    const glass = await Glass.connect(inMemoryTransport(golden, { match: { ignore: ["expectedRevision"] } }));
    try {
      const error = await glass.browser
        .click({ target: "ref=r11:e4", expectedRevision: 12 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GlassError);
      expect((error as GlassError).code).toBe("staleRevision");
      const miss = await glass.browser
        .click({ target: "ref=r12:e4", expectedRevision: 12 })
        .catch((caught: unknown) => caught);
      expect((miss as GlassError).code).toBe("mock.unmatched");
      expect((miss as GlassError).message).toContain('/target: sent "ref=r12:e4", recorded "ref=r11:e4"');
    } finally {
      await glass.close();
    }
  });
});

describe("a recording that hides a secret matches whatever stands in its place", () => {
  it("answers a payload that differs from the recording only where it has [redacted], with no fields ignored", () => {
    const fixture = fixtureOf("browser.type", {
      password: { target: "r3:b9", text: "[redacted]" },
      email: { target: "r3:b8", text: "ada@example.com" },
    });
    expect(send(fixture, "browser.type", { target: "r3:b9", text: "s3cret-pw" })).toMatchObject({
      ok: true,
      result: { id: "password" },
    });
    expect(send(fixture, "browser.type", { text: "another-secret", target: "r3:b9" })).toMatchObject({
      ok: true,
      result: { id: "password" },
    });
  });

  it("keeps the text around the marker compared, and the other fields", () => {
    const fixture = fixtureOf("browser.navigate", {
      signIn: { url: "https://shop.example/login?pw=[redacted]&step=1" },
    });
    expect(send(fixture, "browser.navigate", { url: "https://shop.example/login?pw=hunter2&step=1" })).toMatchObject({
      ok: true,
      result: { id: "signIn" },
    });
    expect(send(fixture, "browser.navigate", { url: "https://shop.example/login?pw=hunter2&step=2" }).ok).toBe(false);
    expect(send(fixture, "browser.navigate", { url: "https://shop.example/login?pw=&step=1" }).ok).toBe(false);
    const typed = fixtureOf("browser.type", { password: { target: "r3:b9", text: "[redacted]" } });
    expect(send(typed, "browser.type", { target: "r4:b9", text: "s3cret-pw" }).ok).toBe(false);
    expect(send(typed, "browser.type", { target: "r3:b9", text: 42 }).ok).toBe(false);
  });

  it("gives the answers of a payload recorded several times in recorded order", () => {
    const fixture = fixtureOf("browser.type", {
      first: { target: "r3:b9", text: "[redacted]" },
      second: { target: "r3:b9", text: "[redacted]" },
    });
    const replay = createReplayEngine(fixture);
    const answer = (requestId: string) =>
      replay.answer({
        protocolVersion: 1,
        requestId,
        operation: "browser.type",
        payload: { target: "r3:b9", text: "pw" },
      } as GlassRequest);
    expect(
      [answer("a"), answer("b"), answer("c")].map((response) => (response.ok ? response.result : undefined)),
    ).toEqual([{ id: "first" }, { id: "second" }, { id: "second" }]);
  });
});
