/**
 * Conformance of the mock daemon to protocol §5 (framing, flow control, response size), rule by
 * rule over stdio and the Unix socket with raw bytes, and the CLI's stdio as a real child process.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/mock-daemon/limits.js";
import { errorData, rule, sleep, type Target } from "../support/conformance-target.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";

const observe = toolCall("observe", { level: "summary" });

/** A ping line of exactly `bytes` bytes with its \n (the padding sits in params, which ping ignores). */
function pingLine(id: number, bytes: number): string {
  const bare = JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad: "" } });
  return `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad: "x".repeat(bytes - 1 - bare.length) } })}\n`;
}

/** Sends `bytes` on a ready connection and expects the daemon to close it without writing anything more. */
async function expectClosedWithoutReply(target: Target, bytes: string | Uint8Array, peer?: RawPeer): Promise<void> {
  const connection = peer ?? (await target.connectReady());
  const before = connection.received.length;
  connection.sendRaw(bytes);
  await connection.closed;
  expect(connection.received.slice(before)).toEqual([]);
}

describe("§5 framing accepted", () => {
  rule("§5 answers in the framing of the request", async (target) => {
    const peer = await target.connectReady();
    await peer.request(1, "ping", undefined, "content-length");
    await peer.request(2, "ping");
    await peer.request(3, "tools/call", observe, "content-length");
    const framing = (id: number) => peer.received.find((r) => r.message?.id === id)!.framing;
    expect([framing(1), framing(2), framing(3)]).toEqual(["content-length", "newline", "content-length"]);
  });

  rule("§5 CRLF line endings are accepted", async (target) => {
    const peer = await target.connectReady();
    peer.sendRaw(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\r\n`);
    expect((await peer.response(1)).result).toEqual({});
  });

  rule("§5 whitespace-only lines between messages are skipped", async (target) => {
    const peer = await target.connectReady();
    peer.sendRaw(`\n   \n\t\r\n${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n \r\n\n`);
    expect((await peer.response(1)).result).toEqual({});
    expect(await peer.quietFor(50)).toEqual([]);
  });

  rule("§5 a last line without its LF at the end of the stream is accepted", async (target) => {
    const peer = await target.connectReady();
    peer.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: "last", method: "ping" }));
    peer.endInput();
    expect((await peer.response("last")).result).toEqual({});
  });

  rule(
    "§5 a newline message of 8192 bytes with its LF is accepted; one byte more ends the connection without a reply",
    async (target) => {
      const peer = await target.connectReady();
      expect(Buffer.byteLength(pingLine(1, 8192))).toBe(8192);
      peer.sendRaw(pingLine(1, 8192));
      expect((await peer.response(1)).result).toEqual({});
      await expectClosedWithoutReply(target, pingLine(2, 8193), peer);
    },
  );

  rule("§5 blank lines before a message count toward its 8192-byte budget", async (target) => {
    const peer = await target.connectReady();
    peer.sendRaw(`${"\n".repeat(92)}${pingLine(1, 8100)}`);
    expect((await peer.response(1)).result).toEqual({});
    await expectClosedWithoutReply(target, `${" \r\n".repeat(31)}${pingLine(2, 8100)}`, peer);
  });

  rule("§5 a Content-Length body of 4 MiB is accepted", async (target) => {
    const peer = await target.connectReady();
    const bare = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "" } });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(4 * 1024 * 1024 - bare.length) },
    });
    expect(Buffer.byteLength(body)).toBe(4 * 1024 * 1024);
    peer.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect((await peer.response(1)).result).toEqual({});
  });

  rule(
    "§2 a well-framed message that is not JSON gets -32700 with id null, and the connection goes on",
    async (target) => {
      const peer = await target.connectReady();
      peer.sendRaw("{not json}\nContent-Length: 5\r\n\r\n[1,2,content-length: 2\r\n");
      peer.send({ jsonrpc: "2.0", id: 1, method: "ping" });
      expect((await peer.response(1)).result).toEqual({});
      expect(peer.responses(null)).toEqual(
        [1, 2, 3].map(() => ({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: expect.any(String), data: errorData("protocol.error") },
        })),
      );
    },
  );
});

describe("§5 framing violations end the connection without a reply", () => {
  rule("§5 a Content-Length header over 8 KiB", async (target) => {
    await expectClosedWithoutReply(target, `Content-Length: ${"0".repeat(8200)}2\r\n\r\n{}`);
  });

  rule("§5 a Content-Length body over 4 MiB", async (target) => {
    await expectClosedWithoutReply(target, `Content-Length: ${4 * 1024 * 1024 + 1}\r\n\r\n`);
  });

  rule("§5 a second header, such as Content-Type", async (target) => {
    await expectClosedWithoutReply(target, "Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}");
  });

  rule("§5 a malformed Content-Length header", async (target) => {
    await expectClosedWithoutReply(target, "Content-Length: nope\r\n\r\n{}");
    await expectClosedWithoutReply(target, "Content-Length: 2\n\r\n{}");
  });

  rule("§5 invalid UTF-8", async (target) => {
    await expectClosedWithoutReply(target, new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]));
  });

  rule(
    "§5 a frame not complete within the frame timeout of its first byte (10 s by default)",
    async (target) => {
      expect(DEFAULT_LIMITS.frameTimeoutMs).toBe(10_000);
      const started = Date.now();
      await expectClosedWithoutReply(target, '{"jsonrpc":"2.0","id":1,"method":"pi');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    },
    { limits: { frameTimeoutMs: 150 } },
  );

  rule(
    "§5 after a framing violation, calls in flight are never answered",
    async (target) => {
      const peer = await target.connectReady();
      peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: observe });
      await target.daemon.waitFor((daemon) => daemon.inFlight() === 1);
      await expectClosedWithoutReply(target, "Content-Length: x\r\n\r\n", peer);
      await sleep(300);
      expect(peer.responses(1)).toEqual([]);
      expect(target.daemon.inFlight()).toBe(0);
    },
    { latencyMs: 200 },
  );

  it("§5 over the CLI's stdio, a framing violation ends the daemon process (exit 1) without a reply", async () => {
    const { peer, child, exit, stderr } = RawPeer.spawnCli(["mock-daemon"]);
    try {
      await handshake(peer);
      const before = peer.received.length;
      peer.sendRaw(new Uint8Array([0xff, 0x0a]));
      expect(await exit).toBe(1);
      await peer.closed;
      expect(peer.received.slice(before)).toEqual([]);
      expect(stderr()).toMatch(/broke the framing rules/);
    } finally {
      child.kill();
    }
  });
});

describe("§5 flow control and response size", () => {
  rule(
    "§5 on stdio the 9th concurrent request gets -32000 at once; initialize, lease methods and cancels take no slot",
    async (target) => {
      const peer = await target.connectReady();
      for (let id = 1; id <= 8; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      const started = Date.now();
      expect((await peer.request(9, "tools/call", observe)).error).toMatchObject({
        code: -32000,
        data: errorData("resource.busy"),
      });
      expect((await peer.request(10, "ping")).error).toMatchObject({ code: -32000 });
      expect((await peer.request(11, "glass/lease/acquire", { ttlMs: 1000 })).error).toMatchObject({ code: -32601 });
      expect((await peer.request(12, "initialize", {})).error).toMatchObject({ code: -32600 });
      expect(Date.now() - started).toBeLessThan(300);
      peer.notify("notifications/cancelled", { requestId: 1 });
      expect((await peer.response(1)).error).toMatchObject({ code: -32800 });
      peer.send({ jsonrpc: "2.0", id: 13, method: "tools/call", params: observe });
      for (const id of [2, 3, 4, 5, 6, 7, 8, 13]) expect((await peer.response(id)).result, `call ${id}`).toBeDefined();
    },
    { transports: ["stdio"], latencyMs: 400 },
  );

  rule(
    "§5 on stdio a notification over the limit is dropped",
    async (target) => {
      const peer = await target.connectReady();
      for (let id = 1; id <= 8; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      peer.notify("tools/call", observe);
      await peer.request("after", "ping"); // -32000, but it shows the notification was taken
      expect(target.daemon.inFlight()).toBe(8);
      await peer.response(8);
      await target.daemon.waitFor((daemon) => daemon.inFlight() === 0);
      expect(await peer.quietFor(50)).toEqual([]);
    },
    { transports: ["stdio"], latencyMs: 200 },
  );

  rule(
    "§5 the socket allows 4 requests in flight per client (-32000 beyond)",
    async (target) => {
      const first = await target.connectReady();
      for (let id = 1; id <= 4; id++) first.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      expect((await first.request(5, "tools/call", observe)).error).toMatchObject({
        code: -32000,
        data: errorData("resource.busy"),
      });
      expect((await first.request(6, "glass/lease/acquire", { ttlMs: 1000 })).result).toBeDefined(); // lease methods take no slot
      const second = await target.connectReady();
      for (let id = 1; id <= 4; id++) second.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      for (let id = 1; id <= 4; id++) expect((await second.response(id)).result, `second ${id}`).toBeDefined();
    },
    { transports: ["socket"], latencyMs: 300 },
  );

  rule(
    "§5 the socket allows 16 requests in flight in all (-32000 beyond)",
    async (target) => {
      const [first, second, third] = [
        await target.connectReady(),
        await target.connectReady(),
        await target.connectReady(),
      ];
      for (const peer of [first!, second!])
        for (let id = 1; id <= 8; id++) peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: observe });
      await target.daemon.waitFor((daemon) => daemon.inFlight() === 16);
      expect((await third!.request(1, "tools/call", observe)).error).toMatchObject({
        code: -32000,
        message: expect.stringContaining("16"),
      });
    },
    { transports: ["socket"], latencyMs: 300, limits: { maxInFlightPerClient: 8 } },
  );

  rule(
    "§5 a 5th socket client is closed without a reply",
    async (target) => {
      for (let i = 0; i < 4; i++) await target.connectReady();
      const fifth = await target.connect();
      fifth.send({ jsonrpc: "2.0", id: 1, method: "ping" });
      await fifth.closed;
      expect(fifth.received).toEqual([]);
      expect(target.daemon.clientCount()).toBe(4);
    },
    { transports: ["socket"] },
  );

  rule(
    "§5 an answer over the response limit (32 MiB by default) becomes -32001 with the request's id",
    async (target) => {
      expect(DEFAULT_LIMITS.maxResponseBytes).toBe(32 * 1024 * 1024);
      const peer = await target.connectReady();
      const answer = await peer.request(
        "big",
        "tools/call",
        toolCall("observe", { pad: "x".repeat(12_000) }),
        "content-length",
      );
      expect(answer).toEqual({
        jsonrpc: "2.0",
        id: "big",
        error: { code: -32001, message: expect.any(String), data: errorData("protocol.error") },
      });
      expect((await peer.request("small", "ping")).result).toEqual({});
    },
    { limits: { maxResponseBytes: 8192 } },
  );
});
