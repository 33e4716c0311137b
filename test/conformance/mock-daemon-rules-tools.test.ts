/**
 * Conformance of the mock daemon to protocol §2 (tools/call and its answers), §4 (lease context on
 * tool calls, strict tools) and §7 (responseMode), rule by rule over stdio and the Unix socket.
 */
import { describe, expect } from "vitest";
import type { GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { parseFixture } from "../../src/mock-daemon/golden-fixture.js";
import { errorData, isAccepted, isBrowserToolFailed, rule, texts, type Target } from "../support/conformance-target.js";
import { expectedToolResult, fixtureToolCall } from "../support/fixture-calls.js";
import { readGoldenFixture } from "../support/golden-fixture.js";
import { toolCall, type RawPeer } from "../support/raw-mcp-peer.js";

const fixture = parseFixture(readGoldenFixture());
const recorded = (requestId: string) => ({
  request: fixture.requests.find((r) => r.requestId === requestId)!,
  response: fixture.responses.find((r) => r.requestId === requestId)!,
});
const observe = recorded("observe-loans");
const validTask = recorded("validate-task-renew");
const invalidTask = recorded("validate-task-fill-empty");

/** Results of the lifting fixture: page text that is not JSON, and a tiny image. */
const PAGE_TEXT = "Loans due\n{this is page text, not JSON}";
const PNG = "iVBORw0KGgo=";

/** A valid intent request (resolveIntent, findTarget; executeIntent adds candidateId). */
const intent = { schemaVersion: 1, intent: "the Renew all button", action: "click", resolutionPolicy: "reportOnly" };
/** An intent whose action takes a value (the daemon refuses a value for a click). */
const typeIntent = {
  schemaVersion: 1,
  intent: "the card number field",
  action: "type",
  resolutionPolicy: "reportOnly",
};

/**
 * The arguments of `observe` at level summary: a read-only call that both the mock (its fixture
 * recorded it) and the real daemon (on whatever page its browser shows, about:blank) answer with a
 * success, and always alike while nothing changes the page.
 */
const SUMMARY = { level: "summary" };

/**
 * A mutating call both answer without a page of ours: a click on a CSS selector that matches
 * nothing. Past the lease gate and the argument decoding it fails, as an ordinary tool failure (no
 * recording on the mock, `target_not_found` on the daemon).
 */
const CLICK_NOTHING = { target: "css=#glass-rules-nothing" };

/** Whether a text is JSON written compactly: no whitespace outside its strings. */
function isCompactJson(text: string): boolean {
  JSON.parse(text);
  return !/\s/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
}

/** On the socket: a lease for `peer` and the argument that carries its token; over stdio nothing is needed. */
async function leaseFor(
  target: Target,
  peer: RawPeer,
): Promise<{ args: Record<string, unknown>; sessionId: string; token: string }> {
  if (target.transport === "stdio") return { args: {}, sessionId: "sess-stdio", token: "lt-unused" };
  const { result } = await peer.request(`lease-${Math.random()}`, "glass/lease/acquire", { ttlMs: 60_000 });
  const lease = result as { sessionId: string; token: string };
  return { args: { leaseToken: lease.token }, ...lease };
}

describe("§2 tools/call params", () => {
  rule("§2 a tools/call without arguments counts as arguments {}", async (target) => {
    const peer = await target.connectReady();
    const empty = await peer.request(1, "tools/call", toolCall("observe", {}));
    const bare = await peer.request(2, "tools/call", { name: "observe" });
    expect(bare.error).toBeUndefined();
    expect(bare.result).toEqual(empty.result);
  });

  rule("§2 arguments null, or any other non-object, gets -32602", async (target) => {
    const peer = await target.connectReady();
    for (const [i, args] of [null, [], "level=summary", 5].entries()) {
      expect(
        (await peer.request(i, "tools/call", { name: "observe", arguments: args })).error,
        JSON.stringify(args),
      ).toMatchObject({ code: -32602, data: errorData("protocol.invalidParams") });
    }
  });

  rule("§2 a missing or non-string tool name gets -32602", async (target) => {
    const peer = await target.connectReady();
    for (const [i, params] of [{ arguments: {} }, { name: 5, arguments: {} }, { name: null }, undefined].entries()) {
      expect((await peer.request(i, "tools/call", params)).error, JSON.stringify(params)).toMatchObject({
        code: -32602,
        data: errorData("protocol.invalidParams"),
      });
    }
  });

  rule("§3.4 a tools/call sent as a notification runs and is never answered", async (target) => {
    const peer = await target.connectReady();
    peer.notify("tools/call", fixtureToolCall(observe.request));
    await target.daemon.waitFor((daemon) => daemon.calls.length === 1);
    expect(target.daemon.calls[0]).toMatchObject({ id: undefined, tool: "observe" });
    expect(await peer.quietFor(100)).toEqual([]);
    expect(target.daemon.inFlight()).toBe(0);
  });
});

describe("§2 tool failures", () => {
  rule("§2 bad tool arguments get the isError result 'browser tool failed', never -32602", async (target) => {
    const peer = await target.connectReady();
    const lease = await leaseFor(target, peer);
    const calls = [
      toolCall("observe", { level: "everything" }),
      toolCall("click", { target: 5, ...lease.args }),
      toolCall("validateTask", {}),
      toolCall("screenshot", { quality: "high" }),
    ];
    for (const [i, call] of calls.entries()) {
      const answer = await peer.request(i, "tools/call", call);
      expect(isBrowserToolFailed(answer), JSON.stringify(call)).toBe(true);
      expect(answer.result, JSON.stringify(call)).toEqual({
        content: [{ type: "text", text: "browser tool failed" }],
        isError: true,
      });
    }
  });

  rule(
    "§7 an optional number such as expectedRevision or quality accepts null as absent; an optional string does not",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const numbers: [string, Record<string, unknown>, Record<string, unknown>][] = [
        ["screenshot", { quality: null }, { quality: "high" }],
        [
          "click",
          { ...CLICK_NOTHING, expectedRevision: null, ...lease.args },
          { ...CLICK_NOTHING, expectedRevision: "11", ...lease.args },
        ],
      ];
      for (const [i, [name, nullArgs, wrongArgs]] of numbers.entries()) {
        const answer = await peer.request(i, "tools/call", toolCall(name, nullArgs));
        expect(isAccepted(answer), `${name} ${JSON.stringify(answer)}`).toBe(true);
        // The argument is decoded, not skipped: a value of the wrong type is refused.
        expect(isBrowserToolFailed(await peer.request(10 + i, "tools/call", toolCall(name, wrongArgs))), name).toBe(
          true,
        );
      }
      expect(
        isBrowserToolFailed(
          await peer.request(20, "tools/call", toolCall("type", { text: "2940", target: null, ...lease.args })),
        ),
      ).toBe(true);
    },
  );

  rule("§2 an unknown tool gets 'browser tool failed'", async (target) => {
    const peer = await target.connectReady();
    const lease = await leaseFor(target, peer); // unknown tools count as mutating on the socket
    expect(
      isBrowserToolFailed(await peer.request(1, "tools/call", toolCall("teleport", { to: "moon", ...lease.args }))),
    ).toBe(true);
    expect(isBrowserToolFailed(await peer.request(2, "tools/call", toolCall("", { ...lease.args })))).toBe(true);
  });

  rule(
    "§7 a string responseMode other than minimal, normal or diagnostic gets 'browser tool failed'",
    async (target) => {
      const peer = await target.connectReady();
      expect(
        isBrowserToolFailed(
          await peer.request(1, "tools/call", toolCall("observe", { ...SUMMARY, responseMode: "compact" })),
        ),
      ).toBe(true);
      expect(
        isBrowserToolFailed(await peer.request(2, "tools/call", toolCall("observe", { ...SUMMARY, responseMode: "" }))),
      ).toBe(true);
      // observe's answer does not depend on responseMode: an accepted one answers as none at all.
      const plain = await peer.request(3, "tools/call", toolCall("observe", SUMMARY));
      expect(isAccepted(plain)).toBe(true);
      for (const [i, responseMode] of ["minimal", "normal", "diagnostic", 3].entries()) {
        const answer = await peer.request(10 + i, "tools/call", toolCall("observe", { ...SUMMARY, responseMode }));
        expect(answer.result, String(responseMode)).toEqual(plain.result);
      }
    },
  );

  rule(
    "§2 a browser-free tool drops unknown top-level arguments; its task and ir documents stay strict",
    async (target) => {
      const peer = await target.connectReady();
      const task = (validTask.request.payload as { task: Record<string, unknown> }).task;
      const extra = await peer.request(
        1,
        "tools/call",
        toolCall("validateTask", { task, leaseToken: "lt-stray", note: "dropped" }),
      );
      expect(extra.result).toEqual(expectedToolResult(validTask.response, validTask.request.operation));
      expect(
        isBrowserToolFailed(
          await peer.request(2, "tools/call", toolCall("validateTask", { task: { ...task, color: "red" } })),
        ),
      ).toBe(true);
      expect(
        isBrowserToolFailed(
          await peer.request(3, "tools/call", toolCall("validateTask", { task: { ...task, risk: "whatever" } })),
        ),
      ).toBe(true);
      const { limits: _limits, ...missing } = task;
      expect(
        isBrowserToolFailed(await peer.request(4, "tools/call", toolCall("validateTask", { task: missing }))),
      ).toBe(true);
    },
  );

  rule("§2 a task that decodes but breaks a rule gets the typed {kind, path, reason} failure", async (target) => {
    const peer = await target.connectReady();
    const task = (invalidTask.request.payload as { task: Record<string, unknown> }).task;
    const unrecorded = { ...task, scope: { regionName: "Another region" } };
    const answer = await peer.request(1, "tools/call", toolCall("validateTask", { task: unrecorded }));
    expect(answer.result!.isError).toBe(true);
    expect(JSON.parse(texts(answer)[0]!)).toEqual({
      kind: "taskValidation",
      path: "inputs",
      reason: expect.any(String),
    });
  });

  rule(
    "§2 executeTask answers a task that breaks a rule with 'browser tool failed', not the typed failure",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const task = (invalidTask.request.payload as { task: Record<string, unknown> }).task;
      const answer = await peer.request(
        1,
        "tools/call",
        toolCall("executeTask", {
          task: { ...task, scope: { regionName: "Another region" } },
          expectedRevision: 1,
          ...lease.args,
        }),
      );
      expect(isBrowserToolFailed(answer), JSON.stringify(answer).slice(0, 300)).toBe(true);
    },
  );
});

