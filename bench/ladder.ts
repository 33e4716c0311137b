/**
 * npm run bench:ladder [-- --quick] [-- --rung KEY] — the large-message ladder alone (see
 * bench/sections/ladder.ts): writes bench/results/ladder.json, which `npm run bench` folds into
 * bench/results/latest.json (its `ladder` entries and ladder targets). Exits 0 even when a target
 * is missed; 1 when the harness itself fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { RESULTS_DIR } from "./lib/paths.js";
import { gitState } from "./lib/git-state.js";
import { formatLadder, ladderTargets, toLadderResults } from "./report/ladder-report.js";
import { measureLadder } from "./sections/ladder.js";

const started = performance.now();
const progress = (line: string): void =>
  void process.stderr.write(`[ladder ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const rungIndex = args.indexOf("--rung");
const onlyRung = rungIndex === -1 ? undefined : args[rungIndex + 1];
let exitCode = 0;
const dir = mkdtempSync(join(tmpdir(), "glass-ladder-"));
try {
  for (const [i, arg] of args.entries())
    if (arg !== "--quick" && arg !== "--rung" && args[i - 1] !== "--rung")
      throw new Error(`unknown argument ${JSON.stringify(arg)}; the options are --quick and --rung KEY`);
  const settings = quick ? { rounds: 3, sliceMs: 250 } : { rounds: 5, sliceMs: 400 };
  const cells = await measureLadder(
    dir,
    settings,
    progress,
    onlyRung === undefined ? undefined : (rung) => rung.key === onlyRung,
  );
  const targets = ladderTargets(cells);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const results = toLadderResults(cells, targets, {
    mode: quick ? "quick" : "full",
    settings,
    git: gitState(),
    wallMs: performance.now() - started,
  });
  writeFileSync(join(RESULTS_DIR, "ladder.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${formatLadder(cells, targets)}\n`);
  progress(`wrote ${join(RESULTS_DIR, "ladder.json")}`);
} catch (error) {
  process.stderr.write(
    `bench:ladder: the harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
