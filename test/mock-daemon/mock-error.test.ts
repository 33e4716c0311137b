import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { createMockGlass, mockError, type MockError } from "glass-sdk/testing";
import type { JsonRpcMessage } from "../../src/mcp/json-rpc.js";

const open: Glass[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((glass) => glass.close()));
});

/** A mock whose click handler throws `error`. */
function failingClick(error: MockError) {
  return createMockGlass({
    handlers: {
      "browser.click": () => {
        throw error;
      },
    },
  });
}

/** What the mock daemon writes for a click whose handler throws `error`: the raw JSON-RPC answer. */
async function wireAnswer(error: MockError): Promise<JsonRpcMessage> {
  const transport = failingClick(error).transport();
  const answers: JsonRpcMessage[] = [];
  let deliver: (() => void) | undefined;
  await transport.start({
    onMessage: (message) => {
      answers.push(message);
      deliver?.();
    },
    onClose: () => {},
  });
  const next = (): Promise<JsonRpcMessage> =>
    new Promise((resolve) => {
      const take = (): void => {
        const message = answers.shift();
        if (message === undefined) return;
        deliver = undefined;
        resolve(message);
      };
      deliver = take;
      take();
    });
  await transport.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } },
  });
  await next();
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await transport.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "click", arguments: { target: "ref=1" } },
  });
  const answer = await next();
  await transport.close();
  return answer;
}

/** The GlassError the client lifts a click failing with `error` to. */
async function clientError(error: MockError): Promise<GlassError> {
  const glass = await Glass.connect(failingClick(error).transport());
  open.push(glass);
  const caught = await glass.browser.click({ target: "ref=1" }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(caught).toBeInstanceOf(GlassError);
  return caught as GlassError;
}

/** The text of a tool failure answer. */
function toolFailureText(answer: JsonRpcMessage): string {
  expect(answer).toMatchObject({ result: { isError: true } });
  const result = (answer as unknown as { result: { content: { type: string; text: string }[]; _meta?: unknown } })
    .result;
  expect(result._meta).toBeUndefined();
  return result.content[0]!.text;
}

describe("mockError: lease codes are the JSON-RPC error -32003 with data.details (§2)", () => {
  const cases = [
    { code: "leaseHeld", retryable: true, classification: "safeAfterReobserve", recommended: "acquire_lease" },
    { code: "leaseExpired", retryable: true, classification: "safeAfterReobserve", recommended: "acquire_lease" },
    { code: "leaseNotFound", retryable: true, classification: "safeAfterReobserve", recommended: "acquire_lease" },
    { code: "leaseNotOwner", retryable: false, classification: "notRetryable", recommended: "acquire_lease" },
    { code: "invalidLease", retryable: false, classification: "notRetryable", recommended: "fix_request" },
  ] as const;

  for (const { code, retryable, classification, recommended } of cases) {
    it(`${code}: -32003 with details {code, retryable: ${retryable}}, lifted to ${code}`, async () => {
      const answer = await wireAnswer(mockError(code, `the lease says ${code}`));
      expect(answer).toEqual({
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: -32003,
          message: `the lease says ${code}`,
          data: {
            code: "policy.mutationLease",
            phase: "preflight",
            message: `the lease says ${code}`,
            mutationPossible: false,
            retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
            details: { code, retryable },
          },
        },
      });
      const error = await clientError(mockError(code, `the lease says ${code}`));
      expect({
        code: error.code,
        phase: error.phase,
        mutationPossible: error.mutationPossible,
        retry: error.retry,
        retryable: error.retryable,
      }).toEqual({
        code,
        phase: "preflight",
        mutationPossible: false,
        retry: { classification, recommendedOperation: recommended },
        retryable,
      });
    });
  }

  it("leaseRequired: -32003 with details null, lifted to leaseRequired (safe to send again once the lease is held)", async () => {
    const answer = await wireAnswer(mockError("leaseRequired", "mutation lease required"));
    expect(answer).toMatchObject({
      error: {
        code: -32003,
        message: "mutation lease required",
        data: { code: "policy.mutationLease", details: null },
      },
    });
    const error = await clientError(mockError("leaseRequired", "mutation lease required"));
    expect(error.code).toBe("leaseRequired");
    expect(error.retry).toEqual({ classification: "safeImmediate", recommendedOperation: "acquire_lease" });
  });
});

