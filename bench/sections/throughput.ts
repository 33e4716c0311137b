import { performance } from "node:perf_hooks";
import type { PayloadKey } from "../lib/fixture.js";
import type { BenchSettings } from "../lib/settings.js";
import { median, percentile } from "../lib/stats.js";
import type { BenchClient, ClientName, TransportName } from "../clients/bench-client.js";

/** Calls in flight per client: one after another, and 4 at once (every transport's default limit). */
export const CONCURRENCIES = [1, 4] as const;
/** The two payloads. */
export const PAYLOADS: readonly PayloadKey[] = ["small", "large"];

/** One cell of the table: a client on a transport, one payload, one concurrency. */
export interface ThroughputCell {
  transport: TransportName;
  client: ClientName;
  payload: PayloadKey;
  concurrency: number;
  /** The median round's calls per second. */
  callsPerSecond: number;
  /** Per-call latency percentiles over every measured call, in ms. */
  p50Ms: number;
  p99Ms: number;
  /** Calls measured (warm-up excluded). */
  calls: number;
  /**
   * CPU time (user + system) of this process per call, in µs: what the client spends on a call,
   * which other load on the machine skews far less than calls per second.
   */
  cpuMicrosPerCall: number;
  /** Calls per second of each round, in round order. */
  roundRates: number[];
}

interface Slice {
  calls: number;
  elapsedMs: number;
  cpuMicros: number;
}

/** Runs `client` for `ms` with `concurrency` workers each calling in a loop; records each call's latency. */
async function runSlice(client: BenchClient, payload: PayloadKey, concurrency: number, ms: number, latencies: number[] | undefined): Promise<Slice> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const until = start + ms;
  let calls = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const sent = performance.now();
      await client.call(payload);
      latencies?.push(performance.now() - sent);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { calls, elapsedMs, cpuMicros: used.user + used.system };
}

/**
 * Measures the clients of one transport, one configuration (payload × concurrency) at a time,
 * after warming each client on both payloads: each client warms up again, then every round runs each client for one slice, the order rotating by
 * one each round so drift hits them equally. Calls per second is the median round's; p50/p99 come
 * from every measured call.
 */
export async function measureTransport(clients: readonly BenchClient[], settings: BenchSettings, progress: (line: string) => void): Promise<ThroughputCell[]> {
  const cells: ThroughputCell[] = [];
  // Warm every code path (and the JIT) before the first configuration, not just the one measured next.
  for (const client of clients) {
    for (const payload of PAYLOADS) await runSlice(client, payload, CONCURRENCIES.at(-1)!, settings.groupWarmupMs / PAYLOADS.length, undefined);
  }
  for (const payload of PAYLOADS) {
    for (const concurrency of CONCURRENCIES) {
      for (const client of clients) await runSlice(client, payload, concurrency, settings.warmupMs, undefined);
      const latencies = clients.map((): number[] => []);
      const rates = clients.map((): number[] => []);
      const cpuMicros = clients.map(() => 0);
      for (let round = 0; round < settings.rounds; round++) {
        for (let k = 0; k < clients.length; k++) {
          const index = (k + round) % clients.length;
          const slice = await runSlice(clients[index]!, payload, concurrency, settings.sliceMs, latencies[index]);
          rates[index]!.push((slice.calls / slice.elapsedMs) * 1000);
          cpuMicros[index]! += slice.cpuMicros;
        }
      }
      clients.forEach((client, index) => {
        const cell: ThroughputCell = {
          transport: client.transport,
          client: client.client,
          payload,
          concurrency,
          callsPerSecond: median(rates[index]!),
          p50Ms: percentile(latencies[index]!, 50),
          p99Ms: percentile(latencies[index]!, 99),
          calls: latencies[index]!.length,
          cpuMicrosPerCall: cpuMicros[index]! / latencies[index]!.length,
          roundRates: rates[index]!,
        };
        cells.push(cell);
        progress(`${cell.transport.padEnd(9)} ${cell.client.padEnd(9)} ${payload.padEnd(5)} ×${concurrency}  ${cell.callsPerSecond.toFixed(0).padStart(7)} calls/s  p50 ${cell.p50Ms.toFixed(3)} ms  p99 ${cell.p99Ms.toFixed(3)} ms  CPU ${cell.cpuMicrosPerCall.toFixed(1)} µs/call`);
      });
    }
  }
  return cells;
}
