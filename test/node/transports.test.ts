import { spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../../src/errors/error-classes.js";
import { GlassError } from "../../src/errors/glass-error.js";
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcSuccess } from "../../src/mcp/json-rpc.js";
import { defaultSocketPath } from "../../src/node/default-socket-path.js";
import { encodeFrame } from "../../src/node/framing/encode-frame.js";
import { createFrameReader } from "../../src/node/framing/frame-reader.js";
import { socketTransport } from "../../src/node/socket-transport.js";
import { stdioTransport, type StdioTransportOptions } from "../../src/node/stdio-transport.js";
import type { GlassTransport, TransportHandlers } from "../../src/transport/transport.js";

const echoPeer = fileURLToPath(new URL("../support/echo-peer.mjs", import.meta.url));
const connectSocketScript = fileURLToPath(new URL("../support/connect-socket.ts", import.meta.url));

/** What the echo peers answer: how the request arrived, and the peer's pid. */
interface EchoResult {
  framing: "newline" | "content-length";
  bytes: number;
  params: { [key: string]: unknown };
  pid?: number;
}

/** Transport handlers that record every call, with a way to wait for what is expected. */
class Recorder implements TransportHandlers {
  readonly messages: JsonRpcMessage[] = [];
  readonly errors: GlassError[] = [];
  readonly closes: (GlassError | undefined)[] = [];
  #waiters: (() => void)[] = [];

  onMessage(message: JsonRpcMessage): void {
    this.messages.push(message);
    this.#wake();
  }

  onError(error: GlassError): void {
    this.errors.push(error);
    this.#wake();
  }

  onClose(error?: GlassError): void {
    this.closes.push(error);
    this.#wake();
  }

  /** Resolves once `condition` holds; fails the test after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      const check = (): void => {
        if (!condition()) return void this.#waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.#waiters.push(check);
    });
  }

  /** The echo result answering request `id`, once it arrives. */
  async result(id: number | string): Promise<EchoResult> {
    const find = (): JsonRpcSuccess | undefined =>
      this.messages.find((message): message is JsonRpcSuccess => "result" in message && message.id === id);
    await this.until(() => find() !== undefined);
    return find()!.result as unknown as EchoResult;
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }
}

