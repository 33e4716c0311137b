/** How long each part of the benchmark runs: `--quick` (under 60 s) or the full run (under 3 minutes). */
export interface BenchSettings {
  /** Whether `--quick` was given. */
  readonly quick: boolean;
  /** Warm-up per client when a transport's clients have connected (both payloads, alternating), in ms. */
  readonly groupWarmupMs: number;
  /** Warm-up per client and configuration before its rounds, in ms. */
  readonly warmupMs: number;
  /** Interleaved rounds per configuration (each client runs once per round, in rotated order). */
  readonly rounds: number;
  /** Length of one client's slice of a round, in ms. */
  readonly sliceMs: number;
  /** Small calls made between the two memory readings. */
  readonly memoryCalls: number;
  /** Fresh processes per cold-start measurement. */
  readonly coldStartRuns: number;
  /** Rounds of the in-process overhead measurement. */
  readonly overheadRounds: number;
  /** Length of one overhead round, in ms. */
  readonly overheadRoundMs: number;
}

/** Reads the command line (`--quick`); anything else is an error. */
export function readSettings(argv: readonly string[]): BenchSettings {
  for (const arg of argv) if (arg !== "--quick") throw new Error(`unknown argument ${JSON.stringify(arg)}; the only option is --quick`);
  const quick = argv.includes("--quick");
  return quick
    ? { quick, groupWarmupMs: 250, warmupMs: 50, rounds: 3, sliceMs: 100, memoryCalls: 50_000, coldStartRuns: 3, overheadRounds: 5, overheadRoundMs: 60 }
    : { quick, groupWarmupMs: 500, warmupMs: 150, rounds: 9, sliceMs: 200, memoryCalls: 50_000, coldStartRuns: 7, overheadRounds: 11, overheadRoundMs: 120 };
}
