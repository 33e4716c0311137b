import { cpus, totalmem } from "node:os";
import type { BenchFixture } from "../lib/fixture.js";
import type { BenchSettings } from "../lib/settings.js";
import { fig, type Figure } from "../lib/stats.js";
import type { BundleResult } from "../sections/bundle.js";
import type { ColdStartResult } from "../sections/cold-start.js";
import type { GatewayCell } from "../sections/gateways.js";
import type { KyCostResult } from "../sections/ky-cost.js";
import type { MemoryResult } from "../sections/memory.js";
import type { OverheadResult } from "../sections/overhead.js";
import type { ThroughputCell } from "../sections/throughput.js";
import type { LadderRun } from "./ladder-report.js";
import type { LargeCallJson, Ratio, TargetResult } from "./targets.js";

/** Everything one run measured. */
export interface BenchRun {
  settings: BenchSettings;
  fixture: BenchFixture;
  cells: ThroughputCell[];
  /** With `--isolated`: the same table, each client in a process of its own (else empty). */
  isolatedCells: ThroughputCell[];
  isolatedRatios: Ratio[];
  gateways: GatewayCell[];
  /** ky's cost per request over HTTP: ky next to plain fetch (or why it was not measured). */
  kyCost: KyCostResult | string;
  /** The last ladder run (bench/results/ladder.json), or why there is none. */
  ladder: LadderRun | string;
  ratios: Ratio[];
  overhead: OverheadResult[];
  largeJson: LargeCallJson;
  memory: MemoryResult;
  coldStart: ColdStartResult;
  bundle: BundleResult;
  targets: TargetResult[];
  wallMs: number;
  notes: string[];
  /** os.loadavg() when the run started and when it ended: other work on the machine skews absolute figures. */
  loadAverage: { start: number[]; end: number[] };
  /** The commit measured, and how many files differ from it (the build measured includes them). */
  git: { commit: string; changedFiles: number };
}

