/**
 * `createRequest` builds a version 1 request envelope, validates it, and throws a GlassError
 * (`request.invalid`, `details.issues`) for an invalid one — without ever putting the lease token
 * in the error's message.
 */
import { describe, it, expect } from "vitest";
import { createRequest, GlassError, validateRequest } from "glass-sdk";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Issue = { path: string; reason: string };

/** Runs `build`, expecting it to throw a GlassError, and returns that error. */
function thrownBy(build: () => unknown): GlassError {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeDefined();
  expect(caught).toBeInstanceOf(GlassError);
  return caught as GlassError;
}

function issuesOf(error: GlassError): Issue[] {
  const details = error.details as { kind?: string; issues?: Issue[] };
  expect(Array.isArray(details.issues)).toBe(true);
  return details.issues ?? [];
}

/** Every text of an error a log line or a crash report might show. */
function everyTextOf(error: GlassError): string[] {
  return [
    error.message,
    error.rawMessage,
    String(error),
    error.stack ?? "",
    JSON.stringify(error.toJSON()),
    JSON.stringify(error),
  ];
}

describe("createRequest: building", () => {
  it("builds a request that validateRequest accepts", () => {
    const request = createRequest("browser.click", { target: "#go" });
    expect(validateRequest(request).ok).toBe(true);
    expect(request).toMatchObject({ protocolVersion: 1, operation: "browser.click", payload: { target: "#go" } });
  });

  it("includes only protocolVersion, requestId, operation and payload when no options are given", () => {
    const request = createRequest("webIr.validate", { ir: {} } as never);
    expect(Object.keys(request).sort()).toEqual(["operation", "payload", "protocolVersion", "requestId"]);
  });

  it("gives a fresh version-4 UUID requestId to each of 1000 calls, all distinct", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const { requestId } = createRequest("browser.scroll", {});
      expect(requestId).toMatch(UUID_V4);
      ids.add(requestId);
    }
    expect(ids.size).toBe(1000);
  });

  it("preserves a given requestId", () => {
    expect(createRequest("browser.scroll", {}, { requestId: "r-12" }).requestId).toBe("r-12");
    expect(createRequest("browser.scroll", {}, { requestId: "café-猫" }).requestId).toBe("café-猫");
  });

  it.each([
    ["correlationId", { correlationId: "run-7" }],
    ["sessionId", { sessionId: "session-1" }],
    ["mutationLease", { mutationLease: { sessionId: "session-1", token: "lease-token-1" } }],
    ["deadlineMs", { deadlineMs: 30_000 }],
  ])("includes %s only when given", (field, options) => {
    const with_ = createRequest("browser.click", { target: "#go" }, options) as unknown as Record<string, unknown>;
    expect(with_[field]).toEqual((options as Record<string, unknown>)[field]);
    const without = createRequest("browser.click", { target: "#go" }) as unknown as Record<string, unknown>;
    expect(field in without).toBe(false);
  });

  it("leaves out options given as undefined (no undefined fields in the envelope)", () => {
    const request = createRequest(
      "browser.click",
      { target: "#go" },
      {
        correlationId: undefined,
        sessionId: undefined,
        mutationLease: undefined,
        deadlineMs: undefined,
        requestId: undefined,
      },
    );
    expect(Object.keys(request).sort()).toEqual(["operation", "payload", "protocolVersion", "requestId"]);
    expect(request.requestId).toMatch(UUID_V4);
  });

  it("includes every option together and the result is valid", () => {
    const request = createRequest(
      "browser.click",
      { target: "#go", expectedRevision: 4 },
      {
        requestId: "r-1",
        correlationId: "run-7",
        sessionId: "session-1",
        mutationLease: { sessionId: "session-1", token: "lease-token-1" },
        deadlineMs: 900_000,
      },
    );
    expect(request).toEqual({
      protocolVersion: 1,
      requestId: "r-1",
      correlationId: "run-7",
      sessionId: "session-1",
      mutationLease: { sessionId: "session-1", token: "lease-token-1" },
      operation: "browser.click",
      payload: { target: "#go", expectedRevision: 4 },
      deadlineMs: 900_000,
    });
    expect(validateRequest(request).ok).toBe(true);
  });

  it("accepts a mutationLease without a top-level sessionId", () => {
    const request = createRequest(
      "browser.click",
      { target: "#go" },
      { mutationLease: { sessionId: "s", token: "t" } },
    );
    expect("sessionId" in request).toBe(false);
  });

  it("builds requests for operations outside the catalog with any JSON payload", () => {
    const request = createRequest("browser.project.read", [1, "two", null]);
    expect(request.payload).toEqual([1, "two", null]);
    expect(validateRequest(request).ok).toBe(true);
  });

  it("does not apply the catalog's payload rules (validatePayload does), so deliberately invalid payloads can be sent", () => {
    expect(() => createRequest("browser.click", {} as never)).not.toThrow();
  });
});

