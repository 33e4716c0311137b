/**
 * Boundary tests for the response envelope and error object of the protocol page §1, through the
 * public `validateResponse` (default and `{ strict: true }`).
 */
import { describe, it, expect } from "vitest";
import { validateResponse } from "glass-sdk";

type Issue = { path: string; reason: string };

const utf8 = (text: string): number => new TextEncoder().encode(text).length;
/** Bytes of the compact JSON serialization, measured independently of the SDK. */
const jsonBytes = (value: unknown): number => utf8(JSON.stringify(value));

function success(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { protocolVersion: 1, requestId: "req-1", ok: true, result: { executionId: "x-1" }, ...extra };
}

function failure(error: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocolVersion: 1,
    requestId: "req-1",
    ok: false,
    error: { code: "staleRevision", message: "the observation revision is no longer current", ...error },
    ...extra,
  };
}

function issuesOf(value: unknown, strict = false): Issue[] {
  const result = validateResponse(value, { strict });
  if (result.ok) throw new Error(`expected the response to be rejected: ${JSON.stringify(value)}`);
  return result.issues;
}

function expectAccepted(value: unknown, strict = false): void {
  const result = validateResponse(value, { strict });
  expect(result.ok ? [] : result.issues).toEqual([]);
}

describe("ok, result and error agree", () => {
  it("accepts ok true with a result", () => {
    expectAccepted(success());
  });

  it.each([
    ["null", null],
    ["false", false],
    ["0", 0],
    ["an empty string", ""],
    ["an array", []],
  ])("accepts ok true with result %s (a present result of any JSON)", (_label, result) => {
    expectAccepted(success({ result }));
  });

  it("rejects ok true with an error at path error", () => {
    expect(issuesOf(success({ error: { code: "c", message: "m" } }))).toEqual([
      { path: "error", reason: "must be absent when ok is true" },
    ]);
  });

  it("requires result when ok is true and neither is present", () => {
    const value = success();
    delete value.result;
    expect(issuesOf(value)).toEqual([{ path: "result", reason: "is required when ok is true" }]);
  });

  it("accepts ok false with an error", () => {
    expectAccepted(failure());
  });

  it("rejects ok false with a result at path result", () => {
    expect(issuesOf(failure({}, { result: {} }))).toEqual([
      { path: "result", reason: "must be absent when ok is false" },
    ]);
  });

  it("requires error when ok is false and neither is present", () => {
    expect(issuesOf({ protocolVersion: 1, requestId: "r", ok: false })).toEqual([
      { path: "error", reason: "is required when ok is false" },
    ]);
  });

  it("rejects both result and error whatever ok says (ok true: error reported)", () => {
    expect(issuesOf(success({ error: { code: "c", message: "m" } })).map((issue) => issue.path)).toEqual(["error"]);
  });

  it("rejects both result and error whatever ok says (ok false: result reported)", () => {
    expect(issuesOf(failure({}, { result: null })).map((issue) => issue.path)).toEqual(["result"]);
  });

  it.each([
    ["a string", "true", "must be a boolean (got string)"],
    ["a number", 1, "must be a boolean (got number)"],
    ["null", null, "must be a boolean (got null)"],
  ])("rejects ok that is %s", (_label, ok, reason) => {
    expect(issuesOf(success({ ok }))).toEqual([{ path: "ok", reason }]);
  });

  it("reports missing protocolVersion, requestId and ok at their paths", () => {
    expect(issuesOf({ result: 1 })).toEqual([
      { path: "protocolVersion", reason: "is required" },
      { path: "requestId", reason: "is required" },
      { path: "ok", reason: "is required" },
    ]);
  });

  it("rejects protocolVersion other than 1", () => {
    expect(issuesOf(success({ protocolVersion: 2 }))).toEqual([
      { path: "protocolVersion", reason: "must be 1 (got 2)" },
    ]);
  });

  it("applies the identifier rules to requestId and correlationId", () => {
    expect(issuesOf(success({ requestId: "猫".repeat(43) }))).toEqual([
      { path: "requestId", reason: "must be at most 128 UTF-8 bytes (got 129)" },
    ]);
    expect(issuesOf(success({ correlationId: "run 7" }))).toEqual([
      {
        path: "correlationId",
        reason: "must not contain whitespace or control characters (U+0000-U+001F, U+007F-U+009F)",
      },
    ]);
    expectAccepted(success({ requestId: `${"猫".repeat(42)}ab`, correlationId: "café-猫" }));
  });
});

