// Client conformance, protocol §3 (the session), §4 (mutation leases) and §7's rule on absent
// fields: what the client sends to open, use and end a session, and how it reads the answers —
// one rule per test, against a scripted daemon that answers like the daemon.
import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassLogEvent } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import {
  daemonErrorData,
  DEFAULT_INITIALIZE_RESULT,
  ScriptedDaemon,
  unsupportedVersion,
  type ScriptedAnswer,
  type ScriptedHandler,
} from "../support/scripted-daemon.js";

const clients: Glass[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((glass) => glass.close()));
});

const AGREEMENT = DEFAULT_INITIALIZE_RESULT.glassAgreement as { capabilities: object };
/** A socket daemon: the lease methods work (capability localDaemon). */
const SOCKET_DAEMON_RESULT = {
  ...DEFAULT_INITIALIZE_RESULT,
  glassAgreement: { ...AGREEMENT, capabilities: { ...AGREEMENT.capabilities, localDaemon: { status: "available" } } },
};

const text = (value: unknown): ScriptedAnswer => ({
  result: { content: [{ type: "text", text: JSON.stringify(value) }] },
});
const leaseRefusal = (code: string, retryable: boolean): ScriptedAnswer => ({
  error: { code: -32003, message: code, data: daemonErrorData("policy.mutationLease", code, { code, retryable }) },
});

/** A scripted socket daemon with working leases; `tools` answers tools/call by tool name (default: an executionId). */
function leasingDaemon(tools: Record<string, (request: JsonRpcRequest) => ScriptedAnswer> = {}): ScriptedDaemon {
  let grants = 0;
  const handler: ScriptedHandler = (request) => {
    const params = (request.params ?? {}) as { ttlMs?: number; name?: string };
    switch (request.method) {
      case "glass/lease/acquire":
        return {
          result: {
            sessionId: "sess-1",
            ownerId: "owner-1",
            token: `lt-${++grants}`,
            expiresAtMs: Date.now() + (params.ttlMs ?? 0),
          },
        };
      case "glass/lease/renew":
        return {
          result: {
            sessionId: "sess-1",
            ownerId: "owner-1",
            token: `lt-${grants}`,
            expiresAtMs: Date.now() + (params.ttlMs ?? 0),
          },
        };
      case "glass/lease/release":
        return { result: { sessionId: "sess-1", released: true } };
      case "tools/call":
        return tools[params.name ?? ""]?.(request) ?? text({ executionId: "e-1" });
      default:
        return { result: {} };
    }
  };
  return new ScriptedDaemon(handler, 4, SOCKET_DAEMON_RESULT);
}

async function connect(daemon: ScriptedDaemon, options: Parameters<typeof Glass.connect>[1] = {}): Promise<Glass> {
  const glass = await Glass.connect(daemon, { retry: false, ...options });
  clients.push(glass);
  return glass;
}

const initializeParams = (daemon: ScriptedDaemon) =>
  daemon.sent("initialize").map((message) => (message as JsonRpcRequest).params as Record<string, unknown>);
const toolCalls = (daemon: ScriptedDaemon) => daemon.sent("tools/call") as JsonRpcRequest[];
const argumentsOf = (request: JsonRpcRequest) => (request.params as { arguments: Record<string, unknown> }).arguments;

/** Every place in a JSON value that holds null (`$.params.glass.schemas`). */
function nullsIn(value: unknown, path = "$"): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullsIn(item, `${path}[${index}]`));
  if (typeof value === "object" && value !== undefined)
    return Object.entries(value).flatMap(([key, item]) =>
      item === undefined ? [`${path}.${key} (undefined)`] : nullsIn(item, `${path}.${key}`),
    );
  return [];
}

