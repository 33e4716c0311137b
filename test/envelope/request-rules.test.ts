/**
 * Boundary tests for every request-envelope rule of the protocol page §1, through the public
 * `validateRequest`. Each test breaks (or just satisfies) one rule of an otherwise valid request
 * and checks the exact issues reported.
 */
import { describe, it, expect } from "vitest";
import { validateRequest } from "glass-sdk";

type Issue = { path: string; reason: string };

const utf8 = (text: string): number => new TextEncoder().encode(text).length;

/** A fresh, minimal valid request. */
function request(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { protocolVersion: 1, requestId: "req-1", operation: "browser.click", payload: { target: "#go" }, ...extra };
}

/** The issues of an invalid value (fails the test when the value is accepted). */
function issuesOf(value: unknown): Issue[] {
  const result = validateRequest(value);
  if (result.ok) throw new Error(`expected the request to be rejected: ${JSON.stringify(value)}`);
  return result.issues;
}

function expectAccepted(value: unknown): void {
  const result = validateRequest(value);
  expect(result.ok ? [] : result.issues).toEqual([]);
  expect(result.ok).toBe(true);
}

const IDENTIFIER_CHARS = "must not contain whitespace or control characters (U+0000-U+001F, U+007F-U+009F)";

/**
 * The five identifier positions of a request. `set` puts a value there in an otherwise valid
 * request (keeping sessionId and mutationLease.sessionId equal, so only the identifier rule is at
 * stake); `path` is where an issue about it is reported.
 */
const IDENTIFIER_FIELDS: { name: string; path: string; set: (value: string) => Record<string, unknown> }[] = [
  { name: "requestId", path: "requestId", set: (value) => request({ requestId: value }) },
  { name: "correlationId", path: "correlationId", set: (value) => request({ correlationId: value }) },
  { name: "sessionId", path: "sessionId", set: (value) => request({ sessionId: value }) },
  {
    name: "mutationLease.sessionId",
    path: "mutationLease.sessionId",
    set: (value) => request({ mutationLease: { sessionId: value, token: "lease-token-1" } }),
  },
  {
    name: "mutationLease.token",
    path: "mutationLease.token",
    set: (value) => request({ sessionId: "session-1", mutationLease: { sessionId: "session-1", token: value } }),
  },
];

/** Identifiers of exactly 128 UTF-8 bytes, each built from multibyte characters. */
const ID_128_BYTES: [string, string][] = [
  ["42 × 猫 (3-byte) + ab", `${"猫".repeat(42)}ab`],
  ["32 × 😀 (4-byte)", "😀".repeat(32)],
  ["64 × é (2-byte)", "é".repeat(64)],
  ["31 × 😀 + é + ab (4+2+1 byte mix)", `${"😀".repeat(31)}éab`],
  ["42 × 猫 + é", `${"猫".repeat(42)}é`],
];

/** Identifiers of exactly 129 UTF-8 bytes, each built from multibyte characters. */
const ID_129_BYTES: [string, string][] = [
  ["42 × 猫 + abc", `${"猫".repeat(42)}abc`],
  ["43 × 猫", "猫".repeat(43)],
  ["32 × 😀 + a", `${"😀".repeat(32)}a`],
  ["64 × é + a", `${"é".repeat(64)}a`],
  ["31 × 😀 + 猫 + ab", `${"😀".repeat(31)}猫ab`],
];

/** Characters an identifier must not contain: the control ranges and Unicode White_Space. */
const FORBIDDEN_IN_IDENTIFIER: [string, string][] = [
  ["U+0000 (first C0 control)", "\u0000"],
  ["U+0001", "\u0001"],
  ["U+000A line feed", "\n"],
  ["U+001F (last C0 control)", "\u001f"],
  ["U+007F delete", "\u007f"],
  ["U+0080 (first C1 control)", "\u0080"],
  ["U+0085 next line", "\u0085"],
  ["U+009F (last C1 control)", "\u009f"],
  ["U+0020 space", " "],
  ["U+0009 tab", "\t"],
  ["U+00A0 no-break space (White_Space, not a control)", "\u00a0"],
  ["U+1680 ogham space mark", "\u1680"],
  ["U+200A hair space", "\u200a"],
  ["U+2028 line separator", "\u2028"],
  ["U+2029 paragraph separator", "\u2029"],
  ["U+3000 ideographic space", "\u3000"],
];