describe("§2 Web IR documents as the daemon decodes them", () => {
  const { ir } = recorded("validate-ir-search").request.payload as { ir: Record<string, any> };
  const entityId = ir.entities[0].id as string;
  rule(
    "§2 an unknown member of a Web IR document is skipped at its top, in an entity, a relationship, the coverage and the limits, and refused in its document and an entity's details",
    async (target) => {
      const peer = await target.connectReady();
      const skipped: Record<string, unknown>[] = [
        { ...ir, extra: 1 },
        { ...ir, entities: [{ ...ir.entities[0], extra: 1 }, ...ir.entities.slice(1)] },
        { ...ir, relationships: ir.relationships.map((relationship: object) => ({ ...relationship, extra: 1 })) },
        { ...ir, coverage: { ...ir.coverage, extra: 1 } },
        { ...ir, limits: { ...ir.limits, extra: 1 } },
      ];
      for (const [i, document] of skipped.entries()) {
        const answer = await peer.request(i, "tools/call", toolCall("validateWebIr", { ir: document }));
        expect(isAccepted(answer), JSON.stringify(answer)).toBe(true);
      }
      const refused = [
        { ...ir, document: { ...ir.document, extra: 1 } },
        { ...ir, entityDetails: { [entityId]: { extra: 1 } } },
      ];
      for (const [i, document] of refused.entries()) {
        expect(
          isBrowserToolFailed(await peer.request(10 + i, "tools/call", toolCall("validateWebIr", { ir: document }))),
        ).toBe(true);
      }
    },
  );
});

