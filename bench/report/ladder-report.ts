import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientName } from "../clients/bench-client.js";
import { RESULTS_DIR } from "../lib/paths.js";
import { fig } from "../lib/stats.js";
import type { LadderCell, LadderSettings } from "../sections/ladder.js";
import type { TargetResult } from "./targets.js";

/** The ladder's limits (issue: large messages at the floor). */
export const LADDER_LIMITS = {
  /** glass-sdk calls/s ÷ raw, every cell. */
  throughputVsRaw: 0.9,
  /** glass-sdk CPU per call ÷ raw, every cell. */
  cpuVsRaw: 1.1,
  /** glass-sdk CPU per call ÷ the MCP SDK's, every cell both have. */
  cpuVsMcpSdk: 1.0,
  /** glass-sdk peak RSS growth ÷ the message's bytes. */
  peakRssPerMessage: 3,
  /**
   * glass-sdk CPU per MB of the largest getDOM answer ÷ that of the 100 KB one, per transport:
   * "flat" read as within 25 %.
   */
  perByteGrowth: 1.25,
} as const;

/** The smallest message the peak-RSS target is checked on. */
const RSS_TARGET_MIN_BYTES = 900_000;
const SMALLEST = "getDOM-100KB";
const LARGEST = "getDOM-30MB";

/** The glass-sdk cell of a rung and transport next to another client's. */
function pairs(
  cells: readonly LadderCell[],
  versus: Exclude<ClientName, "glass-sdk">,
): { ours: LadderCell; other: LadderCell }[] {
  return cells
    .filter((c) => c.client === "glass-sdk")
    .flatMap((ours) => {
      const other = cells.find((c) => c.client === versus && c.transport === ours.transport && c.rung === ours.rung);
      return other === undefined ? [] : [{ ours, other }];
    });
}

/** The per-byte growth of glass-sdk's CPU from the smallest to the largest getDOM answer, per transport. */
export function perByteGrowth(cells: readonly LadderCell[]): { transport: string; value: number }[] {
  return cells
    .filter((c) => c.client === "glass-sdk" && c.rung === LARGEST)
    .flatMap((large) => {
      const small = cells.find(
        (c) => c.client === "glass-sdk" && c.rung === SMALLEST && c.transport === large.transport,
      );
      return small === undefined
        ? []
        : [{ transport: large.transport, value: large.cpuMicrosPerMB / small.cpuMicrosPerMB }];
    });
}

/**
 * The ladder's targets: each is the worst cell (named in `detail`) against its limit. A target
 * whose cells were not measured (a partial run) is left out.
 */
export function ladderTargets(cells: readonly LadderCell[]): TargetResult[] {
  const targets: TargetResult[] = [];
  const worst = <T>(items: readonly T[], value: (item: T) => number, higherIsWorse: boolean): T | undefined =>
    items.reduce<T | undefined>(
      (a, b) => (a === undefined || (higherIsWorse ? value(b) > value(a) : value(b) < value(a)) ? b : a),
      undefined,
    );
  const ratioTarget = (
    id: string,
    description: string,
    versus: "raw" | "mcp-sdk",
    value: (p: { ours: LadderCell; other: LadderCell }) => number,
    op: ">=" | "<=",
    limit: number,
  ): void => {
    const all = pairs(cells, versus);
    const w = worst(all, value, op === "<=");
    if (w === undefined) return;
    const below = all.filter((p) => (op === "<=" ? value(p) > limit : value(p) < limit)).length;
    targets.push({
      id,
      description,
      measured: { value: value(w), unit: "ratio" },
      limit: { op, value: limit, unit: "ratio" },
      pass: op === "<=" ? value(w) <= limit : value(w) >= limit,
      detail: `worst: ${w.ours.rung} over ${w.ours.transport}; ${below} of ${all.length} cells miss`,
    });
  };
  ratioTarget(
    "ladder-throughput-vs-raw",
    "ladder: glass-sdk calls/s ≥ 0.9 × raw, every rung and transport",
    "raw",
    (p) => p.ours.callsPerSecond / p.other.callsPerSecond,
    ">=",
    LADDER_LIMITS.throughputVsRaw,
  );
  ratioTarget(
    "ladder-cpu-vs-raw",
    "ladder: glass-sdk client CPU per call ≤ 1.1 × raw, every cell",
    "raw",
    (p) => p.ours.cpuMicrosPerCall / p.other.cpuMicrosPerCall,
    "<=",
    LADDER_LIMITS.cpuVsRaw,
  );
  ratioTarget(
    "ladder-cpu-vs-mcp-sdk",
    "ladder: glass-sdk client CPU per call ≤ 1.0 × the MCP SDK's",
    "mcp-sdk",
    (p) => p.ours.cpuMicrosPerCall / p.other.cpuMicrosPerCall,
    "<=",
    LADDER_LIMITS.cpuVsMcpSdk,
  );
  // Below 1 MB the heap's own growth (pages, young generation) is most of what RSS shows.
  const ours = cells.filter((c) => c.client === "glass-sdk" && c.messageBytes >= RSS_TARGET_MIN_BYTES);
  const rss = worst(ours, (c) => c.peakRssGrowthBytes / c.messageBytes, true);
  if (rss !== undefined) {
    const value = rss.peakRssGrowthBytes / rss.messageBytes;
    targets.push({
      id: "ladder-peak-rss",
      description: "ladder: glass-sdk peak RSS per message ≤ 3 × its size (rungs ≥ 1 MB)",
      measured: { value, unit: "ratio" },
      limit: { op: "<=", value: LADDER_LIMITS.peakRssPerMessage, unit: "ratio" },
      pass: value <= LADDER_LIMITS.peakRssPerMessage,
      detail: `worst: ${rss.rung} over ${rss.transport}, +${(rss.peakRssGrowthBytes / 1e6).toFixed(1)} MB`,
    });
  }
  const growth = worst(perByteGrowth(cells), (g) => g.value, true);
  if (growth !== undefined) {
    targets.push({
      id: "ladder-per-byte-flat",
      description: `ladder: glass-sdk CPU per MB, ${LARGEST} ÷ ${SMALLEST} (flat: ≤ 1.25)`,
      measured: { value: growth.value, unit: "ratio" },
      limit: { op: "<=", value: LADDER_LIMITS.perByteGrowth, unit: "ratio" },
      pass: growth.value <= LADDER_LIMITS.perByteGrowth,
      detail: `worst: ${growth.transport}`,
    });
  }
  return targets;
}