/** Printable characters that are neither White_Space nor controls, so identifiers may hold them. */
const ALLOWED_IN_IDENTIFIER: [string, string][] = [
  ["U+00A1 inverted exclamation mark (first printable after the C1 range)", "\u00a1"],
  ["U+FEFF zero-width no-break space (not White_Space, as Rust's char::is_whitespace)", "\ufeff"],
  ["U+200B zero-width space (not White_Space)", "\u200b"],
  ["U+007E tilde (last printable ASCII)", "~"],
  ["U+0021 exclamation mark (first printable ASCII)", "!"],
];

describe("request identifiers (requestId, correlationId, sessionId, mutationLease.sessionId, mutationLease.token)", () => {
  it("the multibyte boundary strings really are 128 and 129 UTF-8 bytes", () => {
    for (const [, text] of ID_128_BYTES) expect(utf8(text)).toBe(128);
    for (const [, text] of ID_129_BYTES) expect(utf8(text)).toBe(129);
  });

  describe.each(IDENTIFIER_FIELDS)("$name", ({ path, set }) => {
    it("accepts a plain ASCII identifier", () => {
      expectAccepted(set("abc-123_X.y:z"));
    });

    it("rejects an empty identifier with 'must not be empty'", () => {
      const issues = issuesOf(set(""));
      expect(issues.every((issue) => issue.path === path)).toBe(true);
      expect(issues).toContainEqual({ path, reason: "must not be empty" });
    });

    it.each(ID_128_BYTES)("accepts an identifier of exactly 128 UTF-8 bytes built from %s", (_label, text) => {
      expectAccepted(set(text));
    });

    it.each(ID_129_BYTES)(
      "rejects an identifier of 129 UTF-8 bytes built from %s, naming the 128-byte limit",
      (_label, text) => {
        expect(issuesOf(set(text))).toEqual([{ path, reason: "must be at most 128 UTF-8 bytes (got 129)" }]);
      },
    );

    it("counts bytes, not characters: 43 characters of 猫 (129 bytes) are rejected although 43 < 128", () => {
      expect(issuesOf(set("猫".repeat(43)))).toEqual([{ path, reason: "must be at most 128 UTF-8 bytes (got 129)" }]);
    });

    it("accepts printable non-ASCII such as café-猫", () => {
      expectAccepted(set("café-猫"));
    });

    it.each(FORBIDDEN_IN_IDENTIFIER)("rejects an identifier containing %s", (_label, ch) => {
      expect(issuesOf(set(`ab${ch}cd`))).toEqual([{ path, reason: IDENTIFIER_CHARS }]);
    });

    it.each(ALLOWED_IN_IDENTIFIER)("accepts an identifier containing %s", (_label, ch) => {
      expectAccepted(set(`ab${ch}cd`));
    });

    it("rejects a non-string identifier", () => {
      expect(issuesOf({ ...set("x"), ...numberAt(path) })).toEqual([{ path, reason: "must be a string (got number)" }]);
    });
  });

  it("reports every bad identifier of one request at its own path", () => {
    const issues = issuesOf(
      request({ requestId: "a b", correlationId: "", mutationLease: { sessionId: "猫".repeat(43), token: "t\u0085" } }),
    );
    expect([...new Set(issues.map((issue) => issue.path))].sort()).toEqual([
      "correlationId",
      "mutationLease.sessionId",
      "mutationLease.token",
      "requestId",
    ]);
  });
});

/** Puts the number 7 at an identifier path (for the non-string test). */
function numberAt(path: string): Record<string, unknown> {
  switch (path) {
    case "mutationLease.sessionId":
      return { mutationLease: { sessionId: 7, token: "lease-token-1" } };
    case "mutationLease.token":
      return { sessionId: "session-1", mutationLease: { sessionId: "session-1", token: 7 } };
    default:
      return { [path]: 7 };
  }
}

describe("protocolVersion", () => {
  it("accepts exactly 1", () => {
    expectAccepted(request({ protocolVersion: 1 }));
  });

  it.each([
    [0, "must be 1 (got 0)"],
    [2, "must be 1 (got 2)"],
    ["1", 'must be 1 (got "1")'],
    [1.5, "must be 1 (got 1.5)"],
    [true, "must be 1 (got true)"],
    [null, "must be 1 (got null)"],
  ])("rejects protocolVersion %j", (value, reason) => {
    expect(issuesOf(request({ protocolVersion: value }))).toEqual([{ path: "protocolVersion", reason }]);
  });
});