describe("createRequest: invalid envelopes throw GlassError request.invalid", () => {
  it("throws for deadlineMs 900001 with the issue at deadlineMs", () => {
    const error = thrownBy(() => createRequest("browser.click", { target: "#go" }, { deadlineMs: 900_001 }));
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("request.invalid");
    expect(issuesOf(error)).toEqual([{ path: "deadlineMs", reason: "must be at most 900000 (got 900001)" }]);
    expect(error.message).toContain("deadlineMs");
    expect(error.message).toContain("900000");
  });

  it("throws for deadlineMs 0 and 1.5", () => {
    expect(issuesOf(thrownBy(() => createRequest("browser.scroll", {}, { deadlineMs: 0 })))).toEqual([
      { path: "deadlineMs", reason: "must be at least 1 (got 0)" },
    ]);
    expect(issuesOf(thrownBy(() => createRequest("browser.scroll", {}, { deadlineMs: 1.5 })))).toEqual([
      { path: "deadlineMs", reason: "must be an integer (got number)" },
    ]);
  });

  it("throws for a sessionId that differs from mutationLease.sessionId, at sessionId", () => {
    const error = thrownBy(() =>
      createRequest(
        "browser.click",
        { target: "#go" },
        { sessionId: "session-1", mutationLease: { sessionId: "session-2", token: "lease-token-1" } },
      ),
    );
    expect(error.code).toBe("request.invalid");
    expect(issuesOf(error)).toEqual([
      {
        path: "sessionId",
        reason: "must equal mutationLease.sessionId (a mutation lease belongs to the session that acquired it)",
      },
    ]);
  });

  it("throws for an invalid requestId, correlationId or operation, with each path", () => {
    expect(
      issuesOf(thrownBy(() => createRequest("browser.scroll", {}, { requestId: "r 1" }))).map((issue) => issue.path),
    ).toEqual(["requestId"]);
    expect(issuesOf(thrownBy(() => createRequest("browser.scroll", {}, { correlationId: "猫".repeat(43) })))).toEqual([
      { path: "correlationId", reason: "must be at most 128 UTF-8 bytes (got 129)" },
    ]);
    expect(issuesOf(thrownBy(() => createRequest("browser scroll", {}))).map((issue) => issue.path)).toEqual([
      "operation",
    ]);
  });

  it("throws for a payload that is not JSON, at its path", () => {
    const error = thrownBy(() => createRequest("browser.project.read", { when: new Date(0) } as never));
    expect(issuesOf(error)).toEqual([
      { path: "payload.when", reason: "is a Date instance; only plain objects are JSON" },
    ]);
  });

  it("lists every issue in details.issues", () => {
    const error = thrownBy(() =>
      createRequest("browser.scroll", {}, { requestId: "", deadlineMs: 900_001, correlationId: "a b" }),
    );
    const paths = new Set(issuesOf(error).map((issue) => issue.path));
    expect([...paths].sort()).toEqual(["correlationId", "deadlineMs", "requestId"]);
  });

  it("carries the SDK's retry advice, the operation and the request id", () => {
    const error = thrownBy(() =>
      createRequest("browser.click", { target: "#go" }, { requestId: "r-9", deadlineMs: 0 }),
    );
    expect(error.retry).toEqual({ classification: "notRetryable", recommendedOperation: "fix_request" });
    expect(error.phase).toBe("preflight");
    expect(error.mutationPossible).toBe(false);
    expect(error.operation).toBe("browser.click");
    expect(error.requestId).toBe("r-9");
    expect((error.details as { kind: string }).kind).toBe("requestValidation");
  });
});

describe("createRequest: the lease token never appears in the error's text", () => {
  it("an invalid token (with a space) is reported at mutationLease.token, but its value is nowhere in the error's text", () => {
    const token = "tok en-SECRET-0f3a9c";
    const error = thrownBy(() =>
      createRequest("browser.click", { target: "#go" }, { sessionId: "s1", mutationLease: { sessionId: "s1", token } }),
    );
    expect(issuesOf(error).map((issue) => issue.path)).toEqual(["mutationLease.token"]);
    for (const text of everyTextOf(error)) {
      expect(text).not.toContain(token);
      expect(text).not.toContain("SECRET-0f3a9c");
    }
  });

  it("an over-long token (129 bytes) is reported without its value", () => {
    const token = `SECRET${"猫".repeat(41)}`;
    const error = thrownBy(() =>
      createRequest("browser.click", { target: "#go" }, { mutationLease: { sessionId: "s1", token } }),
    );
    expect(issuesOf(error)).toEqual([
      { path: "mutationLease.token", reason: "must be at most 128 UTF-8 bytes (got 129)" },
    ]);
    for (const text of everyTextOf(error)) expect(text).not.toContain(token);
  });

  it("a valid token combined with another error (deadlineMs) is not in the message", () => {
    const token = "lease-SECRET-7d41e2b9";
    const error = thrownBy(() =>
      createRequest(
        "browser.click",
        { target: "#go" },
        { sessionId: "s1", mutationLease: { sessionId: "s1", token }, deadlineMs: 900_001 },
      ),
    );
    expect(issuesOf(error).map((issue) => issue.path)).toEqual(["deadlineMs"]);
    for (const text of everyTextOf(error)) expect(text).not.toContain(token);
  });

  it("a valid token combined with a session mismatch is not in the message", () => {
    const token = "lease-SECRET-aa01";
    const error = thrownBy(() =>
      createRequest("browser.click", { target: "#go" }, { sessionId: "s1", mutationLease: { sessionId: "s2", token } }),
    );
    expect(issuesOf(error).map((issue) => issue.path)).toEqual(["sessionId"]);
    for (const text of everyTextOf(error)) expect(text).not.toContain(token);
  });

  it("a token that also appears as a payload key with a bad value is redacted from the message", () => {
    const token = "lease-SECRET-key";
    const error = thrownBy(() =>
      createRequest("browser.project.read", { [token]: undefined } as never, {
        mutationLease: { sessionId: "s1", token },
      }),
    );
    expect(error.message).not.toContain(token);
    expect(error.message).toContain("[redacted]");
  });
});