function request(id: number | string, method: string, params: { [key: string]: unknown } = {}): JsonRpcRequest {
  return { jsonrpc: "2.0", id, method, params };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const openTransports: GlassTransport[] = [];
afterEach(async () => {
  await Promise.all(openTransports.splice(0).map((transport) => transport.close()));
});

function echoTransport(peerArgs: string[] = [], options: Partial<StdioTransportOptions> = {}): GlassTransport {
  const transport = stdioTransport({ command: process.execPath, args: [echoPeer, ...peerArgs], ...options });
  openTransports.push(transport);
  return transport;
}

describe("stdio transport", () => {
  it("round-trips messages with the echo peer", async () => {
    const transport = echoTransport();
    expect(transport.kind).toBe("stdio");
    expect(transport.maxInFlight).toBe(8);
    const recorder = new Recorder();
    await transport.start(recorder);
    await Promise.all([1, 2, 3].map((id) => transport.send(request(id, "echo", { n: id, text: "héllo" }))));
    for (const id of [1, 2, 3])
      expect(await recorder.result(id)).toMatchObject({ framing: "newline", params: { n: id, text: "héllo" } });
    expect(recorder.errors).toEqual([]);
    expect(recorder.closes).toEqual([]);
  });

  it("frames every message as a JSON line, whatever its size, to a peer that has not identified itself as Glass", async () => {
    const transport = echoTransport();
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(1, "echo", { text: "x".repeat(9000) }));
    await transport.send(request(2, "initialize", { protocolVersion: "2025-11-25" }));
    expect(await recorder.result(2)).not.toHaveProperty("glass");
    await transport.send(request(3, "echo", { text: "y".repeat(3 * 1024 * 1024) }));
    await transport.send(request(4, "echo", { text: "z".repeat(5 * 1024 * 1024) }));
    const [before, after, over4MiB] = [await recorder.result(1), await recorder.result(3), await recorder.result(4)];
    expect(before).toMatchObject({ framing: "newline" });
    expect(before.bytes).toBeGreaterThan(8192);
    expect(after).toMatchObject({ framing: "newline" });
    expect((after.params.text as string).length).toBe(3 * 1024 * 1024);
    expect(over4MiB).toMatchObject({ framing: "newline" });
  });

  it("once a peer's initialize answer carries the glass manifest, sends messages above 8 KiB with Content-Length and small ones as lines", async () => {
    const transport = echoTransport(["--glass"]);
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(0, "initialize", { protocolVersion: "2025-11-25" }));
    expect(await recorder.result(0)).toMatchObject({ framing: "newline", glass: { protocolVersion: 1 } });
    await transport.send(request(1, "echo", { text: "x".repeat(8000) }));
    await transport.send(request(2, "echo", { text: "x".repeat(9000) }));
    await transport.send(request(3, "echo", { text: "y".repeat(3 * 1024 * 1024) }));
    const [small, large, huge] = [await recorder.result(1), await recorder.result(2), await recorder.result(3)];
    expect(small).toMatchObject({ framing: "newline" });
    expect(small.bytes).toBeLessThanOrEqual(8192);
    expect(large).toMatchObject({ framing: "content-length" });
    expect(large.bytes).toBeGreaterThan(8192);
    expect(huge).toMatchObject({ framing: "content-length" });
    expect((huge.params.text as string).length).toBe(3 * 1024 * 1024);
  });

  it("refuses a message whose body exceeds the Glass daemon's 4 MiB before writing it, and the connection goes on", async () => {
    const transport = echoTransport(["--glass"]);
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(0, "initialize", {}));
    await recorder.result(0);
    const refused = await transport
      .send(request(1, "echo", { text: "x".repeat(4 * 1024 * 1024) }))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GlassError);
    expect(refused).toMatchObject({
      code: "request.invalid",
      mutationPossible: false,
      details: { maxBytes: 4 * 1024 * 1024 },
    });
    await transport.send(request(2, "echo", { text: "after" }));
    expect(await recorder.result(2)).toMatchObject({ params: { text: "after" } });
    expect(recorder.messages.some((message) => "id" in message && message.id === 1)).toBe(false);
  });

  it("reports a bad frame from the daemon with onError and keeps reading, once the daemon has spoken MCP", async () => {
    const transport = echoTransport();
    const recorder = new Recorder();
    await transport.start(recorder);
    // Before any MCP message, text that is not JSON ends the connection (test/node/not-mcp.test.ts).
    await transport.send(request(0, "echo"));
    await recorder.result(0);
    await transport.send({ jsonrpc: "2.0", method: "raw", params: { text: 'not json\n[1,2]\n{"jsonrpc":"1.0"}\n' } });
    await transport.send(request(1, "echo"));
    await recorder.result(1);
    expect(recorder.errors).toHaveLength(3);
    for (const error of recorder.errors) expect(error).toBeInstanceOf(BadFrameError);
    expect(recorder.errors[0]!.message).toMatch(/not valid JSON/);
    expect(recorder.errors[1]!.message).toMatch(/not a JSON-RPC 2.0 message/);
    expect(recorder.closes).toEqual([]);
  });

  it("drops a frame that stalls after its first byte as a bad frame, then reads on", async () => {
    const transport = echoTransport([], { frameTimeoutMs: 150 });
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send({ jsonrpc: "2.0", method: "raw", params: { text: 'Content-Length: 100\r\n\r\n{"jsonrpc"' } });
    await recorder.until(() => recorder.errors.length > 0);
    expect(recorder.errors[0]).toBeInstanceOf(BadFrameError);
    expect(recorder.errors[0]!.message).toMatch(/within 150 ms of its first byte.*after 10 of 100 body bytes/);
    // The rest of the stalled frame, when it comes, is skipped; the next frame decodes.
    await transport.send({ jsonrpc: "2.0", method: "raw", params: { text: "z".repeat(90) } });
    await transport.send(request(1, "echo"));
    expect(await recorder.result(1)).toMatchObject({ framing: "newline" });
    expect(recorder.errors).toHaveLength(1);
  });

  it("reports a crash with exactly one onClose(TransportClosedError) that quotes the stderr tail", async () => {
    const transport = echoTransport();
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send({
      jsonrpc: "2.0",
      method: "exit",
      params: { code: 3, stderr: "panic: the browser went away\n" },
    });
    await recorder.until(() => recorder.closes.length > 0);
    await delay(100);
    expect(recorder.closes).toHaveLength(1);
    const error = recorder.closes[0];
    expect(error).toBeInstanceOf(TransportClosedError);
    expect(error?.code).toBe("transport.closed");
    expect(error?.message).toMatch(/exited with code 3/);
    expect(error?.message).toMatch(/panic: the browser went away/);
    await expect(transport.send(request(9, "echo"))).rejects.toBeInstanceOf(TransportClosedError);
    await transport.close(); // still fine after a crash
    expect(recorder.closes).toHaveLength(1);
  });

  it("names the signal when the daemon is killed, and keeps only the last 4 KiB of stderr", async () => {
    const transport = echoTransport();
    const recorder = new Recorder();
    await transport.start(recorder);
    const noise = `${"a".repeat(6000)}THE-END`;
    await transport.send({ jsonrpc: "2.0", method: "exit", params: { signal: "SIGKILL", stderr: noise } });
    await recorder.until(() => recorder.closes.length > 0);
    const message = recorder.closes[0]!.message;
    expect(message).toMatch(/was killed by SIGKILL/);
    expect(message).toMatch(/THE-END$/);
    expect(message.length).toBeLessThan(4096 + 300);
  });

  it("rejects start() for a missing binary with a TransportUnavailableError saying what the caller can do: install the daemon, fix PATH or pass `command`", async () => {
    const transport = stdioTransport({ command: "glass-definitely-not-installed", args: ["--mcp"] });
    const recorder = new Recorder();
    const error = await transport.start(recorder).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TransportUnavailableError);
    const { code, message } = error as TransportUnavailableError;
    expect(code).toBe("transport.unavailable");
    expect(message).toMatch(/`glass-definitely-not-installed` was not found/);
    // What a user of the package can do: install the daemon, fix PATH, or pass the command.
    expect(message).toMatch(/Install the Glass daemon so that `glass-definitely-not-installed` is on PATH \(PATH is /);
    expect(message).toMatch(/pass its full path as `command` to stdioTransport\(\)/);
    expect(message).toContain('stdioTransport({ command: "npx", args: ["glass-sdk", "mock-daemon"] })');
    // Not the repository quickstart's variable, which the package never reads.
    expect(message).not.toMatch(/GLASS_COMMAND/);
    expect(recorder.closes).toEqual([]);
    await transport.close();
    await expect(transport.send(request(1, "echo"))).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("rejects start() with a TransportUnavailableError for a binary that is not executable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-stdio-"));
    const binary = join(dir, "glass");
    writeFileSync(binary, "#!/bin/sh\necho hi\n", { mode: 0o644 });
    try {
      const error = await stdioTransport({ command: binary })
        .start(new Recorder())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransportUnavailableError);
      expect((error as Error).message).toMatch(/is not executable \(permission denied\)/);
      expect((error as Error).message).toMatch(/chmod \+x/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says so when the working directory is missing, rather than blaming the binary", async () => {
    const transport = stdioTransport({ command: process.execPath, cwd: join(tmpdir(), "glass-no-such-dir-7f3a") });
    const error = await transport.start(new Recorder()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as Error).message).toMatch(/working directory .* does not exist/);
  });

  it("closes gracefully: stdin ends, the daemon exits, onClose() once without error; close() is idempotent", async () => {
    const transport = echoTransport();
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(1, "echo"));
    const { pid } = await recorder.result(1);
    const started = Date.now();
    const first = transport.close();
    await expect(transport.send(request(2, "echo"))).rejects.toBeInstanceOf(TransportClosedError);
    expect(transport.close()).toBe(first);
    await first;
    expect(Date.now() - started).toBeLessThan(1500); // no signal needed
    expect(isAlive(pid!)).toBe(false);
    expect(recorder.closes).toEqual([undefined]);
    await transport.close();
    expect(recorder.closes).toHaveLength(1);
  });

  it("kills a daemon that ignores stdin EOF and SIGTERM: SIGTERM after closeTimeoutMs, SIGKILL a second later", async () => {
    const transport = echoTransport(["--ignore-eof"], { closeTimeoutMs: 200 });
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(1, "echo"));
    const { pid } = await recorder.result(1);
    const started = Date.now();
    await transport.close();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1150);
    expect(elapsed).toBeLessThan(4000);
    expect(isAlive(pid!)).toBe(false);
    expect(recorder.closes).toEqual([undefined]);
  });

  it("rejects a second start(), and start() after close()", async () => {
    const transport = echoTransport();
    await transport.start(new Recorder());
    await expect(transport.start(new Recorder())).rejects.toBeInstanceOf(TransportUnavailableError);
    const closedFirst = stdioTransport({ command: process.execPath, args: [echoPeer] });
    await closedFirst.close();
    await expect(closedFirst.start(new Recorder())).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("rejects send() before start() with a TransportClosedError that says to call start() first, and spawns nothing", async () => {
    const transport = stdioTransport({ command: process.execPath, args: [echoPeer] });
    await expect(transport.send(request(1, "echo"))).rejects.toThrow(/is not running: call start\(\) first/);
    await expect(transport.send(request(1, "echo"))).rejects.toBeInstanceOf(TransportClosedError);
    await transport.close();
    await expect(transport.send(request(2, "echo"))).rejects.toThrow(
      /the transport is closed; the message was not sent/,
    );
  });
});

