import type { ClientName, TransportName } from "../clients/bench-client.js";
import type { PayloadKey } from "../lib/fixture.js";
import { median } from "../lib/stats.js";
import type { BundleResult } from "../sections/bundle.js";
import type { GatewayCell } from "../sections/gateways.js";
import type { JsonCount } from "../sections/json-count.js";
import type { MemoryResult } from "../sections/memory.js";
import type { OverheadResult } from "../sections/overhead.js";
import type { ThroughputCell } from "../sections/throughput.js";

/**
 * glass-sdk next to another client in one configuration of one run: throughput ÷ theirs and client
 * CPU per call ÷ theirs, each the median over rounds of the two clients' ratio in that round (they
 * ran in adjacent slices, so load that drifts between rounds cancels out), with the lowest and
 * highest per-round ratio.
 */
export interface Ratio {
  transport: TransportName;
  payload: PayloadKey;
  concurrency: number;
  versus: Exclude<ClientName, "glass-sdk">;
  throughput: { value: number; range: [number, number] };
  cpu: { value: number; range: [number, number] };
  /** The CPU limit of this cell (≤); none next to plain raw, which is shown for reference only. */
  cpuLimit: number | undefined;
  /** The throughput floor (≥) next to the MCP SDK client. */
  throughputLimit: number | undefined;
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

/**
 * Client CPU per call, glass-sdk ÷ the other client, at most (the performance issue, parts 1 and
 * 2): next to the raw floor (raw + `JSON.parse` of the tool result's text, "raw-parsed"), and next
 * to the MCP SDK client off HTTP and over HTTP. Plain raw has no limit (reference only).
 */
export const CPU_LIMITS: Readonly<Record<PayloadKey, { rawFloor: number; mcpSdk: number; mcpSdkHttp: number }>> = {
  small: { rawFloor: 1.25, mcpSdk: 1.0, mcpSdkHttp: 1.1 },
  large: { rawFloor: 1.1, mcpSdk: 1.1, mcpSdkHttp: 1.2 },
};
/** glass-sdk calls/s ÷ the MCP SDK client's, at least, in every cell. */
export const THROUGHPUT_VS_MCP_SDK = 0.95;
/** The bridge's calls/s ÷ supergateway's, at least, and its p99 ÷ supergateway's, at most. */
export const GATEWAY_LIMITS = { throughput: 1.5, p99: 1.0 } as const;
/** Bundle limits, gzip -9, in decimal KB (the stricter reading). */
export const BUNDLE_LIMITS = {
  prebuilt: 46_300,
  httpPage: 30_000,
  webSocketPage: 24_000,
  shareOfMcpSdk: 1 / 3,
} as const;
const OVERHEAD_LIMIT_MICROS = 25;
const HEAP_LIMIT_BYTES = 5_000_000;

const range = (values: readonly number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/** The CPU limit of one cell of glass-sdk ÷ `versus`. */
function cpuLimitOf(payload: PayloadKey, transport: TransportName, versus: Ratio["versus"]): number | undefined {
  const limits = CPU_LIMITS[payload];
  if (versus === "raw-parsed") return limits.rawFloor;
  if (versus === "mcp-sdk") return transport === "http" ? limits.mcpSdkHttp : limits.mcpSdk;
  return undefined;
}

/** Every glass-sdk ÷ raw, ÷ raw-parsed (the floor) and ÷ mcp-sdk ratio of the run. */
export function ratios(cells: readonly ThroughputCell[]): Ratio[] {
  const out: Ratio[] = [];
  for (const ours of cells.filter((c) => c.client === "glass-sdk")) {
    for (const versus of ["raw", "raw-parsed", "mcp-sdk"] as const) {
      const other = cells.find(
        (c) =>
          c.client === versus &&
          c.transport === ours.transport &&
          c.payload === ours.payload &&
          c.concurrency === ours.concurrency,
      );
      if (other === undefined) continue;
      const rates = ours.roundRates.map((rate, round) => rate / other.roundRates[round]!);
      const cpus = ours.roundCpuMicrosPerCall.map((cpu, round) => cpu / other.roundCpuMicrosPerCall[round]!);
      const cpuLimit = cpuLimitOf(ours.payload, ours.transport, versus);
      const throughputLimit = versus === "mcp-sdk" ? THROUGHPUT_VS_MCP_SDK : undefined;
      const throughput = { value: median(rates), range: range(rates) };
      const cpu = { value: median(cpus), range: range(cpus) };
      const pass =
        (cpuLimit === undefined || cpu.value <= cpuLimit) &&
        (throughputLimit === undefined || throughput.value >= throughputLimit);
      out.push({
        transport: ours.transport,
        payload: ours.payload,
        concurrency: ours.concurrency,
        versus,
        throughput,
        cpu,
        cpuLimit,
        throughputLimit,
        pass,
      });
    }
  }
  return out;
}

/** The JSON work of one 100 KB call per glass-sdk transport. */
export type LargeCallJson = { transport: string; json: JsonCount }[];

/** What the targets are evaluated on. */
export interface TargetInputs {
  ratios: readonly Ratio[];
  overhead: readonly OverheadResult[];
  largeJson: LargeCallJson;
  memory: MemoryResult;
  bundle: BundleResult;
  gateways: readonly GatewayCell[];
  /** The ladder's targets, from its own run (bench/results/ladder.json), or a reason they are missing. */
  ladder: readonly TargetResult[] | string;
}

/** The ladder targets' ids, listed as not measured when there is no ladder run to read. */
const LADDER_TARGET_IDS = [
  "ladder-throughput-vs-raw",
  "ladder-cpu-vs-raw",
  "ladder-cpu-vs-mcp-sdk",
  "ladder-peak-rss",
  "ladder-per-byte-flat",
];

/** Evaluates every target of the issue: each is its worst cell against the limit. */
export function evaluateTargets(inputs: TargetInputs): TargetResult[] {
  const targets: TargetResult[] = [];
  const ratioTarget = (
    id: string,
    description: string,
    selected: readonly Ratio[],
    of: (r: Ratio) => number,
    op: ">=" | "<=",
    limit: number,
  ): void => {
    if (selected.length === 0) return;
    const worst = selected.reduce((a, b) => ((op === "<=" ? of(b) > of(a) : of(b) < of(a)) ? b : a));
    const misses = selected.filter((r) => (op === "<=" ? of(r) > limit : of(r) < limit)).length;
    const value = of(worst);
    targets.push({
      id,
      description,
      measured: { value, unit: "ratio" },
      limit: { op, value: limit, unit: "ratio" },
      pass: op === "<=" ? value <= limit : value >= limit,
      detail: `worst: ${worst.transport} ×${worst.concurrency}; ${misses} of ${selected.length} cells miss`,
    });
  };
  for (const payload of ["small", "large"] as const) {
    const limits = CPU_LIMITS[payload];
    const of = (versus: Ratio["versus"], http?: boolean): Ratio[] =>
      inputs.ratios.filter(
        (r) =>
          r.payload === payload && r.versus === versus && (http === undefined || (r.transport === "http") === http),
      );
    ratioTarget(
      `cpu-${payload}-vs-raw-floor`,
      `CPU per ${payload} call ÷ raw floor (raw + JSON.parse of content[0].text)`,
      of("raw-parsed"),
      (r) => r.cpu.value,
      "<=",
      limits.rawFloor,
    );
    ratioTarget(
      `cpu-${payload}-vs-mcp-sdk`,
      `CPU per ${payload} call ÷ the MCP SDK client's, every cell off HTTP`,
      of("mcp-sdk", false),
      (r) => r.cpu.value,
      "<=",
      limits.mcpSdk,
    );
    ratioTarget(
      `cpu-${payload}-vs-mcp-sdk-http`,
      `CPU per ${payload} call ÷ the MCP SDK client's, over HTTP`,
      of("mcp-sdk", true),
      (r) => r.cpu.value,
      "<=",
      limits.mcpSdkHttp,
    );
  }
  ratioTarget(
    "throughput-vs-mcp-sdk",
    "calls/s ÷ the MCP SDK client's, every cell",
    inputs.ratios.filter((r) => r.versus === "mcp-sdk"),
    (r) => r.throughput.value,
    ">=",
    THROUGHPUT_VS_MCP_SDK,
  );

  if (typeof inputs.ladder === "string") {
    for (const id of LADDER_TARGET_IDS)
      targets.push({
        id,
        description: `${id} (the ladder: npm run bench:ladder)`,
        measured: { value: Number.NaN, unit: "ratio" },
        limit: { op: "<=", value: Number.NaN, unit: "ratio" },
        pass: false,
        detail: inputs.ladder,
      });
  } else {
    targets.push(...inputs.ladder);
  }

  for (const concurrency of [...new Set(inputs.gateways.map((g) => g.concurrency))]) {
    const bridge = inputs.gateways.find((g) => g.gateway === "bridge" && g.concurrency === concurrency);
    const other = inputs.gateways.find((g) => g.gateway === "supergateway" && g.concurrency === concurrency);
    if (bridge === undefined || other === undefined) continue;
    const rate = bridge.callsPerSecond / other.callsPerSecond;
    const p99 = bridge.p99Ms / other.p99Ms;
    targets.push({
      id: `gateway-throughput-x${concurrency}`,
      description: `bridge calls/s ≥ 1.5 × supergateway's (stateful), ${concurrency} in flight`,
      measured: { value: rate, unit: "ratio" },
      limit: { op: ">=", value: GATEWAY_LIMITS.throughput, unit: "ratio" },
      pass: rate >= GATEWAY_LIMITS.throughput,
      detail: `${bridge.callsPerSecond.toFixed(0)} vs ${other.callsPerSecond.toFixed(0)} calls/s`,
    });
    targets.push({
      id: `gateway-p99-x${concurrency}`,
      description: `bridge p99 ≤ supergateway's (stateful), ${concurrency} in flight`,
      measured: { value: p99, unit: "ratio" },
      limit: { op: "<=", value: GATEWAY_LIMITS.p99, unit: "ratio" },
      pass: p99 <= GATEWAY_LIMITS.p99,
      detail: `${bridge.p99Ms.toFixed(2)} vs ${other.p99Ms.toFixed(2)} ms`,
    });
  }

  const { bundle } = inputs;
  const share = bundle.glass.gzipBytes / bundle.mcpSdk.gzipBytes;
  const bytes = (id: string, description: string, value: number, limit: number): void =>
    void targets.push({
      id,
      description,
      measured: { value, unit: "bytes" },
      limit: { op: "<=", value: limit, unit: "bytes" },
      pass: value <= limit,
    });
  bytes(
    "bundle-prebuilt-gzip",
    "prebuilt whole-catalog file (glass-sdk.browser.min.js), gzip -9",
    bundle.glass.gzipBytes,
    BUNDLE_LIMITS.prebuilt,
  );
  targets.push({
    id: "bundle-share",
    description: "prebuilt browser file gzip ÷ the MCP SDK client bundle's (same run)",
    measured: { value: share, unit: "ratio" },
    limit: { op: "<=", value: BUNDLE_LIMITS.shareOfMcpSdk, unit: "ratio" },
    pass: share <= BUNDLE_LIMITS.shareOfMcpSdk,
  });
  bytes(
    "bundle-http-page-gzip",
    "page: Glass + httpTransport calling three browser operations, JavaScript loaded before its first call, gzip",
    bundle.glassHttpPage.gzipBytes,
    BUNDLE_LIMITS.httpPage,
  );
  bytes(
    "bundle-websocket-page-gzip",
    "page: Glass + webSocketTransport calling three browser operations, JavaScript loaded before its first call, gzip",
    bundle.glassWebSocketPage.gzipBytes,
    BUNDLE_LIMITS.webSocketPage,
  );

  // Targets of the first benchmark issue that still stand.
  const small = inputs.overhead.find((o) => o.payload === "small")!;
  const parses = Math.max(...inputs.largeJson.map((j) => j.json.payloadParses));
  const serializations = Math.max(...inputs.largeJson.map((j) => j.json.payloadSerializations));
  targets.push(
    {
      id: "overhead-small",
      description: "SDK overhead per small call (validate+map+encode+decode+lift), CPU, no I/O",
      measured: { value: small.overheadMicros, unit: "µs" },
      limit: { op: "<=", value: OVERHEAD_LIMIT_MICROS, unit: "µs" },
      pass: small.overheadMicros <= OVERHEAD_LIMIT_MICROS,
    },
    {
      id: "large-payload-parses",
      description: "per 100 KB Web IR call: parses of the payload (client side, every transport)",
      measured: { value: parses, unit: "parses" },
      limit: { op: "<=", value: 1, unit: "parses" },
      pass: parses <= 1,
      detail: inputs.largeJson.map((j) => `${j.transport} ${j.json.payloadParses}`).join(", "),
    },
    {
      id: "large-payload-serializations",
      description: "per 100 KB Web IR call: serializations of the payload (client side, every transport)",
      measured: { value: serializations, unit: "serializations" },
      limit: { op: "<=", value: 1, unit: "serializations" },
      pass: serializations <= 1,
      detail: inputs.largeJson.map((j) => `${j.transport} ${j.json.payloadSerializations}`).join(", "),
    },
    {
      id: "heap-growth",
      description: `heap growth over ${inputs.memory.calls} calls (after full GC)`,
      measured: { value: inputs.memory.heapGrowthBytes, unit: "bytes" },
      limit: { op: "<=", value: HEAP_LIMIT_BYTES, unit: "bytes" },
      pass: inputs.memory.heapGrowthBytes <= HEAP_LIMIT_BYTES,
    },
  );
  return targets;
}
