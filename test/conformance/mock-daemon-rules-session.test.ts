/**
 * Conformance of the mock daemon to protocol §2 (JSON-RPC) and §3 (the session), rule by rule:
 * each `it` checks one rule over stdio and over the Unix socket with raw JSON-RPC peers.
 */
import { describe, expect, it } from "vitest";
import { rpcError } from "../../src/mock-daemon/json-rpc-replies.js";
import { errorData, rule, sleep } from "../support/conformance-target.js";
import { initializeParams, toolCall } from "../support/raw-mcp-peer.js";

/** A tools/call the golden fixture has an answer for. */
const observe = toolCall("observe", { level: "summary" });

/**
 * A daemon whose policy blocks or disables some capabilities and offers workflow authoring as
 * experimental (the daemon's default policy enables all but extensions).
 */
const RESTRICTED = {
  capabilities: { workflowAuthoring: "experimental", rawCdp: "disabledByPolicy", extensions: "blockedBySecurityGate" },
} as const;

interface Agreement {
  protocolVersion: number;
  agreedSchemas: Record<string, number>;
  capabilities: Record<string, { status: string }>;
}

describe("§3.1 initialize", () => {
  rule("§3.1 accepts the singular glass.protocolVersion", async (target) => {
    const peer = await target.connect();
    const response = await peer.request(
      1,
      "initialize",
      initializeParams({ protocolVersion: 1, schemas: { webIr: [1], task: [1] } }),
    );
    expect(response.error).toBeUndefined();
    expect(response.result!.glassAgreement).toMatchObject({ protocolVersion: 1, agreedSchemas: { webIr: 1, task: 1 } });
    const other = await target.connect();
    expect((await other.request(1, "initialize", initializeParams({ protocolVersion: 2 }))).error).toMatchObject({
      code: -32602,
    });
  });

  rule(
    "§3.1 takes protocolVersions (unless empty) before protocolVersion, and accepts a version list that contains 1",
    async (target) => {
      const cases: [glass: unknown, accepted: boolean][] = [
        [{ protocolVersions: [99, 1] }, true],
        [{ protocolVersions: [1], protocolVersion: 7 }, true],
        [{ protocolVersions: [2], protocolVersion: 1 }, false],
        [{ protocolVersions: [] }, true], // an empty list counts as none: [1]
        [{ protocolVersions: [], protocolVersion: 2 }, false],
      ];
      for (const [glass, accepted] of cases) {
        const peer = await target.connect();
        const response = await peer.request(1, "initialize", initializeParams(glass));
        expect(response.result !== undefined, JSON.stringify(glass)).toBe(accepted);
        if (!accepted)
          expect(response.error, JSON.stringify(glass)).toMatchObject({
            code: -32602,
            data: errorData("protocol.invalidParams"),
          });
        await target.hangUp(peer);
      }
    },
  );

  rule("§3.1 ignores unknown members of the glass object", async (target) => {
    const peer = await target.connect();
    const response = await peer.request(
      1,
      "initialize",
      initializeParams({
        protocolVersion: 1,
        schemas: { webIr: [1] },
        preferredLocale: "en",
        future: { nested: [1, 2] },
      }),
    );
    expect(response.result!.glassAgreement).toMatchObject({ agreedSchemas: { webIr: 1 } });
  });

  rule(
    "§3.1 glass: {} agrees to every schema, without experimental capabilities",
    async (target) => {
      const peer = await target.connect();
      const { result } = await peer.request(1, "initialize", initializeParams({}));
      const manifest = result!.glass as {
        schemas: Record<string, number[]>;
        capabilityStatuses: Record<string, string>;
      };
      const agreement = result!.glassAgreement as Agreement;
      expect(agreement.agreedSchemas).toEqual(
        Object.fromEntries(Object.entries(manifest.schemas).map(([name, versions]) => [name, Math.max(...versions)])),
      );
      expect(manifest.capabilityStatuses.workflowAuthoring).toBe("experimental");
      expect(agreement.capabilities).not.toHaveProperty("workflowAuthoring");
      expect(agreement.capabilities).toMatchObject({
        webIr: { status: "available" },
        taskProtocol: { status: "available" },
      });
    },
    RESTRICTED,
  );

  rule(
    "§3.1 leaving glass out agrees to everything, experimental capabilities included",
    async (target) => {
      const peer = await target.connect();
      const { result } = await peer.request(1, "initialize", initializeParams());
      const manifest = result!.glass as {
        schemas: Record<string, number[]>;
        capabilityStatuses: Record<string, string>;
      };
      const agreement = result!.glassAgreement as Agreement;
      expect(Object.keys(agreement.agreedSchemas).sort()).toEqual(Object.keys(manifest.schemas).sort());
      expect(agreement.capabilities).toEqual(
        Object.fromEntries(Object.entries(manifest.capabilityStatuses).map(([name, status]) => [name, { status }])),
      );
    },
    RESTRICTED,
  );

  rule(
    "§3.1 glass: null, or any other non-object, fails initialize with -32602; an array is read as the members in order",
    async (target) => {
      for (const glass of [[], [[1]]]) {
        const peer = await target.connect();
        expect(
          (await peer.request(1, "initialize", { ...initializeParams(), glass })).result,
          JSON.stringify(glass),
        ).toMatchObject({ glassAgreement: { protocolVersion: 1 } });
        await target.hangUp(peer);
      }
      for (const glass of [null, [[2]], "glass", 1, true]) {
        const peer = await target.connect();
        const response = await peer.request(1, "initialize", { ...initializeParams(), glass });
        expect(response.result, JSON.stringify(glass)).toBeUndefined();
        expect(response.error, JSON.stringify(glass)).toMatchObject({
          code: -32602,
          data: errorData("protocol.invalidParams"),
        });
        await target.hangUp(peer);
      }
    },
  );

  rule("§3.1 clientInfo and capabilities are optional and never checked", async (target) => {
    for (const params of [
      { protocolVersion: "2024-11-05" },
      { protocolVersion: "2024-11-05", clientInfo: 42, capabilities: "none" },
    ]) {
      const peer = await target.connect();
      const response = await peer.request(1, "initialize", params);
      expect(response.result, JSON.stringify(params)).toMatchObject({ protocolVersion: "2024-11-05" });
      await target.hangUp(peer);
    }
  });

  rule("§3.1 an unsupported or missing MCP protocolVersion gets -32602 and no counter-offer", async (target) => {
    for (const protocolVersion of ["2099-01-01", "2025-03-26", 20241105, undefined]) {
      const peer = await target.connect();
      const { protocolVersion: _dropped, ...rest } = initializeParams();
      const response = await peer.request(
        1,
        "initialize",
        protocolVersion === undefined ? rest : { ...rest, protocolVersion },
      );
      expect(response.result, String(protocolVersion)).toBeUndefined();
      expect(response.error, String(protocolVersion)).toMatchObject({
        code: -32602,
        data: errorData("protocol.invalidParams"),
      });
      await target.hangUp(peer);
    }
    const newest = await target.connect();
    expect((await newest.request(1, "initialize", initializeParams(undefined, "2025-11-25"))).result).toMatchObject({
      protocolVersion: "2025-11-25",
    });
  });

  rule("§3.1 a failed initialize may be followed by another on the same connection", async (target) => {
    const peer = await target.connect();
    expect((await peer.request(1, "initialize", initializeParams(undefined, "2099-01-01"))).error?.code).toBe(-32602);
    expect((await peer.request(2, "initialize", initializeParams({ requires: ["timeTravel"] }))).error?.code).toBe(
      -32602,
    );
    expect((await peer.request(3, "initialize", initializeParams({ protocolVersion: 1 }))).result).toMatchObject({
      protocolVersion: "2024-11-05",
    });
  });

  rule(
    "§3.1 an unknown schema name, an empty version list or no common version fails initialize with -32602",
    async (target) => {
      for (const schemas of [{ teleport: [1] }, { webIr: [] }, { action: [2, 3] }]) {
        const peer = await target.connect();
        expect(
          (await peer.request(1, "initialize", initializeParams({ schemas }))).error,
          JSON.stringify(schemas),
        ).toMatchObject({ code: -32602 });
        await target.hangUp(peer);
      }
    },
  );

  rule(
    "§3.1 an unknown or disabled required capability, or an experimental one not accepted, fails initialize with -32602",
    async (target) => {
      for (const glass of [
        { requires: ["timeTravel"] },
        { requires: ["rawCdp"] },
        { requires: ["workflowAuthoring"] },
      ]) {
        const peer = await target.connect();
        expect(
          (await peer.request(1, "initialize", initializeParams(glass))).error,
          JSON.stringify(glass),
        ).toMatchObject({ code: -32602 });
        await target.hangUp(peer);
      }
      const accepting = await target.connect();
      const { result } = await accepting.request(
        1,
        "initialize",
        initializeParams({ requires: ["workflowAuthoring"], acceptsExperimental: true }),
      );
      expect((result!.glassAgreement as Agreement).capabilities.workflowAuthoring).toEqual({ status: "experimental" });
    },
    RESTRICTED,
  );

  rule(
    "§3.1 unknown optional capabilities are dropped silently; a disabled optional one appears with its status",
    async (target) => {
      const peer = await target.connect();
      const { result } = await peer.request(
        1,
        "initialize",
        initializeParams({ optional: ["noSuchThing", "rawCdp", "extensions"] }),
      );
      const { capabilities } = result!.glassAgreement as Agreement;
      expect(capabilities).not.toHaveProperty("noSuchThing");
      expect(capabilities).toMatchObject({
        rawCdp: { status: "disabledByPolicy" },
        extensions: { status: "blockedBySecurityGate" },
      });
    },
    RESTRICTED,
  );
});

