// Starts the mock daemon on a Unix socket `count` times under umask 000, in a directory as open as
// /tmp (mode 1777), and prints one JSON line saying, for each start, who could have connected at
// the first moment the socket accepted connections (the server's `listening` event, before any
// code of the daemon runs after its bind) and what the socket looked like once started. Run in its
// own process: the umask is process-wide. With argv[4] (a uid), a process of that user tries to
// connect to the socket path all along, and the line also says how often it got in.
import { spawn } from "node:child_process";
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startMockDaemon } from "glass-sdk/testing/node";

/** How a path looked: its mode bits, and whether a user other than its owner could connect through it. */
interface PathView {
  path: string;
  mode: string;
  othersCanConnect: boolean;
}

/** A socket is connectable by others when they may write to it and search its directory. */
function view(path: string): PathView | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  const directory = lstatSync(dirname(path)).mode;
  const othersCanConnect = stats.isSocket() && (stats.mode & 0o002) !== 0 && (directory & 0o001) !== 0;
  return { path, mode: (stats.mode & 0o777).toString(8), othersCanConnect };
}

const count = Number(process.argv[2] ?? "8");
const prober = process.argv[3];
const proberUid = process.argv[4] === undefined ? undefined : Number(process.argv[4]);

process.umask(0);
const dir = mkdtempSync(join(tmpdir(), "glass-race-"));
chmodSync(dir, 0o1777);
const socketPath = join(dir, "glass.sock");

/** What the socket looked like when it began to accept connections, one entry per start. */
const atListening: (PathView | undefined)[][] = [];
const listen = Server.prototype.listen;
Server.prototype.listen = function (this: Server, ...args: unknown[]) {
  this.once("listening", () => {
    const bound = this.address();
    if (typeof bound === "string") atListening.push([view(bound), view(socketPath)]);
  });
  return (listen as (...a: unknown[]) => Server).apply(this, args);
} as typeof Server.prototype.listen;

let probe: ReturnType<typeof spawn> | undefined;
let probeOutput = "";
if (prober !== undefined && proberUid !== undefined) {
  probe = spawn(process.execPath, [prober, socketPath], {
    uid: proberUid,
    gid: proberUid,
    stdio: ["pipe", "pipe", "inherit"],
  });
  probe.stdout!.on("data", (chunk: Buffer) => (probeOutput += chunk.toString()));
  await new Promise<void>((resolve) => probe!.stdout!.once("data", () => resolve()));
}

const started: (PathView | undefined)[] = [];
for (let i = 0; i < count; i++) {
  const daemon = await startMockDaemon({ socket: socketPath });
  started.push(view(socketPath));
  // Let the prober try the started socket too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await daemon.close();
}

let probeReport: unknown;
if (probe !== undefined) {
  const exited = new Promise((resolve) => probe!.once("exit", resolve));
  probe.stdin!.end();
  await exited;
  probeReport = JSON.parse(probeOutput.trim().split("\n").at(-1)!);
}
const leftovers = readdirSync(dir);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ atListening, started, leftovers, probe: probeReport })}\n`);