describe("§2 tool answers", () => {
  rule("§2 a success is one compact JSON text item with _meta.contextCost and no structuredContent", async (target) => {
    const peer = await target.connectReady();
    // A browser tool and a browser-free one.
    for (const [i, call] of [toolCall("observe", SUMMARY), fixtureToolCall(validTask.request)].entries()) {
      const name = String(call.name);
      const answer = await peer.request(i, "tools/call", call);
      const [text] = texts(answer);
      expect(typeof text, `${name}: ${JSON.stringify(answer).slice(0, 300)}`).toBe("string");
      const payloadBytes = Buffer.byteLength(text!, "utf8");
      expect(answer.result, name).toEqual({
        content: [{ type: "text", text }],
        _meta: { contextCost: { payloadBytes, estimatedTokens: Math.ceil(payloadBytes / 4) } },
      });
      const body: unknown = JSON.parse(text!);
      expect(typeof body === "object" && body !== null && !Array.isArray(body), `${name} answers a JSON object`).toBe(
        true,
      );
      expect(isCompactJson(text!), `${name} answers compact JSON: ${text!.slice(0, 200)}`).toBe(true);
    }
  });

  rule("§2 a tool failure is an isError result without _meta or structuredContent", async (target) => {
    const peer = await target.connectReady();
    const answer = await peer.request(1, "tools/call", fixtureToolCall(invalidTask.request));
    expect(answer.result).toEqual({ content: [{ type: "text", text: expect.any(String) }], isError: true });
    expect(JSON.parse(texts(answer)[0]!)).toMatchObject({ kind: "taskValidation", path: "inputs" });
  });

  rule(
    "§2 answers invert the lifting rule: getText as its plain text, a screenshot's image item without _meta, {result} unwrapped, extraContent appended",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const call = (id: number, name: string, args: Record<string, unknown>) =>
        peer.request(id, "tools/call", toolCall(name, { ...args, ...lease.args }));
      const cost = (text: string) => ({
        contextCost: { payloadBytes: Buffer.byteLength(text), estimatedTokens: Math.ceil(Buffer.byteLength(text) / 4) },
      });

      expect((await call(1, "getText", {})).result).toEqual({
        content: [{ type: "text", text: PAGE_TEXT }],
        _meta: cost(PAGE_TEXT),
      });
      expect((await call(2, "text", {})).result).toEqual({
        content: [{ type: "text", text: PAGE_TEXT }],
        _meta: cost(PAGE_TEXT),
      });
      expect((await call(3, "screenshot", { format: "png" })).result).toEqual({
        content: [
          { type: "text", text: '{"format":"png","width":2,"height":1}' },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      });
      expect((await call(4, "cookies", {})).result).toEqual({
        content: [{ type: "text", text: '[{"name":"sid","value":"1"}]' }],
        _meta: cost('[{"name":"sid","value":"1"}]'),
      });
      expect((await call(5, "observe", { level: "summary", includeScreenshot: true })).result).toEqual({
        content: [
          { type: "text", text: '{"revision":3,"level":"summary"}' },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "text", text: "second text item" },
        ],
        _meta: cost('{"revision":3,"level":"summary"}'),
      });
    },
    { fixture: liftingFixture() },
  );
});

