/**
 * The memory part of `npm run bench`, run in its own process with `--expose-gc` (bench/sections/memory.ts
 * starts it): glass-sdk connects to the fast mock daemon's socket (argv[2]), warms up, then makes
 * `argv[3]` small calls, 4 in flight, reading heapUsed and RSS after a full GC before the calls and
 * at every tenth of them. Prints one JSON line: the samples and the client's stats at the end.
 */
import { performance } from "node:perf_hooks";
import { sdk, sdkNode } from "./lib/dist.js";

const [socketPath, callsText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (socketPath === undefined || callsText === undefined || gc === undefined) {
  throw new Error("usage: node --expose-gc --import tsx bench/memory-child.ts <socket> <calls>");
}
const calls = Number(callsText);
const CONCURRENCY = 4;
const WARM_UP_CALLS = 2_000;

/** One reading, after a full collection. */
interface Sample {
  calls: number;
  heapUsedBytes: number;
  rssBytes: number;
}

function sample(done: number): Sample {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { calls: done, heapUsedBytes: usage.heapUsed, rssBytes: usage.rss };
}

const glass = await sdk.Glass.connect(sdkNode.socketTransport({ path: socketPath }));
const observe = (): Promise<unknown> => glass.browser.observe({ level: "summary" });

/** Makes `count` calls with CONCURRENCY workers. */
async function run(count: number): Promise<void> {
  let left = count;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      left--;
      await observe();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

await run(WARM_UP_CALLS);
const samples: Sample[] = [sample(0)];
const started = performance.now();
const step = calls / 10;
for (let done = 0; done < calls; done += step) {
  await run(step);
  samples.push(sample(done + step));
}
const elapsedMs = performance.now() - started;
const stats = glass.stats();
await glass.close();
process.stdout.write(`${JSON.stringify({ samples, elapsedMs, stats })}\n`);
