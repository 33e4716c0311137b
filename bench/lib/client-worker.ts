import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchTargets, ClientName, TransportName } from "../clients/bench-client.js";
import type { Slice, SliceRunner } from "../sections/throughput.js";
import { ROOT } from "./paths.js";

/** What a worker is told when it starts: which client, over which transport, to what. */
export interface WorkerInit {
  transport: TransportName;
  client: ClientName;
  /** The fixture the daemon answers from; the worker rebuilds the operations from it. */
  fixturePath: string;
  /** MCP tool name by operation key. */
  tools: Record<string, string>;
  targets: Omit<BenchTargets, "operations">;
  /** Raw and MCP SDK clients parse the answer's text item, handing their caller the result as glass-sdk does. */
  liftResults?: boolean;
}

/** What the harness asks a worker. */
export type WorkerRequest =
  | { type: "slice"; key: string; concurrency: number; ms: number; record: boolean }
  | { type: "rss"; key: string; calls: number }
  | { type: "close" };

/** What a worker answers. */
export type WorkerReply =
  | { type: "ready"; baselineRss: number }
  | { type: "slice"; slice: Slice; peakRss: number; baselineRss: number }
  | { type: "rss"; peakRssGrowth: number }
  | { type: "closed" }
  | { type: "failed"; message: string };

/** A client in its own process; `peakRssGrowth` is the peak RSS over the settled baseline so far, over the slices. */
export interface WorkerRunner extends SliceRunner {
  readonly peakRssGrowth: number;
  /** The largest peak RSS growth of one call of `key` over `calls` calls, each started after a full GC. */
  peakRssPerMessage(key: string, calls: number): Promise<number>;
  close(): Promise<void>;
}

const WORKER = fileURLToPath(new URL("../client-worker.ts", import.meta.url));

/**
 * Starts one client in a process of its own (bench/client-worker.ts, under tsx with `--expose-gc`)
 * and resolves once it has connected. Slices run there; the CPU time reported is that process's.
 * `close()` has it check one answer per operation first, and rejects if one is wrong.
 */
export async function startClientWorker(init: WorkerInit): Promise<WorkerRunner> {
  const child = fork(WORKER, [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | undefined;
  let exited = false;
  child.on("message", (reply: WorkerReply) => {
    const pending = waiting;
    waiting = undefined;
    if (reply.type === "failed")
      pending?.reject(new Error(`${init.client} over ${init.transport} (worker process): ${reply.message}`));
    else pending?.resolve(reply);
  });
  child.once("exit", (code) => {
    exited = true;
    waiting?.reject(new Error(`${init.client} over ${init.transport}: the worker process exited with ${code}`));
    waiting = undefined;
  });
  const next = (): Promise<WorkerReply> => new Promise((resolve, reject) => (waiting = { resolve, reject }));
  let answer = next();
  child.send(init);
  const ready = await answer.catch((error: Error) => {
    child.kill("SIGKILL");
    throw error;
  });
  let peakRssGrowth = 0;
  if (ready.type !== "ready") throw new Error(`unexpected worker reply ${ready.type}`);
  return {
    transport: init.transport,
    client: init.client,
    get peakRssGrowth() {
      return peakRssGrowth;
    },
    async runSlice(key, concurrency, ms, record) {
      answer = next();
      child.send({ type: "slice", key, concurrency, ms, record } satisfies WorkerRequest);
      const reply = await answer;
      if (reply.type !== "slice") throw new Error(`unexpected worker reply ${reply.type}`);
      peakRssGrowth = Math.max(peakRssGrowth, reply.peakRss - reply.baselineRss);
      return reply.slice;
    },
    async peakRssPerMessage(key, calls) {
      answer = next();
      child.send({ type: "rss", key, calls } satisfies WorkerRequest);
      const reply = await answer;
      if (reply.type !== "rss") throw new Error(`unexpected worker reply ${reply.type}`);
      return reply.peakRssGrowth;
    },
    async close() {
      if (exited) return;
      answer = next();
      child.send({ type: "close" } satisfies WorkerRequest);
      try {
        await answer;
      } finally {
        await stopped(child);
      }
    },
  };
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 2000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
  });
}