describe("§3 initialize", () => {
  it("§3 asks for MCP 2025-11-25 first and falls back to 2024-11-05 on the same connection when the daemon refuses it", async () => {
    const daemon = leasingDaemon();
    daemon.mcpVersions = ["2024-11-05"]; // an older daemon
    const events: GlassLogEvent[] = [];
    const glass = await connect(daemon, { logger: (event) => events.push(event) });
    const attempts = daemon.sent("initialize") as JsonRpcRequest[];
    expect(attempts.map((request) => (request.params as { protocolVersion: string }).protocolVersion)).toEqual([
      "2025-11-25",
      "2024-11-05",
    ]);
    expect(attempts[0]!.id).not.toEqual(attempts[1]!.id);
    expect(daemon.sent("notifications/initialized")).toHaveLength(1);
    expect(glass.manifest?.glassVersion).toBe("0.0.0-test");
    expect(events).toContainEqual({
      type: "connection",
      detail: expect.stringContaining("initialize with MCP 2025-11-25 refused (JSON-RPC -32602)"),
    });

    const newest = leasingDaemon();
    await connect(newest);
    expect(initializeParams(newest).map((params) => params.protocolVersion)).toEqual(["2025-11-25"]);
  });

  it("§3 asks for the MCP version the caller set, alone, with no fallback", async () => {
    const old = leasingDaemon();
    old.mcpVersions = ["2024-11-05"];
    const error = await Glass.connect(old, { mcpProtocolVersion: "2025-11-25" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "initialize.failed",
      message: expect.stringContaining("unsupported MCP protocol version"),
      details: { jsonRpcCode: -32602 },
    });
    expect(initializeParams(old).map((params) => params.protocolVersion)).toEqual(["2025-11-25"]);

    const pinned = leasingDaemon();
    await connect(pinned, { mcpProtocolVersion: "2024-11-05" });
    expect(initializeParams(pinned).map((params) => params.protocolVersion)).toEqual(["2024-11-05"]);
  });

  it("§3 reports a refused initialize (a failed negotiation) as initialize.failed quoting the daemon, after both versions", async () => {
    const refusing = new ScriptedDaemon(() => ({ result: {} }));
    refusing.mcpVersions = [];
    const error = await Glass.connect(refusing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GlassError);
    expect(error).toMatchObject({
      code: "initialize.failed",
      details: {
        jsonRpcCode: -32602,
        refusals: [{ protocolVersion: "2025-11-25" }, { protocolVersion: "2024-11-05" }],
      },
    });
    expect(refusing.sent("notifications/initialized")).toHaveLength(0);
    expect(unsupportedVersion("2025-11-25").error.code).toBe(-32602);
  });

  it("§3 accepts a plain MCP server's answer in another published revision (2025-06-18, 2025-03-26) and refuses an unknown one", async () => {
    for (const revision of ["2025-06-18", "2025-03-26"]) {
      const server = new ScriptedDaemon(() => text({ ok: true }), 8, {
        protocolVersion: revision,
        capabilities: { tools: {} },
        serverInfo: { name: "plain", version: "1" },
      });
      const glass = await connect(server, { negotiation: false });
      expect(glass.serverInfo).toEqual({ name: "plain", version: "1" });
      expect(await glass.requestUntyped("browser.anything", {})).toEqual({ ok: true });
    }
    const future = new ScriptedDaemon(() => ({ result: {} }), 8, {
      protocolVersion: "2099-01-01",
      capabilities: {},
      serverInfo: { name: "future", version: "1" },
    });
    await expect(Glass.connect(future, { negotiation: false })).rejects.toMatchObject({
      code: "initialize.failed",
      message: expect.stringContaining('"2099-01-01"'),
    });
    expect(future.sent("notifications/initialized")).toHaveLength(0);
  });

  it("§3 sends the glass negotiation with envelope version 1 and only the schemas and capabilities asked for", async () => {
    const plain = leasingDaemon();
    await connect(plain);
    expect(initializeParams(plain)[0]).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "glass-sdk", version: expect.any(String) },
      glass: { protocolVersions: [1] },
    });
    const declared = leasingDaemon();
    await connect(declared, {
      negotiation: {
        schemas: { webIr: [1] },
        requires: ["webIr", "webIr"],
        optional: ["taskProtocol"],
        acceptsExperimental: false,
      },
    });
    expect(initializeParams(declared)[0]!.glass).toEqual({
      protocolVersions: [1],
      schemas: { webIr: [1] },
      requires: ["webIr"],
      optional: ["taskProtocol"],
      acceptsExperimental: false,
    });
  });

  it("§3 sends no glass object with negotiation: false", async () => {
    const daemon = leasingDaemon();
    await connect(daemon, { negotiation: false, clientInfo: { name: "my-agent", version: "2.1.0" } });
    expect(initializeParams(daemon)[0]).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "my-agent", version: "2.1.0" },
    });
  });

  it("§3 fails connect with initialize.failed when negotiation.requires names capabilities and the server made no Glass agreement", async () => {
    const plain = new ScriptedDaemon(() => ({ result: {} }), 8, {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "plain", version: "1" },
    });
    const error = await Glass.connect(plain, { negotiation: { requires: ["webIr"] } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "initialize.failed", details: { required: ["webIr"] } });
    expect((error as GlassError).rawMessage).toMatch(/no Glass agreement.*webIr.*`negotiation: false`/);
    expect(plain.sent("notifications/initialized")).toHaveLength(0);
    expect(plain.closed).toBe(true);
  });

  it("§3 with the Glass negotiation, a server that answers without its manifest or its agreement is not a Glass daemon: connect fails, so a connected client always knows both", async () => {
    const { glass: manifest, glassAgreement: agreement, ...plainResult } = DEFAULT_INITIALIZE_RESULT;
    const noAgreement = new ScriptedDaemon(() => ({ result: {} }), 8, { ...plainResult, glass: manifest });
    const error = await Glass.connect(noAgreement).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "initialize.failed", details: { serverInfo: { name: "scripted" } } });
    expect((error as GlassError).rawMessage).toMatch(
      /made no Glass agreement \(no glassAgreement in its initialize answer\): it is not a Glass daemon.*`negotiation: false`/,
    );
    const noManifest = new ScriptedDaemon(() => ({ result: {} }), 8, { ...plainResult, glassAgreement: agreement });
    expect(((await Glass.connect(noManifest).catch((e: unknown) => e)) as GlassError).rawMessage).toMatch(
      /sent no Glass capability manifest/,
    );
    expect(noManifest.sent("notifications/initialized")).toHaveLength(0);
    const glass = await Glass.connect(new ScriptedDaemon(() => ({ result: {} }), 8));
    expect(glass.manifest.glassVersion).toBe("0.0.0-test");
    expect(glass.agreement.protocolVersion).toBe(1);
    await glass.close();
    const plain = await Glass.connect(new ScriptedDaemon(() => ({ result: {} }), 8, plainResult), {
      negotiation: false,
    });
    expect(plain.manifest).toBeUndefined();
    await plain.close();
  });

  it("§3 checks a capability against the agreement before sending an operation that needs it", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon);
    expect(glass.supports("intentResolution")).toBe(false); // disabledByPolicy in the agreement
    await expect(
      glass.browser.resolveIntent({
        schemaVersion: 1,
        intent: "renew",
        action: "click",
        resolutionPolicy: "requireExact",
      }),
    ).rejects.toMatchObject({ code: "capability.unavailable", mutationPossible: false });
    expect(toolCalls(daemon)).toHaveLength(0);
  });

  it("§3 sends notifications/initialized as a notification, before any other request", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon);
    await glass.ping();
    const methods = daemon.received
      .filter((message): message is JsonRpcRequest => "method" in message)
      .map((message) => message.method);
    expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list", "ping"]);
    const initialized = daemon.sent("notifications/initialized")[0]!;
    expect(initialized).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
  });
});

