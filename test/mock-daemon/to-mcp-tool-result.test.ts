import { describe, expect, it } from "vitest";
import type { GlassResponse } from "../../src/envelope/envelope-types.js";
import { liftToolResult } from "../../src/mcp/lift-tool-result.js";
import { toMcpToolResult, toolFailure } from "../../src/mock-daemon/to-mcp-tool-result.js";

const ok = (result: unknown): GlassResponse =>
  ({ protocolVersion: 1, requestId: "r-1", ok: true, result }) as unknown as GlassResponse;

describe("toMcpToolResult: successes", () => {
  it("is read back by the client's lift as the result it was made from", () => {
    for (const result of [
      { revision: 3, items: [{ a: 1 }] },
      { result: ["x", "y"] },
      { result: 5, also: true },
      { width: 1, image: { data: "AAAA", mimeType: "image/png" }, extraContent: [{ type: "hologram", depth: 3 }] },
    ])
      expect(liftToolResult(toMcpToolResult(ok(result), { operation: "browser.observe" }) as never)).toEqual(result);
    const text = { text: "Hello" };
    expect(
      liftToolResult(toMcpToolResult(ok(text), { operation: "browser.getText" }) as never, { resultText: true }),
    ).toEqual(text);
  });

  it("sends a text member as JSON for an operation that does not answer in plain text", () => {
    expect(toMcpToolResult(ok({ text: "Hello" }), { operation: "browser.observe" }).content).toEqual([
      { type: "text", text: '{"text":"Hello"}' },
    ]);
    expect(toMcpToolResult(ok({ text: "Hello" })).content).toEqual([{ type: "text", text: '{"text":"Hello"}' }]);
  });
});

describe("toMcpToolResult: failures", () => {
  it("adds a trace item to a failure only when asked, naming the error code as its outcome", () => {
    const failed = {
      protocolVersion: 1,
      requestId: "r-1",
      ok: false,
      error: { code: "staleRevision", message: "stale" },
    } as unknown as GlassResponse;
    expect(toMcpToolResult(failed, { includeTrace: true }).content).toEqual([
      { type: "text", text: '{"code":"staleRevision","message":"stale"}' },
      { type: "text", text: '{"trace":[{"step":"replay","outcome":"staleRevision"}]}' },
    ]);
    expect(toMcpToolResult(failed).content).toHaveLength(1);
    expect(toolFailure("browser tool failed", "tool.failed", false)).toEqual({
      content: [{ type: "text", text: "browser tool failed" }],
      isError: true,
    });
  });
});