describe("§3.2 the initialize result", () => {
  rule("§3.2 holds protocolVersion, capabilities, serverInfo, the manifest and the agreement", async (target) => {
    const peer = await target.connect();
    const { result } = await peer.request(1, "initialize", initializeParams({ protocolVersion: 1 }));
    expect(result).toEqual({
      protocolVersion: "2024-11-05",
      capabilities: expect.any(Object),
      serverInfo: { name: expect.any(String), version: expect.any(String) },
      glass: {
        protocolVersion: 1,
        glassVersion: expect.any(String),
        schemas: expect.any(Object),
        capabilities: expect.any(Object),
        capabilityStatuses: expect.any(Object),
        constraints: {
          platform: expect.any(String),
          browserFamily: "chromium",
          policy: expect.any(String),
          maxSessions: expect.any(Number),
        },
      },
      glassAgreement: {
        protocolVersion: 1,
        agreedSchemas: expect.any(Object),
        capabilities: expect.any(Object),
        constraints: expect.any(Object),
      },
    });
    // As the daemon: mcpStdio on both transports, localDaemon enabled only on the socket
    // (over stdio it is listed as availableUncertified and false).
    const glass = result!.glass as {
      capabilities: Record<string, boolean>;
      capabilityStatuses: Record<string, string>;
    };
    expect(glass.capabilities.mcpStdio).toBe(true);
    expect(glass.capabilities.localDaemon).toBe(target.transport === "socket");
    expect(glass.capabilityStatuses.localDaemon).toBe(
      target.transport === "socket" ? "available" : "availableUncertified",
    );
  });
});

