import type { BundleResult } from "../sections/bundle.js";
import type { MemoryResult } from "../sections/memory.js";
import type { OverheadResult } from "../sections/overhead.js";
import type { ThroughputCell } from "../sections/throughput.js";
import type { JsonCount } from "../sections/json-count.js";
import type { ClientName, TransportName } from "../clients/bench-client.js";
import type { PayloadKey } from "../lib/fixture.js";
import { median } from "../lib/stats.js";

/**
 * glass-sdk's throughput divided by another client's, in one configuration of one run: the median
 * over rounds of the ratio of the two clients' rates in that round.
 */
export interface Ratio {
  transport: TransportName;
  payload: PayloadKey;
  concurrency: number;
  versus: Exclude<ClientName, "glass-sdk">;
  value: number;
  /** The lowest and highest per-round ratio: how much the run's noise moved it. */
  range: [number, number];
  target: number;
  pass: boolean;
}

/** One target of the issue, as measured. */
export interface TargetResult {
  id: string;
  description: string;
  measured: { value: number; unit: string };
  limit: { op: ">=" | "<="; value: number; unit: string };
  pass: boolean;
  /** Which cells or transports it covers, when it stands for several. */
  detail?: string;
}

/** ≥ 0.90 × the raw baseline on every transport. */
export const RAW_TARGET = 0.9;
/** ≥ 1.5 × the MCP SDK Client on every transport both support. */
export const MCP_TARGET = 1.5;
const OVERHEAD_LIMIT_MICROS = 25;
/** "5 MB", "20 KB": decimal units (the stricter reading of the issue). */
const HEAP_LIMIT_BYTES = 5_000_000;
const BUNDLE_GZIP_LIMIT_BYTES = 20_000;
const BUNDLE_SHARE_LIMIT = 0.25;

/** Every glass-sdk ÷ raw and glass-sdk ÷ mcp-sdk ratio of the run. */
export function ratios(cells: readonly ThroughputCell[]): Ratio[] {
  const out: Ratio[] = [];
  for (const ours of cells.filter((c) => c.client === "glass-sdk")) {
    for (const versus of ["raw", "mcp-sdk"] as const) {
      const other = cells.find((c) => c.client === versus && c.transport === ours.transport && c.payload === ours.payload && c.concurrency === ours.concurrency);
      if (other === undefined) continue;
      const target = versus === "raw" ? RAW_TARGET : MCP_TARGET;
      // Paired by round (the two ran in adjacent slices), so load that drifts between rounds cancels out.
      const perRound = ours.roundRates.map((rate, round) => rate / other.roundRates[round]!);
      const value = median(perRound);
      const range: [number, number] = [Math.min(...perRound), Math.max(...perRound)];
      out.push({ transport: ours.transport, payload: ours.payload, concurrency: ours.concurrency, versus, value, range, target, pass: value >= target });
    }
  }
  return out;
}

/** The JSON work of one 100 KB call per glass-sdk transport. */
export type LargeCallJson = { transport: string; json: JsonCount }[];

/** Evaluates every target of the issue. */
export function evaluateTargets(all: Ratio[], overhead: OverheadResult[], largeJson: LargeCallJson, memory: MemoryResult, bundle: BundleResult): TargetResult[] {
  const worst = (versus: Ratio["versus"]): Ratio => all.filter((r) => r.versus === versus).reduce((a, b) => (b.value < a.value ? b : a));
  const describe = (r: Ratio): string => `worst: ${r.transport} ${r.payload} ×${r.concurrency}; ${all.filter((x) => x.versus === r.versus && !x.pass).length} of ${all.filter((x) => x.versus === r.versus).length} cells below`;
  const rawWorst = worst("raw");
  const mcpWorst = worst("mcp-sdk");
  const small = overhead.find((o) => o.payload === "small")!;
  const parses = Math.max(...largeJson.map((j) => j.json.payloadParses));
  const serializations = Math.max(...largeJson.map((j) => j.json.payloadSerializations));
  const share = bundle.glass.gzipBytes / bundle.mcpSdk.gzipBytes;
  return [
    { id: "throughput-vs-raw", description: "glass-sdk throughput ≥ 0.90 × the raw baseline on every transport", measured: { value: rawWorst.value, unit: "ratio" }, limit: { op: ">=", value: RAW_TARGET, unit: "ratio" }, pass: rawWorst.pass, detail: describe(rawWorst) },
    { id: "throughput-vs-mcp-sdk", description: "glass-sdk throughput ≥ 1.5 × the MCP SDK Client on every transport both support", measured: { value: mcpWorst.value, unit: "ratio" }, limit: { op: ">=", value: MCP_TARGET, unit: "ratio" }, pass: mcpWorst.pass, detail: describe(mcpWorst) },
    { id: "overhead-small", description: "SDK overhead per small call (validate+map+encode+decode+lift), CPU, no I/O", measured: { value: small.overheadMicros, unit: "µs" }, limit: { op: "<=", value: OVERHEAD_LIMIT_MICROS, unit: "µs" }, pass: small.overheadMicros <= OVERHEAD_LIMIT_MICROS },
    { id: "large-payload-parses", description: "per 100 KB Web IR call: parses of the payload (client side, every transport)", measured: { value: parses, unit: "parses" }, limit: { op: "<=", value: 1, unit: "parses" }, pass: parses <= 1, detail: largeJson.map((j) => `${j.transport} ${j.json.payloadParses}`).join(", ") },
    { id: "large-payload-serializations", description: "per 100 KB Web IR call: serializations of the payload (client side, every transport)", measured: { value: serializations, unit: "serializations" }, limit: { op: "<=", value: 1, unit: "serializations" }, pass: serializations <= 1, detail: largeJson.map((j) => `${j.transport} ${j.json.payloadSerializations}`).join(", ") },
    { id: "heap-growth", description: `heap growth over ${memory.calls} calls (after full GC)`, measured: { value: memory.heapGrowthBytes, unit: "bytes" }, limit: { op: "<=", value: HEAP_LIMIT_BYTES, unit: "bytes" }, pass: memory.heapGrowthBytes <= HEAP_LIMIT_BYTES },
    { id: "bundle-gzip", description: "browser bundle, gzip", measured: { value: bundle.glass.gzipBytes, unit: "bytes" }, limit: { op: "<=", value: BUNDLE_GZIP_LIMIT_BYTES, unit: "bytes" }, pass: bundle.glass.gzipBytes <= BUNDLE_GZIP_LIMIT_BYTES },
    { id: "bundle-share", description: "browser bundle gzip ÷ the MCP SDK client bundle gzip", measured: { value: share, unit: "ratio" }, limit: { op: "<=", value: BUNDLE_SHARE_LIMIT, unit: "ratio" }, pass: share <= BUNDLE_SHARE_LIMIT },
  ];
}
