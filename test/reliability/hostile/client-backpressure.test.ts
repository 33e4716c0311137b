/**
 * A hostile daemon sends the client requests and stops reading. Once, the client echoed each
 * request's method (1 MiB names) in its -32601 answer and queued every answer for a peer that read
 * none of them: 400 such requests took the client from 58 to 940 MB. Now an answer quotes at most
 * 64 bytes of a method, the client keeps at most 4 MiB of unwritten answers (more than the
 * transport reports in `bufferedBytes` fails it too), and past that bound the connection fails with
 * `transport.closed` (`details.reason: "peerNotReading"`) instead of growing. A handler works on at
 * most 16 requests at once (more get -32000, as the daemon answers its clients).
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  Glass,
  type GlassError,
  TransportClosedError,
  type GlassLogEvent,
  type GlassTransport,
  type TransportHandlers,
} from "glass-sdk";
import type { JsonRpcMessage } from "glass-sdk/protocol";
import { socketTransport, stdioTransport } from "glass-sdk/node";
import { MAX_BUFFERED_BYTES, MAX_HANDLED_REQUESTS, MAX_UNWRITTEN_ANSWER_BYTES } from "../../../src/mcp/mcp-session.js";
import { startHostileSocketDaemon, type HostileSocketDaemon } from "../support/hostile-socket-daemon.js";

let daemon: HostileSocketDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

const MiB = 1024 * 1024;

describe("daemon requests with 1 MiB method names, sent to a client whose peer stops reading", () => {
  it("each -32601 answer quotes at most 64 bytes of the method: what the client writes stays small", async () => {
    const COUNT = 128;
    daemon = await startHostileSocketDaemon();
    const wire: string[] = [];
    const glass = await Glass.connect(socketTransport({ path: daemon.path }), {
      negotiation: false,
      logger: (event: GlassLogEvent) => event.type === "wire" && wire.push(event.detail),
    });
    const peer = await daemon.firstPeer();
    await peer.until(() => peer.received.some((message) => message.method === "notifications/initialized"));
    const before = peer.bytesRead;
    peer.stopReading();
    for (let i = 0; i < COUNT; i++)
      await peer.send({
        jsonrpc: "2.0",
        id: `glass-server-${i}`,
        method: `${String(i).padStart(4, "0")}${"m".repeat(MiB)}`,
      });
    // The client answered every one of them (its log says so, each line short)...
    await peer.until(() => wire.filter((line) => line.startsWith("daemon request")).length === COUNT, 15_000);
    expect(Math.max(...wire.map((line) => line.length))).toBeLessThan(200);
    // ...and what it wrote, read once the daemon reads again, is COUNT small answers.
    peer.resumeReading();
    await peer.until(
      () =>
        peer.received.filter((message) => typeof message.id === "string" && message.id.startsWith("glass-server-"))
          .length === COUNT,
    );
    const answers = peer.received.filter(
      (message) => typeof message.id === "string" && message.id.startsWith("glass-server-"),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ error: { code: -32601 } });
      expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(256);
    }
    expect(peer.bytesRead - before).toBeLessThan(COUNT * 256);
    expect(glass.stats().closed).toBe(false);
    await glass.close();
  });
});

/** The client's transport to the hostile daemon: its socket, or stdio through a child that relays stdin and stdout to the socket byte for byte. */
function transportTo(kind: "socket" | "stdio", path: string): GlassTransport {
  if (kind === "socket") return socketTransport({ path });
  const relay =
    'const s = require("node:net").connect(process.env.HOSTILE_SOCKET); process.stdin.pipe(s); s.pipe(process.stdout); s.on("close", () => process.exit(0)); s.on("error", () => process.exit(1));';
  return stdioTransport({
    command: process.execPath,
    args: ["-e", relay],
    env: { HOSTILE_SOCKET: path },
    stderr: "ignore",
    closeTimeoutMs: 200,
  });
}

describe("a daemon that keeps sending requests and never reads the answers", () => {
  it.each(["socket", "stdio"] as const)(
    "over %s: bufferedBytes grows with the answers it cannot write, and the connection fails with transport.closed (peerNotReading) once 4 MiB of them wait; the pending call learns why",
    async (kind) => {
      daemon = await startHostileSocketDaemon();
      const transport = transportTo(kind, daemon.path);
      const glass = await Glass.connect(transport, { negotiation: false });
      const peer = await daemon.firstPeer();
      await peer.until(() => peer.received.some((message) => message.method === "notifications/initialized"));
      expect(transport.bufferedBytes).toBe(0);
      // A call the daemon never answers, then the flood.
      let settled = false;
      const call = glass.browser
        .observe({ level: "summary" }, { deadlineMs: 10_000 })
        .catch((error: unknown) => error)
        .finally(() => (settled = true));
      await peer.until(() => peer.received.some((message) => message.method === "tools/call"));
      peer.stopReading();
      const method = `elicitation/${"x".repeat(200)}`;
      let sent = 0;
      let mostBuffered = 0;
      while (sent < 200_000 && !settled && !peer.closed) {
        await peer.send({ jsonrpc: "2.0", id: `glass-server-${sent++}`, method });
        mostBuffered = Math.max(mostBuffered, transport.bufferedBytes ?? 0);
      }
      expect(sent, "the client never gave up on a peer that does not read").toBeLessThan(200_000);
      const error = await call;
      expect(error).toBeInstanceOf(TransportClosedError);
      expect(error).toMatchObject({
        code: "transport.closed",
        mutationPossible: false,
        details: { reason: "peerNotReading" },
      });
      const details = (error as GlassError).details as { unwrittenAnswerBytes: number; bufferedBytes?: number };
      expect(details.unwrittenAnswerBytes).toBeLessThanOrEqual(MAX_UNWRITTEN_ANSWER_BYTES);
      // The transport reported what waited for the peer: most of the answers the bound counted (the rest sat in the kernel's buffers).
      console.info(
        `${kind}: ${sent} daemon requests; bufferedBytes reached ${mostBuffered} bytes; at the bound ${details.bufferedBytes} bytes buffered, ${details.unwrittenAnswerBytes} bytes of answers unwritten`,
      );
      expect(details.bufferedBytes).toBeGreaterThan(MiB);
      expect(mostBuffered).toBeGreaterThan(MiB);
      expect(mostBuffered).toBeLessThanOrEqual(MAX_UNWRITTEN_ANSWER_BYTES + 64 * 1024);
      expect((error as GlassError).message).toContain("stopped reading");
      expect(glass.stats().closed).toBe(true);
      await glass.close();
    },
  );
});

