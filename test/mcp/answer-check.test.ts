import { describe, expect, it } from "vitest";
import { answerProblem, boundedIssues, responseInvalid, toolResultProblem } from "../../src/mcp/answer-check.js";
import type { JsonRpcResponse } from "../../src/mcp/json-rpc.js";
import { MAX_JSON_DEPTH, TOO_DEEP_REASON } from "../../src/validation/json-depth.js";
import { nestedArrays } from "../validation/support/nested-arrays.js";

describe("answerProblem", () => {
  it("accepts a well-formed success or failure", () => {
    expect(answerProblem({ jsonrpc: "2.0", id: 1, result: { content: [] } })).toBeUndefined();
    expect(answerProblem({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "busy" } })).toBeUndefined();
  });

  it("refuses an error member that is not an object with a finite numeric code, under the root it is given", () => {
    for (const error of [
      null,
      "busy",
      [],
      { code: "-32000", message: "busy" },
      { message: "no code" },
      { code: Number.NaN },
    ])
      expect(answerProblem({ jsonrpc: "2.0", id: 1, error } as unknown as JsonRpcResponse, "reply")).toEqual({
        path: "reply.error",
        reason: "must be a JSON-RPC error object with a numeric code",
      });
  });

  it("names the place an answer nests past the bound, before looking at its error member", () => {
    const deep = {
      jsonrpc: "2.0",
      id: 1,
      result: { items: nestedArrays(MAX_JSON_DEPTH) },
    } as unknown as JsonRpcResponse;
    const problem = answerProblem(deep);
    expect(problem?.reason).toBe(TOO_DEEP_REASON);
    expect(problem?.path.startsWith("answer.result.items[0][0]")).toBe(true);
    const justWithin = {
      jsonrpc: "2.0",
      id: 1,
      result: { items: nestedArrays(MAX_JSON_DEPTH - 2) },
    } as unknown as JsonRpcResponse;
    expect(answerProblem(justWithin)).toBeUndefined();
  });
});

describe("toolResultProblem", () => {
  it("names places under the root it is given, and reads a result without content as readable", () => {
    expect(toolResultProblem({ content: [{ type: "text", text: 1 }] }, "r")).toEqual({
      path: "r.content[0].text",
      reason: "must be a string in a text item, not a number",
    });
    expect(toolResultProblem({ isError: true })).toBeUndefined();
    expect(toolResultProblem({ content: [{ type: "image", data: 5 }, { type: "audio" }] })).toBeUndefined();
  });
});

describe("boundedIssues", () => {
  it("keeps at most 50 issues, the first ones", () => {
    const issues = Array.from({ length: 80 }, (_, i) => ({ path: `p${i}`, reason: "is required" }));
    expect(boundedIssues(issues)).toEqual(issues.slice(0, 50));
  });

  it("cuts each path and reason to 256 bytes and stops before the whole passes 16 KiB", () => {
    const issues = Array.from({ length: 50 }, (_, i) => ({
      path: `p${i}.${"x".repeat(300)}`,
      reason: "é".repeat(200),
    }));
    const shown = boundedIssues(issues);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(50);
    expect(shown[0]!.path.startsWith("p0.")).toBe(true);
    for (const issue of shown) {
      expect(Buffer.byteLength(issue.path)).toBeLessThanOrEqual(256);
      expect(Buffer.byteLength(issue.reason)).toBeLessThanOrEqual(256);
      expect(issue.reason.endsWith("…")).toBe(true);
    }
    expect(Buffer.byteLength(JSON.stringify({ kind: "responseValidation", issues: shown }))).toBeLessThanOrEqual(
      16 * 1024,
    );
  });

  it("keeps short issues as they are", () => {
    expect(boundedIssues([{ path: "a", reason: "is required" }])).toEqual([{ path: "a", reason: "is required" }]);
  });
});

describe("responseInvalid", () => {
  const issues = [
    { path: "", reason: "must be an object" },
    { path: "a", reason: "r1" },
    { path: "b", reason: "r2" },
    { path: "c", reason: "r3" },
  ];

  it("is a postDispatch response.invalid naming the first three issues, all of them in the details", () => {
    const error = responseInvalid("browser.observe", issues, false);
    expect(error).toEqual({
      code: "response.invalid",
      message:
        "the daemon's answer to browser.observe does not match the protocol: response: must be an object; a: r1; b: r2",
      phase: "postDispatch",
      mutationPossible: false,
      retry: { classification: "unknown", recommendedOperation: "inspect_page" },
      details: { kind: "responseValidation", issues },
    });
  });

  it("says the action may have happened for a mutation, and keeps that within the 512-byte message", () => {
    const long = [{ path: "x".repeat(250), reason: "é".repeat(120) }, ...issues];
    const error = responseInvalid("browser.click", long, true);
    expect(error.mutationPossible).toBe(true);
    expect(error.retry).toEqual({ classification: "safeAfterReobserve", recommendedOperation: "inspect_page" });
    expect(error.message.endsWith("; the action may have happened — observe before deciding")).toBe(true);
    expect(Buffer.byteLength(error.message)).toBeLessThanOrEqual(512);
  });
});
