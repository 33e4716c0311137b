import { cpus } from "node:os";
import type { ThroughputCell } from "../sections/throughput.js";
import { formatTargets } from "./ladder-report.js";
import type { BenchRun } from "./results.js";
import type { Ratio } from "./targets.js";

const pad = (text: string | number, width: number): string => String(text).padEnd(width);
const num = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;
const mark = (pass: boolean): string => (pass ? "PASS" : "MISS");

/** The run as one printed table: throughput rows, ratio rows, then the other measurements and every target. */
export function formatTable(run: BenchRun): string {
  const { settings, fixture } = run;
  const lines: string[] = [];
  const rule = "─".repeat(96);
  const cpu = cpus();
  lines.push(
    `glass-sdk benchmark — Node ${process.version}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? "unknown"}), ${settings.quick ? "--quick" : "full"} run`,
  );
  lines.push(
    `commit ${run.git.commit} with ${run.git.changedFiles} changed files; load average (1 min) ${run.loadAverage.start[0]?.toFixed(2)} at start, ${run.loadAverage.end[0]?.toFixed(2)} at end`,
  );
  lines.push(
    `${settings.rounds} interleaved rounds of ${settings.sliceMs} ms per client after ${settings.warmupMs} ms warm-up (and ${settings.groupWarmupMs} ms per client when a transport's clients connect); calls/s = median round; p50/p99 over all measured calls`,
  );
  lines.push(
    `small = ${fixture.operations.small.operation} (${fixture.operations.small.payloadBytes} B payload), large = ${fixture.operations.large.operation} (${kb(fixture.operations.large.payloadBytes)} Web IR payload)`,
  );
  lines.push(rule);
  lines.push(...throughputRows(run.cells, run.ratios));
  lines.push(
    "(CPU µs/call: user + system time of the client process per call, all clients in one process; the daemon and bridge are other processes)",
  );
  lines.push(
    "(raw hands back the MCP result unparsed: reference only; raw-parsed also JSON.parses content[0].text, as glass-sdk must: the raw floor of the targets)",
  );
  lines.push(rule);
  if (run.isolatedCells.length > 0) {
    lines.push(
      "Each client in a process of its own (--isolated; same rotation; the targets are checked on the table above):",
    );
    lines.push(...throughputRows(run.isolatedCells, run.isolatedRatios));
    lines.push(rule);
  }
  lines.push(
    "Gateways in front of the same fast daemon over stdio, glass-sdk httpTransport, small call (the bridge checks token, Host and Origin; supergateway checks nothing):",
  );
  lines.push(
    `${pad("gateway", 26)}${pad("in flight", 10)}${"calls/s".padStart(10)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}${"rounds calls/s".padStart(22)}`,
  );
  for (const g of run.gateways) {
    lines.push(
      `${pad(g.gateway, 26)}${pad(g.concurrency, 10)}${num(g.callsPerSecond, 0, 10)}${num(g.p50Ms, 3, 10)}${num(g.p99Ms, 3, 10)}${`${Math.min(...g.roundRates).toFixed(0)}–${Math.max(...g.roundRates).toFixed(0)}`.padStart(22)}`,
    );
  }
  lines.push(rule);
  const k = run.kyCost;
  if (typeof k === "string") lines.push(`ky vs fetch over HTTP: ${k}`);
  else {
    lines.push(
      `ky vs plain fetch, the same small POST to the bridge (1 in flight, ${k.rounds} rounds of ${k.requestsPerRound}): ky − fetch ${k.kyExtraMicros.toFixed(1)} µs CPU per request (median of per-round differences)`,
    );
    lines.push(
      `${pad("    way of sending", 44)}${"CPU µs/request".padStart(16)}${"(rounds)".padStart(16)}${"wall ms".padStart(10)}`,
    );
    for (const v of k.variants) {
      const span = `${Math.min(...v.roundCpuMicros).toFixed(0)}–${Math.max(...v.roundCpuMicros).toFixed(0)}`;
      lines.push(`${pad(`    ${v.name}`, 44)}${num(v.cpuMicros, 1, 16)}${span.padStart(16)}${num(v.wallMs, 3, 10)}`);
    }
    lines.push(
      `    no I/O: the ky call answered by its beforeRequest hook ${k.kyNoIoMicros.toFixed(1)} µs; new Request(url, init) alone ${k.newRequestMicros.toFixed(1)} µs`,
    );
  }
  lines.push(rule);
  for (const o of run.overhead) {
    lines.push(
      `SDK overhead, ${o.payload} call, no I/O: ${o.overheadMicros.toFixed(1)} µs CPU (glass ${o.glassMicros.toFixed(1)} − trivial loop ${o.trivialMicros.toFixed(1)}); wall ${o.wall.overheadMicros.toFixed(1)} µs. Stages alone (CPU, wall):`,
    );
    for (const s of o.stages)
      lines.push(`    ${pad(s.stage, 46)}${num(s.micros, 2, 10)} µs${num(s.wallMicros, 2, 10)} µs`);
  }
  lines.push(
    `JSON work of one large call (client process; payload-sized = ≥ half the payload's ${fixture.operations.large.payloadBytes} B):`,
  );
  for (const { transport, json } of run.largeJson) {
    const summary = json.calls.map((c) => `${c.fn} ${c.chars}`).join(", ");
    lines.push(
      `    ${pad(transport, 10)} payload parses ${json.payloadParses}, serializations ${json.payloadSerializations}   (all: ${summary})`,
    );
  }
  const m = run.memory;
  lines.push(
    `Memory, ${m.calls} small calls over the socket (after full GC): heap ${(m.heapGrowthBytes / 1e6).toFixed(2)} MB (second half ${(m.heapGrowthSecondHalfBytes / 1e6).toFixed(2)} MB), RSS ${(m.rssGrowthBytes / 1e6).toFixed(2)} MB; ${(m.calls / (m.elapsedMs / 1000)).toFixed(0)} calls/s; stats after: ${JSON.stringify(m.stats)}`,
  );
  lines.push(
    `    heapUsed MB by calls: ${m.samples.map((s) => `${s.calls / 1000}k ${(s.heapUsedBytes / 1e6).toFixed(2)}`).join(" | ")}`,
  );
  const c = run.coldStart;
  lines.push(
    `Cold start (median of ${c.runs} fresh processes): node -e 0 ${c.nodeProcessMs.toFixed(1)} ms; import glass-sdk ${c.importMs.toFixed(1)} ms (+ glass-sdk/node ${c.importNodeMs.toFixed(1)} ms; MCP SDK client ${c.mcpSdkImportMs.toFixed(1)} ms)`,
  );
  lines.push(
    `    Glass.connect over stdio ${c.connectStdioMs.toFixed(1)} ms (spawns the daemon; the spawn alone, to its first answer without the SDK: ${c.daemonSpawnMs.toFixed(1)} ms); over the socket to the running daemon ${c.connectSocketMs.toFixed(1)} ms; first call ${c.firstCallMs.toFixed(2)} ms`,
  );
  const b = run.bundle;
  lines.push(
    `Browser bundle: prebuilt glass-sdk ${kb(b.glass.minifiedBytes)} min, ${kb(b.glass.gzipBytes)} gzip; MCP SDK Client+StreamableHTTP ${kb(b.mcpSdk.minifiedBytes)} min, ${kb(b.mcpSdk.gzipBytes)} gzip; share ${((100 * b.glass.gzipBytes) / b.mcpSdk.gzipBytes).toFixed(1)} %`,
  );
  lines.push(
    `    pages calling three browser operations, loaded before the first call (esbuild, browser, chunks): Glass + httpTransport ${kb(b.glassHttpPage.minifiedBytes)} min, ${kb(b.glassHttpPage.gzipBytes)} gzip in ${b.glassHttpPage.files} files; Glass + webSocketTransport ${kb(b.glassWebSocketPage.minifiedBytes)} min, ${kb(b.glassWebSocketPage.gzipBytes)} gzip in ${b.glassWebSocketPage.files} files`,
    `    the same pages built by Vite: Glass + httpTransport ${kb(b.viteHttpPage.gzipBytes)} gzip in ${b.viteHttpPage.files} files; Glass + webSocketTransport ${kb(b.viteWebSocketPage.gzipBytes)} gzip in ${b.viteWebSocketPage.files} files`,
    `    each first call adds its validators (gzip): ${Object.entries(b.glassWebSocketPage.onFirstCall)
      .map(([operation, bytes]) => `${operation} ${kb(bytes)}`)
      .join(", ")}`,
  );
  lines.push(
    `    glass-sdk min bytes by area: ${b.glassComposition
      .slice(0, 8)
      .map((a) => `${a.area} ${kb(a.bytes)}`)
      .join(", ")}`,
  );
  lines.push(rule);
  lines.push(`${pad("target", 73)}${"measured".padStart(11)}${"limit".padStart(13)}  result`);
  lines.push(...formatTargets(run.targets));
  lines.push(rule);
  for (const note of run.notes) lines.push(`note: ${note}`);
  lines.push(`harness wall time ${(run.wallMs / 1000).toFixed(1)} s (after the build)`);
  return lines.join("\n");
}

