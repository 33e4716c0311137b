import { join } from "node:path";
import type { BenchTargets, ClientName, TransportName } from "../clients/bench-client.js";
import { MCP_SDK_TRANSPORTS } from "../clients/mcp-sdk-clients.js";
import { startClientWorker, type WorkerRunner } from "../lib/client-worker.js";
import { writeFixture } from "../lib/fixture.js";
import { type LadderDirection, type LadderRung, ladderRungs } from "../lib/ladder-fixture.js";
import { fastDaemonCommand, spawnBridge, spawnSocketDaemon } from "../lib/processes.js";
import { percentile } from "../lib/stats.js";

const TRANSPORTS: readonly TransportName[] = ["stdio", "socket", "http", "websocket"];
const CLIENTS: readonly ClientName[] = ["glass-sdk", "raw", "mcp-sdk"];

/** How long the ladder measures each cell. */
export interface LadderSettings {
  /** Interleaved rounds per rung and transport (each client runs one slice per round, in rotated order). */
  readonly rounds: number;
  /** Length of one slice, in ms (a slice makes at least one call). */
  readonly sliceMs: number;
}

/** One client on one transport, one rung of the ladder, one call in flight. */
export interface LadderCell {
  transport: TransportName;
  client: ClientName;
  rung: string;
  direction: LadderDirection;
  shape: string;
  messageBytes: number;
  concurrency: number;
  /** Calls per second over every measured slice. */
  callsPerSecond: number;
  /** Calls per second of each round, in round order. */
  roundRates: number[];
  p50Ms: number;
  p99Ms: number;
  calls: number;
  /** CPU time (user + system) of the client's own process per call, in µs. */
  cpuMicrosPerCall: number;
  /** The same per MB (10^6 bytes) of the large message, in µs. */
  cpuMicrosPerMB: number;
  /** The client process's largest peak RSS over its RSS before one call, each call started after a full GC, in bytes. */
  peakRssGrowthBytes: number;
  /** Its peak RSS over the slices (calls back to back) over its settled RSS before them, in bytes. */
  peakRssGrowthBackToBackBytes: number;
}

/**
 * The large-message ladder: for each rung (getDOM answers of 100 KB, 1 MB, 8 MB and 30 MB, an
 * 8 MB screenshot, Web IR requests of 100 KB and 256 KiB, a 4 MiB request) a fast daemon answering
 * that call is started (on a socket, with a bridge in front; one per stdio client), and on each
 * transport every client runs in a process of its own (its CPU time and peak RSS are its own),
 * one call in flight, in interleaved rounds with the order rotated each round. Every client hands
 * its caller the result as a value (raw and the MCP SDK client parse the answer's text item, as
 * their caller must to use it). Then each makes 3 more calls, each after a full GC, for its peak
 * RSS per message.
 */
export async function measureLadder(
  dir: string,
  settings: LadderSettings,
  progress: (line: string) => void,
  only?: (rung: LadderRung) => boolean,
): Promise<LadderCell[]> {
  progress("ladder: building the rungs' fixtures…");
  const rungs = ladderRungs().filter((r) => only?.(r) ?? true);
  const cells: LadderCell[] = [];
  for (const rung of rungs) {
    const fixturePath = writeFixture(dir, `ladder-${rung.key}.json`, [rung.operation]);
    const socketPath = join(dir, `ladder-${rung.key}.sock`);
    const daemon = await spawnSocketDaemon(fixturePath, socketPath);
    const bridge = await spawnBridge(socketPath);
    try {
      const targets: Omit<BenchTargets, "operations"> = {
        stdioDaemon: fastDaemonCommand(fixturePath),
        socketPath,
        bridge,
      };
      for (const transport of TRANSPORTS) {
        const clients = CLIENTS.filter((client) => client !== "mcp-sdk" || MCP_SDK_TRANSPORTS.includes(transport));
        const runners = await Promise.all(
          clients.map((client) =>
            startClientWorker({
              transport,
              client,
              fixturePath,
              tools: { [rung.key]: rung.operation.tool },
              targets,
              liftResults: true,
            }),
          ),
        );
        try {
          cells.push(...(await measureRung(rung, runners, settings, progress)));
        } finally {
          await Promise.all(runners.map((runner) => runner.close()));
        }
      }
    } finally {
      await bridge.stop();
      await daemon.stop();
    }
  }
  return cells;
}

async function measureRung(
  rung: LadderRung,
  runners: readonly WorkerRunner[],
  settings: LadderSettings,
  progress: (line: string) => void,
): Promise<LadderCell[]> {
  for (const runner of runners) await runner.runSlice(rung.key, 1, 0, false); // one more call each, then measure
  const totals = runners.map(() => ({
    calls: 0,
    elapsedMs: 0,
    cpuMicros: 0,
    latencies: [] as number[],
    rates: [] as number[],
  }));
  for (let round = 0; round < settings.rounds; round++) {
    for (let k = 0; k < runners.length; k++) {
      const index = (k + round) % runners.length;
      const slice = await runners[index]!.runSlice(rung.key, 1, settings.sliceMs, true);
      const total = totals[index]!;
      total.calls += slice.calls;
      total.elapsedMs += slice.elapsedMs;
      total.cpuMicros += slice.cpuMicros;
      total.rates.push((slice.calls / slice.elapsedMs) * 1000);
      for (const latency of slice.latencies) total.latencies.push(latency);
    }
  }
  const perMessage: number[] = [];
  for (const runner of runners) perMessage.push(await runner.peakRssPerMessage(rung.key, 3));
  return runners.map((runner, index) => {
    const total = totals[index]!;
    const cpuMicrosPerCall = total.cpuMicros / total.calls;
    const cell: LadderCell = {
      transport: runner.transport,
      client: runner.client,
      rung: rung.key,
      direction: rung.direction,
      shape: rung.shape,
      messageBytes: rung.messageBytes,
      concurrency: 1,
      callsPerSecond: (total.calls / total.elapsedMs) * 1000,
      roundRates: total.rates,
      p50Ms: percentile(total.latencies, 50),
      p99Ms: percentile(total.latencies, 99),
      calls: total.calls,
      cpuMicrosPerCall,
      cpuMicrosPerMB: cpuMicrosPerCall / (rung.messageBytes / 1_000_000),
      peakRssGrowthBytes: perMessage[index]!,
      peakRssGrowthBackToBackBytes: runner.peakRssGrowth,
    };
    progress(
      `ladder ${rung.key.padEnd(15)} ${cell.transport.padEnd(9)} ${cell.client.padEnd(9)} ${cell.callsPerSecond.toFixed(1).padStart(7)} calls/s  CPU ${(cell.cpuMicrosPerCall / 1000).toFixed(2)} ms/call, ${(cell.cpuMicrosPerMB / 1000).toFixed(2)} ms/MB  peak RSS per message +${(cell.peakRssGrowthBytes / 1e6).toFixed(1)} MB (${(cell.peakRssGrowthBytes / rung.messageBytes).toFixed(2)}× the message; back to back +${(cell.peakRssGrowthBackToBackBytes / 1e6).toFixed(1)} MB)`,
    );
    return cell;
  });
}
