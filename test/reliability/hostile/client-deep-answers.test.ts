/**
 * A hostile daemon answers with JSON nested thousands of levels deep (~12 KB of brackets). Once,
 * the result check of 58 operations threw a raw RangeError (the call stack ran out) instead of
 * reporting: a caller of `browser.click` could not tell whether the click happened, and
 * `glass.send`, which never throws for a call's outcome, threw. Now every such answer — a result, a
 * `structuredContent`, an `isError` text, a JSON-RPC `error.data` — is `response.invalid` after
 * dispatch, with `mutationPossible` true exactly for a mutating call, for all 101 catalog operations,
 * typed or through `glass.send`, and for the MCP methods and the handshake too.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createRequest,
  Glass,
  GlassError,
  operations,
  validateResponse,
  validateResult,
  type GlassResponse,
  type OperationDescriptor,
} from "glass-sdk";
import {
  fromMcpResponse,
  jsonRpcErrorToGlass,
  liftToolError,
  requiresLease,
  type JsonRpcRequest,
} from "glass-sdk/protocol";
import { socketTransport } from "glass-sdk/node";
import { MAX_JSON_DEPTH } from "../../../src/validation/json-depth.js";
import { ScriptedDaemon, type ScriptedAnswer } from "../../support/scripted-daemon.js";
import { startHostileSocketDaemon, type HostileSocketDaemon } from "../support/hostile-socket-daemon.js";

/** The depth of the attack: ~6,000 levels, ~12 KB of text. */
const DEPTH = 6_000;
const deepText = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
function deepValue(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/** The ways a deep answer can come: a result's text, its structuredContent, an isError text, a JSON-RPC error's data. */
const SHAPES = {
  resultText: (): ScriptedAnswer => ({
    result: { content: [{ type: "text", text: `{"executionId":"e-1","value":${deepText(DEPTH)}}` }] },
  }),
  structuredContent: (): ScriptedAnswer => ({
    result: { content: [], structuredContent: { value: deepValue(DEPTH) } },
  }),
  isErrorText: (): ScriptedAnswer => ({
    result: {
      isError: true,
      content: [
        {
          type: "text",
          text: `{"kind":"target","code":"target.notFound","message":"no such target","data":${deepText(DEPTH)}}`,
        },
      ],
    },
  }),
  errorData: (): ScriptedAnswer => ({
    error: { code: -32603, message: "internal error", data: { code: "protocol.internal", details: deepValue(DEPTH) } },
  }),
} as const;
type Shape = keyof typeof SHAPES;

/** A scripted daemon with no Glass agreement (so no capability is refused locally; connect with `negotiation: false`) whose tool calls get `shape`. */
function deepDaemon(shape: { current: Shape }): ScriptedDaemon {
  return new ScriptedDaemon(
    (request) => (request.method === "tools/call" ? SHAPES[shape.current]() : { result: {} }),
    8,
    {
      capabilities: { tools: {} },
      serverInfo: { name: "deep", version: "1" },
    },
  );
}

/** What a call's failure must be: `response.invalid`, after dispatch, mutationPossible exactly for a mutating call. */
function expectResponseInvalid(
  error: { code: string; phase?: string; mutationPossible?: boolean } | undefined,
  mutating: boolean,
): void {
  expect(error).toBeDefined();
  expect(error).toMatchObject({ code: "response.invalid", phase: "postDispatch", mutationPossible: mutating });
}

const catalog = Object.values(operations) as OperationDescriptor[];

describe("a deep answer to any of the 101 catalog operations is response.invalid, never a thrown RangeError", () => {
  it("covers the whole catalog", () => {
    expect(catalog).toHaveLength(101);
  });

  it.each(catalog.map((op) => [op.operation, op] as const))(
    "%s: typed method and glass.send, for a deep result, structuredContent, isError text and error.data",
    async (name, op) => {
      const shape = { current: "resultText" as Shape };
      const glass = await Glass.connect(deepDaemon(shape), { negotiation: false });
      const mutating = requiresLease(name, {});
      const namespace = (
        glass as unknown as Record<string, Record<string, (payload: unknown, options: unknown) => Promise<unknown>>>
      )[op.namespace]!;
      for (const current of Object.keys(SHAPES) as Shape[]) {
        shape.current = current;
        // The typed method: rejects with a GlassError (never a RangeError), or for getText's plain text resolves.
        const outcome = await namespace[op.method]!({}, { validate: false }).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        if (op.resultText === true && current === "resultText") {
          expect(outcome).toEqual({ result: { text: `{"executionId":"e-1","value":${deepText(DEPTH)}}` } });
        } else {
          expect(
            "error" in outcome && outcome.error instanceof GlassError,
            `${name} ${current}: ${"error" in outcome ? String(outcome.error) : "resolved"}`,
          ).toBe(true);
          expectResponseInvalid((outcome as { error: GlassError }).error, mutating);
        }
        // glass.send: resolves with an envelope, whatever the answer.
        let response: GlassResponse | undefined;
        let thrown: unknown;
        try {
          response = await glass.send(createRequest(name as never, {} as never), { validate: false });
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${name} ${current}: glass.send threw`).toBeUndefined();
        if (op.resultText === true && current === "resultText") expect(response?.ok).toBe(true);
        else expectResponseInvalid(response?.ok === false ? response.error : undefined, mutating);
      }
      await glass.close();
    },
  );
});

describe("deep answers to the MCP methods and the handshake", () => {
  it("ping, tools/list and the lease methods reject with response.invalid", async () => {
    const daemon = new ScriptedDaemon((request: JsonRpcRequest) => {
      if (request.method === "ping") return { result: { deep: deepValue(DEPTH) } };
      if (request.method === "tools/list")
        return { result: { tools: [{ name: "deep", inputSchema: { value: deepValue(DEPTH) } }] } };
      return {
        error: {
          code: -32003,
          message: "lease error",
          data: { code: "policy.mutationLease", details: deepValue(DEPTH) },
        },
      };
    });
    const glass = await Glass.connect(daemon);
    for (const call of [() => glass.ping(), () => glass.listTools(), () => glass.acquireLease({ ttlMs: 1000 })]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GlassError);
      expect(error).toMatchObject({ code: "response.invalid", phase: "postDispatch" });
    }
    await glass.close();
  });

  it("an initialize answer nested deep fails the handshake with a GlassError", async () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }), 8, {
      capabilities: {},
      serverInfo: { name: "deep", version: "1", extra: deepValue(DEPTH) },
    });
    const error = await Glass.connect(daemon).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GlassError);
    expect((error as GlassError).code).toBe("response.invalid");
  });

  it("a daemon request whose params nest deep is answered -32602 without reaching the handler", async () => {
    const daemon = new ScriptedDaemon(() => ({ result: {} }));
    let handled = 0;
    const glass = await Glass.connect(daemon, {
      serverRequestHandlers: { "elicitation/create": () => (handled++, { action: "decline" }) },
    });
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: "elicitation/create",
      params: { schema: deepValue(DEPTH) },
    } as never);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(daemon.received.find((message) => "id" in message && message.id === "glass-server-1")).toMatchObject({
      error: { code: -32602 },
    });
    expect(handled).toBe(0);
    await glass.close();
  });

  it("an answer just within the bound is read as usual", async () => {
    // A result nested MAX_JSON_DEPTH levels in all (the object itself is one).
    const daemon = new ScriptedDaemon(() => ({
      result: { content: [{ type: "text", text: `{"value":${deepText(MAX_JSON_DEPTH - 1)}}` }] },
    }));
    const glass = await Glass.connect(daemon);
    await expect(glass.requestUntyped("browser.project.read", { path: "x" })).resolves.toHaveProperty("value");
    await glass.close();
  });
});

describe("over a real Unix socket", () => {
  let daemon: HostileSocketDaemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("browser.click answered 50,000 levels deep: response.invalid, the click may have happened, and the connection goes on", async () => {
    daemon = await startHostileSocketDaemon(
      (message, peer) => {
        if (message.method !== "tools/call") return;
        const tool = (message.params as { name: string }).name;
        const text = tool === "click" ? `{"executionId":${deepText(50_000)}}` : JSON.stringify({ text: "fine" });
        void peer.send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } });
      },
      { tools: ["click", "project.read"] },
    ); // it lists the tools this test calls (project.read is outside the catalog)
    const glass = await Glass.connect(socketTransport({ path: daemon.path }), { negotiation: false });
    const error = await glass.browser.click({ target: "ref=r1:e1" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GlassError);
    expect(error).toMatchObject({
      code: "response.invalid",
      phase: "postDispatch",
      mutationPossible: true,
      retry: { classification: "safeAfterReobserve" },
    });
    expect((error as GlassError).message).toContain("nested too deeply");
    await expect(glass.requestUntyped("browser.project.read", { path: "x" })).resolves.toEqual({ text: "fine" });
    await glass.close();
  });
});

describe("the public mapping and validation functions report deep input, never throw", () => {
  const request = createRequest("browser.click", { target: "ref=r1:e1" });
  const deep = deepValue(DEPTH);

  it("fromMcpResponse, liftToolError and jsonRpcErrorToGlass", () => {
    const lifted = fromMcpResponse(
      { jsonrpc: "2.0", id: request.requestId, result: { content: [{ type: "text", text: deepText(DEPTH) }] } },
      request,
    );
    expect(lifted).toMatchObject({ ok: false, error: { code: "response.invalid", mutationPossible: true } });
    expect(liftToolError(deepText(DEPTH), { tool: "click", mutating: true })).toMatchObject({
      code: "response.invalid",
      mutationPossible: true,
    });
    const mapped = jsonRpcErrorToGlass({ code: -32603, message: "x", data: deep }, false);
    expect(() => JSON.stringify(mapped)).not.toThrow();
    expect((mapped.details as { data: unknown }).data).toMatchObject({ truncated: true, maxDepth: MAX_JSON_DEPTH });
  });

  it("validateResult and validateResponse", () => {
    for (const name of Object.keys(operations)) expect(validateResult(name, { value: deep }).ok, name).toBe(false);
    expect(validateResponse({ protocolVersion: 1, requestId: "r", ok: true, result: deep }).ok).toBe(false);
    expect(
      validateResponse({
        protocolVersion: 1,
        requestId: "r",
        ok: false,
        error: { code: "x", message: "y", details: deep },
      }).ok,
    ).toBe(false);
  });
});