/** The ladder's entries for results JSON: the throughput entries' fields plus `messageBytes` and `peakRssGrowth`. */
export function ladderEntries(cells: readonly LadderCell[]): Record<string, unknown>[] {
  return cells.map((c) => ({
    transport: c.transport,
    client: c.client,
    payload: c.rung,
    direction: c.direction,
    shape: c.shape,
    concurrency: fig(c.concurrency, "calls in flight", 0),
    throughput: fig(c.callsPerSecond, "calls/s", 2),
    clientCpuPerCall: fig(c.cpuMicrosPerCall, "µs", 0),
    clientCpuPerMB: fig(c.cpuMicrosPerMB, "µs", 0),
    messageBytes: fig(c.messageBytes, "bytes", 0),
    peakRssGrowth: fig(c.peakRssGrowthBytes, "bytes", 0),
    peakRssGrowthBackToBack: fig(c.peakRssGrowthBackToBackBytes, "bytes", 0),
    p50: fig(c.p50Ms, "ms"),
    p99: fig(c.p99Ms, "ms"),
    calls: fig(c.calls, "calls", 0),
    roundThroughputs: c.roundRates.map((rate) => fig(rate, "calls/s", 2)),
  }));
}

/** bench/results/ladder.json. */
export function toLadderResults(
  cells: readonly LadderCell[],
  targets: readonly TargetResult[],
  run: { mode: string; settings: LadderSettings; git: { commit: string; changedFiles: number }; wallMs: number },
): Record<string, unknown> {
  return {
    generatedAt: new Date().toISOString(),
    mode: run.mode,
    node: process.version,
    git: run.git,
    settings: {
      rounds: fig(run.settings.rounds, "rounds", 0),
      slice: fig(run.settings.sliceMs, "ms", 0),
      method:
        "each client in a process of its own, one call in flight; raw and MCP SDK clients parse the answer's text item (the result as a value, as glass-sdk hands it); interleaved rounds, client order rotated each round; calls/s over all measured slices; peakRssGrowth = the largest VmHWM over the RSS before one call, of 3 calls each after a full GC and a peak reset; peakRssGrowthBackToBack = the peak over the measured slices over the RSS settled before them",
    },
    ladder: ladderEntries(cells),
    perByteGrowth: perByteGrowth(cells).map((g) => ({ transport: g.transport, value: fig(g.value, "ratio") })),
    targets: targets.map((t) => ({
      ...t,
      measured: fig(t.measured.value, t.measured.unit),
      limit: { op: t.limit.op, ...fig(t.limit.value, t.limit.unit) },
    })),
    harnessWallTime: fig(run.wallMs, "ms", 0),
  };
}

const pad = (text: string | number, width: number): string => String(text).padEnd(width);
const num = (value: number, digits: number, width: number): string =>
  (Number.isFinite(value) ? value.toFixed(digits) : "—").padStart(width);

