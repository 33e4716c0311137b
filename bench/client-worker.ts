/**
 * One bench client in a process of its own (bench/lib/client-worker.ts starts it with `--import
 * tsx --expose-gc` and drives it over IPC): it connects, runs the slices of calls the harness asks
 * for and reports each one with the process's peak RSS, and before it closes checks one answer per
 * operation (a wrong answer fails the run).
 *
 * With `liftResults`, the raw and MCP SDK clients hand their caller the result as a value, as
 * glass-sdk does: the JSON of the answer's text item parsed (what their caller must do to use a
 * getDOM tree).
 *
 * Peak RSS, two ways. Over the slices: once connected, before any measured message, a full GC
 * runs, the RSS is read and the kernel's peak (VmHWM) reset (`/proc/self/clear_refs`, Linux); each
 * slice's report carries the peak since then (messages back to back: the garbage of several can
 * wait for the same collection). Per message (`rss` request): before each of a few calls a full
 * GC, the RSS read and the peak reset; the largest peak over the RSS before the call is what one
 * message needs at its highest.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { WebSocket } from "ws";
import { type BenchClient, type BenchTargets, checkAnswer } from "./clients/bench-client.js";
import { openGlassClient } from "./clients/glass-clients.js";
import { openMcpSdkClient } from "./clients/mcp-sdk-clients.js";
import { openRawClient } from "./clients/raw-clients.js";
import type { BenchOperation } from "./lib/fixture.js";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./lib/client-worker.js";
import { runSlice } from "./sections/throughput.js";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
// The harness gone (or done with this client): nothing is left to do.
process.once("disconnect", () => process.exit(0));

const send = (reply: WorkerReply): void => void process.send!(reply);

process.once("message", (init: WorkerInit) => {
  start(init).catch((error: unknown) => {
    send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  });
});

async function start(init: WorkerInit): Promise<void> {
  const targets: BenchTargets = { ...init.targets, operations: readOperations(init.fixturePath, init.tools) };
  const client: BenchClient =
    init.client === "glass-sdk"
      ? await openGlassClient(init.transport, targets)
      : init.client === "raw" || init.client === "raw-parsed"
        ? await openRawClient(init.transport, targets, init.client === "raw-parsed")
        : await openMcpSdkClient(init.transport, targets);
  const measured: BenchClient =
    init.liftResults === true && client.client !== "glass-sdk" && client.client !== "raw-parsed"
      ? lifting(client)
      : client;
  const baselineRss = settledRss();
  process.on("message", (request: WorkerRequest) => {
    handle(client, measured, targets, request, baselineRss).catch((error: unknown) =>
      send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  send({ type: "ready", baselineRss });
}

/** The client, handing its caller the parsed JSON of the answer's text item. */
function lifting(client: BenchClient): BenchClient {
  return {
    ...client,
    call: async (key) =>
      JSON.parse(((await client.call(key)) as { content: { text: string }[] }).content[0]!.text) as unknown,
  };
}

async function handle(
  client: BenchClient,
  measured: BenchClient,
  targets: BenchTargets,
  request: WorkerRequest,
  baselineRss: number,
): Promise<void> {
  if (request.type === "rss") {
    let growth = 0;
    for (let i = 0; i < request.calls; i++) {
      const before = settledRss();
      await measured.call(request.key);
      growth = Math.max(growth, peakRss() - before);
    }
    send({ type: "rss", peakRssGrowth: growth });
    return;
  }
  if (request.type === "close") {
    for (const op of Object.values(targets.operations)) checkAnswer(client, op, await client.call(op.key));
    await client.close();
    send({ type: "closed" });
    process.disconnect();
    return;
  }
  const slice = await runSlice(measured, request.key, request.concurrency, request.ms, request.record);
  send({ type: "slice", slice, peakRss: peakRss(), baselineRss });
}

/** The fixture's operations, rebuilt from the file the daemon reads (ids are `bench-<key>`). */
function readOperations(path: string, tools: Record<string, string>): Record<string, BenchOperation> {
  const fixture = JSON.parse(readFileSync(path, "utf8")) as {
    requests: { requestId: string; operation: string; payload: Record<string, unknown> }[];
    responses: { requestId: string; result: Record<string, unknown> }[];
  };
  const operations: Record<string, BenchOperation> = {};
  fixture.requests.forEach((request, index) => {
    const key = request.requestId.slice("bench-".length);
    const payloadBytes = Buffer.byteLength(JSON.stringify(request.payload));
    operations[key] = {
      key,
      operation: request.operation,
      tool: tools[key]!,
      payload: request.payload,
      payloadBytes,
      result: fixture.responses[index]!.result,
    };
  });
  return operations;
}

/** RSS after a full GC, with the kernel's peak reset to it. */
function settledRss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Not Linux: the peak is then the process's lifetime peak (resourceUsage().maxRSS).
  }
  return process.memoryUsage.rss();
}

/** The peak RSS since {@link settledRss} (Linux: VmHWM), else the lifetime peak. */
function peakRss(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (match !== null) return Number(match[1]) * 1024;
  } catch {
    // fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}
