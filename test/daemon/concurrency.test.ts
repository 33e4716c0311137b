import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { socketTransport } from "glass-sdk/node";
import {
  daemonState,
  freePort,
  globalFlags,
  requireInstalledDaemon,
  type SocketDaemon,
  startSocketDaemon,
  type StdioDaemon,
  stdioDaemon,
  spawnDaemon,
  killDaemon,
} from "./support/real-daemon.js";
import { type LabServer, serveLab } from "./support/lab-server.js";
import { handshake, RawPeer, type RawResponse, toolCall } from "../support/raw-mcp-peer.js";

requireInstalledDaemon();

/**
 * Waits until this connection's browser has started. Each socket connection of glass-browser
 * 0.3.14 launches a browser of its own on the daemon's one Chrome debugging port, so right after
 * another connection's browser closed, the port may still be taken and the first browser call fail
 * with the opaque `browser tool failed`.
 */
async function untilBrowserStarts(glass: Glass): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await glass.browser.listTargets();
      return;
    } catch (error) {
      if (!(error instanceof GlassError) || error.code !== "tool.failed" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** A wait that cannot succeed: it holds its slot until cancelled or timed out. */
const NEVER = { condition: "text=this text never appears", timeoutMs: 20_000 };

describe("stdio: 8 requests in flight", () => {
  let daemon: StdioDaemon;
  let lab: LabServer;
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await stdioDaemon();
  });
  afterAll(async () => {
    daemon?.state.remove();
    await lab?.close();
  });

  it("answers a 9th request in flight with -32000 'too many concurrent requests' at once; cancelled ones end with -32800", async () => {
    // a daemon process of its own, on its own Chrome port, beside the one the SDK test uses
    const state = daemonState();
    const child = spawnDaemon([...globalFlags(await freePort()), "--mcp"], state.env);
    const peer = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    try {
      await handshake(peer);
      expect(
        (await peer.request(0, "tools/call", toolCall("navigate", { url: lab.url("/lab") }), "newline")).result
          ?.isError,
      ).toBeUndefined();
      for (let id = 1; id <= 8; id++)
        peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: toolCall("wait", NEVER) });
      const started = Date.now();
      const ninth = await peer.request(9, "tools/call", toolCall("getText", {}));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(ninth.error).toMatchObject({
        code: -32000,
        message: "too many concurrent requests",
        data: { code: "resource.busy", phase: "preflight", mutationPossible: false },
      });
      // ping takes a slot too (only initialize, notifications and cancels do not)
      expect((await peer.request(10, "ping", {})).error).toMatchObject({
        code: -32000,
        message: "too many concurrent requests",
      });
      for (let id = 1; id <= 8; id++) peer.notify("notifications/cancelled", { requestId: id, reason: "test" });
      const answers: RawResponse[] = await Promise.all(
        Array.from({ length: 8 }, (_, index) => peer.response(index + 1, 10_000)),
      );
      for (const answer of answers)
        expect(answer.error).toMatchObject({ code: -32800, data: { code: "protocol.cancelled" } });
      expect((await peer.request(11, "tools/call", toolCall("getText", {}))).result?.isError).toBeUndefined();
    } finally {
      // not EOF: the daemon lets every accepted request finish before it exits on EOF
      killDaemon(child);
      state.remove();
    }
  });

  it("the SDK queues 12 calls at once behind its 8 slots: every one is answered by the daemon, none overloaded", async () => {
    const glass = await Glass.connect(daemon.transport);
    try {
      await glass.browser.navigate({ url: lab.url("/lab") });
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () =>
          glass.browser.wait({ condition: "text=this text never appears", timeoutMs: 150 }).then(
            () => "ok",
            (error: unknown) => (error instanceof GlassError ? error.code : String(error)),
          ),
        ),
      );
      expect(outcomes).toEqual(Array.from({ length: 12 }, () => "wait.timeout"));
      expect(glass.stats()).toMatchObject({ inFlight: 0, queued: 0 });
    } finally {
      await glass.close();
    }
  });
});

