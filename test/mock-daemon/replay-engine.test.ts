import { describe, expect, it } from "vitest";
import { GlassError, validateResponse, type GlassRequest } from "glass-sdk";
import { parseFixture, type GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { createReplayEngine } from "../../src/mock-daemon/replay-engine.js";
import { readGoldenFixture } from "../support/golden-fixture.js";

const fixture = parseFixture(readGoldenFixture());
const engine = createReplayEngine(fixture);

function live(request: GlassRequest, overrides: Partial<GlassRequest> = {}): GlassRequest {
  const { correlationId: _c, sessionId: _s, mutationLease: _m, deadlineMs: _d, ...bare } = request;
  return { ...bare, requestId: "live-1", ...overrides } as GlassRequest;
}

/** Rebuilds a value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

describe("parseFixture", () => {
  it("accepts our golden fixture", () => {
    expect(fixture.requests.length).toBeGreaterThan(0);
  });

  it("names the first invalid request", () => {
    const broken = structuredClone(readGoldenFixture());
    delete (broken.requests[2] as Record<string, unknown>).operation;
    expect(() => parseFixture(broken)).toThrow(
      /requests\[2\] \(requestId "workflow-renew-all"\) is not a valid request/,
    );
  });

  it("names an invalid response and throws a GlassError with code fixture.invalid", () => {
    const broken = structuredClone(readGoldenFixture());
    (broken.responses[1] as Record<string, unknown>).ok = "yes";
    let thrown: unknown;
    try {
      parseFixture(broken);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GlassError);
    expect((thrown as GlassError).code).toBe("fixture.invalid");
    expect((thrown as GlassError).message).toMatch(
      /responses\[1\] \(requestId "click-renew"\) is not a valid response/,
    );
  });

  it("rejects a response that answers no recorded request, and a repeated request id", () => {
    const orphan = structuredClone(readGoldenFixture());
    (orphan.responses[0] as Record<string, unknown>).requestId = "nobody-asked";
    expect(() => parseFixture(orphan)).toThrow(
      /responses\[0\] \(requestId "nobody-asked"\) answers no recorded request/,
    );
    const repeated = structuredClone(readGoldenFixture());
    (repeated.requests[1] as Record<string, unknown>).requestId = "observe-loans";
    expect(() => parseFixture(repeated)).toThrow(/requests\[1\] \(requestId "observe-loans"\) repeats a requestId/);
  });

  it("rejects what is not a fixture at all", () => {
    expect(() => parseFixture([])).toThrow(/must be a JSON object/);
    expect(() => parseFixture({ schemaVersion: 2, requests: [], responses: [] })).toThrow(/schemaVersion must be 1/);
  });
});

describe("createReplayEngine", () => {
  it("answers every recorded request with its recorded response, re-addressed to the live request id", () => {
    for (const request of fixture.requests) {
      const recorded = fixture.responses.find((r) => r.requestId === request.requestId)!;
      const answer = engine.answer(live(request));
      const { requestId: _id, correlationId: _c, ...rest } = recorded;
      expect(answer).toEqual({ ...rest, requestId: "live-1" });
      expect(validateResponse(answer, { strict: true }).ok).toBe(true);
    }
  });

  it("matches payloads whatever their key order", () => {
    const inspect = fixture.requests.find((r) => r.requestId === "inspect-ir-loans")!;
    const shuffled = live(inspect, { payload: reverseKeys(inspect.payload) as GlassRequest["payload"] });
    expect(JSON.stringify(shuffled.payload)).not.toBe(JSON.stringify(inspect.payload));
    expect(engine.answer(shuffled).ok).toBe(true);
    expect(engine.has(inspect.operation, reverseKeys(inspect.payload))).toBe(true);
  });

  it("echoes the live correlationId, and leaves it out when the live request has none", () => {
    const click = fixture.requests.find((r) => r.requestId === "click-renew")!;
    expect(click.correlationId).toBeDefined();
    const withId = engine.answer(live(click, { correlationId: "run-42" }));
    expect(withId.correlationId).toBe("run-42");
    const without = engine.answer(live(click));
    expect("correlationId" in without).toBe(false);
    const observe = fixture.requests.find((r) => r.requestId === "observe-loans")!;
    expect(engine.answer(live(observe, { correlationId: "c-1" }))).toMatchObject({
      requestId: "live-1",
      correlationId: "c-1",
      ok: true,
    });
  });

  it("answers a recorded operation with an unknown payload with mock.unmatched, counting the recorded answers", () => {
    const answer = engine.answer({
      protocolVersion: 1,
      requestId: "u-1",
      operation: "webIr.validate",
      payload: { ir: { nope: true } },
    });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({
      code: "mock.unmatched",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "record_fixture" },
      details: { operation: "webIr.validate", payload: { ir: { nope: true } }, answersForOperation: 2 },
    });
    expect(answer.error.message).toMatch(
      /^no recorded answer for webIr\.validate with this payload; the fixture has 2 answers for webIr\.validate\. The nearest differs at /,
    );
    expect(validateResponse(answer, { strict: true }).ok).toBe(true);
  });

  it("answers an operation the fixture never recorded by listing the recorded operations", () => {
    const answer = engine.answer({
      protocolVersion: 1,
      requestId: "u-2",
      correlationId: "c-9",
      operation: "browser.navigate",
      payload: { url: "https://example.test" },
    });
    expect(answer).toMatchObject({ requestId: "u-2", correlationId: "c-9", ok: false });
    if (answer.ok) return;
    expect(answer.error.message).toBe(
      `no answers for browser.navigate at all; recorded operations: ${engine.operations().join(", ")}`,
    );
    expect(engine.operations()).toEqual([...new Set(fixture.requests.map((r) => r.operation))].sort());
  });

  it("treats a recorded request without a recorded response as unmatched", () => {
    const extra: GlassRequest = {
      protocolVersion: 1,
      requestId: "unanswered",
      operation: "browser.getText",
      payload: {},
    };
    const withGap: GoldenFixture = { ...fixture, requests: [...fixture.requests, extra] };
    const gapEngine = createReplayEngine(parseFixture(withGap));
    const answer = gapEngine.answer(live(extra));
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toMatch(/^no answers for browser\.getText at all/);
    expect(gapEngine.operations()).not.toContain("browser.getText");
  });

  it("keeps the unmatched message within 512 bytes and details within 16 KiB", () => {
    const many: GoldenFixture = { schemaVersion: 1, requests: [], responses: [] };
    for (let i = 0; i < 40; i++) {
      const requestId = `r-${i}`;
      many.requests.push({
        protocolVersion: 1,
        requestId,
        operation: `browser.someRatherLongOperationName${i}`,
        payload: {},
      });
      many.responses.push({ protocolVersion: 1, requestId, ok: true, result: null });
    }
    const big = createReplayEngine(many).answer({
      protocolVersion: 1,
      requestId: "x",
      operation: "browser.other",
      payload: { blob: "x".repeat(20_000) },
    });
    expect(big.ok).toBe(false);
    if (big.ok) return;
    expect(Buffer.byteLength(big.error.message)).toBeLessThanOrEqual(512);
    expect(Buffer.byteLength(JSON.stringify(big.error.details))).toBeLessThanOrEqual(16 * 1024);
    expect(big.error.details).toMatchObject({ operation: "browser.other" });
    expect(validateResponse(big, { strict: true }).ok).toBe(true);
  });

  it("uses the fallback for unmatched requests when it gives an answer", () => {
    const withFallback = createReplayEngine(fixture, {
      fallback: (request) =>
        request.operation === "browser.navigate"
          ? { protocolVersion: 1, requestId: "ignored", ok: true, result: { executionId: "e-1" } }
          : undefined,
    });
    expect(
      withFallback.answer({
        protocolVersion: 1,
        requestId: "n-1",
        operation: "browser.navigate",
        payload: { url: "https://a.test" },
      }),
    ).toEqual({
      protocolVersion: 1,
      requestId: "n-1",
      ok: true,
      result: { executionId: "e-1" },
    });
    expect(
      withFallback.answer({ protocolVersion: 1, requestId: "n-2", operation: "browser.hover", payload: {} }).ok,
    ).toBe(false);
  });

  it("is not affected by later changes to the fixture it was built from", () => {
    const copy = structuredClone(fixture);
    const own = createReplayEngine(copy);
    (copy.responses[0] as { result: unknown }).result = "changed";
    const observe = fixture.requests[0]!;
    expect(own.answer(live(observe))).toMatchObject({ ok: true, result: { revision: 12 } });
  });
});

describe("a payload recorded several times", () => {
  /** A session that observed the same page three times, the page moving on in between. */
  const session: GoldenFixture = {
    schemaVersion: 1,
    requests: [1, 2, 3].map((n) => ({
      protocolVersion: 1 as const,
      requestId: `observe-${n}`,
      operation: "browser.getText",
      payload: {},
    })),
    responses: [1, 2, 3].map((n) => ({
      protocolVersion: 1 as const,
      requestId: `observe-${n}`,
      ok: true as const,
      result: { text: `page ${n}` },
    })),
  };
  const ask = (replay: ReturnType<typeof createReplayEngine>, id: string) => {
    const response = replay.answer({ protocolVersion: 1, requestId: id, operation: "browser.getText", payload: {} });
    return response.ok ? response.result : response.error;
  };

  it("is answered in recorded order, then the last recording again", () => {
    const replay = createReplayEngine(session);
    expect(["a", "b", "c", "d", "e"].map((id) => ask(replay, id))).toEqual([
      { text: "page 1" },
      { text: "page 2" },
      { text: "page 3" },
      { text: "page 3" },
      { text: "page 3" },
    ]);
  });

  it("keeps its order per engine, and has() uses no answer up", () => {
    const first = createReplayEngine(session);
    const second = createReplayEngine(session);
    expect(first.has("browser.getText", {})).toBe(true);
    expect(ask(first, "a")).toEqual({ text: "page 1" });
    expect(ask(second, "a")).toEqual({ text: "page 1" });
    expect(ask(first, "b")).toEqual({ text: "page 2" });
  });

  it("counts a payload sent with another key order or ignored fields as the same payload", () => {
    const replay = createReplayEngine(
      {
        ...session,
        requests: session.requests.map((request, index) => ({
          ...request,
          operation: "browser.observe",
          payload: { level: "summary", expectedRevision: index + 1 },
        })),
      },
      { match: { ignore: ["expectedRevision"] } },
    );
    const observe = (payload: unknown) => {
      const response = replay.answer({ protocolVersion: 1, requestId: "x", operation: "browser.observe", payload });
      return response.ok ? response.result : response.error;
    };
    expect(observe({ level: "summary" })).toEqual({ text: "page 1" });
    expect(observe({ expectedRevision: 9, level: "summary" })).toEqual({ text: "page 2" });
  });
});
