// Client conformance, protocol §2 (the MCP mapping): what the client sends in a tools/call and how
// it reads the daemon's answers — results, tool failures and JSON-RPC errors — one rule per test,
// against a scripted daemon that answers in the daemon's own shapes.
import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError, LeaseError } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import {
  daemonErrorData,
  DEFAULT_INITIALIZE_RESULT,
  ScriptedDaemon,
  type ScriptedAnswer,
} from "../support/scripted-daemon.js";

type ToolAnswers = Record<string, (request: JsonRpcRequest) => ScriptedAnswer>;

const clients: Glass[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((glass) => glass.close()));
});

/** A daemon agreeing to every capability the operations below need. */
const INITIALIZE_RESULT = {
  ...DEFAULT_INITIALIZE_RESULT,
  glassAgreement: {
    ...(DEFAULT_INITIALIZE_RESULT.glassAgreement as object),
    capabilities: {
      webIr: { status: "available" },
      intentResolution: { status: "available" },
      localDaemon: { status: "available" },
    },
  },
};

/**
 * A scripted daemon answering tools/call by tool name (an unknown tool gets `browser tool failed`,
 * as the daemon answers it) and the lease methods, as a socket daemon does.
 */
function daemonWith(answers: ToolAnswers): ScriptedDaemon {
  return new ScriptedDaemon(
    (request) => {
      if (request.method === "glass/lease/acquire")
        return {
          result: { sessionId: "sess-1", ownerId: "owner-1", token: "lt-secret", expiresAtMs: Date.now() + 60_000 },
        };
      if (request.method === "glass/lease/release") return { result: { sessionId: "sess-1", released: true } };
      if (request.method !== "tools/call") return { result: {} };
      const name = (request.params as { name: string }).name;
      const answer = answers[name];
      return answer === undefined
        ? { result: { isError: true, content: [{ type: "text", text: "browser tool failed" }] } }
        : answer(request);
    },
    4,
    INITIALIZE_RESULT,
  );
}

async function connect(daemon: ScriptedDaemon, options: Parameters<typeof Glass.connect>[1] = {}): Promise<Glass> {
  const glass = await Glass.connect(daemon, { retry: false, ...options });
  clients.push(glass);
  return glass;
}