describe("§2 and §4 lease context on tool calls", () => {
  rule(
    "§2 a string arguments.sessionId must be an identifier and equal mutationLease.sessionId, else -32602",
    async (target) => {
      const peer = await target.connectReady();
      const bad = [
        { ...SUMMARY, sessionId: "has space" },
        { ...SUMMARY, sessionId: "" },
        { ...SUMMARY, sessionId: "sess-a", mutationLease: { sessionId: "sess-b", token: "lt-x" } },
      ];
      for (const [i, args] of bad.entries()) {
        expect(
          (await peer.request(i, "tools/call", toolCall("observe", args))).error,
          JSON.stringify(args),
        ).toMatchObject({ code: -32602, data: errorData("protocol.invalidParams") });
      }
      // The others are served as if they carried no sessionId.
      const plain = await peer.request(9, "tools/call", toolCall("observe", SUMMARY));
      expect(isAccepted(plain)).toBe(true);
      const fine = [
        { ...SUMMARY, sessionId: "café-1" },
        { ...SUMMARY, sessionId: 42 },
        { ...SUMMARY, sessionId: "sess-a", mutationLease: { sessionId: "sess-a", token: "lt-x" } },
      ];
      for (const [i, args] of fine.entries()) {
        expect(
          (await peer.request(10 + i, "tools/call", toolCall("observe", args))).result,
          JSON.stringify(args),
        ).toEqual(plain.result);
      }
    },
  );

  rule("§4 a stray lease token on a read-only tool is accepted, and never checked", async (target) => {
    const peer = await target.connectReady();
    const plain = await peer.request(1, "tools/call", toolCall("observe", SUMMARY));
    expect(isAccepted(plain)).toBe(true);
    const strays = [
      { leaseToken: "lt-nobody" },
      { sessionId: "sess-1", mutationLease: { sessionId: "sess-1", token: "lt-nobody" } },
    ];
    const check = async (when: string, firstId: number): Promise<void> => {
      for (const [i, stray] of strays.entries()) {
        const answer = await peer.request(firstId + i, "tools/call", toolCall("observe", { ...SUMMARY, ...stray }));
        expect(answer.result, `${when}: ${JSON.stringify(stray)}`).toEqual(plain.result);
      }
    };
    await check("no lease held", 10);
    // On the socket, a wrong token stays unchecked while the caller holds the lease.
    if (target.transport === "socket") {
      await leaseFor(target, peer);
      await check("lease held", 20);
    }
  });

  rule(
    "§4 the six strict tools answer 'browser tool failed' to an argument they do not take, never -32003 or -32602",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const strict: [string, Record<string, unknown>][] = [
        ["preflightNavigation", { url: "https://library.example/loans", leaseToken: "lt-stray" }],
        ["preflightNavigation", { url: "https://library.example/loans", timeoutMs: 1000 }],
        ["resolveIntent", { ...intent, responseMode: "minimal" }],
        ["resolveIntent", { ...intent, _meta: {} }],
        ["findTarget", { ...intent, leaseToken: "lt-stray" }],
        ["resolveIntentWithKnowledge", { ...intent, sessionId: "sess-1" }],
        ["executeIntent", { ...intent, candidateId: "cand-1", ...lease.args, sessionId: lease.sessionId }],
        ["executeIntent", { ...intent, candidateId: "cand-1", ...lease.args, responseMode: "minimal" }],
        ["actAndVerify", { ...intent, mutationLease: { sessionId: lease.sessionId, token: lease.token } }],
      ];
      for (const [i, [name, args]] of strict.entries()) {
        const answer = await peer.request(i, "tools/call", toolCall(name, args));
        expect(isBrowserToolFailed(answer), `${name} ${JSON.stringify(args)}: ${JSON.stringify(answer)}`).toBe(true);
      }
    },
  );

  rule(
    "§4 executeIntent and actAndVerify take leaseToken alone, and the strict tools their own arguments",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const accepted: [string, Record<string, unknown>][] = [
        ["preflightNavigation", { url: "https://library.example/loans" }],
        ["resolveIntent", intent],
        ["findTarget", { ...intent, responseMode: "minimal" }],
        ["executeIntent", { ...intent, candidateId: "cand-1", ...lease.args }],
        ["executeIntent", { ...typeIntent, candidateId: "cand-1", value: "x", ...lease.args }],
        [
          "actAndVerify",
          {
            request: intent,
            candidateId: "cand-1",
            predicate: { urlEquals: "https://library.example/done" },
            timeoutMs: 1000,
            responseMode: "minimal",
            ...lease.args,
          },
        ],
      ];
      for (const [i, [name, args]] of accepted.entries()) {
        const answer = await peer.request(i, "tools/call", toolCall(name, args));
        expect(isAccepted(answer), `${name} ${JSON.stringify(args)}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(
          true,
        );
      }
    },
  );
});

describe("§4 executing an intent", () => {
  rule(
    "§4 executeIntent refuses a value its action does not take, an empty or missing one for type and select, and the actions it does not execute",
    async (target) => {
      const peer = await target.connectReady();
      const lease = await leaseFor(target, peer);
      const refused: Record<string, unknown>[] = [
        { ...intent, candidateId: "cand-1", value: "x" },
        { ...typeIntent, candidateId: "cand-1" },
        { ...typeIntent, candidateId: "cand-1", value: "" },
        { ...intent, action: "select", candidateId: "cand-1" },
        { ...intent, action: "extract", candidateId: "cand-1" },
        { ...intent, action: "toggle", candidateId: "cand-1" },
      ];
      for (const [i, args] of refused.entries()) {
        const answer = await peer.request(i, "tools/call", toolCall("executeIntent", { ...args, ...lease.args }));
        expect(isBrowserToolFailed(answer), `${JSON.stringify(args)}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(
          true,
        );
      }
    },
  );
});

/** A fixture whose results exercise the lifting rule in reverse. */
function liftingFixture(): GoldenFixture {
  const request = (requestId: string, operation: string, payload: Record<string, unknown>) => ({
    protocolVersion: 1 as const,
    requestId,
    operation,
    payload,
  });
  const success = (requestId: string, result: Record<string, unknown>) => ({
    protocolVersion: 1 as const,
    requestId,
    ok: true as const,
    result,
  });
  return {
    schemaVersion: 1,
    requests: [
      request("text-1", "browser.getText", {}),
      request("shot-1", "browser.screenshot", { format: "png" }),
      request("cookies-1", "browser.cookies", {}),
      request("observe-1", "browser.observe", { level: "summary", includeScreenshot: true }),
    ],
    responses: [
      success("text-1", { text: PAGE_TEXT }),
      success("shot-1", { format: "png", width: 2, height: 1, image: { data: PNG, mimeType: "image/png" } }),
      success("cookies-1", { result: [{ name: "sid", value: "1" }] }),
      success("observe-1", {
        revision: 3,
        level: "summary",
        image: { data: PNG, mimeType: "image/png" },
        extraContent: [{ type: "text", text: "second text item" }],
      }),
    ],
  } as unknown as GoldenFixture;
}
