import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ROOT } from "../lib/paths.js";

/** Heap and RSS around the memory run's calls. */
export interface MemoryResult {
  calls: number;
  /** Readings after a full GC: before the calls, then after each tenth of them. */
  samples: { calls: number; heapUsedBytes: number; rssBytes: number }[];
  heapGrowthBytes: number;
  rssGrowthBytes: number;
  /** Heap growth over the second half of the calls only (flat means ≈ 0). */
  heapGrowthSecondHalfBytes: number;
  elapsedMs: number;
  /** glass.stats() after the last call: nothing should be left in hand. */
  stats: { inFlight: number; queued: number; awaitingAnswer: number; closed: boolean };
}

const CHILD = fileURLToPath(new URL("../memory-child.ts", import.meta.url));

/**
 * Runs the memory measurement in a child process with `--expose-gc` (tsx loads it), against the
 * fast mock daemon's socket, so that nothing else of the harness sits on the heap it reads.
 */
export async function measureMemory(socketPath: string, calls: number): Promise<MemoryResult> {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", CHILD, socketPath, String(calls)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the memory child exited with ${code}: ${stderr}`);
  const parsed = JSON.parse(stdout) as Pick<MemoryResult, "samples" | "elapsedMs" | "stats">;
  const first = parsed.samples[0]!;
  const last = parsed.samples.at(-1)!;
  const middle = parsed.samples.find((s) => s.calls >= calls / 2)!;
  return {
    calls,
    ...parsed,
    heapGrowthBytes: last.heapUsedBytes - first.heapUsedBytes,
    rssGrowthBytes: last.rssBytes - first.rssBytes,
    heapGrowthSecondHalfBytes: last.heapUsedBytes - middle.heapUsedBytes,
  };
}