/** The ladder as printed tables: every cell with glass-sdk's ratios, the per-MB cost by rung, the targets. */
export function formatLadder(cells: readonly LadderCell[], targets: readonly TargetResult[]): string {
  const lines: string[] = [];
  const rule = "─".repeat(118);
  lines.push("Large-message ladder — each client in its own process, 1 call in flight");
  lines.push(rule);
  lines.push(
    `${pad("rung", 16)}${pad("message", 10)}${pad("transport", 10)}${pad("client", 10)}${"calls/s".padStart(9)}${"CPU ms/call".padStart(13)}${"CPU ms/MB".padStart(11)}${"peak RSS MB".padStart(13)}${"RSS/msg".padStart(9)}${"÷raw cps".padStart(9)}${"÷raw CPU".padStart(9)}${"÷MCP CPU".padStart(9)}`,
  );
  for (const c of cells) {
    const raw = cells.find((o) => o.client === "raw" && o.rung === c.rung && o.transport === c.transport);
    const mcp = cells.find((o) => o.client === "mcp-sdk" && o.rung === c.rung && o.transport === c.transport);
    const ours = c.client === "glass-sdk";
    lines.push(
      `${pad(c.rung, 16)}${pad(`${(c.messageBytes / 1e6).toFixed(2)} MB`, 10)}${pad(c.transport, 10)}${pad(c.client, 10)}${num(c.callsPerSecond, 1, 9)}${num(c.cpuMicrosPerCall / 1000, 2, 13)}${num(c.cpuMicrosPerMB / 1000, 2, 11)}${num(c.peakRssGrowthBytes / 1e6, 1, 13)}${num(c.peakRssGrowthBytes / c.messageBytes, 2, 9)}` +
        (ours && raw !== undefined
          ? `${num(c.callsPerSecond / raw.callsPerSecond, 2, 9)}${num(c.cpuMicrosPerCall / raw.cpuMicrosPerCall, 2, 9)}`
          : "".padStart(18)) +
        (ours && mcp !== undefined ? num(c.cpuMicrosPerCall / mcp.cpuMicrosPerCall, 2, 9) : ""),
    );
  }
  lines.push(
    "(CPU: user + system of the client's own process; raw and mcp-sdk parse the answer's text, as their caller must; peak RSS: the largest peak over the RSS before one call, each call after a full GC; ratios: glass-sdk ÷ the other client, same rung and transport)",
  );
  lines.push(rule);
  const rungs = [...new Set(cells.map((c) => c.rung))];
  lines.push(`client CPU per MB (ms) by rung, glass-sdk / raw / mcp-sdk:`);
  for (const transport of [...new Set(cells.map((c) => c.transport))]) {
    const row = rungs.map((rung) => {
      const get = (client: ClientName): string => {
        const cell = cells.find((c) => c.client === client && c.rung === rung && c.transport === transport);
        return cell === undefined ? "—" : (cell.cpuMicrosPerMB / 1000).toFixed(1);
      };
      return `${rung} ${get("glass-sdk")}/${get("raw")}/${get("mcp-sdk")}`;
    });
    lines.push(`    ${pad(transport, 10)}${row.join("  ")}`);
  }
  lines.push(rule);
  lines.push(...formatTargets(targets));
  return lines.join("\n");
}

/** Target lines: description, measured, limit, PASS/MISS and what it covers. */
export function formatTargets(targets: readonly TargetResult[]): string[] {
  return targets.map((t) => {
    const show = (value: number, unit: string): string =>
      unit === "bytes"
        ? `${(value / 1000).toFixed(1)} KB`
        : `${Number.isFinite(value) ? value.toFixed(2) : "—"}${unit === "µs" ? " µs" : unit === "ms" ? " ms" : ""}`;
    return `${pad(t.description.slice(0, 72), 73)}${show(t.measured.value, t.measured.unit).padStart(11)}${`${t.limit.op} ${show(t.limit.value, t.limit.unit)}`.padStart(13)}  ${t.pass ? "PASS" : "MISS"}${t.detail === undefined ? "" : `  (${t.detail})`}`;
  });
}

/** The last ladder run, as bench/results/ladder.json holds it. */
export interface LadderRun {
  generatedAt: string;
  mode: string;
  git: { commit: string; changedFiles: number };
  ladder: Record<string, unknown>[];
  perByteGrowth: unknown[];
  targets: TargetResult[];
}

/** Reads bench/results/ladder.json (targets back in their measured form), or says why it cannot. */
export function readLadderRun(): LadderRun | string {
  const path = join(RESULTS_DIR, "ladder.json");
  if (!existsSync(path)) return "not measured: bench/results/ladder.json is missing (run npm run bench:ladder)";
  try {
    const run = JSON.parse(readFileSync(path, "utf8")) as LadderRun;
    return {
      ...run,
      targets: run.targets.map((t) => ({ ...t, limit: { op: t.limit.op, value: t.limit.value, unit: t.limit.unit } })),
    };
  } catch (error) {
    return `not read: ${path}: ${(error as Error).message}`;
  }
}
