import { describe, expect, it } from "vitest";
import { liftToolResult } from "../../src/mcp/lift-tool-result.js";

describe("liftToolResult", () => {
  it("reads the first text item as plain text, never parsed, for an operation that answers in text", () => {
    expect(liftToolResult({ content: [{ type: "text", text: '{"a":1}' }] }, { resultText: true })).toEqual({
      text: '{"a":1}',
    });
    expect(liftToolResult({ content: [{ type: "text", text: "42" }] })).toEqual({ result: 42 });
    expect(liftToolResult({ content: [{ type: "text", text: "null" }] })).toEqual({ result: null });
  });

  it("takes the body from the first text item only: a second text is kept, in order, as extra content", () => {
    const second = { type: "text", text: '{"b":2}' };
    const resource = { type: "resource", resource: { uri: "file:///a" } };
    expect(liftToolResult({ content: [{ type: "text", text: '{"a":1}' }, resource, second] })).toEqual({
      a: 1,
      extraContent: [resource, second],
    });
  });

  it("falls back to structuredContent only when no text item came, and to {} when that is not an object", () => {
    expect(liftToolResult({ content: [], structuredContent: { tabs: 2 } })).toEqual({ tabs: 2 });
    expect(liftToolResult({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { tabs: 2 } })).toEqual({
      a: 1,
    });
    expect(liftToolResult({ structuredContent: [1, 2] })).toEqual({});
    expect(liftToolResult({ content: "not a list" })).toEqual({});
  });

  it("puts an image that comes before any text beside the body, and a second image in the extra content", () => {
    const first = { type: "image", data: "AAAA", mimeType: "image/png" };
    const second = { type: "image", data: "BBBB", mimeType: "image/jpeg" };
    expect(liftToolResult({ content: [first, { type: "text", text: '{"w":1}' }, second] })).toEqual({
      w: 1,
      image: { data: "AAAA", mimeType: "image/png" },
      extraContent: [second],
    });
  });

  it("leaves _meta out and gives a fresh object that does not share the structuredContent", () => {
    const structuredContent = { n: 1 };
    const body = liftToolResult({ content: [], structuredContent, _meta: { cost: 3 } });
    expect(body).toEqual({ n: 1 });
    body.n = 2;
    expect(structuredContent.n).toBe(1);
  });
});