/**
 * A connection to the socket daemon, handshaken, once it has a free slot: a daemon lets a closed
 * connection's slot go a moment after the close, and closes a connection past its 4 at once.
 */
async function connectOnceFree(path: string): Promise<RawPeer> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const peer = await RawPeer.connect(path);
    try {
      await handshake(peer);
      return peer;
    } catch (error) {
      peer.close();
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe("socket: 4 connections, 4 requests in flight each", () => {
  let daemon: SocketDaemon;
  let lab: LabServer;
  beforeAll(async () => {
    lab = await serveLab();
    daemon = await startSocketDaemon();
  });
  afterAll(async () => {
    await daemon?.stop();
    await lab?.close();
  });

  it("closes a 5th connection without a reply while 4 are open, and accepts one again once a connection ends", async () => {
    const peers: RawPeer[] = [];
    try {
      for (let index = 0; index < 4; index++) {
        const peer = await RawPeer.connect(daemon.path);
        await handshake(peer);
        peers.push(peer);
      }
      const fifth = await RawPeer.connect(daemon.path);
      fifth.send({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {} },
      });
      await fifth.closed;
      expect(fifth.received).toEqual([]);
      peers.shift()?.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await RawPeer.connect(daemon.path);
      await handshake(again);
      peers.push(again);
    } finally {
      for (const peer of peers) peer.close();
    }
  });

  it("answers a 5th request in flight on one connection with -32000 'too many concurrent requests from this daemon client'", async () => {
    const peer = await connectOnceFree(daemon.path);
    try {
      // diagnostics is read-only (no lease) and takes durationMs; the session runs them one at a time
      for (let id = 1; id <= 4; id++)
        peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: toolCall("diagnostics", { durationMs: 300 }) });
      const fifth = await peer.request(5, "tools/call", toolCall("diagnostics", { durationMs: 300 }));
      expect(fifth.error).toMatchObject({
        code: -32000,
        message: "too many concurrent requests from this daemon client",
        data: { code: "resource.busy" },
      });
      const first = await Promise.all([1, 2, 3, 4].map((id) => peer.response(id, 15_000)));
      for (const answer of first) expect(answer.result?.isError).toBeUndefined();
    } finally {
      peer.close();
    }
  });

  it("the SDK queues 6 calls at once behind its 4 slots per socket connection: none overloaded", async () => {
    const glass = await Glass.connect(socketTransport({ path: daemon.path }));
    try {
      await untilBrowserStarts(glass);
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () =>
          glass.browser.diagnostics({ durationMs: 100 }).then(
            () => "ok",
            (error: unknown) => (error instanceof GlassError ? error.code : String(error)),
          ),
        ),
      );
      expect(outcomes).toEqual(Array.from({ length: 6 }, () => "ok"));
    } finally {
      await glass.close();
    }
  });

  it("gives each connection a browser of its own, on one debugging port: a second one cannot start while the first runs (a daemon bug)", async () => {
    const first = await Glass.connect(socketTransport({ path: daemon.path }));
    const second = await Glass.connect(socketTransport({ path: daemon.path }));
    try {
      await untilBrowserStarts(first);
      await first.withLease(
        async (_lease, signal) => void (await first.browser.navigate({ url: lab.url("/lab") }, { signal })),
        { ttlMs: 30_000 },
      );
      const refused = await second.browser.observe({ level: "summary" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(GlassError);
      expect(refused).toMatchObject({
        code: "tool.failed",
        mutationPossible: false,
        details: { kind: "opaqueToolFailure", tool: "observe" },
      });
      expect((await first.browser.observe({ level: "summary" })).page?.url).toBe(lab.url("/lab"));
      await first.close();
      await untilBrowserStarts(second);
      // not the first connection's page: a fresh browser
      expect((await second.browser.observe({ level: "summary" })).page?.url).toBe("about:blank");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
