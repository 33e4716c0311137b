/**
 * Hostile local processes against the mock daemon's Unix socket: another user racing the socket's
 * creation under umask 000, a flood of clients over the limit that never close their end, and
 * clients that stop reading. The socket must never be connectable by another user, a refused
 * client must cost the daemon nothing, and `close()` must end every connection, whatever its peer
 * does.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { mockDaemonOnSocket, type SocketMock } from "../../support/mock-daemon-transports.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const RACE = fileURLToPath(new URL("../support/mock-socket-race.ts", import.meta.url));
const PROBER = fileURLToPath(new URL("../support/connect-prober.mjs", import.meta.url));
const NOBODY = 65534;

/** The file descriptors this process has open now. */
function openFds(): number {
  return readdirSync("/proc/self/fd").length;
}

/** Settles with `outcome` of `promise`, or with "pending" when it has not settled after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"pending">((resolve) => (timer = setTimeout(() => resolve("pending"), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A client that connects and then neither reads nor closes its end. */
async function silentClient(path: string): Promise<Socket> {
  const socket = createConnection(path);
  socket.pause();
  socket.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** Resolves once `condition` holds, checked every `everyMs`. */
async function until(condition: () => boolean, everyMs = 10): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, everyMs));
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startMock(): Promise<SocketMock> {
  const mock = await mockDaemonOnSocket();
  cleanups.push(() => mock.stop());
  return mock;
}

interface PathView {
  path: string;
  mode: string;
  othersCanConnect: boolean;
}

interface RaceReport {
  atListening: (PathView | null)[][];
  started: (PathView | null)[];
  leftovers: string[];
  probe?: { connected: number; attempts: number; errors: Record<string, number> };
}

function runRace(...args: string[]): RaceReport {
  const run = spawnSync(process.execPath, ["--import", "tsx", RACE, ...args], { encoding: "utf8", timeout: 60_000 });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as RaceReport;
}

describe("the mock daemon's socket under umask 000 is never connectable by another user", () => {
  /*
   * Repro: under umask 000, `listen()` created the socket file with mode 0777 in a directory anyone
   * may search, and chmod(0600) came only after the daemon had begun accepting: at the `listening`
   * event of all 8 starts, the socket was open to every user.
   */
  it("at the first moment it accepts connections, no path reaches it that another user may use; started, it is 0600 and nothing else is left in the directory", () => {
    const report = runRace("8");
    expect(report.atListening).toHaveLength(8);
    for (const paths of report.atListening) {
      for (const path of paths) expect(path?.othersCanConnect ?? false, JSON.stringify(path)).toBe(false);
    }
    expect(report.started).toHaveLength(8);
    for (const started of report.started) expect(started).toMatchObject({ mode: "600", othersCanConnect: false });
    expect(report.leftovers).toEqual([]);
  });

  /*
   * Repro: a process of user `nobody` connecting in a loop to the socket path got in (15 times over
   * 8 starts) before the daemon's chmod. Root ignores file permissions, so the prober runs as
   * `nobody`, with this Node binary; skipped where the tests do not run as root, or where `nobody`
   * cannot run this Node or read the prober (a Node installed in a directory only its owner may enter,
   * such as /root: spawning it as `nobody` fails with EACCES).
   */
  const isRoot = process.getuid?.() === 0;
  const nobodyRunsProber =
    isRoot &&
    spawnSync(process.execPath, ["--check", PROBER], { uid: NOBODY, gid: NOBODY, timeout: 20_000 }).status === 0;
  it.skipIf(!nobodyRunsProber)(
    "another user trying all along to connect while the daemon starts 8 times never gets in",
    () => {
      const report = runRace("8", PROBER, String(NOBODY));
      expect(report.probe).toBeDefined();
      expect(report.probe!.attempts).toBeGreaterThan(0);
      expect(report.probe!.connected).toBe(0);
      expect(report.probe!.errors.EACCES ?? 0).toBeGreaterThan(0);
    },
  );
});