describe("§3.3 the handshake", () => {
  rule(
    "§3.3 every request with an id before notifications/initialized gets -32002, ping, tools/list and the lease methods included",
    async (target) => {
      const peer = await target.connect();
      const early = ["ping", "tools/list", "tools/call", "glass/lease/acquire", "prompts/list"];
      for (const [i, method] of early.entries()) {
        const params =
          method === "tools/call" ? observe : method === "glass/lease/acquire" ? { ttlMs: 1000 } : undefined;
        expect((await peer.request(`before-${i}`, method, params)).error, method).toMatchObject({
          code: -32002,
          data: errorData("protocol.notInitialized"),
        });
      }
      await peer.request("init", "initialize", initializeParams());
      expect((await peer.request("between", "ping")).error).toMatchObject({ code: -32002 });
      peer.notify("notifications/initialized");
      expect((await peer.request("after", "ping")).result).toEqual({});
    },
  );

  rule("§3.3 notifications before notifications/initialized are dropped", async (target) => {
    const peer = await target.connect();
    peer.notify("notifications/initialized"); // before initialize: dropped too
    peer.notify("tools/call", observe);
    await peer.request(1, "initialize", initializeParams());
    expect((await peer.request(2, "ping")).error?.code).toBe(-32002);
    peer.notify("tools/call", observe);
    peer.notify("notifications/initialized");
    expect((await peer.request(3, "ping")).result).toEqual({});
    expect(target.daemon.calls).toEqual([]);
  });

  rule(
    "§3.3 notifications/initialized sent with an id is answered -32002 and does not make the session ready",
    async (target) => {
      const peer = await target.connect();
      await peer.request(1, "initialize", initializeParams());
      expect((await peer.request(2, "notifications/initialized")).error).toMatchObject({ code: -32002 });
      expect((await peer.request(3, "tools/list")).error).toMatchObject({ code: -32002 });
    },
  );

  rule(
    "§3.3 an initialize after a successful one gets -32600, before and after notifications/initialized",
    async (target) => {
      const peer = await target.connect();
      await peer.request(1, "initialize", initializeParams());
      expect((await peer.request(2, "initialize", initializeParams())).error).toMatchObject({
        code: -32600,
        data: errorData("protocol.invalidRequest"),
      });
      peer.notify("notifications/initialized");
      expect((await peer.request(3, "initialize", initializeParams())).error).toMatchObject({ code: -32600 });
      expect((await peer.request(4, "ping")).result).toEqual({});
    },
  );

  rule("§3.3 an initialize sent without an id is ignored", async (target) => {
    const peer = await target.connect();
    peer.notify("initialize", initializeParams());
    expect(await peer.quietFor(100)).toEqual([]);
    expect((await peer.request(1, "initialize", initializeParams())).result).toBeDefined();
  });
});

