/** How long each part of the benchmark runs: `--quick` (under 60 s) or the full run (under 4 minutes); `--isolated` adds the per-client-process table. */
export interface BenchSettings {
  /** Whether `--quick` was given. */
  readonly quick: boolean;
  /**
   * Whether `--isolated` was given: the throughput table is measured a second time with each
   * client in a process of its own (same rotation), next to the default (all clients in the
   * harness process, on which the targets are checked).
   */
  readonly isolated: boolean;
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

/** Reads the command line (`--quick`, `--isolated`); anything else is an error. */
export function readSettings(argv: readonly string[]): BenchSettings {
  for (const arg of argv)
    if (arg !== "--quick" && arg !== "--isolated")
      throw new Error(`unknown argument ${JSON.stringify(arg)}; the options are --quick and --isolated`);
  const quick = argv.includes("--quick");
  const isolated = argv.includes("--isolated");
  return quick
    ? {
        quick,
        isolated,
        groupWarmupMs: 250,
        warmupMs: 50,
        rounds: 3,
        sliceMs: 100,
        memoryCalls: 50_000,
        coldStartRuns: 3,
        overheadRounds: 5,
        overheadRoundMs: 60,
      }
    : {
        quick,
        isolated,
        groupWarmupMs: 500,
        warmupMs: 150,
        rounds: 9,
        sliceMs: 200,
        memoryCalls: 50_000,
        coldStartRuns: 7,
        overheadRounds: 11,
        overheadRoundMs: 120,
      };
}
