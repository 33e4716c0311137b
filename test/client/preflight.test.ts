import { describe, expect, it } from "vitest";
import { operationValidators } from "../../generated/validators/by-operation.js";
import { preflightPayload as preflightWith } from "../../src/client/preflight.js";

/** The preflight as the client runs it: with the operation's validators from the catalog. */
const preflightPayload = (operation: string, payload: unknown) =>
  preflightWith(operation, payload, operationValidators(operation));

const task = {
  schemaVersion: 1,
  task: "form.fill",
  scope: { regionName: "Loans", entityKind: "form" },
  inputs: { Email: "ada@example.com" },
  limits: { maxActions: 2, timeoutMs: 1000, maxItems: 1 },
  risk: "localMutation",
};
const fixRequest = { classification: "notRetryable", recommendedOperation: "fix_request" };

describe("preflightPayload: operations that drive the browser", () => {
  it("lets a valid payload go, and any payload of an operation outside the catalog", () => {
    expect(preflightPayload("browser.click", { target: "ref=1" })).toBeUndefined();
    expect(preflightPayload("task.validate", { task })).toBeUndefined();
    expect(preflightPayload("vendor.operation", 5)).toBeUndefined();
  });

  it("fails an invalid payload with payload.invalid, nothing sent, to be fixed rather than retried", () => {
    expect(preflightPayload("browser.click", {})).toEqual({
      code: "payload.invalid",
      message: "the payload does not match browser.click: target: is required",
      phase: "preflight",
      mutationPossible: false,
      retry: fixRequest,
      details: { kind: "payloadValidation", issues: [{ path: "target", reason: "is required" }] },
    });
  });

  it("names three issues in the message and counts the rest, with all of them in the details", () => {
    const error = preflightPayload("browser.click", { target: 5, a: 1, b: 2, c: 3, d: 4 });
    expect(error?.message).toMatch(/^the payload does not match browser\.click: a: .*; b: .*; c: .* \(and 2 more\)$/);
    expect((error?.details as { issues?: unknown[] } | undefined)?.issues).toHaveLength(5);
  });

  it("hints to leave a field out rather than send null", () => {
    expect(preflightPayload("browser.click", { target: null })?.message).toBe(
      "the payload does not match browser.click: target: must be a string (got null); leave an absent optional field out rather than sending null",
    );
  });
});

describe("preflightPayload: browser-free operations fail as the daemon fails them", () => {
  it("reports a semantic rule's failure in the daemon's words, with its first issue as details", () => {
    const reason = "form.fill requires at least one bounded input";
    const error = preflightPayload("task.compile", { task: { ...task, inputs: {} }, ir: {} });
    expect(error?.code).toBe("task.invalid");
    expect(error?.phase).toBe("preflight");
    expect(error?.message).toBe(reason);
    expect(error?.details).toEqual({ kind: "taskCompilation", path: "inputs", reason });
  });

  it("says where a structural issue is, since its reason alone does not", () => {
    expect(preflightPayload("task.validate", { task: { ...task, inputs: [] } })).toMatchObject({
      code: "task.invalid",
      message: "inputs: must be an object (got an array)",
      details: { kind: "taskValidation", path: "inputs", reason: "must be an object (got an array)" },
    });
    expect(preflightPayload("webIr.inspect", { ir: { schemaVersion: 1 } })).toMatchObject({
      code: "webIr.invalid",
      message: "Web IR validation failed: revision: is required",
      details: { kind: "webIrValidation", path: "revision", reason: "is required" },
    });
  });

  it("blames the IR of task.compile when the task is valid and the IR is not", () => {
    expect(preflightPayload("task.compile", { task, ir: { schemaVersion: 1 } })).toMatchObject({
      code: "webIr.invalid",
      details: { kind: "webIrValidation", path: "revision" },
    });
  });

  it("names the whole IR as ir when it is not an object at all", () => {
    expect(preflightPayload("webIr.diff", { before: 1 })?.message).toBe(
      "Web IR validation failed: ir: must be an object (got number)",
    );
  });
});