const toolCalls = (daemon: ScriptedDaemon) => daemon.sent("tools/call") as JsonRpcRequest[];
const argumentsOf = (request: JsonRpcRequest) => (request.params as { arguments: Record<string, unknown> }).arguments;
const contextCost = (text: string) => ({
  contextCost: { payloadBytes: Buffer.byteLength(text), estimatedTokens: Math.ceil(Buffer.byteLength(text) / 4) },
});
/** A daemon text result with its `_meta.contextCost`, as the daemon sends every text result but screenshot's. */
const daemonText = (text: string, more: unknown[] = []): ScriptedAnswer => ({
  result: { content: [{ type: "text", text }, ...more], _meta: contextCost(text) },
});
const failure = (text: string, more: unknown[] = []): ScriptedAnswer => ({
  result: { isError: true, content: [{ type: "text", text }, ...more] },
});
const rpcError = (code: number, message: string, data?: unknown): ScriptedAnswer => ({
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

const PAGE_INFO = {
  url: "https://library.example/loans",
  title: "Loans",
  ready_state: "complete",
  target_id: "T1",
  frame_id: "F1",
};
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("§2 what the client sends", () => {
  it("§2 sends the request id as the JSON-RPC id, the tool as params.name and the payload as params.arguments, always an object", async () => {
    const daemon = daemonWith({
      inspectWebIr: () => daemonText('{"schemaVersion":1}'),
      getText: () => daemonText("page"),
    });
    const glass = await connect(daemon, { validate: { payloads: false, responses: false } });
    await glass.request("webIr.inspect", { ir: { schemaVersion: 1 } } as never, { requestId: "inspect-7" });
    await glass.browser.getText({}, { requestId: "text-1" });
    const [inspect, text] = toolCalls(daemon);
    expect(inspect).toEqual({
      jsonrpc: "2.0",
      id: "inspect-7",
      method: "tools/call",
      params: { name: "inspectWebIr", arguments: { ir: { schemaVersion: 1 } } },
    });
    expect(text).toEqual({
      jsonrpc: "2.0",
      id: "text-1",
      method: "tools/call",
      params: { name: "getText", arguments: {} },
    });
    await expect(glass.request("browser.observe", [1] as never)).rejects.toMatchObject({ code: "payload.invalid" });
    expect(toolCalls(daemon)).toHaveLength(2);
  });

  it("§2 names browser-free tools canonically and browser tools without the browser. prefix", async () => {
    const daemon = daemonWith({});
    const glass = await connect(daemon, { validate: { payloads: false, responses: false } });
    const calls: [string, string][] = [
      ["webIr.validate", "validateWebIr"],
      ["webIr.diff", "diffWebIr"],
      ["webIr.continuity", "continuityWebIr"],
      ["task.validate", "validateTask"],
      ["task.compile", "compileTask"],
      ["task.execute", "executeTask"],
      ["browser.project.read", "project.read"],
      ["browser.observe", "observe"],
    ];
    for (const [operation] of calls) await glass.requestUntyped(operation, {} as never).catch(() => undefined);
    expect(toolCalls(daemon).map((call) => (call.params as { name: string }).name)).toEqual(
      calls.map(([, tool]) => tool),
    );
  });

  it("§2 sends tools/call ids that are Glass identifiers: a caller's requestId with whitespace is refused before sending", async () => {
    const daemon = daemonWith({ getText: () => daemonText("page") });
    const glass = await connect(daemon);
    await expect(glass.browser.getText({}, { requestId: "has space" })).rejects.toMatchObject({
      code: "request.invalid",
    });
    await glass.browser.getText({});
    const [call] = toolCalls(daemon);
    expect(call!.id).toMatch(/^[^\s\u0000-\u001f\u007f-\u009f]{1,128}$/);
    expect(typeof call!.id).toBe("string");
  });

  it("§2 sends leaseToken alone, only to tools that need a lease", async () => {
    const daemon = daemonWith({
      click: () => daemonText('{"executionId":"e-1"}'),
      executeIntent: () => daemonText('{"executionId":"e-2"}'),
      findTarget: () => daemonText('{"candidates":[]}'),
      observe: () => daemonText('{"revision":1}'),
      executeTask: () => daemonText('{"status":"succeeded"}'),
    });
    const glass = await connect(daemon, { validate: { payloads: false, responses: false } });
    await glass.acquireLease({ ttlMs: 60_000 });
    await glass.browser.click({ target: "ref=r1:b2" });
    await glass.request("browser.executeIntent", { candidateId: "c-1" } as never);
    await glass.request("browser.findTarget", { intent: "renew" } as never);
    await glass.browser.observe({});
    await glass.request("task.execute", { task: { task: "table.extract" }, expectedRevision: 1 } as never);
    await glass.request("task.execute", { task: { task: "form.submit" }, expectedRevision: 1 } as never);
    const args = toolCalls(daemon).map(argumentsOf);
    expect(args[0]).toEqual({ target: "ref=r1:b2", leaseToken: "lt-secret" });
    expect(args[1]).toEqual({ candidateId: "c-1", leaseToken: "lt-secret" });
    expect(args[2]).toEqual({ intent: "renew" });
    expect(args[3]).toEqual({});
    expect(args[4]).not.toHaveProperty("leaseToken");
    expect(args[5]).toMatchObject({ leaseToken: "lt-secret" });
    for (const sent of args) {
      expect(sent).not.toHaveProperty("sessionId");
      expect(sent).not.toHaveProperty("mutationLease");
    }
  });

  it("§2 never sends params._meta (no progress tokens), nor _meta among the arguments", async () => {
    const daemon = daemonWith({ getText: () => daemonText("page"), click: () => daemonText('{"executionId":"e-1"}') });
    const glass = await connect(daemon);
    await glass.browser.getText({});
    await glass.browser.click({ target: "ref=1" });
    await glass.listTools();
    for (const message of daemon.received) {
      if (!("method" in message)) continue;
      expect(message.params ?? {}).not.toHaveProperty("_meta");
      expect((message.params as { arguments?: object } | undefined)?.arguments ?? {}).not.toHaveProperty("_meta");
    }
  });
});

describe("§2 how the client reads a successful result", () => {
  it("§2 lifts the first text item's JSON object to the result and drops _meta", async () => {
    const text = JSON.stringify({ revision: 7, page: PAGE_INFO });
    // Not a whole inspectPage result: only the lifting is under test here, not the result schema.
    const glass = await connect(daemonWith({ inspectPage: () => daemonText(text) }), {
      validate: { responses: false },
    });
    const result = await glass.request("browser.inspectPage", {} as never);
    expect(result).toEqual({ revision: 7, page: PAGE_INFO });
  });

  it("§2 lifts getText's plain text to {text} without parsing it, even when the page's text is valid JSON such as 42", async () => {
    const pages = ["Your loans\nThe Hobbit — due 12 May", "42", '{"not":"parsed"}', "null", ""];
    const glass = await connect(
      daemonWith({ getText: (request) => daemonText(pages[Number(String(request.id).slice(5))]!) }),
    );
    for (const [index, page] of pages.entries()) {
      expect(await glass.browser.getText({}, { requestId: `text-${index}` })).toEqual({ text: page });
    }
  });

  it("§2 lifts JSON that is not an object to {result}: cookies' array is {result: Cookie[]}", async () => {
    const cookies = [
      {
        name: "sid",
        value: "abc",
        domain: "library.example",
        path: "/",
        expires: 0,
        httpOnly: true,
        secure: true,
        sameSite: "Lax",
        session: true,
        size: 6,
        priority: null,
      },
    ];
    const glass = await connect(
      daemonWith({
        cookies: () => daemonText(JSON.stringify(cookies)),
        listFrames: () => daemonText("[]"),
        evaluate: () => daemonText("3"),
      }),
      { validate: { responses: false } },
    );
    expect(await glass.browser.cookies({})).toEqual({ result: cookies });
    expect(await glass.request("browser.listFrames", {} as never)).toEqual({ result: [] });
    expect(await glass.request("browser.evaluate", { expression: "1+2" } as never)).toEqual({ result: 3 });
  });

  it("§2 lifts text that is not JSON to {text} for any operation", async () => {
    const glass = await connect(daemonWith({ "project.read": () => daemonText("# README\nplain text") }));
    expect(await glass.requestUntyped("browser.project.read", { path: "README.md" })).toEqual({
      text: "# README\nplain text",
    });
  });

  it("§2 lifts screenshot's text and image items (sent without _meta) to its metadata plus image {data, mimeType}", async () => {
    const metadata = {
      format: "png",
      width: 1280,
      height: 720,
      encoded_bytes: 68,
      device_scale_factor: 1,
      scale: 1,
      full_page: false,
      target_id: "T1",
      frame_id: "F1",
    };
    const screenshot: ScriptedAnswer = {
      result: {
        content: [
          { type: "text", text: JSON.stringify(metadata) },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      },
    };
    const glass = await connect(daemonWith({ screenshot: () => screenshot }));
    expect(await glass.browser.screenshot({})).toEqual({ ...metadata, image: { data: PNG, mimeType: "image/png" } });
  });

  it("§2 lifts observe with includeScreenshot to the PageContext plus image", async () => {
    const context = {
      page: PAGE_INFO,
      text: "Loans",
      accessibility: { page: PAGE_INFO, revision: 3, roots: [], interactive: [] },
    };
    const text = JSON.stringify(context);
    const glass = await connect(
      daemonWith({ observe: () => daemonText(text, [{ type: "image", data: PNG, mimeType: "image/png" }]) }),
      { validate: { responses: false } },
    );
    expect(await glass.browser.observe({ includeScreenshot: true })).toEqual({
      ...context,
      image: { data: PNG, mimeType: "image/png" },
    });
  });

  it("§2 keeps every other content item as sent in extraContent: a second text, a second image, audio, a resource", async () => {
    const others = [
      { type: "text", text: "a second text item" },
      { type: "image", data: "R0lGODlhAQABAAAAACw=", mimeType: "image/gif" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///tmp/trace.json", mimeType: "application/json", text: "{}" } },
    ];
    const glass = await connect(
      daemonWith({
        diagnostics: () =>
          daemonText('{"durationMs":1000}', [
            others[0],
            { type: "image", data: PNG, mimeType: "image/png" },
            ...others.slice(1),
          ]),
      }),
      {
        validate: { responses: false },
      },
    );
    expect(await glass.browser.diagnostics({})).toEqual({
      durationMs: 1000,
      image: { data: PNG, mimeType: "image/png" },
      extraContent: others,
    });
    const plain = await connect(daemonWith({ diagnostics: () => daemonText('{"durationMs":1}') }), {
      validate: { responses: false },
    });
    expect(await plain.browser.diagnostics({})).not.toHaveProperty("extraContent");
  });

  it("§2 takes the result from structuredContent only when there is no text item, else {}", async () => {
    const glass = await connect(
      daemonWith({
        "glass.status": () => ({ result: { content: [], structuredContent: { ready: true }, isError: false } }),
        "glass.both": () => ({
          result: { content: [{ type: "text", text: '{"from":"text"}' }], structuredContent: { from: "structured" } },
        }),
        "glass.nothing": () => ({ result: { content: [] } }),
      }),
    );
    expect(await glass.requestUntyped("browser.glass.status", {})).toEqual({ ready: true });
    expect(await glass.requestUntyped("browser.glass.both", {})).toEqual({ from: "text" });
    expect(await glass.requestUntyped("browser.glass.nothing", {})).toEqual({});
  });
});

describe("§2 how the client reads a tool failure (isError)", () => {
  it("§2 lifts the literal text `browser tool failed` to an opaque, non-retryable tool error naming the tool", async () => {
    const daemon = daemonWith({
      findTarget: () => failure("browser tool failed"),
      click: () => failure("browser tool failed"),
    });
    const glass = await connect(daemon, { validate: { payloads: false } });
    const read = await glass
      .request("browser.findTarget", { intent: "x", responseMode: "terse" } as never)
      .catch((error: unknown) => error);
    expect(read).toBeInstanceOf(GlassError);
    expect(read).toMatchObject({
      code: "tool.failed",
      mutationPossible: false,
      phase: "preflight",
      retry: { classification: "notRetryable" },
      details: { kind: "opaqueToolFailure", tool: "findTarget" },
    });
    expect((read as GlassError).rawMessage).toMatch(/findTarget tool failed without saying why.*arguments.*listTools/);
    const mutation = await glass.browser.click({ target: "ref=1" }).catch((error: unknown) => error);
    expect(mutation).toMatchObject({
      code: "tool.failed",
      mutationPossible: true,
      phase: "dispatch",
      retry: { classification: "notRetryable", recommendedOperation: "inspect_page" },
      details: { tool: "click" },
    });
    expect((mutation as GlassError).rawMessage).toMatch(/observe the page before deciding/);
    expect(toolCalls(daemon)).toHaveLength(2); // not retried
  });

  it("§2 lifts taskValidation and taskCompilation failures to task.invalid and webIrValidation to webIr.invalid", async () => {
    const taskFailure = { kind: "taskCompilation", path: "scope.regionName", reason: "region Loans not found" };
    const irFailure = {
      kind: "webIrValidation",
      path: "entities",
      reason: "Glass Web IR must contain exactly one page entity",
    };
    const glass = await connect(
      daemonWith({
        compileTask: () => failure(JSON.stringify(taskFailure)),
        validateWebIr: () => failure(JSON.stringify(irFailure)),
      }),
      { validate: { payloads: false } },
    );
    await expect(glass.request("task.compile", {} as never)).rejects.toMatchObject({
      code: "task.invalid",
      phase: "preflight",
      mutationPossible: false,
      message: expect.stringContaining("region Loans not found"),
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      details: taskFailure,
    });
    await expect(glass.request("webIr.validate", {} as never)).rejects.toMatchObject({
      code: "webIr.invalid",
      mutationPossible: false,
      details: irFailure,
    });
  });

  it("§2 lifts policy refusals (denied, confirmation_required, invalid_configuration) to policy.* codes, nothing mutated", async () => {
    const kinds = ["denied", "confirmation_required", "invalid_configuration"];
    let next = 0;
    const glass = await connect(
      daemonWith({
        navigate: () => failure(JSON.stringify({ kind: kinds[next++], reason: "blocked by the site policy" })),
      }),
    );
    for (const kind of kinds) {
      await expect(glass.browser.navigate({ url: "https://bank.example" })).rejects.toMatchObject({
        code: `policy.${kind}`,
        mutationPossible: false,
        retry: { classification: kind === "confirmation_required" ? "requiresUserDecision" : "notRetryable" },
      });
    }
  });

  it("§2 lifts a typed browser error ({kind: transport, code, message, data}) to its code and message, the object kept in details", async () => {
    const transport = {
      kind: "transport",
      code: "cdp.disconnected",
      message: "the CDP connection closed",
      data: { target: "T1" },
    };
    const glass = await connect(
      daemonWith({
        click: () => failure(JSON.stringify(transport)),
        getText: () => failure(JSON.stringify(transport)),
      }),
    );
    await expect(glass.browser.click({ target: "ref=1" })).rejects.toMatchObject({
      code: "cdp.disconnected",
      message: expect.stringContaining("the CDP connection closed"),
      mutationPossible: true,
      details: transport,
    });
    await expect(glass.browser.getText({})).rejects.toMatchObject({
      code: "cdp.disconnected",
      mutationPossible: false,
      details: transport,
    });
  });

  it("§2 passes a typed Glass error ({code, message, retryable}) through, e.g. staleRevision", async () => {
    const glass = await connect(
      daemonWith({
        click: () =>
          failure(
            JSON.stringify({
              code: "staleRevision",
              message: "the observation revision is no longer current",
              retryable: true,
            }),
          ),
      }),
    );
    await expect(glass.browser.click({ target: "ref=1", expectedRevision: 7 })).rejects.toMatchObject({
      code: "staleRevision",
      retryable: true,
      mutationPossible: false,
    });
  });

  it("§2 keeps the failure trace of a second text item (includeTrace) in details.extraContent", async () => {
    const trace = { type: "text", text: JSON.stringify({ trace: [{ step: "resolve", outcome: "notFound" }] }) };
    const glass = await connect(daemonWith({ click: () => failure("browser tool failed", [trace]) }), {
      validate: { payloads: false },
    });
    await expect(
      glass.request("browser.click", { target: "ref=1", includeTrace: true } as never),
    ).rejects.toMatchObject({ code: "tool.failed", details: { tool: "click", extraContent: [trace] } });
  });
});

describe("§2 how the client reads a JSON-RPC error", () => {
  it("§2 reads a -32003 lease code and its retryability from error.data.details", async () => {
    const lease = (code: string, retryable: boolean): ScriptedAnswer =>
      rpcError(
        -32003,
        `lease refused: ${code}`,
        daemonErrorData("policy.mutationLease", `lease refused: ${code}`, { code, retryable }),
      );
    const codes: [string, boolean][] = [
      ["leaseHeld", true],
      ["leaseExpired", true],
      ["leaseNotFound", true],
      ["leaseNotOwner", false],
      ["invalidLease", false],
    ];
    let next = 0;
    const glass = await connect(daemonWith({ click: () => lease(...codes[next++]!) }));
    for (const [code, retryable] of codes) {
      const error = await glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LeaseError);
      expect(error).toMatchObject({
        code,
        retryable,
        mutationPossible: false,
        retry: { classification: retryable ? "safeAfterReobserve" : "notRetryable" },
        details: { jsonRpcCode: -32003, data: { code: "policy.mutationLease" } },
      });
    }
  });

  it("§2 reads `mutation lease required` (data.code policy.mutationLease, details null) as leaseRequired", async () => {
    const glass = await connect(
      daemonWith({
        click: () =>
          rpcError(
            -32003,
            "mutation lease required",
            daemonErrorData("policy.mutationLease", "mutation lease required"),
          ),
      }),
    );
    const error = await glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseError);
    expect(error).toMatchObject({
      code: "leaseRequired",
      retryable: true,
      mutationPossible: false,
      retry: { classification: "safeImmediate", recommendedOperation: "acquire_lease" },
    });
    expect((error as GlassError).rawMessage).toMatch(/withLease/);
  });

  it("§2 tolerates an older daemon's lease code directly in data.code", async () => {
    const glass = await connect(
      daemonWith({ click: () => rpcError(-32003, "lease expired", { code: "leaseExpired", retryable: true }) }),
    );
    await expect(glass.browser.click({ target: "ref=1" })).rejects.toMatchObject({
      code: "leaseExpired",
      retryable: true,
    });
  });

  it("§2 maps -32001 (the answer would exceed 32 MiB) to response.tooLarge: for a mutating call the action ran", async () => {
    const tooLarge = rpcError(
      -32001,
      "response exceeds 33554432 bytes",
      daemonErrorData("protocol.error", "response exceeds 33554432 bytes"),
    );
    const daemon = daemonWith({ click: () => tooLarge, getDOM: () => tooLarge });
    const glass = await connect(daemon, { retry: { maxRetries: 2, baseDelayMs: 1 } });
    const click = await glass.browser.click({ target: "ref=1" }).catch((e: unknown) => e);
    expect(click).toMatchObject({
      code: "response.tooLarge",
      phase: "postDispatch",
      mutationPossible: true,
      retry: { classification: "safeAfterReobserve" },
      details: { jsonRpcCode: -32001 },
    });
    const dom = await glass.browser.getDOM({}).catch((e: unknown) => e);
    expect(dom).toMatchObject({
      code: "response.tooLarge",
      mutationPossible: false,
      retry: { classification: "notRetryable" },
    });
    expect((dom as GlassError).rawMessage).toMatch(/ask for less/);
    expect(toolCalls(daemon)).toHaveLength(2); // neither is retried
  });

  it("§2 maps the code table, keeping the JSON-RPC code and the daemon's error.data wrapper in details", async () => {
    const table: [number, string, string][] = [
      [-32700, "protocol.error", "mcp.parseError"],
      [-32600, "protocol.invalidRequest", "mcp.invalidRequest"],
      [-32601, "protocol.methodNotFound", "mcp.methodNotFound"],
      [-32602, "protocol.invalidParams", "mcp.invalidParams"],
      [-32603, "protocol.internal", "mcp.internalError"],
      [-32002, "protocol.notInitialized", "notInitialized"],
      [-32000, "resource.busy", "overloaded"],
      [-32800, "protocol.cancelled", "cancelled"],
    ];
    let next = 0;
    const glass = await connect(
      daemonWith({
        getText: () => {
          const [code, dataCode] = table[next++]!;
          return rpcError(code, `failed: ${dataCode}`, daemonErrorData(dataCode, `failed: ${dataCode}`));
        },
      }),
    );
    for (const [jsonRpcCode, dataCode, code] of table) {
      const error = await glass.browser.getText({}).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code,
        mutationPossible: false,
        details: { jsonRpcCode, data: { code: dataCode, phase: "preflight", details: null } },
      });
    }
  });

  it("§2 keeps the details of an error within 16 KiB when the daemon's data is larger", async () => {
    const glass = await connect(
      daemonWith({
        getText: () =>
          rpcError(
            -32602,
            "invalid params",
            daemonErrorData("protocol.invalidParams", "invalid params", { blob: "x".repeat(40_000) }),
          ),
      }),
    );
    const error = await glass.browser.getText({}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "mcp.invalidParams",
      details: { jsonRpcCode: -32602, data: { truncated: true, originalBytes: expect.any(Number) } },
    });
    expect(Buffer.byteLength(JSON.stringify((error as GlassError).details))).toBeLessThanOrEqual(16 * 1024);
  });
});