describe("error.code (1..64 UTF-8 bytes)", () => {
  it("accepts a code of exactly 64 bytes built from 21 × 猫 + a", () => {
    const code = `${"猫".repeat(21)}a`;
    expect(utf8(code)).toBe(64);
    expectAccepted(failure({ code }));
  });

  it("accepts a code of exactly 64 bytes built from 16 × 😀", () => {
    expectAccepted(failure({ code: "😀".repeat(16) }));
  });

  it("rejects a code of 65 bytes built from 21 × 猫 + ab, naming the limit", () => {
    const code = `${"猫".repeat(21)}ab`;
    expect(utf8(code)).toBe(65);
    expect(issuesOf(failure({ code }))).toEqual([
      { path: "error.code", reason: "must be at most 64 UTF-8 bytes (got 65)" },
    ]);
  });

  it("rejects a code of 65 bytes built from 32 × é + a", () => {
    expect(issuesOf(failure({ code: `${"é".repeat(32)}a` }))).toEqual([
      { path: "error.code", reason: "must be at most 64 UTF-8 bytes (got 65)" },
    ]);
  });

  it("rejects an empty code", () => {
    expect(issuesOf(failure({ code: "" }))).toEqual([{ path: "error.code", reason: "must not be empty" }]);
  });

  it.each(["staleRevision", "task.invalid", "webIr.invalid"])("accepts the known code %s", (code) => {
    expectAccepted(failure({ code }));
  });

  it("reports a missing code and a missing message at their paths", () => {
    expect(issuesOf({ protocolVersion: 1, requestId: "r", ok: false, error: {} })).toEqual([
      { path: "error.code", reason: "is required" },
      { path: "error.message", reason: "is required" },
    ]);
  });
});

describe("error.message (1..512 UTF-8 bytes)", () => {
  it("accepts a message of exactly 512 bytes built from 170 × 猫 + ab", () => {
    const message = `${"猫".repeat(170)}ab`;
    expect(utf8(message)).toBe(512);
    expectAccepted(failure({ message }));
  });

  it("rejects a message of 513 bytes built from 170 × 猫 + abc, naming the limit", () => {
    const message = `${"猫".repeat(170)}abc`;
    expect(utf8(message)).toBe(513);
    expect(issuesOf(failure({ message }))).toEqual([
      { path: "error.message", reason: "must be at most 512 UTF-8 bytes (got 513)" },
    ]);
  });

  it("rejects a message of 513 bytes built from 128 × 😀 + a", () => {
    expect(issuesOf(failure({ message: `${"😀".repeat(128)}a` }))).toEqual([
      { path: "error.message", reason: "must be at most 512 UTF-8 bytes (got 513)" },
    ]);
  });

  it("rejects an empty message", () => {
    expect(issuesOf(failure({ message: "" }))).toEqual([{ path: "error.message", reason: "must not be empty" }]);
  });
});

