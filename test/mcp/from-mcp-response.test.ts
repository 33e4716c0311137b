import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GlassError } from "glass-sdk";
import { fromMcpResponse, type JsonRpcResponse } from "glass-sdk/protocol";
import { leased } from "./support/leased-request.js";

describe("fromMcpResponse", () => {
  const click = leased("browser.click", { target: "ref=1" });
  const observe = leased("browser.observe", {});
  const answer = (result: Record<string, unknown>): JsonRpcResponse => ({ jsonrpc: "2.0", id: "r-1", result });
  const failure = (code: number, message: string, data?: unknown): JsonRpcResponse => ({
    jsonrpc: "2.0",
    id: "r-1",
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });

  it("parses the text content as the typed result and echoes the request and correlation ids", () => {
    expect(
      fromMcpResponse(
        answer({
          content: [{ type: "text", text: '{"revision":7}' }],
          _meta: { contextCost: { payloadBytes: 14, estimatedTokens: 4 } },
        }),
        observe,
      ),
    ).toEqual({
      protocolVersion: 1,
      requestId: "r-1",
      correlationId: "c-1",
      ok: true,
      result: { revision: 7 },
    });
  });

  it("lifts text that is not JSON to {text}, and JSON that is not an object to {result}", () => {
    expect(fromMcpResponse(answer({ content: [{ type: "text", text: "done" }] }), observe)).toMatchObject({
      ok: true,
      result: { text: "done" },
    });
    expect(fromMcpResponse(answer({ content: [{ type: "text", text: "[1,2]" }] }), observe)).toMatchObject({
      ok: true,
      result: { result: [1, 2] },
    });
    expect(fromMcpResponse(answer({ content: [] }), observe)).toMatchObject({ ok: true, result: {} });
  });

  it("fails a tools/call result that is not {content: [...]} with response.invalid naming what is wrong, mutationPossible for a mutation", () => {
    const raw = (result: unknown): JsonRpcResponse => ({ jsonrpc: "2.0", id: "r-1", result }) as JsonRpcResponse;
    const cases: [unknown, string, string][] = [
      [5, "answer.result", "must be a tools/call result object ({content: [...]}), not a number"],
      [undefined, "answer.result", "must be a tools/call result object ({content: [...]}), not missing"],
      [{ content: "not an array" }, "answer.result.content", "must be an array of content items, not a string"],
      [
        { content: [{ type: "text", text: "{}" }, 7] },
        "answer.result.content[1]",
        "must be a content item object, not a number",
      ],
      [{ content: [null] }, "answer.result.content[0]", "must be a content item object, not null"],
      [
        { content: [{ type: "text", text: 7 }] },
        "answer.result.content[0].text",
        "must be a string in a text item, not a number",
      ],
      [
        { isError: true, content: [{ type: "text" }] },
        "answer.result.content[0].text",
        "must be a string in a text item, not missing",
      ],
      [{ isError: true, content: {} }, "answer.result.content", "must be an array of content items, not an object"],
    ];
    for (const [result, path, reason] of cases) {
      const mutation = fromMcpResponse(raw(result), click);
      expect(mutation, JSON.stringify(result)).toMatchObject({
        ok: false,
        requestId: "r-1",
        error: {
          code: "response.invalid",
          phase: "postDispatch",
          mutationPossible: true,
          retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
          details: { kind: "responseValidation", issues: [{ path, reason }] },
        },
      });
      expect(mutation.ok ? "" : mutation.error.message).toContain(path);
      expect(fromMcpResponse(raw(result), observe)).toMatchObject({
        ok: false,
        error: { code: "response.invalid", mutationPossible: false, retry: { classification: "unknown" } },
      });
    }
  });

  it("stays as lenient as MCP servers need: empty content, no content, structuredContent, images and unknown item types", () => {
    expect(fromMcpResponse(answer({}), click)).toMatchObject({ ok: true, result: {} });
    expect(fromMcpResponse(answer({ content: [], structuredContent: { ready: true } }), observe)).toMatchObject({
      ok: true,
      result: { ready: true },
    });
    expect(fromMcpResponse(answer({ isError: true, content: [] }), click)).toMatchObject({
      ok: false,
      error: { code: "tool.failed", mutationPossible: true },
    });
    const others = [
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "hologram", depth: 3 },
      { type: "image", data: 5 },
    ];
    expect(
      fromMcpResponse(
        answer({
          content: [
            { type: "text", text: '{"a":1}' },
            { type: "image", data: "iVBO", mimeType: "image/png" },
            ...others,
          ],
        }),
        observe,
      ),
    ).toEqual(
      expect.objectContaining({
        ok: true,
        result: { a: 1, image: { data: "iVBO", mimeType: "image/png" }, extraContent: others },
      }),
    );
  });

  it("keeps a failure's rawMessage within 512 bytes after control characters are written out: a 5 MiB isError text of terminal escapes, a typed error's message and a JSON-RPC error's", () => {
    const escapes = "\u001b[31mred\u001b[0m\r\u009b2J\u202e".repeat(280_000);
    expect(Buffer.byteLength(escapes)).toBeGreaterThan(5 * 1024 * 1024);
    const texts = [
      escapes,
      JSON.stringify({ message: escapes }),
      JSON.stringify({ code: "staleRevision", message: escapes.slice(0, 600), retryable: true }),
    ];
    for (const text of texts) {
      const lifted = fromMcpResponse(answer({ isError: true, content: [{ type: "text", text }] }), click);
      if (lifted.ok) throw new Error("expected a failure");
      const error = new GlassError(lifted.error);
      expect(Buffer.byteLength(error.rawMessage)).toBeLessThanOrEqual(512);
      expect(Buffer.byteLength(lifted.error.message)).toBeLessThanOrEqual(512);
      expect(error.rawMessage).not.toMatch(/[\u001b\r\u009b\u202e]/);
    }
    // A JSON-RPC error within the protocol's 512 bytes until its escapes are written out.
    for (const code of [-32000, -32001, -32603]) {
      const lifted = fromMcpResponse(
        {
          jsonrpc: "2.0",
          id: "r-1",
          error: { code, message: "\u001b[2J".repeat(120), data: { code: "leaseRequired" } },
        },
        click,
      );
      if (lifted.ok) throw new Error("expected a failure");
      expect(Buffer.byteLength(new GlassError(lifted.error).rawMessage)).toBeLessThanOrEqual(512);
    }
  });

  it("keeps any isError text's rawMessage within 512 bytes, whatever control characters it holds (generated)", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom("\u2028", "\u202e", "é", "😀"),
    );
    fc.assert(
      fc.property(fc.string({ unit, minLength: 80, maxLength: 3000 }), (text) => {
        const lifted = fromMcpResponse(answer({ isError: true, content: [{ type: "text", text }] }), observe);
        if (lifted.ok) throw new Error("expected a failure");
        expect(Buffer.byteLength(new GlassError(lifted.error).rawMessage)).toBeLessThanOrEqual(512);
      }),
      { numRuns: 300 },
    );
  });

  it("lifts browser-free validation failures to task.invalid and webIr.invalid", () => {
    const task = fromMcpResponse(
      answer({
        isError: true,
        content: [
          {
            type: "text",
            text: '{"kind":"taskValidation","path":"inputs","reason":"form.fill requires at least one bounded input"}',
          },
        ],
      }),
      observe,
    );
    expect(task).toMatchObject({
      ok: false,
      error: {
        code: "task.invalid",
        phase: "preflight",
        message: "form.fill requires at least one bounded input",
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        details: { kind: "taskValidation", path: "inputs", reason: "form.fill requires at least one bounded input" },
      },
    });
    const ir = fromMcpResponse(
      answer({
        isError: true,
        content: [{ type: "text", text: '{"kind":"webIrValidation","path":"entities","reason":"bad"}' }],
      }),
      observe,
    );
    expect(ir).toMatchObject({
      ok: false,
      error: { code: "webIr.invalid", message: "Web IR validation failed", details: { path: "entities" } },
    });
  });

  it("passes typed errors through, lifts policy refusals, and treats plain text as a tool failure", () => {
    expect(
      fromMcpResponse(
        answer({
          isError: true,
          content: [{ type: "text", text: '{"code":"staleRevision","message":"stale","retryable":true}' }],
        }),
        click,
      ),
    ).toMatchObject({
      error: { code: "staleRevision", message: "stale", retryable: true },
    });
    expect(
      fromMcpResponse(
        answer({ isError: true, content: [{ type: "text", text: '{"kind":"denied","reason":"blocked by policy"}' }] }),
        click,
      ),
    ).toMatchObject({
      error: { code: "policy.denied", message: "blocked by policy", mutationPossible: false },
    });
    expect(
      fromMcpResponse(answer({ isError: true, content: [{ type: "text", text: "CDP connection reset" }] }), click),
    ).toMatchObject({
      error: { code: "tool.failed", message: "CDP connection reset", mutationPossible: true, phase: "dispatch" },
    });
    expect(
      fromMcpResponse(answer({ isError: true, content: [{ type: "text", text: "element not found" }] }), observe),
    ).toMatchObject({
      error: { code: "tool.failed", mutationPossible: false },
    });
  });

  it("lifts the daemon's own browser errors, which carry a snake_case kind and no code (glass-browser 0.3.14's exact texts)", () => {
    const lift = (text: string, request = click) =>
      fromMcpResponse(answer({ isError: true, content: [{ type: "text", text }] }), request);
    const stale =
      '{"kind":"stale_revision","phase":"preflight","recoveryStrategy":"report","executionId":"act_2","expectedRevision":13,"currentRevision":14,"recovery":"observe"}';
    expect(lift(stale)).toMatchObject({
      ok: false,
      error: {
        code: "staleRevision",
        phase: "preflight",
        message: "expected revision 13 but the page is at revision 14; observe again before acting",
        mutationPossible: false,
        retryable: true,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        details: JSON.parse(stale),
      },
    });
    const staleRef =
      '{"kind":"stale_reference","failureKind":"stale_revision","recovery":{"suggestion":"reconcileReferences","fromRevision":13,"staleRef":"r13:c96acd5dd-b0d7-42f6-9052-d863cbfa7e16:b26"}}';
    expect(lift(staleRef)).toMatchObject({
      error: {
        code: "target.staleReference",
        phase: "preflight",
        mutationPossible: false,
        message: expect.stringContaining("reconcileReferences"),
        details: JSON.parse(staleRef),
      },
    });
    expect(lift('{"kind":"not_found","failureKind":"target_not_found"}')).toMatchObject({
      error: { code: "target.notFound", mutationPossible: false },
    });
    expect(lift('{"kind":"ambiguous","failureKind":"ambiguous_target","candidates":[]}')).toMatchObject({
      error: { code: "target.ambiguous", mutationPossible: false },
    });
    expect(lift('{"kind":"not_actionable","failureKind":"verification_failed","reason":"hidden"}')).toMatchObject({
      error: { code: "target.notActionable", mutationPossible: false },
    });
    const wait =
      '{"condition":"text","deadline_ms":400,"last_state":"present=false","observed_page":{"url":"http://127.0.0.1/lab"},"reason":"deadline_exceeded"}';
    expect(lift(wait)).toMatchObject({
      error: {
        code: "wait.timeout",
        phase: "preflight",
        mutationPossible: false,
        message: "the text condition did not hold within 400 ms (last state: present=false)",
      },
    });
    const verification =
      '{"kind":"verification_failed","action":"click","phase":"verification","recoveryStrategy":"report","executionId":"act_3","revision":5,"reason":"url did not change"}';
    expect(lift(verification)).toMatchObject({
      error: {
        code: "verification.failed",
        phase: "verification",
        mutationPossible: true,
        message: "the action ran but its verification failed: url did not change",
      },
    });
    const cdp = '{"kind":"transport","code":-32000,"message":"CDP connection task is unavailable","data":null}';
    expect(lift(cdp)).toMatchObject({
      error: {
        code: "browser.transport",
        phase: "dispatch",
        message: "CDP connection task is unavailable",
        mutationPossible: true,
        details: JSON.parse(cdp),
      },
    });
    expect(lift(cdp, observe)).toMatchObject({
      error: { code: "browser.transport", phase: "preflight", mutationPossible: false },
    });
    // a kind the SDK does not know stays an untyped tool failure, its text the message
    expect(lift('{"kind":"popup_missing","message":"no popup opened"}')).toMatchObject({
      error: { code: "tool.failed", message: "no popup opened", mutationPossible: true },
    });
  });

  it("maps every JSON-RPC error code of the table, with the lease code from data.details (or an older daemon's data.code)", () => {
    const codes = (response: JsonRpcResponse, request = click) => {
      const mapped = fromMcpResponse(response, request);
      return mapped.ok ? undefined : { code: mapped.error.code, mutationPossible: mapped.error.mutationPossible };
    };
    expect(codes(failure(-32700, "parse error"))).toEqual({ code: "mcp.parseError", mutationPossible: false });
    expect(codes(failure(-32600, "duplicate id"))).toEqual({ code: "mcp.invalidRequest", mutationPossible: false });
    expect(codes(failure(-32601, "no such method"))).toEqual({ code: "mcp.methodNotFound", mutationPossible: false });
    expect(codes(failure(-32602, "bad params"))).toEqual({ code: "mcp.invalidParams", mutationPossible: false });
    expect(codes(failure(-32603, "internal"))).toEqual({ code: "mcp.internalError", mutationPossible: true });
    expect(codes(failure(-32603, "internal"), observe)).toEqual({ code: "mcp.internalError", mutationPossible: false });
    expect(codes(failure(-32002, "not initialized"))).toEqual({ code: "notInitialized", mutationPossible: false });
    expect(codes(failure(-32003, "mutation lease required"))).toEqual({
      code: "leaseRequired",
      mutationPossible: false,
    });
    expect(codes(failure(-32003, "mutation lease required", { code: "policy.mutationLease", details: null }))).toEqual({
      code: "leaseRequired",
      mutationPossible: false,
    });
    expect(
      codes(failure(-32003, "held", { code: "policy.mutationLease", details: { code: "leaseHeld", retryable: true } })),
    ).toEqual({ code: "leaseHeld", mutationPossible: false });
    expect(codes(failure(-32003, "held", { code: "leaseHeld", retryable: true }))).toEqual({
      code: "leaseHeld",
      mutationPossible: false,
    });
    expect(codes(failure(-32001, "response too large"))).toEqual({ code: "response.tooLarge", mutationPossible: true });
    expect(codes(failure(-32001, "response too large"), observe)).toEqual({
      code: "response.tooLarge",
      mutationPossible: false,
    });
    expect(codes(failure(-32000, "overloaded"))).toEqual({ code: "overloaded", mutationPossible: false });
    expect(codes(failure(-32800, "cancelled"))).toEqual({ code: "cancelled", mutationPossible: true });
    expect(codes(failure(-32800, "cancelled"), observe)).toEqual({ code: "cancelled", mutationPossible: false });
    const lease = fromMcpResponse(
      failure(-32003, "not owner", {
        code: "policy.mutationLease",
        details: { code: "leaseNotOwner", retryable: false },
      }),
      click,
    );
    expect(lease).toMatchObject({ error: { retryable: false, retry: { classification: "notRetryable" } } });
    const old = fromMcpResponse(failure(-32003, "not owner", { code: "leaseNotOwner", retryable: false }), click);
    expect(old).toMatchObject({
      error: { code: "leaseNotOwner", retryable: false, retry: { classification: "notRetryable" } },
    });
  });
});
