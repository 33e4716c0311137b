import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ROOT } from "../lib/paths.js";
import { median } from "../lib/stats.js";

/** Medians over fresh processes, in ms. */
export interface ColdStartResult {
  runs: number;
  /** Wall time of `node -e 0` (spawn, boot, exit): the floor of any child process. */
  nodeProcessMs: number;
  /** `await import("glass-sdk")` (the built ESM) in a fresh process. */
  importMs: number;
  /** `await import("glass-sdk/node")` right after it. */
  importNodeMs: number;
  /** The MCP SDK's Client + StreamableHTTPClientTransport imports, for comparison. */
  mcpSdkImportMs: number;
  /** Spawning the fast mock daemon until its first answer (initialize), with no SDK: the spawn time. */
  daemonSpawnMs: number;
  /** `Glass.connect` over stdio: spawn + handshake. */
  connectStdioMs: number;
  /** `Glass.connect` over the socket to the running daemon: the handshake alone. */
  connectSocketMs: number;
  /** The first call after connecting (stdio). */
  firstCallMs: number;
}

const CHILD = fileURLToPath(new URL("../cold-start-child.mjs", import.meta.url));

async function runChild(args: string[]): Promise<{ figures: Record<string, number>; wallMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`cold-start child ${args.slice(1).join(" ")} exited with ${code}: ${stderr}`);
  return { figures: stdout.trim() === "" ? {} : (JSON.parse(stdout) as Record<string, number>), wallMs };
}

/**
 * Cold start, each figure the median of `runs` fresh processes (plain `node`, the built package
 * imported by its name): import times, `Glass.connect` over stdio (which spawns the daemon) and over
 * the socket (which does not), and the daemon's spawn time on its own.
 */
export async function measureColdStart(
  runs: number,
  daemon: { command: string; args: string[] },
  socketPath: string,
): Promise<ColdStartResult> {
  const samples = async (args: string[]): Promise<Record<string, number>[]> => {
    const out: Record<string, number>[] = [];
    for (let i = 0; i < runs; i++) out.push((await runChild(args)).figures);
    return out;
  };
  const nodeProcess: number[] = [];
  for (let i = 0; i < runs; i++) nodeProcess.push((await runChild(["-e", "0"])).wallMs);
  const client = await samples([CHILD, "client", JSON.stringify(daemon), socketPath]);
  const spawns = await samples([CHILD, "spawn-daemon", JSON.stringify(daemon)]);
  const mcp = await samples([CHILD, "import-mcp"]);
  const of = (list: Record<string, number>[], key: string): number => median(list.map((figures) => figures[key]!));
  return {
    runs,
    nodeProcessMs: median(nodeProcess),
    importMs: of(client, "importMs"),
    importNodeMs: of(client, "importNodeMs"),
    mcpSdkImportMs: of(mcp, "importMs"),
    daemonSpawnMs: of(spawns, "spawnToAnswerMs"),
    connectStdioMs: of(client, "connectStdioMs"),
    connectSocketMs: of(client, "connectSocketMs"),
    firstCallMs: of(client, "firstCallMs"),
  };
}