/**
 * A Unix-socket echo server built on the SDK's own framing, answering in each request's framing
 * (with `glass`, its answer to initialize carries a manifest, as the Glass daemon's does).
 */
function startEchoServer(path: string, glass = false): Promise<{ server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    const reader = createFrameReader({ maxNewlineFrameBytes: 8192, maxContentLengthBytes: 4 * 1024 * 1024 });
    socket.on("data", (chunk: Buffer) => {
      for (const { message, framing, bytes } of reader.pushFrames(chunk)) {
        const { id, method, params } = message as JsonRpcRequest;
        const result =
          glass && method === "initialize"
            ? { framing, bytes, params, glass: { protocolVersion: 1 } }
            : { framing, bytes, params };
        socket.write(encodeFrame({ jsonrpc: "2.0", id, result }, { framing }));
      }
    });
  });
  return new Promise((resolve) => server.listen(path, () => resolve({ server, sockets })));
}

describe("socket transport", () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "glass-sock-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    for (const dir of dirs) {
      chmodSync(dir, 0o700);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("round-trips messages with an echo server, Content-Length above 8 KiB once it answered initialize as Glass, and closes", async () => {
    const path = join(tempDir(), "glass.sock");
    const { server, sockets } = await startEchoServer(path, true);
    servers.push(server);
    const transport = socketTransport({ path });
    openTransports.push(transport);
    expect(transport.kind).toBe("socket");
    expect(transport.maxInFlight).toBe(4);
    const recorder = new Recorder();
    await transport.start(recorder);
    await transport.send(request(0, "initialize", {}));
    expect(await recorder.result(0)).toMatchObject({ glass: { protocolVersion: 1 } });
    await transport.send(request(1, "echo", { text: "héllo" }));
    await transport.send(request(2, "echo", { text: "x".repeat(20_000) }));
    expect(await recorder.result(1)).toMatchObject({ framing: "newline", params: { text: "héllo" } });
    expect(await recorder.result(2)).toMatchObject({ framing: "content-length" });
    expect(sockets.size).toBe(1);
    const first = transport.close();
    expect(transport.close()).toBe(first);
    await first;
    await expect(transport.send(request(3, "echo"))).rejects.toBeInstanceOf(TransportClosedError);
    expect(recorder.closes).toEqual([undefined]);
    await recorder.until(() => sockets.size === 0);
  });

  it("rejects send() before start(), a second start(), and start() after close()", async () => {
    const path = join(tempDir(), "glass.sock");
    const { server } = await startEchoServer(path);
    servers.push(server);
    const transport = socketTransport({ path });
    openTransports.push(transport);
    await expect(transport.send(request(1, "echo"))).rejects.toThrow(
      /not connected to the Glass daemon at .*: call start\(\) first/,
    );
    await transport.start(new Recorder());
    await expect(transport.start(new Recorder())).rejects.toBeInstanceOf(TransportUnavailableError);
    const closedFirst = socketTransport({ path });
    await closedFirst.close();
    await expect(closedFirst.start(new Recorder())).rejects.toBeInstanceOf(TransportClosedError);
    await expect(closedFirst.send(request(2, "echo"))).rejects.toThrow(
      /the transport is closed; the message was not sent/,
    );
  });

  it("reports the daemon closing the connection with exactly one onClose(TransportClosedError)", async () => {
    const path = join(tempDir(), "glass.sock");
    const { server, sockets } = await startEchoServer(path);
    servers.push(server);
    const transport = socketTransport({ path });
    openTransports.push(transport);
    const recorder = new Recorder();
    await transport.start(recorder);
    await recorder.until(() => sockets.size === 1);
    for (const socket of sockets) socket.end();
    await recorder.until(() => recorder.closes.length > 0);
    await delay(50);
    expect(recorder.closes).toHaveLength(1);
    expect(recorder.closes[0]).toBeInstanceOf(TransportClosedError);
    expect(recorder.closes[0]!.message).toMatch(/closed the connection/);
    await transport.close();
    expect(recorder.closes).toHaveLength(1);
  });

  it("rejects start() with a TransportUnavailableError when nothing listens at the path", async () => {
    const dir = tempDir();
    const missing = join(dir, "missing.sock");
    const error = await socketTransport({ path: missing })
      .start(new Recorder())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(`no Glass daemon is listening at ${missing}`);
    expect(message).toContain("`glass daemon start`");
    expect(message).toContain(`\`npx glass-sdk mock-daemon --socket ${missing}\``);
    expect(message).toContain("GLASS_SOCKET");
  });

  it("says a regular file or a directory is not a socket, without suggesting to start a daemon on it", async () => {
    const dir = tempDir();
    const plain = join(dir, "plain-file");
    writeFileSync(plain, "");
    for (const [path, kind] of [
      [plain, "a regular file"],
      [dir, "a directory"],
    ] as const) {
      const error = await socketTransport({ path })
        .start(new Recorder())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransportUnavailableError);
      const message = (error as Error).message;
      expect(message).toContain(`${path} is ${kind}, not a socket: nothing was sent`);
      expect(message).not.toContain("mock-daemon --socket");
    }
  });

  /*
   * Permission errors: the daemon's socket is 0600 and same-user only. A socket in a directory with
   * mode 000 gives EACCES, except to root, which bypasses file permissions (CAP_DAC_OVERRIDE). We
   * probe instead of assuming: if this process can read the locked directory, it bypasses
   * permissions, and the connect is then run as user `nobody` in a child process (possible because
   * only root can switch users, and only where `nobody` can run this Node binary and read this
   * checkout); if neither works, the permission test is skipped.
   */
  const lockedDir = mkdtempSync(join(tmpdir(), "glass-sock-locked-"));
  dirs.push(lockedDir);
  chmodSync(lockedDir, 0o000);
  const bypassesPermissions = (() => {
    try {
      accessSync(lockedDir);
      readdirSync(lockedDir);
      return true;
    } catch {
      return false;
    }
  })();
  const runAsNobody = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", connectSocketScript, ...args], {
      uid: 65534,
      gid: 65534,
      encoding: "utf8",
      env: { ...process.env, HOME: tmpdir() },
      timeout: 20_000,
    });
  // Only root can switch users, and `nobody` must be able to run this Node (no stdout when it cannot
  // even start it: EACCES for a binary in a directory only its owner may enter) and read this checkout.
  const canRunAsNobody =
    bypassesPermissions && process.getuid?.() === 0 && (runAsNobody("--probe").stdout ?? "").includes('"probe":true');

  it.skipIf(bypassesPermissions)(
    "rejects start() with a permission message for a socket it may not reach (EACCES)",
    async () => {
      const error = await socketTransport({ path: join(lockedDir, "glass.sock") })
        .start(new Recorder())
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransportUnavailableError);
      expect((error as Error).message).toMatch(
        /permission denied connecting to .*accepts only the user who started the daemon/,
      );
    },
  );

  it.skipIf(!canRunAsNobody)(
    "rejects start() with a permission message for a socket it may not reach (EACCES, as user nobody)",
    async () => {
      const path = join(lockedDir, "glass.sock");
      chmodSync(lockedDir, 0o700);
      const { server } = await startEchoServer(path);
      servers.push(server);
      chmodSync(lockedDir, 0o000);
      const run = runAsNobody(path);
      expect(run.stderr).toBe("");
      const outcome = JSON.parse(run.stdout) as { name?: string; code?: string; message?: string };
      expect(outcome).toMatchObject({ name: "TransportUnavailableError", code: "transport.unavailable" });
      expect(outcome.message).toMatch(/permission denied connecting to .*accepts only the user who started the daemon/);
    },
  );
});