describe("operation", () => {
  it("accepts a canonical operation name", () => {
    expectAccepted(request({ operation: "webIr.diff" }));
  });

  it("accepts any name outside the catalog (the envelope does not restrict it to known operations)", () => {
    expectAccepted(request({ operation: "browser.project.read" }));
  });

  it("rejects an empty operation", () => {
    const issues = issuesOf(request({ operation: "" }));
    expect(issues.every((issue) => issue.path === "operation")).toBe(true);
    expect(issues).toContainEqual({ path: "operation", reason: "must not be empty" });
  });

  it("accepts an operation of exactly 96 UTF-8 bytes built from 32 × 猫", () => {
    const name = "猫".repeat(32);
    expect(utf8(name)).toBe(96);
    expectAccepted(request({ operation: name }));
  });

  it("accepts an operation of exactly 96 UTF-8 bytes built from 24 × 😀", () => {
    const name = "😀".repeat(24);
    expect(utf8(name)).toBe(96);
    expectAccepted(request({ operation: name }));
  });

  it.each([
    ["32 × 猫 + a", `${"猫".repeat(32)}a`],
    ["24 × 😀 + a", `${"😀".repeat(24)}a`],
    ["48 × é + a", `${"é".repeat(48)}a`],
  ])("rejects an operation of 97 UTF-8 bytes built from %s, naming the 96-byte limit", (_label, name) => {
    expect(utf8(name)).toBe(97);
    expect(issuesOf(request({ operation: name }))).toEqual([
      { path: "operation", reason: "must be at most 96 UTF-8 bytes (got 97)" },
    ]);
  });

  it.each([
    ["U+0020 space", " "],
    ["U+0009 tab", "\t"],
    ["U+000A line feed", "\n"],
    ["U+0085 next line", "\u0085"],
    ["U+00A0 no-break space", "\u00a0"],
    ["U+2028 line separator", "\u2028"],
    ["U+3000 ideographic space", "\u3000"],
  ])("rejects an operation containing %s (Unicode whitespace)", (_label, ch) => {
    expect(issuesOf(request({ operation: `browser.${ch}click` }))).toEqual([
      { path: "operation", reason: "must not contain whitespace" },
    ]);
  });

  it.each([
    ["U+0000", "\u0000"],
    ["U+0001", "\u0001"],
    ["U+001F", "\u001f"],
    ["U+007F", "\u007f"],
    ["U+0080", "\u0080"],
    ["U+009F", "\u009f"],
    ["U+FEFF", "\ufeff"],
  ])(
    "accepts an operation containing the non-whitespace character %s (§1 forbids only whitespace in operation)",
    (_label, ch) => {
      expectAccepted(request({ operation: `browser.${ch}click` }));
    },
  );

  it("rejects a non-string operation", () => {
    expect(issuesOf(request({ operation: 42 }))).toEqual([
      { path: "operation", reason: "must be a string (got number)" },
    ]);
  });
});

describe("deadlineMs", () => {
  it.each([1, 2, 60_000, 899_999, 900_000])("accepts deadlineMs %d", (value) => {
    expectAccepted(request({ deadlineMs: value }));
  });

  it("accepts a request without deadlineMs", () => {
    expectAccepted(request());
  });

  it.each([
    [0, "must be at least 1 (got 0)"],
    [-1, "must be at least 1 (got -1)"],
    [900_001, "must be at most 900000 (got 900001)"],
    [1.5, "must be an integer (got number)"],
    ["5", "must be an integer (got string)"],
    [null, "must be an integer (got null)"],
    [Number.NaN, "must be an integer (got NaN)"],
    [Number.POSITIVE_INFINITY, "must be an integer (got Infinity)"],
  ])("rejects deadlineMs %j", (value, reason) => {
    expect(issuesOf(request({ deadlineMs: value }))).toEqual([{ path: "deadlineMs", reason }]);
  });

  it("names the fifteen-minute cap in the reason", () => {
    const [issue] = issuesOf(request({ deadlineMs: 900_001 }));
    expect(issue?.reason).toContain("900000");
  });
});

describe("payload", () => {
  it.each([
    ["null", null],
    ["an array", [1, "two", { three: 3 }]],
    ["a string", "text"],
    ["a number", 0],
    ["false", false],
    ["an empty object", {}],
    ["a nested object", { a: { b: [null, true] } }],
  ])("accepts %s as payload (any JSON)", (_label, payload) => {
    expectAccepted(request({ payload }));
  });

  it("does not apply the catalog's payload schema in the envelope (browser.click without target is a valid envelope)", () => {
    expectAccepted(request({ operation: "browser.click", payload: {} }));
  });
});

