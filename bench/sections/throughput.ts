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
  /** CPU time per call of each round, in µs, in round order. */
  roundCpuMicrosPerCall: number[];
}

/** What one slice of calls measured. */
export interface Slice {
  calls: number;
  elapsedMs: number;
  /** CPU time (user + system) of the process the client runs in, over the slice, in µs. */
  cpuMicros: number;
  /** Each call's latency in ms (empty unless asked for). */
  latencies: number[];
}

/**
 * A client the harness can run slices of calls on: in this process ({@link inProcess}) or in a
 * process of its own (bench/lib/client-worker.ts).
 */
export interface SliceRunner {
  readonly transport: TransportName;
  readonly client: ClientName;
  /** Calls `key` for `ms` (at least once) with `concurrency` workers each calling in a loop; records latencies when `record`. */
  runSlice(key: string, concurrency: number, ms: number, record: boolean): Promise<Slice>;
}

/** A client running in this process. */
export function inProcess(client: BenchClient): SliceRunner {
  return {
    transport: client.transport,
    client: client.client,
    runSlice: (key, concurrency, ms, record) => runSlice(client, key, concurrency, ms, record),
  };
}

/** Runs `client` for `ms` (at least one call per worker) with `concurrency` workers each calling in a loop; records each call's latency when `record`. */
export async function runSlice(
  client: BenchClient,
  key: string,
  concurrency: number,
  ms: number,
  record: boolean,
): Promise<Slice> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  const until = start + ms;
  let calls = 0;
  const worker = async (): Promise<void> => {
    do {
      const sent = performance.now();
      await client.call(key);
      if (record) latencies.push(performance.now() - sent);
      calls++;
    } while (performance.now() < until);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { calls, elapsedMs, cpuMicros: used.user + used.system, latencies };
}

/**
 * Measures the clients of one transport, one configuration (payload × concurrency) at a time,
 * after warming each client on both payloads: each client warms up again, then every round runs each client for one slice, the order rotating by
 * one each round so drift hits them equally. Calls per second is the median round's; p50/p99 come
 * from every measured call.
 */
export async function measureTransport(
  clients: readonly SliceRunner[],
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<ThroughputCell[]> {
  const cells: ThroughputCell[] = [];
  // Warm every code path (and the JIT) before the first configuration, not just the one measured next.
  for (const client of clients) {
    for (const payload of PAYLOADS)
      await client.runSlice(payload, CONCURRENCIES.at(-1)!, settings.groupWarmupMs / PAYLOADS.length, false);
  }
  for (const payload of PAYLOADS) {
    for (const concurrency of CONCURRENCIES) {
      for (const client of clients) await client.runSlice(payload, concurrency, settings.warmupMs, false);
      const latencies = clients.map((): number[] => []);
      const rates = clients.map((): number[] => []);
      const cpuMicros = clients.map(() => 0);
      const cpuPerCall = clients.map((): number[] => []);
      for (let round = 0; round < settings.rounds; round++) {
        for (let k = 0; k < clients.length; k++) {
          const index = (k + round) % clients.length;
          const slice = await clients[index]!.runSlice(payload, concurrency, settings.sliceMs, true);
          for (const latency of slice.latencies) latencies[index]!.push(latency);
          rates[index]!.push((slice.calls / slice.elapsedMs) * 1000);
          cpuMicros[index]! += slice.cpuMicros;
          cpuPerCall[index]!.push(slice.cpuMicros / slice.calls);
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
          roundCpuMicrosPerCall: cpuPerCall[index]!,
        };
        cells.push(cell);
        progress(
          `${cell.transport.padEnd(9)} ${cell.client.padEnd(10)} ${payload.padEnd(5)} ×${concurrency}  ${cell.callsPerSecond.toFixed(0).padStart(7)} calls/s  p50 ${cell.p50Ms.toFixed(3)} ms  p99 ${cell.p99Ms.toFixed(3)} ms  CPU ${cell.cpuMicrosPerCall.toFixed(1)} µs/call`,
        );
      });
    }
  }
  return cells;
}
