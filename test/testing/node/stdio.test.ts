import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requiresLease } from "../../../src/operations/catalog.js";
import { parseFixture } from "../../../src/mock-daemon/golden-fixture.js";
import { expectedToolResult, fixtureToolCall } from "../../support/fixture-calls.js";
import { GOLDEN_CLI_ARGS, readGoldenFixture } from "../../support/golden-fixture.js";
import { handshake, RawPeer, toolCall } from "../../support/raw-mcp-peer.js";

const fixture = parseFixture(readGoldenFixture());
const observe = toolCall("observe", { level: "summary" });

describe("mock daemon over stdio (the CLI, spawned)", () => {
  let daemon: ReturnType<typeof RawPeer.spawnCli>;
  let initialized: Record<string, unknown>;

  beforeAll(async () => {
    daemon = RawPeer.spawnCli(["mock-daemon", ...GOLDEN_CLI_ARGS]);
    initialized = await handshake(daemon.peer, {
      schemas: { webIr: [1], task: [1] },
      requires: ["webIr", "taskProtocol"],
      optional: ["mcpStdio"],
    });
  });
  afterAll(() => {
    daemon.child.kill();
  });

  it("completes the handshake and offers mcpStdio, with localDaemon listed but not enabled", () => {
    const manifest = initialized.glass as {
      capabilities: Record<string, boolean>;
      constraints: { maxSessions: number };
    };
    expect(manifest.capabilities.mcpStdio).toBe(true);
    expect(manifest.capabilities.localDaemon).toBe(false); // as the daemon over stdio: listed, not enabled
    expect(initialized.glassAgreement).toMatchObject({
      agreedSchemas: { webIr: 1, task: 1 },
      capabilities: { mcpStdio: { status: "available" } },
    });
  });

  it("answers every fixture request, sent with its recorded arguments and lease context, with the fixture's answer", async () => {
    for (const request of fixture.requests) {
      const recorded = fixture.responses.find((r) => r.requestId === request.requestId)!;
      const answer = await daemon.peer.request(request.requestId, "tools/call", fixtureToolCall(request));
      expect(answer.result, request.requestId).toEqual(expectedToolResult(recorded, request.operation));
    }
    expect(fixture.requests.some((r) => requiresLease(r.operation, r.payload))).toBe(true);
  });

  it("accepts a Content-Length request and answers it in Content-Length framing", async () => {
    const { peer } = daemon;
    const answer = await peer.request(
      "framed",
      "tools/call",
      toolCall("getText", { pad: "y".repeat(20 * 1024) }),
      "content-length",
    );
    // The default daemon serves the simulated site: it reads its sign-in page.
    expect(answer.result!.isError).not.toBe(true);
    expect(JSON.stringify(answer.result!.content)).toContain("Sign in");
    expect(peer.received.find((r) => r.message?.id === "framed")!.framing).toBe("content-length");
  });

  it("writes only MCP frames to stdout and nothing to stderr", () => {
    expect(daemon.peer.received.every((r) => r.framing !== "garbage")).toBe(true);
    expect(daemon.stderr()).toBe("");
  });

  it("exits 0 when stdin ends", async () => {
    daemon.peer.close();
    expect(await daemon.exit).toBe(0);
  });
});

describe("mock daemon over stdio, broken framing", () => {
  it("ends the session without a reply on a newline request over 8 KiB: stdout closes, the reason goes to stderr, exit 1", async () => {
    const { peer, child, exit, stderr } = RawPeer.spawnCli(["mock-daemon"]);
    try {
      await handshake(peer);
      const before = peer.received.length;
      peer.send({
        jsonrpc: "2.0",
        id: "big",
        method: "tools/call",
        params: toolCall("observe", { pad: "x".repeat(9 * 1024) }),
      });
      expect(await exit).toBe(1);
      await peer.closed;
      expect(peer.received.slice(before)).toEqual([]);
      expect(stderr()).toMatch(/stdio broke the framing rules .*connection closed without a reply/);
    } finally {
      child.kill();
    }
  });
});

describe("mock daemon over stdio with latency", () => {
  it("allows 8 active requests per session: the 9th gets -32000, and a cancelled one gets -32800", async () => {
    const { peer, child, exit } = RawPeer.spawnCli(["mock-daemon", "--latency", "400"]);
    try {
      await handshake(peer);
      for (let id = 1; id <= 9; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      const ninth = await peer.response(9);
      expect(ninth.error).toMatchObject({ code: -32000, message: expect.stringContaining("8 requests") });
      peer.notify("notifications/cancelled", { requestId: 8, reason: "no longer needed" });
      expect((await peer.response(8)).error).toMatchObject({ code: -32800 });
      for (let id = 1; id <= 7; id++) expect((await peer.response(id)).result, `call ${id}`).toBeDefined();
      peer.close();
      expect(await exit).toBe(0);
    } finally {
      child.kill();
    }
  });
});

describe("mock daemon over stdio with the crash fault", () => {
  it("exits with status 1 when the call after the Nth arrives, before answering it", async () => {
    const { peer, exit, stderr } = RawPeer.spawnCli(["mock-daemon", "--faults", '{"crashAfterCalls":1}']);
    await handshake(peer);
    expect((await peer.request(1, "tools/call", observe)).result).toBeDefined();
    peer.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: observe });
    expect(await exit).toBe(1);
    expect(peer.responses(2)).toEqual([]);
    expect(stderr()).toContain("crash");
  });
});