describe("§3 the running session", () => {
  it("§3 asks for elicitation only with a handler, and answers a daemon request with -32601 otherwise", async () => {
    const daemon = leasingDaemon();
    await connect(daemon);
    expect(initializeParams(daemon)[0]!.capabilities).toEqual({});
    daemon.push({
      jsonrpc: "2.0",
      id: "glass-server-1",
      method: "elicitation/create",
      params: { message: "Confirm?" },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(daemon.received.find((m) => "id" in m && m.id === "glass-server-1")).toEqual({
      jsonrpc: "2.0",
      id: "glass-server-1",
      error: { code: -32601, message: expect.any(String) },
    });

    const handled = leasingDaemon();
    await connect(handled, { serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) } });
    expect(initializeParams(handled)[0]!.capabilities).toEqual({ elicitation: {} });
  });

  it("§3 cancels with notifications/cancelled {requestId, reason} as a notification, the id in its original JSON type", async () => {
    const daemon = new ScriptedDaemon(() => ({ stall: true }));
    const glass = await connect(daemon);
    await expect(glass.browser.getText({}, { requestId: "text-1", deadlineMs: 30 })).rejects.toMatchObject({
      code: "deadlineExceeded",
    });
    await expect(glass.listTools({ deadlineMs: 30 })).rejects.toMatchObject({ code: "deadlineExceeded" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const listId = (daemon.sent("tools/list").at(-1) as JsonRpcRequest).id;
    expect(typeof listId).toBe("number");
    expect(daemon.sent("notifications/cancelled")).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "text-1", reason: "deadline exceeded" },
      },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: listId, reason: "deadline exceeded" } },
    ]);
  });

  it("§3 calls ping and tools/list with object params, and reads tools/list's tools without paging", async () => {
    const tools = [
      { name: "observe", inputSchema: { type: "object" } },
      { name: "click", inputSchema: { type: "object" } },
    ];
    const daemon = new ScriptedDaemon((request) =>
      request.method === "tools/list" ? { result: { tools, nextCursor: "ignored" } } : { result: {} },
    );
    const glass = await connect(daemon);
    expect(await glass.listTools()).toEqual(tools);
    await glass.ping();
    expect(daemon.sent("tools/list").slice(1)).toEqual([
      { jsonrpc: "2.0", id: expect.any(Number), method: "tools/list", params: {} },
    ]);
    expect(daemon.sent("ping")).toEqual([{ jsonrpc: "2.0", id: expect.any(Number), method: "ping", params: {} }]);
  });
});