describe("refused and silent clients cost the mock daemon nothing, and close() always resolves", () => {
  /*
   * Repro: the daemon refused the 5th client with `end()` (a half-close), so a client that never
   * read nor closed kept the daemon's end open: 200 such clients held 200 descriptors in the daemon
   * and close() waited for them for ever.
   */
  it("200 clients over the limit that never close their end are each closed by the daemon, and it keeps no descriptor for them", async () => {
    const mock = await startMock();
    const before = openFds();
    const served = await Promise.all(Array.from({ length: 4 }, () => silentClient(mock.path)));
    cleanups.push(() => served.forEach((socket) => socket.destroy()));
    await mock.daemon.waitFor((daemon) => daemon.clientCount() === 4);

    const refused: Socket[] = [];
    cleanups.push(() => refused.forEach((socket) => socket.destroy()));
    for (let i = 0; i < 200; i++) refused.push(await silentClient(mock.path));
    // The test holds its 200 ends (and the 4 served clients' two ends each); the daemon should hold none of the refused ones.
    const bound = 200 + 8 + 2;
    await within(
      until(() => openFds() - before <= bound),
      5_000,
    );
    expect(openFds() - before).toBeLessThanOrEqual(bound);
    expect(mock.daemon.clientCount()).toBe(4);

    expect(await within(mock.daemon.close(), 5_000)).not.toBe("pending");
    expect(openFds() - before).toBeLessThanOrEqual(200 + 4 + 2);
  });

  /*
   * Repro: a client that sends requests, stops reading and half-closes its end: the daemon forgot
   * the connection at the client's EOF but its answers were still queued, so its descriptor stayed
   * open and close() never resolved.
   */
  it("close() resolves while clients are connected, including one that half-closed without reading its answers", async () => {
    const mock = await startMock();
    const before = openFds();
    const connected = await Promise.all(Array.from({ length: 3 }, () => silentClient(mock.path)));
    cleanups.push(() => connected.forEach((socket) => socket.destroy()));
    const [halfClosed] = connected;
    const line = (id: number): string => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;
    const flood = Array.from({ length: 50_000 }, (_, i) => line(i)).join("");
    const flushed = new Promise<void>((resolve) => halfClosed!.once("finish", () => resolve()));
    halfClosed!.end(flood);
    // The daemon reads up to the client's EOF (answering each ping), or stops reading once its answers back up.
    await within(flushed, 1_000);
    await within(
      mock.daemon.waitFor((daemon) => daemon.clientCount() === 2),
      1_000,
    );

    expect(await within(mock.daemon.close(), 5_000)).not.toBe("pending");
    const closed = connected.map(
      (socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once("close", () => resolve()))),
    );
    connected.forEach((socket) => socket.resume());
    expect(await within(Promise.all(closed), 5_000)).not.toBe("pending");
    expect(openFds() - before).toBeLessThanOrEqual(2);
  });

  /*
   * Repro: a client that sends requests and never reads the answers: the daemon read all 20,000
   * (a few MiB) and held every answer in memory, where the daemon stops reading once its answers
   * back up (§5).
   */
  it("a client that never reads: the daemon stops reading its requests once its answers back up", async () => {
    const mock = await startMock();
    const client = await silentClient(mock.path);
    cleanups.push(() => void client.destroy());
    const message = (value: Record<string, unknown>): string => `${JSON.stringify({ jsonrpc: "2.0", ...value })}\n`;
    const calls = 20_000;
    const requests = [
      message({
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
      }),
      message({ method: "notifications/initialized" }),
      ...Array.from({ length: calls }, (_, i) =>
        message({ id: i + 1, method: "tools/call", params: { name: "observe", arguments: { level: "summary" } } }),
      ),
    ];
    client.write(requests.join(""));
    // Wait until the daemon has read all it will read (the count of calls it saw stops growing).
    let last = -1;
    await within(
      until(() => {
        const seen = mock.daemon.calls.length;
        const steady = seen === last && seen > 0;
        last = seen;
        return steady;
      }, 200),
      10_000,
    );
    // What one read of requests (64 KiB, ~600 calls) answers, plus what the kernel's buffers hold.
    expect(mock.daemon.calls.length).toBeGreaterThan(0);
    expect(mock.daemon.calls.length).toBeLessThan(2_000);
    expect(await within(mock.daemon.close(), 5_000)).not.toBe("pending");
  });
});

describe("the CLI on a socket in a directory other users may write to", () => {
  /*
   * In a directory like /tmp another user can put a socket of their own at the path before the
   * daemon starts or once it stops, and clients would talk to it: the CLI said nothing.
   */
  it("warns on stderr, naming the directory and a private place to use instead", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-shared-"));
    chmodSync(dir, 0o1777);
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "glass.sock");
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock-daemon", "--socket", path], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    cleanups.push(() => void child.kill("SIGKILL"));
    let stderr = "";
    await within(
      new Promise<void>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.split("\n").length > 2) resolve();
        });
      }),
      15_000,
    );
    const [listening, warning] = stderr.split("\n");
    expect(listening).toBe(`mock daemon listening on ${path}`);
    expect(warning).toMatch(
      new RegExp(
        `^mock daemon: warning: ${dir} is writable by other users: .*prefer a directory only you can write to`,
      ),
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