/** The machine-readable results (`bench/results/latest.json`): every figure with its unit. */
export function toResults(run: BenchRun): Record<string, unknown> {
  const cpuList = cpus();
  const bytes = (value: number): Figure => fig(value, "bytes", 0);
  const ms = (value: number): Figure => fig(value, "ms");
  const micros = (value: number): Figure => fig(value, "µs", 2);
  return {
    generatedAt: new Date().toISOString(),
    mode: run.settings.quick ? "quick" : "full",
    environment: {
      node: process.version,
      v8: process.versions.v8,
      platform: `${process.platform}-${process.arch}`,
      cpuCount: fig(cpuList.length, "cpus", 0),
      cpuModel: cpuList[0]?.model ?? "unknown",
      totalMemory: bytes(totalmem()),
      loadAverage1m: {
        start: fig(run.loadAverage.start[0] ?? 0, "runnable processes", 2),
        end: fig(run.loadAverage.end[0] ?? 0, "runnable processes", 2),
      },
      git: run.git,
    },
    settings: {
      groupWarmup: ms(run.settings.groupWarmupMs),
      warmup: ms(run.settings.warmupMs),
      rounds: fig(run.settings.rounds, "rounds", 0),
      slice: ms(run.settings.sliceMs),
      method:
        "per configuration: warm-up, then interleaved rounds (client order rotated each round); calls/s = median round; p50/p99 over every measured call",
    },
    payloads: Object.fromEntries(
      Object.values(run.fixture.operations).map((op) => [
        op.key,
        { operation: op.operation, tool: op.tool, payload: bytes(op.payloadBytes) },
      ]),
    ),
    throughput: run.cells.map(throughputEntry),
    ratios: run.ratios.map(ratioEntry),
    throughputIsolated: run.isolatedCells.map(throughputEntry),
    ratiosIsolated: run.isolatedRatios.map(ratioEntry),
    ladder: typeof run.ladder === "string" ? [] : run.ladder.ladder,
    ladderRun:
      typeof run.ladder === "string"
        ? { missing: run.ladder }
        : {
            generatedAt: run.ladder.generatedAt,
            mode: run.ladder.mode,
            git: run.ladder.git,
            perByteGrowth: run.ladder.perByteGrowth,
          },
    gateways: run.gateways.map((g) => ({
      gateway: g.gateway,
      client: g.client,
      concurrency: fig(g.concurrency, "calls in flight", 0),
      throughput: fig(g.callsPerSecond, "calls/s", 1),
      p50: ms(g.p50Ms),
      p99: ms(g.p99Ms),
      calls: fig(g.calls, "calls", 0),
      roundThroughputs: g.roundRates.map((rate) => fig(rate, "calls/s", 1)),
    })),
    kyCost:
      typeof run.kyCost === "string"
        ? { notMeasured: run.kyCost }
        : {
            method:
              "the same small tools/call POST to the bridge, 1 in flight, answer read with .text(): through plain fetch(url, init), fetch of a Request built from the same init, that after request.clone() (as ky does), and ky set up as httpTransport sets it up; client CPU per request, median of interleaved rounds; no-I/O figures: the ky call answered by a beforeRequest hook returning a Response, and new Request(url, init) alone",
            requestsPerRound: fig(run.kyCost.requestsPerRound, "requests", 0),
            rounds: fig(run.kyCost.rounds, "rounds", 0),
            ky: micros(run.kyCost.kyMicros),
            fetch: micros(run.kyCost.fetchMicros),
            kyMinusFetch: micros(run.kyCost.kyExtraMicros),
            variants: run.kyCost.variants.map((v) => ({
              name: v.name,
              cpuPerRequest: micros(v.cpuMicros),
              roundCpuPerRequest: v.roundCpuMicros.map(micros),
              wallPerRequest: ms(v.wallMs),
            })),
            kyNoIo: micros(run.kyCost.kyNoIoMicros),
            newRequestNoIo: micros(run.kyCost.newRequestMicros),
          },
    overhead: run.overhead.map((o) => ({
      payload: o.payload,
      method: "CPU time (user + system) per call, median of alternating rounds; wall-clock figures alongside",
      glassCall: micros(o.glassMicros),
      trivialLoop: micros(o.trivialMicros),
      overhead: micros(o.overheadMicros),
      wall: {
        glassCall: micros(o.wall.glassMicros),
        trivialLoop: micros(o.wall.trivialMicros),
        overhead: micros(o.wall.overheadMicros),
      },
      stages: o.stages.map((s) => ({ stage: s.stage, cpu: micros(s.micros), wall: micros(s.wallMicros) })),
      jsonCalls: o.json.calls.map((c) => ({ fn: c.fn, size: fig(c.chars, "chars", 0), where: c.where })),
    })),
    largeCallJson: run.largeJson.map(({ transport, json }) => ({
      transport,
      payloadParses: fig(json.payloadParses, "parses", 0),
      payloadSerializations: fig(json.payloadSerializations, "serializations", 0),
      calls: json.calls.map((c) => ({ fn: c.fn, size: fig(c.chars, "chars", 0), where: c.where })),
    })),
    memory: {
      calls: fig(run.memory.calls, "calls", 0),
      heapGrowth: bytes(run.memory.heapGrowthBytes),
      rssGrowth: bytes(run.memory.rssGrowthBytes),
      heapGrowthSecondHalf: bytes(run.memory.heapGrowthSecondHalfBytes),
      elapsed: ms(run.memory.elapsedMs),
      samples: run.memory.samples.map((s) => ({
        calls: fig(s.calls, "calls", 0),
        heapUsed: bytes(s.heapUsedBytes),
        rss: bytes(s.rssBytes),
      })),
      statsAfter: run.memory.stats,
    },
    coldStart: {
      runs: fig(run.coldStart.runs, "processes", 0),
      nodeProcess: ms(run.coldStart.nodeProcessMs),
      importGlassSdk: ms(run.coldStart.importMs),
      importGlassSdkNode: ms(run.coldStart.importNodeMs),
      importMcpSdkClient: ms(run.coldStart.mcpSdkImportMs),
      daemonSpawnToFirstAnswer: ms(run.coldStart.daemonSpawnMs),
      connectStdio: ms(run.coldStart.connectStdioMs),
      connectSocket: ms(run.coldStart.connectSocketMs),
      firstCallAfterConnect: ms(run.coldStart.firstCallMs),
    },
    bundle: [
      {
        build: "prebuilt",
        file: "dist/browser/glass-sdk.browser.min.js",
        minified: bytes(run.bundle.glass.minifiedBytes),
        gzip: bytes(run.bundle.glass.gzipBytes),
      },
      {
        build: "page-http",
        entry:
          "Glass + httpTransport calling browser.observe, findTarget and type (esbuild --bundle --splitting --minify --platform=browser, exports' browser condition): what loads before the first call",
        minified: bytes(run.bundle.glassHttpPage.minifiedBytes),
        gzip: bytes(run.bundle.glassHttpPage.gzipBytes),
        files: run.bundle.glassHttpPage.files,
        firstCallAdds: Object.fromEntries(
          Object.entries(run.bundle.glassHttpPage.onFirstCall).map(([operation, gzip]) => [operation, bytes(gzip)]),
        ),
      },
      {
        build: "page-websocket",
        entry: "the same page with webSocketTransport",
        minified: bytes(run.bundle.glassWebSocketPage.minifiedBytes),
        gzip: bytes(run.bundle.glassWebSocketPage.gzipBytes),
        files: run.bundle.glassWebSocketPage.files,
      },
      {
        build: "page-http-vite",
        entry: "the HTTP page built by Vite (production build): what loads before the first call",
        minified: bytes(run.bundle.viteHttpPage.minifiedBytes),
        gzip: bytes(run.bundle.viteHttpPage.gzipBytes),
        files: run.bundle.viteHttpPage.files,
      },
      {
        build: "page-websocket-vite",
        entry: "the WebSocket page built by Vite",
        minified: bytes(run.bundle.viteWebSocketPage.minifiedBytes),
        gzip: bytes(run.bundle.viteWebSocketPage.gzipBytes),
        files: run.bundle.viteWebSocketPage.files,
      },
      {
        build: "mcp-sdk-client",
        entry: "Client + StreamableHTTPClientTransport (same settings, this run)",
        minified: bytes(run.bundle.mcpSdk.minifiedBytes),
        gzip: bytes(run.bundle.mcpSdk.gzipBytes),
      },
    ],
    bundleComposition: {
      gzipShareOfMcpSdk: fig(run.bundle.glass.gzipBytes / run.bundle.mcpSdk.gzipBytes, "ratio"),
      glassSdk: run.bundle.glassComposition.map((c) => ({ area: c.area, minified: bytes(c.bytes) })),
      mcpSdk: run.bundle.mcpSdkComposition.map((c) => ({ area: c.area, minified: bytes(c.bytes) })),
    },
    targets: run.targets.map((t) => ({
      ...t,
      measured: fig(t.measured.value, t.measured.unit),
      limit: { op: t.limit.op, ...fig(t.limit.value, t.limit.unit) },
    })),
    harnessWallTime: ms(run.wallMs),
    notes: run.notes,
  };
}