/**
 * Paths the owner check could not vouch for. An abstract socket name has no
 * file (no owner, no permissions: any local user can bind it first), and a socket in a directory
 * others may write to without the sticky bit can be swapped for another user's and back between
 * connecting and checking its owner. Both are refused before anything is sent, unless asked for.
 */
describe("socket transport: sockets whose owner cannot be vouched for", () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  const tempDir = (mode = 0o700): string => {
    const dir = mkdtempSync(join(tmpdir(), "glass-sock-dir-"));
    chmodSync(dir, mode);
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const isRoot = process.getuid?.() === 0;

  /** A listening server at `path` that counts its connections and the bytes they send. */
  async function listener(path: string): Promise<{ connections: () => number; received: () => number }> {
    let connections = 0;
    let received = 0;
    const server = createServer((socket) => {
      connections++;
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.on("error", () => undefined);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
    return { connections: () => connections, received: () => received };
  }

  async function startError(transport: GlassTransport): Promise<unknown> {
    return transport.start(new Recorder()).then(
      async () => {
        await transport.close();
        return undefined;
      },
      (caught: unknown) => caught,
    );
  }

  it.skipIf(process.platform !== "linux")(
    "refuses a Linux abstract socket name before connecting, unless allowAbstractSocket is set",
    async () => {
      const name = `\0glass-sdk-test-${process.pid}-${Date.now()}`;
      const squat = await listener(name);
      const error = await startError(socketTransport({ path: name }));
      expect(error).toBeInstanceOf(TransportUnavailableError);
      expect((error as TransportUnavailableError).rawMessage).toMatch(
        /is a Linux abstract socket name: it has no file, so no owner or permissions, and any local user can bind it/,
      );
      expect((error as TransportUnavailableError).rawMessage).toContain("allowAbstractSocket: true");
      expect(error).toMatchObject({ mutationPossible: false });
      await delay(50);
      expect(squat.connections()).toBe(0);
      const allowed = socketTransport({ path: name, allowAbstractSocket: true, closeTimeoutMs: 100 });
      await allowed.start(new Recorder());
      await allowed.close();
      expect(squat.connections()).toBe(1);
    },
  );

  for (const [mode, who] of [
    [0o777, "any user"],
    [0o770, "its group"],
    [0o757, "any user"],
  ] as const) {
    it(`refuses a socket in a directory of mode 0${mode.toString(8)} (written by ${who}, no sticky bit), sending nothing, and says how to fix it`, async () => {
      const dir = tempDir(mode);
      const path = join(dir, "glass.sock");
      const squat = await listener(path);
      const error = await startError(socketTransport({ path }));
      expect(error).toBeInstanceOf(TransportUnavailableError);
      const message = (error as TransportUnavailableError).rawMessage;
      expect(message).toContain(
        `the socket at ${path} is in a directory another user could swap it in: ${dir} (mode 0${mode.toString(8)}) may be written by ${who} and has no sticky bit`,
      );
      expect(message).toContain(
        "Nothing was sent. Move the socket to a directory only you can write to (the daemon's default, or $XDG_RUNTIME_DIR)",
      );
      expect(message).toContain("allowSharedDirectory: true");
      expect(error).toMatchObject({
        mutationPossible: false,
        details: { path, directory: dir, directoryMode: `0${mode.toString(8)}` },
      });
      await delay(50);
      expect(squat.received()).toBe(0);
    });
  }

  it("refuses a socket below a directory others may write to without the sticky bit (a parent, not only the socket's own)", async () => {
    const shared = tempDir(0o777);
    const inner = join(shared, "inner");
    mkdirSync(inner, { mode: 0o700 });
    const path = join(inner, "glass.sock");
    await listener(path);
    const error = await startError(socketTransport({ path }));
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as Error).message).toContain(
      `${shared} (mode 0777) may be written by any user and has no sticky bit`,
    );
  });

  it("refuses a socket reached through a link into a shared directory", async () => {
    const shared = tempDir(0o777);
    const own = tempDir();
    const path = join(shared, "glass.sock");
    await listener(path);
    symlinkSync(shared, join(own, "link"));
    const error = await startError(socketTransport({ path: join(own, "link", "glass.sock") }));
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as Error).message).toContain("(mode 0777) may be written by any user and has no sticky bit");
  });

  it("connects to a socket in a sticky shared directory (as /tmp is) and in a directory only this user may write", async () => {
    for (const mode of [0o1777, 0o700, 0o755]) {
      const path = join(tempDir(mode), "glass.sock");
      const peer = await listener(path);
      const transport = socketTransport({ path, closeTimeoutMs: 100 });
      await transport.start(new Recorder());
      await transport.close();
      expect(peer.connections()).toBe(1);
    }
  });

  it("connects to a socket in a shared directory with allowSharedDirectory: true, as asked", async () => {
    const path = join(tempDir(0o777), "glass.sock");
    const peer = await listener(path);
    const transport = socketTransport({ path, allowSharedDirectory: true, closeTimeoutMs: 100 });
    await transport.start(new Recorder());
    await transport.send(request(1, "echo"));
    await expect.poll(() => peer.received()).toBeGreaterThan(0);
    await transport.close();
  });

  // Only root can give a directory to another user.
  it.skipIf(!isRoot)(
    "refuses a socket in a directory that belongs to another user (not root), unless allowForeignOwner is set",
    async () => {
      const dir = tempDir();
      const path = join(dir, "glass.sock");
      const peer = await listener(path);
      chownSync(dir, 65534, 65534);
      const error = await startError(socketTransport({ path }));
      expect(error).toBeInstanceOf(TransportUnavailableError);
      expect((error as Error).message).toContain(
        `${dir} belongs to another user (uid 65534; this process runs as uid 0), who may replace anything in it`,
      );
      expect(error).toMatchObject({ details: { directory: dir, directoryUid: 65534 } });
      const allowed = socketTransport({ path, allowForeignOwner: true, closeTimeoutMs: 100 });
      await allowed.start(new Recorder());
      await allowed.close();
      expect(peer.connections()).toBe(2);
    },
  );
});

describe("defaultSocketPath", () => {
  it("is ~/.local/share/glass/glass.sock on Linux, under XDG_DATA_HOME when that is an absolute path", () => {
    expect(defaultSocketPath({ platform: "linux", env: {}, homeDir: "/home/ada" })).toBe(
      "/home/ada/.local/share/glass/glass.sock",
    );
    expect(defaultSocketPath({ platform: "linux", env: { XDG_DATA_HOME: "/data/ada" }, homeDir: "/home/ada" })).toBe(
      "/data/ada/glass/glass.sock",
    );
    expect(defaultSocketPath({ platform: "linux", env: { XDG_DATA_HOME: "relative" }, homeDir: "/home/ada" })).toBe(
      "/home/ada/.local/share/glass/glass.sock",
    );
  });

  it("is under ~/Library/Application Support on macOS", () => {
    expect(defaultSocketPath({ platform: "darwin", env: { XDG_DATA_HOME: "/x" }, homeDir: "/Users/ada" })).toBe(
      "/Users/ada/Library/Application Support/glass/glass.sock",
    );
  });
});