/** Throughput rows, then glass-sdk's ratios to the other clients (throughput and CPU per call, median of per-round ratios, with their range). */
function throughputRows(cells: readonly ThroughputCell[], ratios: readonly Ratio[]): string[] {
  const lines: string[] = [];
  lines.push(
    `${pad("transport", 10)}${pad("client", 11)}${pad("payload", 8)}${pad("in flight", 10)}${"calls/s".padStart(10)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}${"CPU µs/call".padStart(13)}`,
  );
  for (const cell of cells) {
    lines.push(
      `${pad(cell.transport, 10)}${pad(cell.client, 11)}${pad(cell.payload, 8)}${pad(cell.concurrency, 10)}${num(cell.callsPerSecond, 0, 10)}${num(cell.p50Ms, 3, 10)}${num(cell.p99Ms, 3, 10)}${num(cell.cpuMicrosPerCall, 1, 13)}`,
    );
  }
  lines.push(
    `${pad("glass-sdk ÷", 14)}${pad("transport", 10)}${pad("payload", 8)}${pad("in flight", 10)}${"calls/s".padStart(8)}${"(rounds)".padStart(12)}${"CPU/call".padStart(10)}${"(rounds)".padStart(12)}${"CPU limit".padStart(11)}  result`,
  );
  for (const r of ratios) {
    const span = (x: [number, number]): string => `${x[0].toFixed(2)}–${x[1].toFixed(2)}`;
    lines.push(
      `${pad(r.versus, 14)}${pad(r.transport, 10)}${pad(r.payload, 8)}${pad(r.concurrency, 10)}${num(r.throughput.value, 2, 8)}${span(r.throughput.range).padStart(12)}${num(r.cpu.value, 2, 10)}${span(r.cpu.range).padStart(12)}${(r.cpuLimit === undefined ? "—" : `≤ ${r.cpuLimit.toFixed(2)}`).padStart(11)}  ${r.cpuLimit === undefined ? "info" : mark(r.pass)}${r.throughputLimit === undefined ? "" : ` (and calls/s ≥ ${r.throughputLimit.toFixed(2)})`}`,
    );
  }
  return lines;
}
