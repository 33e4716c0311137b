import type { Glass } from "glass-sdk";
import type { BenchClient } from "../clients/bench-client.js";
import { sdk } from "../lib/dist.js";
import type { BenchFixture } from "../lib/fixture.js";
import { type ChildHandle, fastDaemonCommand, freePort, spawnBridge, spawnSupergateway } from "../lib/processes.js";
import type { BenchSettings } from "../lib/settings.js";
import { median, percentile } from "../lib/stats.js";
import { inProcess, type SliceRunner } from "./throughput.js";

/** The gateways compared: the bridge, supergateway in stateful mode (a daemon per session) and in stateless mode (a daemon per POST). */
export type GatewayName = "bridge" | "supergateway" | "supergateway-stateless";

/** Calls in flight through a gateway. */
export const GATEWAY_CONCURRENCIES = [1, 8] as const;

/** One gateway, one client, one concurrency. */
export interface GatewayCell {
  gateway: GatewayName;
  client: "glass-sdk";
  concurrency: number;
  /** The median round's calls per second. */
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  calls: number;
  roundRates: number[];
}

/**
 * The bridge against supergateway 4.0.0, in front of the same fast mock daemon over stdio (the
 * bridge with `-- COMMAND`: a daemon per client session; supergateway `--stateful`: a daemon per
 * session too), driven by the same client — glass-sdk's `httpTransport` with `maxInFlight` 8 — on
 * the small call, 1 and 8 in flight, in interleaved rounds. The bridge checks its token, `Host` and
 * `Origin` on every request (it always does); supergateway checks nothing. supergateway's stateless
 * mode (its default), which starts a daemon for every POST, is measured after them in short
 * rounds of its own.
 */
export async function measureGateways(
  fixture: BenchFixture,
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<GatewayCell[]> {
  const daemon = fastDaemonCommand(fixture.path);
  const children: ChildHandle[] = [];
  const clients: BenchClient[] = [];
  try {
    const bridge = await spawnBridge(daemon);
    children.push(bridge);
    const stateful = await spawnSupergateway(daemon, await freePort(), true);
    children.push(stateful);
    const stateless = await spawnSupergateway(daemon, await freePort(), false);
    children.push(stateless);
    progress(
      `gateways: bridge at ${bridge.url}, supergateway (stateful) at ${stateful.url}, (stateless) at ${stateless.url}`,
    );
    const open = async (
      gateway: GatewayName,
      url: string,
      token: string | undefined,
    ): Promise<SliceRunner & { gateway: GatewayName }> => {
      const client = await openHttpClient(url, token);
      clients.push(client);
      return { ...inProcess(client), gateway };
    };
    const main = [await open("bridge", bridge.url, bridge.token), await open("supergateway", stateful.url, undefined)];
    // Slices twice the throughput table's: p99 is the target here, and it needs calls to stand on.
    const cells = await measureInterleaved(main, settings, settings.rounds, settings.sliceMs * 2, progress);
    // A daemon per POST: tens of calls per second at best, so fewer, longer slices.
    const perPost = [await open("supergateway-stateless", stateless.url, undefined)];
    cells.push(
      ...(await measureInterleaved(perPost, settings, Math.min(3, settings.rounds), settings.sliceMs * 4, progress)),
    );
    return cells;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const child of children.reverse()) await child.stop();
  }
}

/** glass-sdk's httpTransport to `url`, 8 in flight at most; the small call only. */
async function openHttpClient(url: string, token: string | undefined): Promise<BenchClient> {
  const glass: Glass = await sdk.Glass.connect(
    sdk.httpTransport({ url, ...(token === undefined ? {} : { token }), maxInFlight: 8 }),
    { maxInFlight: 8 },
  );
  return {
    transport: "http",
    client: "glass-sdk",
    call: () => glass.browser.observe({ level: "summary" }),
    close: () => glass.close(),
  };
}

async function measureInterleaved(
  runners: readonly (SliceRunner & { gateway: GatewayName })[],
  settings: BenchSettings,
  rounds: number,
  sliceMs: number,
  progress: (line: string) => void,
): Promise<GatewayCell[]> {
  const cells: GatewayCell[] = [];
  for (const runner of runners) await runner.runSlice("small", 8, settings.groupWarmupMs, false);
  for (const concurrency of GATEWAY_CONCURRENCIES) {
    for (const runner of runners) await runner.runSlice("small", concurrency, settings.warmupMs, false);
    const latencies = runners.map((): number[] => []);
    const rates = runners.map((): number[] => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < runners.length; k++) {
        const index = (k + round) % runners.length;
        const slice = await runners[index]!.runSlice("small", concurrency, sliceMs, true);
        for (const latency of slice.latencies) latencies[index]!.push(latency);
        rates[index]!.push((slice.calls / slice.elapsedMs) * 1000);
      }
    }
    runners.forEach((runner, index) => {
      const cell: GatewayCell = {
        gateway: runner.gateway,
        client: "glass-sdk",
        concurrency,
        callsPerSecond: median(rates[index]!),
        p50Ms: percentile(latencies[index]!, 50),
        p99Ms: percentile(latencies[index]!, 99),
        calls: latencies[index]!.length,
        roundRates: rates[index]!,
      };
      cells.push(cell);
      progress(
        `gateway ${cell.gateway.padEnd(23)} ×${concurrency}  ${cell.callsPerSecond.toFixed(0).padStart(6)} calls/s  p50 ${cell.p50Ms.toFixed(3)} ms  p99 ${cell.p99Ms.toFixed(3)} ms`,
      );
    });
  }
  return cells;
}
