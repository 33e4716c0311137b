/**
 * Profiles one client configuration of `npm run bench` with `node --cpu-prof`, to find where a
 * missed target goes:
 *
 *   npm run build && tsx bench/profile.ts <stdio|socket|http|websocket|in-process> <small|large> <calls in flight> [seconds=5] [glass-sdk|raw|raw-parsed|mcp-sdk]
 *
 * It starts the same fast daemon (and bridge) as the benchmark, then runs the client alone in a
 * child process under `node --cpu-prof` (bench/profile-child.ts: connect, warm up, call for the
 * given seconds) and prints the top functions and files by self time within the measured window
 * (startup and warm-up left out). The .cpuprofile file stays
 * in bench/results/profiles/ (open it in Chrome DevTools for the call tree).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarizeProfile } from "./lib/cpuprofile.js";
import { writeBenchFixture } from "./lib/fixture.js";
import { RESULTS_DIR, ROOT } from "./lib/paths.js";
import { spawnBridge, spawnSocketDaemon, type ChildHandle } from "./lib/processes.js";

const [transport, payload, concurrency = "1", seconds = "5", client = "glass-sdk"] = process.argv.slice(2);
if (
  !["stdio", "socket", "http", "websocket", "in-process"].includes(transport ?? "") ||
  !["small", "large"].includes(payload ?? "")
) {
  process.stderr.write(
    "usage: tsx bench/profile.ts <stdio|socket|http|websocket|in-process> <small|large> <calls in flight> [seconds] [glass-sdk|raw|raw-parsed|mcp-sdk]\n",
  );
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "glass-profile-"));
const children: ChildHandle[] = [];
let exitCode = 0;
try {
  const fixture = writeBenchFixture(dir);
  const socketPath = join(dir, "glass.sock");
  children.push(await spawnSocketDaemon(fixture.path, socketPath));
  const bridge = await spawnBridge(socketPath);
  children.push(bridge);
  const profiles = join(RESULTS_DIR, "profiles");
  mkdirSync(profiles, { recursive: true });
  const name = `${client}-${transport}-${payload}-x${concurrency}`;
  const before = new Set(readdirSync(profiles));
  const args = [
    "--cpu-prof",
    "--cpu-prof-dir",
    profiles,
    "--cpu-prof-name",
    `${name}.cpuprofile`,
    "--import",
    "tsx",
    fileURLToPath(new URL("./profile-child.ts", import.meta.url)),
  ];
  const config = {
    transport,
    payload,
    concurrency: Number(concurrency),
    seconds: Number(seconds),
    client,
    fixturePath: fixture.path,
    socketPath,
    bridge: { url: bridge.url, wsUrl: bridge.wsUrl, token: bridge.token },
  };
  const child = spawn(process.execPath, [...args, JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the profiled child exited with ${code}`);
  const { window } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { window: [number, number] };
  const written = readdirSync(profiles).find((file) => file === `${name}.cpuprofile` || !before.has(file));
  const summary = summarizeProfile(join(profiles, written!), ROOT, window);
  process.stdout.write(
    `\nmeasured window: ${(summary.totalMs / 1000).toFixed(2)} s sampled, ${(summary.busyMs / 1000).toFixed(2)} s not idle; self time, % of the non-idle time\n`,
  );
  process.stdout.write("top functions:\n");
  for (const h of summary.functions)
    process.stdout.write(
      `  ${h.selfMs.toFixed(1).padStart(8)} ms ${(100 * h.share).toFixed(1).padStart(5)} %  ${h.name}  ${h.where}\n`,
    );
  process.stdout.write("top files:\n");
  for (const h of summary.files.slice(0, 15))
    process.stdout.write(
      `  ${h.selfMs.toFixed(1).padStart(8)} ms ${(100 * h.share).toFixed(1).padStart(5)} %  ${h.name}\n`,
    );
  process.stdout.write(`profile: ${join(profiles, written!)}\n`);
} catch (error) {
  process.stderr.write(`profile: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitCode = 1;
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
