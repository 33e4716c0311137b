// Client conformance, protocol §5 (transports and framing): how the client frames what it sends,
// depending on whether the server identified itself as Glass, over real stdio and Unix sockets —
// against a plain MCP server built with the official MCP SDK, a stand-in that reports the framing
// each request arrived in, and the mock daemon.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Glass, GlassError, type GlassRequest } from "glass-sdk";
import type { JsonRpcRequest } from "glass-sdk/protocol";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { mockDaemonOnSocket, type SocketMock } from "../support/mock-daemon-transports.js";
import { ScriptedDaemon } from "../support/scripted-daemon.js";

const plainMcpServer = fileURLToPath(new URL("../support/plain-mcp-server.mjs", import.meta.url));
const echoPeer = fileURLToPath(new URL("../support/echo-peer.mjs", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function connect(
  transport: Parameters<typeof Glass.connect>[0],
  options: Parameters<typeof Glass.connect>[1] = {},
): Promise<Glass> {
  const glass = await Glass.connect(transport, { retry: false, ...options });
  cleanups.push(() => glass.close());
  return glass;
}

/** A client of the plain MCP server (official SDK, McpServer over StdioServerTransport) as a child process. */
const plainServer = () => stdioTransport({ command: process.execPath, args: [plainMcpServer] });
/** A client of the echo peer, which answers tools/call with the framing the request arrived in; `--glass` makes it identify itself as Glass. */
const framingReporter = (glass: boolean) =>
  stdioTransport({ command: process.execPath, args: [echoPeer, ...(glass ? ["--glass"] : [])] });
/** How a tools/call reached the echo peer. */
type Arrival = { framing: "newline" | "content-length"; bytes: number };

describe("§5 framing by who the server is", () => {
  it("§5 sends JSON lines, whatever the size, to a plain MCP server: a request above 8 KiB to an official-SDK server over stdio is answered", async () => {
    const glass = await connect(plainServer(), { deadlineMs: 10_000, negotiation: false });
    expect(glass.serverInfo).toEqual({ name: "plain-mcp-server", version: "1.0.0" });
    expect(glass.manifest).toBeUndefined();
    const started = Date.now();
    expect(await glass.requestUntyped("browser.measure", { text: "x".repeat(20_000) })).toEqual({ length: 20_000 });
    expect(await glass.requestUntyped("browser.measure", { text: "é".repeat(300_000) })).toEqual({ length: 300_000 });
    expect(await glass.requestUntyped("browser.hello", {})).toEqual({ text: "hello from a plain MCP server" });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("§5 fails connect fast with initialize.failed against a plain MCP server when negotiation.requires names capabilities", async () => {
    const started = Date.now();
    const error = await Glass.connect(plainServer(), { negotiation: { requires: ["webIr"] } }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toBeInstanceOf(GlassError);
    expect(error).toMatchObject({
      code: "initialize.failed",
      retry: { classification: "notRetryable" },
      details: { required: ["webIr"] },
    });
    expect((error as GlassError).rawMessage).toContain("`negotiation: false`");
    const without = await connect(plainServer(), { negotiation: false });
    expect(await without.requestUntyped("browser.measure", { text: "ok" })).toEqual({ length: 2 });
  });

  it("§5 sends requests above 8 KiB with Content-Length, smaller ones as JSON lines, once the server identified itself as Glass, and reads answers in either framing", async () => {
    const glass = await connect(framingReporter(true), { negotiation: false });
    expect(glass.manifest?.glassVersion).toBe("0.0.0-echo");
    const small = (await glass.requestUntyped("browser.frame", { text: "x".repeat(8000) })) as Arrival;
    const large = (await glass.requestUntyped("browser.frame", { text: "x".repeat(9000) })) as Arrival;
    expect(small).toMatchObject({ framing: "newline" });
    expect(small.bytes).toBeLessThanOrEqual(8192);
    expect(large).toMatchObject({ framing: "content-length" });
    expect(large.bytes).toBeGreaterThan(8192);
  });

  it("§5 sends no Content-Length frame to a server without a glass manifest, even one that answers Glass-sized requests", async () => {
    const glass = await connect(framingReporter(false), { negotiation: false });
    expect(glass.manifest).toBeUndefined();
    expect(await glass.requestUntyped("browser.frame", { text: "x".repeat(9000) })).toMatchObject({
      framing: "newline",
    });
    expect(await glass.requestUntyped("browser.frame", { text: "y".repeat(5 * 1024 * 1024) })).toMatchObject({
      framing: "newline",
    });
  });

  it("§5 reaches the daemon socket with Content-Length above 8 KiB after the handshake (the mock daemon refuses longer lines)", async () => {
    const mock: SocketMock = await mockDaemonOnSocket();
    cleanups.push(() => mock.stop());
    const glass = await connect(mock.transport());
    const big = {
      protocolVersion: 1,
      requestId: "big-1",
      operation: "browser.getText",
      payload: { pad: "x".repeat(20_000) },
    } as GlassRequest;
    const response = await glass.send(big, { validate: false } as never);
    expect(response.ok ? "answered" : response.error.code).not.toMatch(/^(transport|deadline|mcp\.parseError)/);
    expect(mock.daemon.calls.at(-1)).toMatchObject({ tool: "getText", arguments: { pad: "x".repeat(20_000) } });
  });

  it("§5 refuses a request whose body exceeds the Glass daemon's 4 MiB before writing it, and the session goes on", async () => {
    const glass = await connect(framingReporter(true), { negotiation: false });
    const error = await glass
      .requestUntyped("browser.frame", { text: "x".repeat(4 * 1024 * 1024) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "request.invalid",
      mutationPossible: false,
      details: { maxBytes: 4 * 1024 * 1024 },
    });
    expect(await glass.requestUntyped("browser.frame", { text: "after" })).toMatchObject({ framing: "newline" });
  });
});

describe("§5 flow control", () => {
  it("§5 keeps at most 8 requests in flight over stdio and 4 over the daemon socket, queueing the rest", async () => {
    expect(stdioTransport({ command: "glass", args: ["--mcp"] }).maxInFlight).toBe(8);
    expect(socketTransport({ path: "/nonexistent/glass.sock" }).maxInFlight).toBe(4);
    for (const limit of [8, 4]) {
      const daemon = new ScriptedDaemon(() => ({ stall: true }), limit);
      const glass = await connect(daemon);
      const calls = Array.from({ length: 12 }, () =>
        glass.browser.getText({}, { deadlineMs: 200 }).catch(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((daemon.sent("tools/call") as JsonRpcRequest[]).length).toBe(limit);
      expect(glass.stats()).toMatchObject({ inFlight: limit, queued: 12 - limit });
      await glass.close();
      await Promise.all(calls);
    }
  });
});
