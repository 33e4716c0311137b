/**
 * A hostile daemon on a real Unix socket, for the hostile-client suites: it answers `initialize`
 * like a Glass daemon (a manifest, so the client frames as it would for the daemon) and the
 * client's connect-time `tools/list` like one too (the catalog's tools, or those the test names,
 * so the client checks its calls as it would against a daemon), and hands every other message to
 * the test, which answers however it likes — with raw text, deep JSON, requests of its own — and
 * can stop reading (the kernel's buffers fill, then the client's). Every message, those two
 * included, is recorded in `received`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operations } from "../../../src/operations/catalog.js";

/** Every tool of the catalog by MCP name: what a Glass daemon lists unless a test names its own. */
export const CATALOG_TOOLS: readonly string[] = Object.values(operations).map((op) => op.tool);

/** One client connection as the hostile daemon sees it. */
export class HostilePeer {
  /** Every message the client sent, parsed. */
  readonly received: Record<string, unknown>[] = [];
  /** Bytes the client wrote, counted as they are read. */
  bytesRead = 0;
  private buffer = Buffer.alloc(0);
  private readonly waiters = new Set<() => void>();
  closed = false;

  constructor(
    readonly socket: Socket,
    private readonly onMessage: (message: Record<string, unknown>, peer: HostilePeer) => void,
    /** The tools `tools/list` names. */
    private readonly tools: readonly string[] = CATALOG_TOOLS,
  ) {
    socket.on("data", (chunk: Buffer) => {
      this.bytesRead += chunk.length;
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Writes one message as a JSON line; resolves when the socket took it (drain respected). */
  send(message: unknown): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes raw text; resolves once the socket can take more. */
  write(text: string): Promise<void> {
    if (this.closed || this.socket.destroyed) return Promise.resolve();
    if (this.socket.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.socket.off("drain", done);
        this.socket.off("close", done);
        resolve();
      };
      this.socket.once("drain", done);
      this.socket.once("close", done);
    });
  }

  /** Stops reading: what the client writes piles up in the kernel, then in the client. */
  stopReading(): void {
    this.socket.pause();
  }

  /** Reads again. */
  resumeReading(): void {
    this.socket.resume();
  }

  /** Resolves once `predicate` holds (checked on every message, on close and every 20 ms), or rejects after `timeoutMs`. */
  until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
        resolve();
      };
      const poll = setInterval(check, 20);
      const timer = setTimeout(() => {
        clearInterval(poll);
        this.waiters.delete(check);
        reject(
          new Error(`the condition did not hold within ${timeoutMs} ms (${this.received.length} messages received)`),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  private parse(): void {
    for (;;) {
      const head = this.buffer.subarray(0, 32).toString("latin1");
      if (head.startsWith("Content-Length:")) {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end === -1) break;
        const length = Number(this.buffer.subarray(15, end).toString("latin1").trim());
        if (this.buffer.length < end + 4 + length) break;
        this.deliver(this.buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
        this.buffer = this.buffer.subarray(end + 4 + length);
        continue;
      }
      const lineFeed = this.buffer.indexOf(0x0a);
      if (lineFeed === -1) break;
      const line = this.buffer.subarray(0, lineFeed).toString("utf8");
      this.buffer = this.buffer.subarray(lineFeed + 1);
      if (line.trim() !== "") this.deliver(line);
    }
    this.wake();
  }

  private deliver(text: string): void {
    const message = JSON.parse(text) as Record<string, unknown>;
    this.received.push(message);
    if (message.method === "initialize" && message.id !== undefined) {
      const version = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      void this.send({
        jsonrpc: "2.0",
        id: message.id,
        result: initializeResult(typeof version === "string" ? version : "2024-11-05"),
      });
      return;
    }
    if (message.method === "tools/list" && message.id !== undefined) {
      void this.send({ jsonrpc: "2.0", id: message.id, result: toolsListResult(this.tools) });
      return;
    }
    this.onMessage(message, this);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** A hostile daemon listening on a Unix socket in a private directory. */
export interface HostileSocketDaemon {
  readonly path: string;
  readonly peers: HostilePeer[];
  /** The first client to connect (waits for it). */
  firstPeer(): Promise<HostilePeer>;
  close(): Promise<void>;
}

/**
 * Starts a hostile daemon; `onMessage` sees every message but `initialize` and `tools/list`
 * (answered like a Glass daemon; `tools/list` names `options.tools`, by default the catalog's).
 */
export async function startHostileSocketDaemon(
  onMessage: (message: Record<string, unknown>, peer: HostilePeer) => void = () => {},
  options: { tools?: readonly string[] } = {},
): Promise<HostileSocketDaemon> {
  const dir = mkdtempSync(join(tmpdir(), "glass-hostile-"));
  const path = join(dir, "daemon.sock");
  const peers: HostilePeer[] = [];
  const arrivals = new Set<() => void>();
  const server: Server = createServer((socket) => {
    peers.push(new HostilePeer(socket, onMessage, options.tools));
    for (const arrival of [...arrivals]) arrival();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  return {
    path,
    peers,
    firstPeer: () =>
      new Promise((resolve) => {
        if (peers[0] !== undefined) return resolve(peers[0]);
        const arrival = (): void => {
          arrivals.delete(arrival);
          resolve(peers[0]!);
        };
        arrivals.add(arrival);
      }),
    close: async () => {
      for (const peer of peers) peer.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Glass daemon's initialize answer: the revision asked for, a manifest (no agreement, so no capability is refused locally). */
export function initializeResult(protocolVersion: string): Record<string, unknown> {
  return {
    protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: "hostile", version: "1" },
    glass: {
      protocolVersion: 1,
      glassVersion: "0.0.0-hostile",
      schemas: { webIr: [1], task: [1] },
      capabilities: { webIr: true, taskProtocol: true, localDaemon: true },
      constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
    },
  };
}

/** A Glass daemon's `tools/list` answer naming `tools` (one page, no cursor). */
export function toolsListResult(tools: readonly string[]): Record<string, unknown> {
  return { tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })) };
}