/** An in-memory transport whose peer never takes what is sent (each send stays pending), reporting `bufferedBytes`. */
class StuckPeer implements GlassTransport {
  readonly kind = "memory";
  readonly maxInFlight = 4;
  handlers: TransportHandlers | undefined;
  bufferedBytes: number | undefined = undefined;
  readonly unsent: JsonRpcMessage[] = [];
  closed = false;
  stuck = false;

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if ("method" in message && message.method === "initialize") {
      queueMicrotask(() =>
        this.handlers?.onMessage({
          jsonrpc: "2.0",
          id: (message as { id: number }).id,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "stuck", version: "1" } },
        }),
      );
      return Promise.resolve();
    }
    // The connect-time tools/list: these tests make no tool call, so the tool list is beside the
    // point; answered -32601 (a server without the method), the client checks no call.
    if ("method" in message && message.method === "tools/list" && "id" in message) {
      queueMicrotask(() =>
        this.handlers?.onMessage({
          jsonrpc: "2.0",
          id: (message as { id: string }).id,
          error: { code: -32601, message: "method not found: tools/list" },
        }),
      );
      return Promise.resolve();
    }
    if (!this.stuck) return Promise.resolve();
    this.unsent.push(message);
    return new Promise(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

describe("the bound holds on any transport", () => {
  it("answers a transport never writes: the connection fails past 4 MiB of them", async () => {
    const transport = new StuckPeer();
    const glass = await Glass.connect(transport, { negotiation: false });
    transport.stuck = true;
    const big = "y".repeat(1024);
    let sent = 0;
    while (!transport.closed && sent < 100_000)
      transport.handlers!.onMessage({ jsonrpc: "2.0", id: `${big}-${sent++}`, method: "sampling/createMessage" });
    expect(transport.closed).toBe(true);
    // About 4 MiB of ~1.1 KB answers, not 100,000 of them.
    expect(transport.unsent.length).toBeLessThan((MAX_UNWRITTEN_ANSWER_BYTES / 1024) * 1.1);
    expect(glass.stats().closed).toBe(true);
    await glass.close();
  });

  it("a transport that reports more than 64 MiB buffered for the peer: the next answer fails the connection instead", async () => {
    const transport = new StuckPeer();
    const glass = await Glass.connect(transport, { negotiation: false });
    transport.bufferedBytes = MAX_BUFFERED_BYTES + 1;
    const call = glass.ping({ deadlineMs: 5000 }).catch((error: unknown) => error);
    transport.handlers!.onMessage({ jsonrpc: "2.0", id: "glass-server-1", method: "x" });
    expect(transport.closed).toBe(true);
    expect(await call).toMatchObject({
      code: "transport.closed",
      details: { reason: "peerNotReading", bufferedBytes: MAX_BUFFERED_BYTES + 1 },
    });
    await glass.close();
  });

  it(`a handler works on at most ${MAX_HANDLED_REQUESTS} requests at once; more are answered -32000`, async () => {
    const transport = new StuckPeer();
    const answers: JsonRpcMessage[] = [];
    const original = transport.send.bind(transport);
    transport.send = (message) => {
      if ("id" in message && !("method" in message)) answers.push(message);
      return original(message);
    };
    const release: (() => void)[] = [];
    const glass = await Glass.connect(transport, {
      negotiation: false,
      serverRequestHandlers: {
        "elicitation/create": () => new Promise((resolve) => release.push(() => resolve({ action: "decline" }))),
      },
    });
    for (let i = 0; i < MAX_HANDLED_REQUESTS + 4; i++)
      transport.handlers!.onMessage({ jsonrpc: "2.0", id: `e-${i}`, method: "elicitation/create", params: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers.filter((answer) => (answer as { error?: { code: number } }).error?.code === -32000)).toHaveLength(4);
    for (const done of release) done();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers.filter((answer) => "result" in answer)).toHaveLength(MAX_HANDLED_REQUESTS);
    await glass.close();
  });
});