describe("required fields", () => {
  it.each(["protocolVersion", "requestId", "operation", "payload"])("reports a missing %s at its own path", (field) => {
    const value = request();
    delete value[field];
    expect(issuesOf(value)).toEqual([{ path: field, reason: "is required" }]);
  });

  it("reports every missing field of an empty object", () => {
    expect(issuesOf({})).toEqual([
      { path: "protocolVersion", reason: "is required" },
      { path: "requestId", reason: "is required" },
      { path: "operation", reason: "is required" },
      { path: "payload", reason: "is required" },
    ]);
  });

  it("accepts a request with every optional field present", () => {
    expectAccepted(
      request({
        correlationId: "run-7",
        sessionId: "session-1",
        mutationLease: { sessionId: "session-1", token: "lease-token-1" },
        deadlineMs: 30_000,
      }),
    );
  });
});

describe("closed request object", () => {
  it("rejects an unknown top-level field at its path and lists the allowed fields", () => {
    const issues = issuesOf(request({ extra: true }));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe("extra");
    expect(issues[0]?.reason).toContain("is not allowed (unknown field)");
    expect(issues[0]?.reason).toContain(
      "protocolVersion, requestId, correlationId, sessionId, mutationLease, operation, payload, deadlineMs",
    );
  });

  it("quotes an unknown field whose name is not a plain identifier", () => {
    const issues = issuesOf(request({ "lease token": "x" }));
    expect(issues.map((issue) => issue.path)).toEqual(['["lease token"]']);
  });

  it("rejects the MCP-only field leaseToken at the top level", () => {
    expect(issuesOf(request({ leaseToken: "t" })).map((issue) => issue.path)).toEqual(["leaseToken"]);
  });

  it("rejects an unknown field inside mutationLease at mutationLease.<field>", () => {
    const issues = issuesOf(request({ mutationLease: { sessionId: "s", token: "t", ownerId: "o" } }));
    expect(issues).toEqual([
      { path: "mutationLease.ownerId", reason: "is not allowed (unknown field); allowed fields: sessionId, token" },
    ]);
  });

  it.each(["sessionId", "token"])("reports a mutationLease without %s at mutationLease.%s", (field) => {
    const lease: Record<string, unknown> = { sessionId: "s", token: "t" };
    delete lease[field];
    expect(issuesOf(request({ mutationLease: lease }))).toEqual([
      { path: `mutationLease.${field}`, reason: "is required" },
    ]);
  });

  it("rejects a mutationLease that is not an object", () => {
    expect(issuesOf(request({ mutationLease: "token" }))).toEqual([
      { path: "mutationLease", reason: "must be an object (got string)" },
    ]);
  });
});

describe("sessionId and mutationLease.sessionId", () => {
  it("accepts sessionId alone", () => {
    expectAccepted(request({ sessionId: "session-1" }));
  });

  it("accepts mutationLease alone (no top-level sessionId)", () => {
    expectAccepted(request({ mutationLease: { sessionId: "session-1", token: "lease-token-1" } }));
  });

  it("accepts both when they are equal", () => {
    expectAccepted(request({ sessionId: "猫-1", mutationLease: { sessionId: "猫-1", token: "lease-token-1" } }));
  });

  it("rejects sessionId ≠ mutationLease.sessionId at path sessionId", () => {
    const issues = issuesOf(
      request({ sessionId: "session-1", mutationLease: { sessionId: "session-2", token: "lease-token-1" } }),
    );
    expect(issues).toEqual([
      {
        path: "sessionId",
        reason: "must equal mutationLease.sessionId (a mutation lease belongs to the session that acquired it)",
      },
    ]);
  });

  it("compares session ids exactly (case matters)", () => {
    const issues = issuesOf(request({ sessionId: "Session-1", mutationLease: { sessionId: "session-1", token: "t" } }));
    expect(issues.map((issue) => issue.path)).toEqual(["sessionId"]);
  });

  it("does not leak the lease token into any issue reason", () => {
    const token = "super-secret-lease-token";
    const issues = issuesOf(request({ sessionId: "a", mutationLease: { sessionId: "b", token }, deadlineMs: 0 }));
    expect(JSON.stringify(issues)).not.toContain(token);
  });
});

describe("non-object requests", () => {
  it.each([
    ["null", null, "must be an object (got null)"],
    ["a number", 5, "must be an object (got number)"],
    ["a string", "x", "must be an object (got string)"],
    ["an array", [], "must be an object (got an array)"],
    ["undefined", undefined, "must be an object (got undefined)"],
  ])("rejects %s at the root path", (_label, value, reason) => {
    expect(issuesOf(value)).toEqual([{ path: "", reason }]);
  });
});