describe("error.phase, mutationPossible, retry, retryable", () => {
  it.each(["preflight", "dispatch", "postDispatch", "verification", "reconciliation"])("accepts phase %s", (phase) => {
    expectAccepted(failure({ phase }));
  });

  it("rejects an unknown phase, listing the allowed ones", () => {
    expect(issuesOf(failure({ phase: "execution" }))).toEqual([
      {
        path: "error.phase",
        reason: 'must be one of: preflight, dispatch, postDispatch, verification, reconciliation (got "execution")',
      },
    ]);
  });

  it.each([true, false])("accepts mutationPossible %s", (mutationPossible) => {
    expectAccepted(failure({ mutationPossible }));
  });

  it("rejects a non-boolean mutationPossible", () => {
    expect(issuesOf(failure({ mutationPossible: "yes" }))).toEqual([
      { path: "error.mutationPossible", reason: "must be a boolean (got string)" },
    ]);
  });

  it.each([
    "safeImmediate",
    "safeAfterReobserve",
    "safeAfterReconcile",
    "unsafeUntilReconciled",
    "requiresUserDecision",
    "notRetryable",
    "unknown",
  ])("accepts retry classification %s", (classification) => {
    expectAccepted(failure({ retry: { classification, recommendedOperation: "inspect_page" } }));
  });

  it("rejects an unknown retry classification", () => {
    const issues = issuesOf(failure({ retry: { classification: "maybe", recommendedOperation: "inspect_page" } }));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe("error.retry.classification");
    expect(issues[0]?.reason).toContain('(got "maybe")');
  });

  it.each(["classification", "recommendedOperation"])("requires retry.%s", (field) => {
    const retry: Record<string, unknown> = { classification: "safeImmediate", recommendedOperation: "inspect_page" };
    delete retry[field];
    expect(issuesOf(failure({ retry }))).toEqual([{ path: `error.retry.${field}`, reason: "is required" }]);
  });

  it("applies the identifier rules to retry.recommendedOperation", () => {
    expect(
      issuesOf(failure({ retry: { classification: "safeImmediate", recommendedOperation: "inspect page" } })),
    ).toEqual([
      {
        path: "error.retry.recommendedOperation",
        reason: "must not contain whitespace or control characters (U+0000-U+001F, U+007F-U+009F)",
      },
    ]);
    expect(
      issuesOf(failure({ retry: { classification: "safeImmediate", recommendedOperation: "猫".repeat(43) } })),
    ).toEqual([{ path: "error.retry.recommendedOperation", reason: "must be at most 128 UTF-8 bytes (got 129)" }]);
  });

  it("rejects a retry advice that is not an object", () => {
    expect(issuesOf(failure({ retry: "safeImmediate" }))).toEqual([
      { path: "error.retry", reason: "must be an object (got string)" },
    ]);
  });

  it.each([true, false])("accepts retryable %s", (retryable) => {
    expectAccepted(failure({ retryable }));
  });

  it("rejects a non-boolean retryable", () => {
    expect(issuesOf(failure({ retryable: "yes" }))).toEqual([
      { path: "error.retryable", reason: "must be a boolean (got string)" },
    ]);
  });

  it("accepts the upstream legacy error {code, message, retryable: true} (default and strict)", () => {
    const legacy = {
      protocolVersion: 1,
      requestId: "r-12",
      ok: false,
      error: { code: "staleRevision", message: "stale", retryable: true },
    };
    expectAccepted(legacy);
    expectAccepted(legacy, true);
  });

  it("accepts a fully populated error object (default and strict)", () => {
    const full = failure({
      phase: "postDispatch",
      mutationPossible: true,
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
      retryable: false,
      details: { kind: "taskValidation", path: "inputs", reason: "form.fill requires at least one bounded input" },
    });
    expectAccepted(full);
    expectAccepted(full, true);
  });
});

/** A details value `{text: "..."}` whose compact JSON is exactly `bytes` bytes, ASCII only. */
function asciiDetails(bytes: number): { text: string } {
  const value = { text: "x".repeat(bytes - jsonBytes({ text: "" })) };
  return value;
}

/**
 * A details value full of multibyte characters and JSON escapes whose compact JSON is exactly
 * `bytes` bytes. One unit `é猫😀"\\\n\u0001\u2028` serializes to 2+3+4+2+2+2+6+3 = 24 bytes.
 */
function multibyteDetails(bytes: number): Record<string, unknown> {
  const unit = 'é猫😀"\\\n\u0001\u2028';
  const value: Record<string, unknown> = {
    kind: "taskValidation",
    'k"é\n': [1.5, -0, 1e21, true, null, { "😀": "\t" }],
    items: [] as string[],
    pad: "",
  };
  const items = value.items as string[];
  while (jsonBytes(value) + 400 < bytes) items.push(unit.repeat(8));
  value.pad = "x".repeat(bytes - jsonBytes(value));
  return value;
}

describe("error.details (any JSON, at most 16 KiB serialized)", () => {
  it("serializes the test values to the intended sizes (measured with TextEncoder)", () => {
    expect(jsonBytes(asciiDetails(16_384))).toBe(16_384);
    expect(jsonBytes(asciiDetails(16_385))).toBe(16_385);
    expect(jsonBytes(multibyteDetails(16_384))).toBe(16_384);
    expect(jsonBytes(multibyteDetails(16_385))).toBe(16_385);
    // The escape this test relies on: U+0001 stringifies to the 6 bytes \u0001.
    expect(jsonBytes("\u0001")).toBe(8);
  });

  it("accepts ASCII details of exactly 16384 bytes of JSON", () => {
    expectAccepted(failure({ details: asciiDetails(16_384) }));
  });

  it("rejects ASCII details of 16385 bytes of JSON, naming the limit and the size", () => {
    expect(issuesOf(failure({ details: asciiDetails(16_385) }))).toEqual([
      { path: "error.details", reason: "must serialize to at most 16384 bytes of JSON (got 16385)" },
    ]);
  });

  it("accepts multibyte details with quotes, backslashes, \\n and \\u0001 of exactly 16384 bytes of JSON", () => {
    expectAccepted(failure({ details: multibyteDetails(16_384) }));
  });

  it("rejects multibyte details with quotes, backslashes, \\n and \\u0001 of 16385 bytes of JSON", () => {
    expect(issuesOf(failure({ details: multibyteDetails(16_385) }))).toEqual([
      { path: "error.details", reason: "must serialize to at most 16384 bytes of JSON (got 16385)" },
    ]);
  });

  it("counts a lone surrogate as the 6-byte escape JSON.stringify writes", () => {
    const lone = "\ud83d";
    expect(jsonBytes(lone)).toBe(8);
    const base = { text: "" };
    const fill = (n: number) => ({ text: `${lone}${"x".repeat(n)}` });
    const exact = fill(16_384 - jsonBytes(base) - 6);
    expect(jsonBytes(exact)).toBe(16_384);
    expectAccepted(failure({ details: exact }));
    const over = fill(16_384 - jsonBytes(base) - 5);
    expect(issuesOf(failure({ details: over })).map((issue) => issue.path)).toEqual(["error.details"]);
  });

  it("bounds a details value that is a bare string (quotes included)", () => {
    expectAccepted(failure({ details: "x".repeat(16_382) }));
    expect(issuesOf(failure({ details: "x".repeat(16_383) }))).toEqual([
      { path: "error.details", reason: "must serialize to at most 16384 bytes of JSON (got 16385)" },
    ]);
  });

  it.each([
    ["null", null],
    ["a number", 3],
    ["an array", [1, [2]]],
    [
      "a known kind",
      { kind: "webIrValidation", path: "entities[2].id", reason: "entity IDs must be unique within one revision" },
    ],
  ])("accepts details that are %s", (_label, details) => {
    expectAccepted(failure({ details }));
  });
});