describe("§4 mutation leases", () => {
  it("§4 acquires, renews and releases the lease with glass/lease/* and only their params", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon);
    await glass.acquireLease({ ttlMs: 5000 });
    await glass.renewLease({ ttlMs: 6000 });
    await glass.releaseLease();
    const params = (method: string) => daemon.sent(method).map((message) => (message as JsonRpcRequest).params);
    expect(params("glass/lease/acquire")).toEqual([{ ttlMs: 5000 }]);
    expect(params("glass/lease/renew")).toEqual([{ token: "lt-1", ttlMs: 6000 }]);
    expect(params("glass/lease/release")).toEqual([{ token: "lt-1" }]);
  });

  it("§4 refuses a missing ttlMs or one outside 100..900000 before sending", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon);
    for (const ttlMs of [99, 900_001, 1.5, undefined as unknown as number, Number.NaN]) {
      await expect(glass.acquireLease({ ttlMs })).rejects.toMatchObject({
        code: "request.invalid",
        message: expect.stringContaining("100 to 900000"),
      });
    }
    await expect(glass.withLease(() => undefined, { ttlMs: 50 })).rejects.toMatchObject({ code: "request.invalid" });
    expect(daemon.sent("glass/lease/acquire")).toHaveLength(0);
    await glass.acquireLease({ ttlMs: 100 });
    await glass.renewLease({ ttlMs: 900_000 });
    await expect(glass.renewLease({ ttlMs: 0 })).rejects.toMatchObject({ code: "request.invalid" });
    expect(daemon.sent("glass/lease/renew")).toHaveLength(1);
  });

  it("§4 sends read-only tools no token: lease-exempt tools, executeTask's read-only kinds, sessionSnapshot but create and purge", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon, { validate: { payloads: false, responses: false } });
    await glass.acquireLease({ ttlMs: 60_000 });
    const readOnly: [string, object][] = [
      ["browser.preflightNavigation", { url: "https://library.example" }],
      ["browser.resolveIntentWithKnowledge", { intent: "renew" }],
      ["browser.screenshot", {}],
      ["task.execute", { task: { task: "form.inspect" }, expectedRevision: 1 }],
      ["browser.sessionSnapshot", { operation: "list" }],
      ["browser.project.read", { path: "README.md" }],
    ];
    const mutating: [string, object][] = [
      ["browser.sessionSnapshot", { operation: "create" }],
      ["browser.sessionSnapshot", { operation: "purge" }],
      ["browser.actAndVerify", { target: "ref=1" }],
      ["browser.project.edit", { path: "README.md" }],
    ];
    for (const [operation, payload] of [...readOnly, ...mutating])
      await glass.requestUntyped(operation, payload as never).catch(() => undefined);
    const args = toolCalls(daemon).map(argumentsOf);
    for (const sent of args.slice(0, readOnly.length)) expect(Object.keys(sent)).not.toContain("leaseToken");
    for (const sent of args.slice(readOnly.length)) expect(sent.leaseToken).toBe("lt-1");
  });

  it("§4 drops the lease the daemon says expired or is gone, so a new one can be acquired at once", async () => {
    let refusals = 0;
    const daemon = leasingDaemon({
      click: () => (refusals++ === 0 ? leaseRefusal("leaseExpired", true) : text({ executionId: "e-2" })),
    });
    const glass = await connect(daemon);
    await glass.acquireLease({ ttlMs: 60_000 });
    await expect(glass.browser.click({ target: "ref=1" })).rejects.toMatchObject({
      code: "leaseExpired",
      retry: { classification: "safeAfterReobserve", recommendedOperation: "acquire_lease" },
    });
    expect(glass.lease).toBeUndefined();
    const again = await glass.acquireLease({ ttlMs: 60_000 });
    expect(again.token).toBe("lt-2");
  });

  it("§4 never sends a mutation again on its own after a lease refusal", async () => {
    const daemon = leasingDaemon({ click: () => leaseRefusal("leaseHeld", true) });
    const glass = await Glass.connect(daemon, { retry: { maxRetries: 3, baseDelayMs: 1 } });
    clients.push(glass);
    await expect(glass.browser.click({ target: "ref=1" })).rejects.toMatchObject({
      code: "leaseHeld",
      retryable: true,
    });
    expect(toolCalls(daemon)).toHaveLength(1);
  });
});

