import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createConnection } from "node:net";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/** One thing the peer received: a decoded message, or bytes that were not JSON. */
export interface Received {
  /** The parsed message (`undefined` for garbage). */
  message: Record<string, unknown> | undefined;
  /** How it was framed, or `garbage` for a line that is not JSON. */
  framing: "newline" | "content-length" | "garbage";
  /** The raw text of the frame body. */
  text: string;
}

/** A JSON-RPC response as tests look at it. */
export interface RawResponse {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

const HEADER = /^Content-Length: *([0-9]+)\r\n\r\n/i;

/**
 * A bare-bones MCP client for driving the mock daemon with raw frames, independent of the SDK: it
 * writes exactly the bytes it is given and decodes what comes back with its own small parser
 * (newline-delimited JSON and Content-Length frames).
 */
export class RawPeer {
  readonly received: Received[] = [];
  readonly closed: Promise<void>;
  private buffer = Buffer.alloc(0);
  private readonly waiters = new Set<() => void>();
  private isClosed = false;

  constructor(
    readable: Readable,
    private readonly writable: Writable,
    private readonly onClose: () => void = () => {},
  ) {
    readable.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    this.closed = new Promise((resolve) => {
      const done = (): void => {
        this.isClosed = true;
        this.wake();
        resolve();
      };
      readable.once("end", done);
      readable.once("close", done);
    });
    readable.on("error", () => {});
    writable.on("error", () => {});
  }

  /** Connects to a mock daemon's Unix socket. */
  static async connect(path: string): Promise<RawPeer> {
    const socket = createConnection(path);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawPeer(socket, socket, () => socket.destroy());
  }

  /** Spawns the CLI (`node --import tsx src/cli/main.ts ...args`) and talks to it over stdio. */
  static spawnCli(args: readonly string[]): {
    peer: RawPeer;
    child: ChildProcessWithoutNullStreams;
    stderr: () => string;
    exit: Promise<number | null>;
  } {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: root,
      stdio: "pipe",
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const peer = new RawPeer(child.stdout, child.stdin, () => child.stdin.end());
    return { peer, child, stderr: () => stderr, exit };
  }

  /** Writes a message, newline-delimited or with a Content-Length header. */
  send(message: unknown, framing: "newline" | "content-length" = "newline"): void {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    if (framing === "newline") this.writable.write(Buffer.concat([body, Buffer.from("\n")]));
    else this.writable.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }

  /** Writes raw bytes. */
  sendRaw(bytes: string | Uint8Array): void {
    this.writable.write(bytes);
  }

  /** Sends a request and resolves with the (first) response that has its id. */
  request(
    id: string | number | null,
    method: string,
    params?: unknown,
    framing: "newline" | "content-length" = "newline",
  ): Promise<RawResponse> {
    this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }, framing);
    return this.response(id);
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** The first response (received so far or later) with this id. */
  async response(id: string | number | null, timeoutMs = 5000): Promise<RawResponse> {
    const item = await this.waitFor(
      (r) => r.message !== undefined && !("method" in r.message) && r.message.id === id,
      timeoutMs,
    );
    return item.message as unknown as RawResponse;
  }

  /** Every response with this id received so far. */
  responses(id: string | number | null): RawResponse[] {
    return this.received
      .filter((r) => r.message !== undefined && !("method" in r.message) && r.message.id === id)
      .map((r) => r.message as unknown as RawResponse);
  }

  /** The first received item matching `predicate`, waiting up to `timeoutMs`. */
  waitFor(predicate: (item: Received) => boolean, timeoutMs = 5000): Promise<Received> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.received.find(predicate);
        if (found !== undefined) {
          cleanup();
          resolve(found);
        } else if (this.isClosed) {
          cleanup();
          reject(new Error("the connection closed before the expected message arrived"));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `no matching message within ${timeoutMs} ms; received: ${this.received
              .map((r) => r.text)
              .join(" | ")
              .slice(0, 2000)}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves after `ms` milliseconds with whatever arrived meanwhile (to assert that nothing did). */
  async quietFor(ms: number): Promise<Received[]> {
    const before = this.received.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.received.slice(before);
  }

  /** Closes the client side. */
  close(): void {
    this.onClose();
  }

  /** Ends what the peer writes (EOF on stdin, a half-closed socket) and keeps reading. */
  endInput(): void {
    this.writable.end();
  }

  private parse(): void {
    for (;;) {
      while (this.buffer.length > 0 && (this.buffer[0] === 0x0a || this.buffer[0] === 0x0d))
        this.buffer = this.buffer.subarray(1);
      if (this.buffer.length === 0) break;
      const head = this.buffer.subarray(0, Math.min(this.buffer.length, 64)).toString("latin1");
      const header = HEADER.exec(head);
      if (header !== null) {
        const start = header[0].length;
        const length = Number(header[1]);
        if (this.buffer.length < start + length) break;
        this.push(this.buffer.subarray(start, start + length).toString("utf8"), "content-length");
        this.buffer = this.buffer.subarray(start + length);
        continue;
      }
      if (/^content-length/i.test(head)) break; // header still arriving
      const lineFeed = this.buffer.indexOf(0x0a);
      if (lineFeed === -1) break;
      this.push(this.buffer.subarray(0, lineFeed).toString("utf8"), "newline");
      this.buffer = this.buffer.subarray(lineFeed + 1);
    }
    this.wake();
  }

  private push(text: string, framing: "newline" | "content-length"): void {
    try {
      this.received.push({ message: JSON.parse(text) as Record<string, unknown>, framing, text });
    } catch {
      this.received.push({ message: undefined, framing: "garbage", text });
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** The params of a plain initialize, with an optional `glass` negotiation. */
export function initializeParams(glass?: unknown, protocolVersion = "2024-11-05"): Record<string, unknown> {
  return {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: "raw-peer", version: "1.0.0" },
    ...(glass === undefined ? {} : { glass }),
  };
}

/** Initializes the session and sends notifications/initialized; resolves with the initialize result. */
export async function handshake(peer: RawPeer, glass?: unknown): Promise<Record<string, unknown>> {
  const response = await peer.request("init", "initialize", initializeParams(glass));
  if (response.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
  peer.notify("notifications/initialized");
  return response.result;
}

/** The `tools/call` params for a tool and its arguments. */
export function toolCall(name: string, args: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, arguments: args };
}