describe("unknown fields (tolerated by default, rejected when strict)", () => {
  it("accepts an unknown top-level field by default", () => {
    expectAccepted(success({ hint: "x" }));
    expectAccepted(failure({}, { _meta: { contextCost: { payloadBytes: 10 } } }));
  });

  it("accepts an unknown field inside error by default", () => {
    expectAccepted(failure({ hint: "x" }));
  });

  it("accepts an unknown field inside error.retry by default", () => {
    expectAccepted(
      failure({ retry: { classification: "safeImmediate", recommendedOperation: "inspect_page", afterMs: 100 } }),
    );
  });

  it("rejects an unknown top-level field with { strict: true } at its path", () => {
    const issues = issuesOf(success({ hint: "x" }), true);
    expect(issues).toEqual([
      {
        path: "hint",
        reason:
          "is not allowed (unknown field); allowed fields: protocolVersion, requestId, correlationId, ok, result, error",
      },
    ]);
  });

  it("rejects an unknown field inside error with { strict: true } at error.<field>", () => {
    expect(issuesOf(failure({ hint: "x" }), true)).toEqual([
      {
        path: "error.hint",
        reason:
          "is not allowed (unknown field); allowed fields: code, message, phase, mutationPossible, retry, retryable, details",
      },
    ]);
  });

  it("rejects an unknown field inside error.retry with { strict: true }", () => {
    const issues = issuesOf(
      failure({ retry: { classification: "safeImmediate", recommendedOperation: "inspect_page", afterMs: 100 } }),
      true,
    );
    expect(issues.map((issue) => issue.path)).toEqual(["error.retry.afterMs"]);
  });

  it("reports unknown fields at both levels together with { strict: true }", () => {
    expect(
      issuesOf(failure({ hint: "x" }, { extra: 1 }), true)
        .map((issue) => issue.path)
        .sort(),
    ).toEqual(["error.hint", "extra"]);
  });

  it("still applies every rule in strict mode (a valid response passes)", () => {
    expectAccepted(success({ correlationId: "run-1" }), true);
    expectAccepted(failure({ phase: "dispatch" }), true);
  });

  it("still requires unknown fields to be JSON by default", () => {
    expect(issuesOf(success({ hint: () => "x" }))).toEqual([
      { path: "hint", reason: "is a function, which is not JSON" },
    ]);
    expect(issuesOf(failure({ hint: Number.NaN }))).toEqual([
      { path: "error.hint", reason: "must be a finite number; NaN is not JSON" },
    ]);
  });
});

describe("non-object responses", () => {
  it.each([
    ["null", null, "must be an object (got null)"],
    ["a number", 5, "must be an object (got number)"],
    ["a string", "x", "must be an object (got string)"],
    ["an array", [], "must be an object (got an array)"],
  ])("rejects %s at the root path (default and strict)", (_label, value, reason) => {
    expect(issuesOf(value)).toEqual([{ path: "", reason }]);
    expect(issuesOf(value, true)).toEqual([{ path: "", reason }]);
  });

  it("rejects an error that is not an object", () => {
    expect(issuesOf(failure({}, { error: "boom" }))).toEqual([
      { path: "error", reason: "must be an object (got string)" },
    ]);
  });
});