describe("§3.4 the other methods", () => {
  rule("§3.4 ping answers {}", async (target) => {
    const peer = await target.connectReady();
    expect(await peer.request(1, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect((await peer.request(2, "ping", { anything: true })).result).toEqual({});
  });

  rule("§3.4 tools/list ignores its params: one page, a cursor is ignored", async (target) => {
    const peer = await target.connectReady();
    const plain = await peer.request(1, "tools/list");
    const cursored = await peer.request(2, "tools/list", { cursor: "page-2" });
    expect((plain.result!.tools as unknown[]).length).toBeGreaterThan(0);
    expect(cursored.result).toEqual(plain.result);
    expect(plain.result).not.toHaveProperty("nextCursor");
  });

  rule("§3.4 prompts/list and resources/list answer empty lists", async (target) => {
    const peer = await target.connectReady();
    expect((await peer.request(1, "prompts/list")).result).toEqual({ prompts: [] });
    expect((await peer.request(2, "resources/list")).result).toEqual({ resources: [] });
  });

  rule("§3.4 prompts/get and resources/read with an unknown or missing name or uri get -32602", async (target) => {
    const peer = await target.connectReady();
    const calls: [string, unknown][] = [
      ["prompts/get", { name: "summarize" }],
      ["prompts/get", {}],
      ["resources/read", { uri: "glass://page" }],
      ["resources/read", undefined],
    ];
    for (const [i, [method, params]] of calls.entries()) {
      expect((await peer.request(i, method, params)).error, `${method} ${JSON.stringify(params)}`).toMatchObject({
        code: -32602,
        data: errorData("protocol.invalidParams"),
      });
    }
  });

  rule(
    "§3.4 every other prompts/*, resources/*, completion/* and logging/* method gets -32601, resources/templates/list included",
    async (target) => {
      const peer = await target.connectReady();
      const methods = [
        "resources/templates/list",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/complete",
        "completion/complete",
        "logging/setLevel",
        "browser/teleport",
      ];
      for (const [i, method] of methods.entries()) {
        expect((await peer.request(i, method, {})).error, method).toMatchObject({
          code: -32601,
          data: errorData("protocol.methodNotFound"),
        });
      }
    },
  );

  rule(
    "§3.4 notifications/cancelled ends the call in flight with -32800, whatever its reason, and it is never answered again",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: observe });
      peer.notify("notifications/cancelled", { requestId: 9, reason: "the user gave up" });
      expect(await peer.response(9)).toEqual({
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32800, message: "request cancelled", data: errorData("protocol.cancelled") },
      });
      await sleep(250);
      expect(peer.responses(9)).toHaveLength(1);
      expect(target.daemon.inFlight()).toBe(0);
    },
    { latencyMs: 150 },
  );

  rule(
    '§3.4 notifications/cancelled needs the id\'s own JSON type: "7" does not cancel 7',
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: observe });
      peer.notify("notifications/cancelled", { requestId: "7" });
      expect((await peer.response(7)).result).toBeDefined();
    },
    { latencyMs: 100 },
  );

  rule(
    "§3.4 notifications/cancelled for an unknown or finished id is ignored",
    async (target) => {
      const peer = await target.connectReady();
      const answered = await peer.request(1, "tools/call", observe);
      peer.notify("notifications/cancelled", { requestId: 1 });
      peer.notify("notifications/cancelled", { requestId: "never-sent" });
      peer.notify("notifications/cancelled", {});
      expect(await peer.quietFor(100)).toEqual([]);
      expect(answered.result).toBeDefined();
      expect((await peer.request(2, "ping")).result).toEqual({});
    },
    { latencyMs: 20 },
  );

  rule(
    "§3.4 notifications/cancelled is acted on only as a notification: sent with an id it cancels nothing",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: observe });
      expect((await peer.request(2, "notifications/cancelled", { requestId: 1 })).error).toMatchObject({
        code: -32601,
      });
      expect((await peer.response(1)).result).toBeDefined();
    },
    { latencyMs: 100 },
  );

  rule(
    "§2 params._meta is never read, on any method: no progress notifications, and _meta inside arguments is an ordinary argument",
    async (target) => {
      const peer = await target.connect();
      const init = await peer.request(1, "initialize", { ...initializeParams(), _meta: { progressToken: "init" } });
      expect(init.result).toBeDefined();
      peer.notify("notifications/initialized");
      const call = await peer.request(2, "tools/call", { ...observe, _meta: { progressToken: "call" } });
      expect(call.result!.isError).toBeUndefined();
      const withMeta = await peer.request(
        3,
        "tools/call",
        toolCall("observe", { level: "summary", _meta: { note: "mine" } }),
      );
      expect(withMeta.result).toBeDefined();
      expect(await peer.quietFor(50)).toEqual([]);
      expect(peer.received.filter((r) => r.message !== undefined && "method" in r.message)).toEqual([]);
      expect(target.daemon.calls.at(-1)!.arguments).toEqual({ level: "summary", _meta: { note: "mine" } });
    },
  );
});

