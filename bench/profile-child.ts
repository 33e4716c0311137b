/**
 * The profiled side of bench/profile.ts (run under `node --cpu-prof`): one client, one
 * configuration (or `in-process`: glass-sdk over the overhead measurement's instant transport, no
 * I/O), called in a loop for the given seconds after a one-second warm-up. Prints the calls per
 * second and CPU time per call it reached (stderr) and the measured window (stdout, JSON).
 */
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { WebSocket } from "ws";
import type { BenchClient, BenchTargets, TransportName } from "./clients/bench-client.js";
import { openGlassClient } from "./clients/glass-clients.js";
import { openMcpSdkClient } from "./clients/mcp-sdk-clients.js";
import { openRawClient } from "./clients/raw-clients.js";
import type { PayloadKey } from "./lib/fixture.js";
import { writeBenchFixture } from "./lib/fixture.js";
import { fastDaemonCommand } from "./lib/processes.js";
import { connectInstant } from "./sections/overhead.js";

const config = JSON.parse(process.argv[2]!) as {
  transport: TransportName | "in-process";
  payload: PayloadKey;
  concurrency: number;
  seconds: number;
  client: "glass-sdk" | "raw" | "raw-parsed" | "mcp-sdk";
  fixturePath: string;
  socketPath: string;
  bridge: BenchTargets["bridge"];
};
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
// The fixture's calls are rebuilt (deterministically) next to the written file.
const { operations } = writeBenchFixture(dirname(config.fixturePath));
const targets: BenchTargets = {
  operations,
  stdioDaemon: fastDaemonCommand(config.fixturePath),
  socketPath: config.socketPath,
  bridge: config.bridge,
};
const open = (transport: TransportName): Promise<BenchClient> =>
  config.client === "glass-sdk"
    ? openGlassClient(transport, targets)
    : config.client === "raw" || config.client === "raw-parsed"
      ? openRawClient(transport, targets, config.client === "raw-parsed")
      : openMcpSdkClient(transport, targets);
const client: BenchClient = config.transport === "in-process" ? await inProcess() : await open(config.transport);

/** glass-sdk over the overhead measurement's instant transport (no I/O). */
async function inProcess(): Promise<BenchClient> {
  const { glass, calls } = await connectInstant({ path: config.fixturePath, operations });
  return {
    transport: "socket",
    client: "glass-sdk",
    call: (payload) => calls[payload as PayloadKey](),
    close: () => glass.close(),
  };
}

async function loop(ms: number): Promise<number> {
  const until = performance.now() + ms;
  let calls = 0;
  await Promise.all(
    Array.from({ length: config.concurrency }, async () => {
      while (performance.now() < until) {
        await client.call(config.payload);
        calls++;
      }
    }),
  );
  return calls;
}

await loop(1000);
const cpu = process.cpuUsage();
const from = Number(process.hrtime.bigint() / 1000n);
const calls = await loop(config.seconds * 1000);
const to = Number(process.hrtime.bigint() / 1000n);
const used = process.cpuUsage(cpu);
await client.close();
process.stderr.write(
  `${config.client} over ${config.transport}, ${config.payload}, ${config.concurrency} in flight: ${(calls / config.seconds).toFixed(0)} calls/s, ${((used.user + used.system) / calls).toFixed(1)} µs CPU/call (user ${(used.user / calls).toFixed(1)}, system ${(used.system / calls).toFixed(1)})\n`,
);
// The measured window on the profile's clock, for bench/profile.ts to keep only its samples.
process.stdout.write(`${JSON.stringify({ window: [from, to] })}\n`);