describe("§7 absent fields", () => {
  it("§7 omits absent optional fields: nothing the client builds itself carries null", async () => {
    const daemon = leasingDaemon({ getText: () => ({ stall: true }) });
    // Options left unset — or set to null by a JavaScript caller — are left out of initialize.
    const glass = await connect(daemon, {
      negotiation: { schemas: null as never, requires: undefined, optional: [], acceptsExperimental: null as never },
      clientInfo: undefined,
    });
    expect(initializeParams(daemon)[0]!.glass).toEqual({ protocolVersions: [1] });
    await glass.withLease(
      async () => {
        await glass.browser.click({ target: "ref=1" });
      },
      { ttlMs: 60_000 },
    );
    await glass.browser.getText({}, { deadlineMs: 20 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(daemon.received.length).toBeGreaterThan(6);
    for (const message of daemon.received) expect(nullsIn(message)).toEqual([]);
  });

  it("§7 refuses a payload's null for an optional field before sending, saying to leave the field out", async () => {
    const daemon = leasingDaemon();
    const glass = await connect(daemon);
    for (const payload of [{ target: "ref=1", expectedRevision: null }, { target: null }]) {
      const error = await glass.request("browser.click", payload as never).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "payload.invalid",
        mutationPossible: false,
        message: expect.stringContaining("(got null)"),
      });
      expect((error as GlassError).rawMessage).toMatch(/leave an absent optional field out rather than sending null/);
    }
    await expect(glass.browser.type({ text: "hi", target: null as never })).rejects.toMatchObject({
      code: "payload.invalid",
    });
    expect(toolCalls(daemon)).toHaveLength(0);
  });
});