describe("mockError: other failures are isError tool results, as the daemon sends them (§2)", () => {
  it("tool.failed: the bare text `browser tool failed` (the message dropped), lifted to an opaque tool.failed", async () => {
    expect(toolFailureText(await wireAnswer(mockError("tool.failed", "target must be a string")))).toBe(
      "browser tool failed",
    );
    const error = await clientError(mockError("tool.failed", "target must be a string"));
    expect(error.code).toBe("tool.failed");
    expect(error.retry.classification).toBe("notRetryable");
    // A click failing without a typed error may have clicked: the client says so.
    expect(error.mutationPossible).toBe(true);
    expect(error.phase).toBe("dispatch");
  });

  it("staleRevision with known revisions: the daemon's revision guard {kind: stale_revision, ...}, lifted to staleRevision with the default advice", async () => {
    const message = "expected revision 3 but the page is at revision 4; observe again before acting";
    const refusal = {
      kind: "stale_revision",
      phase: "preflight",
      recoveryStrategy: "report",
      expectedRevision: 3,
      currentRevision: 4,
      recovery: "observe",
    };
    expect(JSON.parse(toolFailureText(await wireAnswer(mockError("staleRevision", message))))).toEqual(refusal);
    expect(
      JSON.parse(
        toolFailureText(
          await wireAnswer(
            mockError("staleRevision", "the page moved on", { details: { expectedRevision: 3, currentRevision: 4 } }),
          ),
        ),
      ),
    ).toEqual(refusal);
    const error = await clientError(mockError("staleRevision", message));
    expect(error.rawMessage).toBe(message);
    expect(error.details).toEqual(refusal);
    expect({
      code: error.code,
      phase: error.phase,
      mutationPossible: error.mutationPossible,
      retry: error.retry,
      retryable: error.retryable,
    }).toEqual({
      code: "staleRevision",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      retryable: true,
    });
  });

  it("staleRevision without known revisions: the older daemons' text {code, message, retryable: true}, lifted the same way", async () => {
    const message = "the page changed since revision 3";
    expect(JSON.parse(toolFailureText(await wireAnswer(mockError("staleRevision", message))))).toEqual({
      code: "staleRevision",
      message,
      retryable: true,
    });
    const error = await clientError(mockError("staleRevision", message));
    expect({
      code: error.code,
      phase: error.phase,
      mutationPossible: error.mutationPossible,
      retry: error.retry,
      retryable: error.retryable,
    }).toEqual({
      code: "staleRevision",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      retryable: true,
    });
  });

  it("another code: the text is the whole error object, lifted with its phase, mutationPossible, retry and details", async () => {
    const failure = mockError("target.notFound", "no element matches ref=1", {
      phase: "dispatch",
      mutationPossible: true,
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
      details: { target: "ref=1" },
    });
    expect(JSON.parse(toolFailureText(await wireAnswer(failure)))).toEqual({
      code: "target.notFound",
      message: "no element matches ref=1",
      phase: "dispatch",
      mutationPossible: true,
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
      details: { target: "ref=1" },
    });
    const error = await clientError(failure);
    expect({
      code: error.code,
      phase: error.phase,
      mutationPossible: error.mutationPossible,
      retry: error.retry,
      details: error.details,
    }).toEqual({
      code: "target.notFound",
      phase: "dispatch",
      mutationPossible: true,
      retry: { classification: "unsafeUntilReconciled", recommendedOperation: "inspect_page" },
      details: { target: "ref=1" },
    });
  });

  it("another code without init: the protocol's defaults, nothing mutated", async () => {
    const error = await clientError(mockError("target.ambiguous", "two elements match"));
    expect({
      code: error.code,
      phase: error.phase,
      mutationPossible: error.mutationPossible,
      retry: error.retry,
    }).toEqual({
      code: "target.ambiguous",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    });
  });

  it("policy.denied and policy.confirmation_required: the policy refusal {kind, message}, lifted to policy.<kind>", async () => {
    expect(
      JSON.parse(toolFailureText(await wireAnswer(mockError("policy.denied", "payments are off limits")))),
    ).toEqual({ kind: "denied", message: "payments are off limits" });
    const denied = await clientError(mockError("policy.denied", "payments are off limits"));
    expect({
      code: denied.code,
      message: denied.rawMessage,
      mutationPossible: denied.mutationPossible,
      classification: denied.retry.classification,
    }).toEqual({
      code: "policy.denied",
      message: "payments are off limits",
      mutationPossible: false,
      classification: "notRetryable",
    });
    const confirm = await clientError(mockError("policy.confirmation_required", "confirm the purchase"));
    expect(confirm.code).toBe("policy.confirmation_required");
    expect(confirm.retry.classification).toBe("requiresUserDecision");
  });

  it("task.invalid with a document failure: the text is the details {kind, path, reason}, lifted to task.invalid", async () => {
    const details = { kind: "taskValidation", path: "inputs", reason: "form.fill requires at least one bounded input" };
    const failure = mockError("task.invalid", "form.fill requires at least one bounded input", { details });
    expect(JSON.parse(toolFailureText(await wireAnswer(failure)))).toEqual(details);
    const error = await clientError(failure);
    expect({ code: error.code, phase: error.phase, details: error.details }).toEqual({
      code: "task.invalid",
      phase: "preflight",
      details,
    });
  });
});
