import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validatePayload, validateRequest, validateResponse, validateResult } from "glass-sdk";
import { GOLDEN_FIXTURE_PATH, readGoldenFixture } from "../support/golden-fixture.js";

const fixture = readGoldenFixture();

describe("our golden fixture", () => {
  it("round-trips: parse → validate → serialize → deep-equal", () => {
    const text = readFileSync(GOLDEN_FIXTURE_PATH, "utf8");
    const parsed = JSON.parse(text) as typeof fixture;
    const validated = {
      ...parsed,
      requests: parsed.requests.map((r) => {
        const v = validateRequest(r);
        if (!v.ok) throw new Error(JSON.stringify(v.issues));
        return v.value;
      }),
      responses: parsed.responses.map((r) => {
        const v = validateResponse(r, { strict: true });
        if (!v.ok) throw new Error(JSON.stringify(v.issues));
        return v.value;
      }),
    };
    const reparsed = JSON.parse(JSON.stringify(validated)) as unknown;
    expect(reparsed).toEqual(JSON.parse(text));
    expect(`${JSON.stringify(reparsed, null, 2)}\n`).toBe(text);
  });

  it("covers every exchange the contract names", () => {
    const operations = fixture.requests.map((r) => r.operation);
    for (const op of [
      "browser.observe",
      "browser.click",
      "browser.workflow",
      "webIr.inspect",
      "webIr.validate",
      "webIr.diff",
      "webIr.continuity",
      "task.validate",
      "task.compile",
    ]) {
      expect(operations).toContain(op);
    }
    const click = fixture.requests.find((r) => r.operation === "browser.click")!;
    expect(Object.keys(click)).toEqual(
      expect.arrayContaining(["correlationId", "sessionId", "mutationLease", "deadlineMs"]),
    );
    const clickResponse = fixture.responses.find((r) => r.requestId === click.requestId) as { error: { code: string } };
    expect(clickResponse.error.code).toBe("staleRevision");
    const kinds = fixture.responses.flatMap((r) => {
      const details = (r.error as { details?: { kind?: string } } | undefined)?.details;
      return details?.kind === undefined
        ? []
        : [`${fixture.requests.find((q) => q.requestId === r.requestId)!.operation}:${details.kind}`];
    });
    expect(kinds).toEqual(
      expect.arrayContaining([
        "task.validate:taskValidation",
        "task.compile:taskCompilation",
        "webIr.validate:webIrValidation",
        "webIr.diff:webIrValidation",
        "webIr.continuity:webIrValidation",
      ]),
    );
    expect(fixture.invalidResponses?.length ?? 0).toBeGreaterThanOrEqual(5);
  });

  it.each(fixture.requests.map((r) => [r.requestId, r] as const))("request %s is a valid envelope", (_id, request) => {
    expect(validateRequest(request)).toEqual({ ok: true, value: request });
  });

  it.each(fixture.responses.map((r) => [r.requestId, r] as const))(
    "response %s is a valid envelope, even strictly",
    (_id, response) => {
      expect(validateResponse(response, { strict: true }).ok).toBe(true);
    },
  );

  it.each(fixture.responses.filter((r) => r.ok === true).map((r) => [r.requestId, r] as const))(
    "response %s: the result matches its operation's result schema",
    (id, response) => {
      const operation = fixture.requests.find((r) => r.requestId === id)!.operation as string;
      expect(validateResult(operation, response.result)).toEqual({ ok: true, value: response.result });
    },
  );

  it("answers observe-loans with a summary-level semantic observation of the loans page", () => {
    const observe = fixture.responses.find((r) => r.requestId === "observe-loans") as {
      result: Record<string, unknown>;
    };
    expect(observe.result).toMatchObject({
      schemaVersion: 1,
      revision: 12,
      level: "summary",
      route: { url: "https://library.example/account/loans" },
      page: { url: "https://library.example/account/loans", title: "My loans · City Library" },
    });
  });

  it.each(fixture.invalidResponses!.map((r, i) => [i, r] as const))(
    "invalid response #%s is rejected with a path",
    (_i, response) => {
      const checked = validateResponse(response);
      expect(checked.ok).toBe(false);
      if (!checked.ok) {
        expect(checked.issues.length).toBeGreaterThan(0);
        for (const issue of checked.issues) expect(issue.path).not.toBe("");
      }
    },
  );

  it.each(fixture.requests.map((r) => [r.requestId, r] as const))(
    "request %s: the payload preflight agrees with the recorded outcome",
    (_id, request) => {
      const response = fixture.responses.find((r) => r.requestId === request.requestId) as
        | { ok: boolean; error?: { code: string; details?: { kind: string; path: string; reason: string } } }
        | undefined;
      const checked = validatePayload(request.operation as string, request.payload);
      const details = response?.error?.details;
      if (details !== undefined && ["taskValidation", "taskCompilation", "webIrValidation"].includes(details.kind)) {
        expect(checked.ok).toBe(false);
        if (!checked.ok) expect(checked.issues[0]).toEqual({ path: details.path, reason: details.reason });
      } else {
        expect(checked).toEqual({ ok: true, value: request.payload });
      }
    },
  );
});