function throughputEntry(cell: ThroughputCell): Record<string, unknown> {
  return {
    transport: cell.transport,
    client: cell.client,
    payload: cell.payload,
    concurrency: fig(cell.concurrency, "calls in flight", 0),
    throughput: fig(cell.callsPerSecond, "calls/s", 1),
    p50: fig(cell.p50Ms, "ms"),
    p99: fig(cell.p99Ms, "ms"),
    calls: fig(cell.calls, "calls", 0),
    clientCpuPerCall: fig(cell.cpuMicrosPerCall, "µs", 1),
    roundThroughputs: cell.roundRates.map((rate) => fig(rate, "calls/s", 1)),
    roundClientCpuPerCall: cell.roundCpuMicrosPerCall.map((cpu) => fig(cpu, "µs", 1)),
  };
}

function ratioEntry(r: Ratio): Record<string, unknown> {
  return {
    name: `glass-sdk / ${r.versus}`,
    role:
      r.versus === "raw-parsed"
        ? "the raw floor: raw + JSON.parse of the tool result's content[0].text (the targets)"
        : r.versus === "raw"
          ? "plain raw: the MCP result unparsed (reference only, no limit)"
          : "the MCP SDK client",
    transport: r.transport,
    payload: r.payload,
    concurrency: fig(r.concurrency, "calls in flight", 0),
    throughput: {
      ...fig(r.throughput.value, "ratio"),
      roundRange: r.throughput.range.map((v) => fig(v, "ratio")),
      ...(r.throughputLimit === undefined ? {} : { limit: { op: ">=", ...fig(r.throughputLimit, "ratio") } }),
    },
    clientCpuPerCall: {
      ...fig(r.cpu.value, "ratio"),
      roundRange: r.cpu.range.map((v) => fig(v, "ratio")),
      ...(r.cpuLimit === undefined ? {} : { limit: { op: "<=", ...fig(r.cpuLimit, "ratio") } }),
    },
    pass: r.pass,
  };
}
