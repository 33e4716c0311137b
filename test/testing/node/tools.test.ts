import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { operations, requiresLease } from "../../../src/operations/catalog.js";
import { parseFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { readGoldenFixture } from "../../support/golden-fixture.js";
import { startSocketHarness, type SocketHarness } from "../../support/mock-daemon-harness.js";
import { toolCall } from "../../support/raw-mcp-peer.js";

const fixture = parseFixture(readGoldenFixture());
const catalogTools = Object.values(operations).map((op) => op.tool);

let harness: SocketHarness;
let slow: SocketHarness;
let restricted: SocketHarness;

beforeAll(async () => {
  harness = await startSocketHarness();
  slow = await startSocketHarness({ latencyMs: 200 });
  restricted = await startSocketHarness({ capabilities: { webIr: "disabledByPolicy" } });
});
afterEach(async () => {
  await Promise.all([harness.disconnectAll(), slow.disconnectAll(), restricted.disconnectAll()]);
});
afterAll(async () => {
  await Promise.all([harness.stop(), slow.stop(), restricted.stop()]);
});

describe("mock daemon tools", () => {
  it("lists every catalog tool with a description and an object input schema, in one page", async () => {
    const peer = await harness.connectReady();
    const { result } = await peer.request(1, "tools/list");
    const tools = result!.tools as { name: string; description: string; inputSchema: { type: string } }[];
    expect(tools.map((t) => t.name).sort()).toEqual([...catalogTools].sort());
    for (const tool of tools) {
      expect(tool.description.length).toBeGreaterThan(0);
      expect(tool.inputSchema.type).toBe("object");
    }
    expect(result!.nextCursor).toBeUndefined();
  });

  it("leaves the tools of a switched-off capability out of tools/list and fails calls to them", async () => {
    const peer = await restricted.connectReady();
    const { result } = await peer.request(1, "tools/list");
    const names = (result!.tools as { name: string }[]).map((t) => t.name);
    expect(names).not.toContain("inspectWebIr");
    expect(names).toContain("validateTask");
    const inspect = fixture.requests.find((r) => r.operation === "webIr.inspect")!;
    const call = await peer.request(2, "tools/call", fixtureToolCall(inspect));
    expect(call.result!.isError).toBe(true);
    const error = JSON.parse((call.result!.content as { text: string }[])[0]!.text) as {
      code: string;
      message: string;
    };
    expect(error).toMatchObject({ code: "capability.unavailable", message: expect.stringContaining("webIr") });
  });

  it("answers every fixture request with the fixture's result or error, as the wire conventions say", async () => {
    const peer = await harness.connectReady();
    const lease = (await peer.request("lease", "glass/lease/acquire", { ttlMs: 60_000 })).result as {
      sessionId: string;
      token: string;
    };
    for (const request of fixture.requests) {
      const recorded = fixture.responses.find((r) => r.requestId === request.requestId)!;
      const mutating = requiresLease(request.operation, request.payload);
      const answer = await peer.request(
        request.requestId,
        "tools/call",
        fixtureToolCall(request, mutating ? lease : undefined),
      );
      expect(answer.error, request.requestId).toBeUndefined();
      expect(answer.result, request.requestId).toEqual(expectedToolResult(recorded, request.operation));
      expect(answer.result).not.toHaveProperty("structuredContent");
    }
  });

  it("records fixture errors of the document kinds in the canonical lifted shape the client rebuilds", () => {
    for (const response of fixture.responses) {
      if (response.ok) continue;
      const details = response.error.details as { kind?: string; reason?: string } | undefined;
      if (details?.kind === undefined) continue;
      const webIr = details.kind === "webIrValidation";
      expect(response.error).toEqual({
        code: webIr ? "webIr.invalid" : "task.invalid",
        phase: "preflight",
        message: webIr ? "Web IR validation failed" : details.reason,
        mutationPossible: false,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
        details,
      });
    }
  });

  it("matches arguments whatever their key order", async () => {
    const peer = await harness.connectReady();
    const diff = fixture.requests.find((r) => r.requestId === "diff-ir-loans")!;
    const { name, arguments: args } = fixtureToolCall(diff);
    const reversed = Object.fromEntries(Object.entries(args).reverse());
    const answer = await peer.request(1, "tools/call", { name, arguments: reversed });
    expect(answer.result!.isError).toBeUndefined();
  });

  it("answers an unmatched call with an isError result naming the operation and how the payload differs from the recorded one", async () => {
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("observe", { level: "detailed" }));
    expect(answer.result!.isError).toBe(true);
    const error = JSON.parse((answer.result!.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    expect(error).toMatchObject({
      code: "mock.unmatched",
      message:
        'no recorded answer for browser.observe with this payload; the fixture has 1 answer for browser.observe. It differs at /level: sent "detailed", recorded "summary". Recorded: {"level":"summary"}',
      retry: { classification: "notRetryable", recommendedOperation: "record_fixture" },
      details: { operation: "browser.observe", payload: { level: "detailed" } },
    });
  });

  it("matches calls as its match option says", async () => {
    const lenient = await startSocketHarness({ match: { ignore: ["/level"] } });
    try {
      const peer = await lenient.connectReady();
      const answer = await peer.request(1, "tools/call", toolCall("observe", { level: "detailed" }));
      const observe = fixture.requests.find((r) => r.operation === "browser.observe")!;
      expect(answer.result).toEqual(
        expectedToolResult(fixture.responses.find((r) => r.requestId === observe.requestId)!, observe.operation),
      );
    } finally {
      await lenient.stop();
    }
  });

  it("maps a tool outside the catalog to browser.<tool>", async () => {
    const peer = await harness.connectReady();
    const answer = await peer.request(1, "tools/call", toolCall("workspaceStatus"));
    const error = JSON.parse((answer.result!.content as { text: string }[])[0]!.text) as { message: string };
    expect(error.message).toMatch(/^no answers for browser\.workspaceStatus at all; recorded operations: /);
  });

  it("adds a trace item to a failure when includeTrace is set, and keeps it out of the payload", async () => {
    const peer = await harness.connectReady();
    const failing = fixture.requests.find((r) => r.requestId === "validate-task-fill-empty")!;
    const call = fixtureToolCall(failing);
    const answer = await peer.request(1, "tools/call", {
      ...call,
      arguments: { ...call.arguments, includeTrace: true, responseMode: "diagnostic" },
    });
    const content = answer.result!.content as { text: string }[];
    expect(content).toHaveLength(2);
    expect(JSON.parse(content[0]!.text)).toMatchObject({ kind: "taskValidation" });
  });

  it("answers tools/call without a usable name with -32602", async () => {
    const peer = await harness.connectReady();
    expect((await peer.request(1, "tools/call", { arguments: {} })).error?.code).toBe(-32602);
    expect((await peer.request(2, "tools/call", { name: "observe", arguments: [1] })).error?.code).toBe(-32602);
  });

  it("ends a cancelled call with -32800 and never answers it otherwise", async () => {
    const peer = await slow.connectReady();
    peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: toolCall("observe", { level: "summary" }) });
    peer.notify("notifications/cancelled", { requestId: 7, reason: "deadline" });
    const answer = await peer.response(7);
    expect(answer.error).toMatchObject({
      code: -32800,
      message: "request cancelled",
      data: { code: "protocol.cancelled" },
    });
    await peer.quietFor(300);
    expect(peer.responses(7)).toHaveLength(1);
  });

  it("answers a tools/call after the configured latency", async () => {
    const peer = await slow.connectReady();
    const started = Date.now();
    const answer = await peer.request(1, "tools/call", toolCall("observe", { level: "summary" }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(answer.result!.content).toBeDefined();
  });

  it("refuses a second workflow while one is running with -32600", async () => {
    const peer = await slow.connectReady();
    const lease = (await peer.request("lease", "glass/lease/acquire", { ttlMs: 60_000 })).result as {
      sessionId: string;
      token: string;
    };
    const workflow = fixture.requests.find((r) => r.operation === "browser.workflow")!;
    peer.send({ jsonrpc: "2.0", id: "w1", method: "tools/call", params: fixtureToolCall(workflow, lease) });
    const second = await peer.request("w2", "tools/call", fixtureToolCall(workflow, lease));
    expect(second.error).toMatchObject({ code: -32600, message: expect.stringContaining("workflow already active") });
    expect((await peer.response("w1")).result).toBeDefined();
  });
});