describe("§2 JSON-RPC ids and messages", () => {
  rule("§2 a null id is served and answered with id null", async (target) => {
    const peer = await target.connectReady();
    expect(await peer.request(null, "ping")).toEqual({ jsonrpc: "2.0", id: null, result: {} });
    peer.send({ jsonrpc: "2.0", id: null, method: "tools/call", params: observe });
    await peer.waitFor(() => peer.responses(null).length === 2);
    expect(peer.responses(null)[1]!.result!.content).toBeDefined();
  });

  rule(
    "§2 null ids are never de-duplicated",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: null, method: "tools/call", params: observe });
      peer.send({ jsonrpc: "2.0", id: null, method: "tools/call", params: observe });
      await peer.waitFor(() => peer.responses(null).length === 2);
      expect(peer.responses(null).every((r) => r.result !== undefined)).toBe(true);
    },
    { latencyMs: 100 },
  );

  rule(
    "§2 a call with a null id cannot be cancelled",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: null, method: "tools/call", params: observe });
      peer.notify("notifications/cancelled", { requestId: null });
      expect((await peer.response(null)).result).toBeDefined();
    },
    { latencyMs: 100 },
  );

  rule("§2 an id of another type than string, number or null gets -32600 answered with id null", async (target) => {
    const peer = await target.connectReady();
    for (const id of [{ n: 1 }, [1], true]) {
      const before = peer.responses(null).length;
      peer.send({ jsonrpc: "2.0", id, method: "ping" });
      await peer.waitFor(() => peer.responses(null).length === before + 1);
      expect(peer.responses(null).at(-1)!.error, JSON.stringify(id)).toMatchObject({
        code: -32600,
        data: errorData("protocol.invalidRequest"),
      });
    }
  });

  rule(
    "§2 a tools/call string id must be an identifier (non-empty, ≤ 128 UTF-8 bytes, no whitespace or control characters), else -32602 before anything else",
    async (target) => {
      const peer = await target.connectReady();
      for (const id of ["", "has space", "tab\tid", "bell\u0007", "c1\u0085", "a".repeat(129), "é".repeat(65)]) {
        // A mutating call without a lease: on the socket anything but the id check would answer -32003.
        const answer = await peer.request(id, "tools/call", toolCall("click", { target: "ref=r11:e4" }));
        expect(answer.error, JSON.stringify(id)).toMatchObject({
          code: -32602,
          data: errorData("protocol.invalidParams"),
        });
      }
      for (const id of ["café-猫", "a".repeat(128), "é".repeat(64)]) {
        expect((await peer.request(id, "tools/call", observe)).result, id).toBeDefined();
      }
      expect((await peer.request("a ping may have any string id", "ping")).result).toEqual({});
    },
  );

  rule(
    '§2 duplicate detection keys on the id\'s JSON text: "7" and 7 are different ids',
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: observe });
      peer.send({ jsonrpc: "2.0", id: "7", method: "tools/call", params: observe });
      expect((await peer.response(7)).result).toBeDefined();
      expect((await peer.response("7")).result).toBeDefined();
    },
    { latencyMs: 100 },
  );

  rule(
    "§2 a duplicate id is refused with -32600 only while the first request is in flight",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: observe });
      expect((await peer.request("dup", "ping")).error).toMatchObject({
        code: -32600,
        data: errorData("protocol.invalidRequest"),
      });
      await peer.waitFor(() => peer.responses("dup").length === 2);
      expect(peer.responses("dup")[1]!.result).toBeDefined();
      peer.send({ jsonrpc: "2.0", id: "dup", method: "tools/call", params: observe });
      await peer.waitFor(() => peer.responses("dup").length === 3);
      expect(peer.responses("dup")[2]!.result).toBeDefined();
    },
    { latencyMs: 100 },
  );

  rule("§2 a JSON array (a batch) gets one -32600 with id null, and none of its requests is served", async (target) => {
    const peer = await target.connectReady();
    peer.send([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    const answer = await peer.response(null);
    expect(answer.error).toMatchObject({ code: -32600, data: errorData("protocol.invalidRequest") });
    expect(await peer.quietFor(50)).toEqual([]);
    expect(peer.responses(1)).toEqual([]);
  });

  rule("§2 a message without jsonrpc or without a method gets -32600 with id null", async (target) => {
    const peer = await target.connectReady();
    const messages = [
      { id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2 },
      { jsonrpc: "2.0", id: 3, method: 5 },
    ];
    for (const [i, message] of messages.entries()) {
      peer.send(message);
      await peer.waitFor(() => peer.responses(null).length === i + 1);
      expect(peer.responses(null)[i]!.error, JSON.stringify(message)).toMatchObject({ code: -32600 });
    }
    expect(peer.responses(1)).toEqual([]);
  });

  rule('§2 a jsonrpc other than "2.0" gets -32600', async (target) => {
    const peer = await target.connectReady();
    peer.send({ jsonrpc: "1.0", id: 4, method: "ping" });
    expect((await peer.response(4)).error).toMatchObject({ code: -32600, data: errorData("protocol.invalidRequest") });
  });

  rule(
    "§2 every JSON-RPC error carries the error.data wrapper with the canonical code of its number",
    async (target) => {
      const peer = await target.connect();
      const expected: [code: number, dataCode: string, answer: () => Promise<unknown>][] = [
        [-32002, "protocol.notInitialized", () => peer.request("early", "ping")],
      ];
      for (const [code, dataCode, answer] of expected)
        expect(await answer()).toMatchObject({ error: { code, data: errorData(dataCode) } });
      await peer.request("init", "initialize", initializeParams());
      peer.notify("notifications/initialized");
      const checks: [code: number, dataCode: string, answer: () => Promise<unknown>][] = [
        [-32600, "protocol.invalidRequest", () => peer.request("again", "initialize", initializeParams())],
        [-32601, "protocol.methodNotFound", () => peer.request("m", "no/such/method")],
        [-32602, "protocol.invalidParams", () => peer.request("p", "tools/call", { arguments: {} })],
        [-32700, "protocol.error", () => (peer.sendRaw("{not json}\n"), peer.response(null))],
        [
          -32001,
          "protocol.error",
          () => peer.request("big", "tools/call", toolCall("observe", { pad: "x".repeat(12_000) }), "content-length"),
        ],
      ];
      for (const [code, dataCode, answer] of checks)
        expect(await answer(), String(code)).toMatchObject({ error: { code, data: errorData(dataCode) } });
      peer.send({ jsonrpc: "2.0", id: "slow", method: "tools/call", params: observe });
      expect(await peer.request("busy", "tools/call", observe)).toMatchObject({
        error: { code: -32000, data: errorData("resource.busy") },
      });
      peer.notify("notifications/cancelled", { requestId: "slow" });
      expect(await peer.response("slow")).toMatchObject({
        error: { code: -32800, data: errorData("protocol.cancelled") },
      });
      if (target.transport === "socket") {
        const refused = await peer.request("lease", "glass/lease/renew", { token: "lt-none", ttlMs: 1000 });
        expect(refused).toMatchObject({
          error: { code: -32003, data: errorData("policy.mutationLease", { code: "leaseNotFound", retryable: true }) },
        });
      }
    },
    { latencyMs: 150, limits: { maxActivePerSession: 1, maxInFlightPerClient: 1, maxResponseBytes: 8192 } },
  );

  rule("§2 an error message is cut to 512 UTF-8 bytes, in the error and in its data", async (target) => {
    const peer = await target.connectReady();
    const answer = await peer.request(1, `glass/unknown/${"é".repeat(2000)}`);
    expect(answer.error?.code).toBe(-32601);
    expect(Buffer.byteLength(answer.error!.message, "utf8")).toBeLessThanOrEqual(512);
    expect((answer.error!.data as { message: string }).message).toBe(answer.error!.message);
  });

  it("§2 error details over 16 KiB become {truncated, originalBytes, maxBytes}", () => {
    const details = { blob: "x".repeat(20_000) };
    expect(rpcError(-32003, "lease", details).data.details).toEqual({
      truncated: true,
      originalBytes: Buffer.byteLength(JSON.stringify(details)),
      maxBytes: 16_384,
    });
    expect(rpcError(-32003, "lease", { code: "leaseHeld", retryable: true }).data.details).toEqual({
      code: "leaseHeld",
      retryable: true,
    });
  });
});
