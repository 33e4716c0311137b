/**
 * npm run bench [-- --quick] — glass-sdk's performance next to the floor (a raw hand-written
 * JSON-RPC client, plain and — the floor of the targets — also parsing the tool result's text as
 * glass-sdk must) and the alternative (the official MCP SDK `Client`), in one process run
 * against the mock daemon in fast replay mode:
 *
 * 1. calls/s, p50, p99 and client CPU per call of a small read and a ~100 KB Web IR call, 1 and 4
 *    in flight, over stdio, the Unix socket, HTTP and WebSocket (the last two through the bridge);
 *    with `--isolated`, again with each client in a process of its own;
 * 1b. ky's cost per request over HTTP: the same small POST to the bridge through ky and through
 *    plain `fetch`, with the steps between (bench/sections/ky-cost.ts);
 * 2. the bridge against supergateway 4.0.0 in front of the same daemon, 1 and 8 in flight;
 * 3. the SDK's own cost per call without I/O, stage by stage, and its JSON work on the 100 KB path;
 * 4. heap and RSS around 50,000 calls; 5. cold start; 6. browser bundle sizes (the prebuilt file,
 *    and pages importing glass-sdk by name as a user's bundler builds them); 7. the real daemon
 *    (glass-browser in headless Chromium): latency and client CPU per operation, glass-sdk next to
 *    the MCP SDK client over stdio (also alone: `npm run bench:daemon`, bench/sections/real-daemon.ts).
 *
 * The large-message ladder runs on its own (`npm run bench:ladder`, bench/ladder.ts); its last
 * results (bench/results/ladder.json) are folded into latest.json with the run they came from.
 *
 * Processes: this one runs the clients; the fast daemon runs in its own process (one spawned per
 * stdio client; one on the socket, spawned, so its CPU never shares the clients' event loop); the
 * bridge runs in its own process in front of that socket. One configuration runs at a time.
 *
 * Prints one table, writes bench/results/latest.json and bench/results/throughput.svg. Exits 0
 * even when a target is missed (the table says MISS); 1 when the harness itself fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { WebSocket } from "ws";
import {
  checkAnswer,
  type BenchClient,
  type BenchTargets,
  type ClientName,
  type TransportName,
} from "./clients/bench-client.js";
import { openGlassClient } from "./clients/glass-clients.js";
import { MCP_SDK_TRANSPORTS, openMcpSdkClient } from "./clients/mcp-sdk-clients.js";
import { openRawClient } from "./clients/raw-clients.js";
import { startClientWorker, type WorkerRunner } from "./lib/client-worker.js";
import { writeBenchFixture } from "./lib/fixture.js";
import { gitState } from "./lib/git-state.js";
import { RESULTS_DIR, ROOT } from "./lib/paths.js";
import { fastDaemonCommand, spawnBridge, spawnSocketDaemon, type ChildHandle } from "./lib/processes.js";
import { readSettings } from "./lib/settings.js";
import { readLadderRun } from "./report/ladder-report.js";
import { type BenchRun, toResults } from "./report/results.js";
import { throughputSvg } from "./report/svg.js";
import { formatTable } from "./report/table.js";
import { evaluateTargets, ratios, type LargeCallJson } from "./report/targets.js";
import { measureBundles } from "./sections/bundle.js";
import { measureColdStart } from "./sections/cold-start.js";
import { measureGateways } from "./sections/gateways.js";
import { measureKyCost } from "./sections/ky-cost.js";
import { countJsonCalls } from "./sections/json-count.js";
import { measureMemory } from "./sections/memory.js";
import { measureOverhead } from "./sections/overhead.js";
import { measureRealDaemon, realDaemonTable } from "./sections/real-daemon.js";
import { inProcess, measureTransport, type ThroughputCell } from "./sections/throughput.js";

const TRANSPORTS: readonly TransportName[] = ["stdio", "socket", "http", "websocket"];

const started = performance.now();
const loadAtStart = loadavg();
const progress = (line: string): void =>
  void process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);
const notes: string[] = [
  "the mock daemon runs in fast mode (mock-daemon --fast): read-only tools are answered from one precomputed result per operation, whatever the payload (not matched, not validated, not recorded) — fidelity traded for speed so the daemon is not what is measured",
  "processes: clients here; one daemon process per stdio client; one daemon process on the Unix socket (spawned, so its CPU never shares the clients' event loop); the bridge in its own process in front of that socket (HTTP and WebSocket)",
  "the MCP SDK's StdioClientTransport writes every message as one JSON line: the real daemon refuses lines over 8 KiB (-32700), so its stdio 100 KB cells work only because fast mode accepts JSON lines up to 4 MiB; glass-sdk and the raw baseline send Content-Length frames above 8 KiB, as the protocol requires",
];

// The MCP SDK's WebSocketClientTransport needs a global WebSocket, which Node 20 lacks: use the ws
// package's (glass-sdk's webSocketTransport then finds the same class).
const globals = globalThis as { WebSocket?: unknown };
if (globals.WebSocket === undefined) {
  globals.WebSocket = WebSocket;
  notes.push(
    "Node has no global WebSocket: it was set to the ws package's class for the MCP SDK's WebSocketClientTransport (glass-sdk uses the same class)",
  );
}
// Listener-count warnings (the MCP SDK's transports raise them under load) are findings, not
// noise: count them by kind and by the package whose code raised them, and report them as notes.
const warnings = new Map<string, number>();
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (warning.name !== "MaxListenersExceededWarning")
    return void process.stderr.write(`${warning.name}: ${warning.message}\n`);
  const frames = (warning.stack ?? "").split("\n").slice(1);
  const raisedIn = frames
    .map(
      (frame) =>
        /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame)?.[1] ?? (frame.includes("/dist/") ? "glass-sdk" : undefined),
    )
    .find((name) => name !== undefined);
  const key = `"${warning.message.replace(/\d+/g, "N").split(". Use ")[0]}" raised in ${raisedIn ?? "code the stack does not show"}`;
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
});

const settings = readSettings(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), "glass-bench-"));
const children: ChildHandle[] = [];
let exitCode = 0;
try {
  const fixture = writeBenchFixture(dir);
  const socketPath = join(dir, "glass.sock");
  progress(`${settings.quick ? "quick" : "full"} run; bench fixture ${fixture.path}`);

  progress("bundles (esbuild)…");
  const bundle = await measureBundles();

  const daemon = await spawnSocketDaemon(fixture.path, socketPath);
  children.push(daemon);
  const bridge = await spawnBridge(socketPath);
  children.push(bridge);
  progress(`fast daemon on ${socketPath}; bridge at ${bridge.url}`);
  const targets: BenchTargets = {
    operations: fixture.operations,
    stdioDaemon: fastDaemonCommand(fixture.path),
    socketPath,
    bridge,
  };

  const cells: ThroughputCell[] = [];
  const largeJson: LargeCallJson = [];
  for (const transport of TRANSPORTS) {
    const glass = await openGlassClient(transport, targets);
    const clients: BenchClient[] = [
      glass,
      await openRawClient(transport, targets),
      await openRawClient(transport, targets, true),
    ];
    if (MCP_SDK_TRANSPORTS.includes(transport)) clients.push(await openMcpSdkClient(transport, targets));
    for (const client of clients) {
      for (const op of Object.values(fixture.operations)) checkAnswer(client, op, await client.call(op.key));
    }
    progress(`${transport}: ${clients.map((c) => c.client).join(", ")} connected and answering`);
    cells.push(...(await measureTransport(clients.map(inProcess), settings, progress)));
    largeJson.push({
      transport,
      json: await countJsonCalls(() => glass.call("large"), fixture.operations.large.payloadBytes, ROOT),
    });
    for (const client of clients) await client.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the daemon and bridge see the sessions go
  }

  const isolatedCells: ThroughputCell[] = [];
  if (settings.isolated) {
    const tools = Object.fromEntries(Object.values(fixture.operations).map((op) => [op.key, op.tool]));
    for (const transport of TRANSPORTS) {
      const names: ClientName[] = [
        "glass-sdk",
        "raw",
        "raw-parsed",
        ...(MCP_SDK_TRANSPORTS.includes(transport) ? (["mcp-sdk"] as const) : []),
      ];
      const workers: WorkerRunner[] = await Promise.all(
        names.map((client) =>
          startClientWorker({
            transport,
            client,
            fixturePath: fixture.path,
            tools,
            targets: { stdioDaemon: targets.stdioDaemon, socketPath, bridge },
          }),
        ),
      );
      progress(`${transport}, each client in its own process: ${names.join(", ")} connected`);
      try {
        isolatedCells.push(...(await measureTransport(workers, settings, (line) => progress(`isolated ${line}`))));
      } finally {
        await Promise.all(workers.map((worker) => worker.close()));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  progress("ky vs plain fetch: the same small POST to the bridge…");
  const kyCost = await measureKyCost(targets, settings).catch(
    (error: unknown) => `not measured: ${error instanceof Error ? error.message : String(error)}`,
  );

  progress("gateways: the bridge and supergateway in front of the same daemon…");
  const gateways = await measureGateways(fixture, settings, progress);

  progress("SDK overhead without I/O…");
  const overhead = await measureOverhead(fixture, settings, ROOT);
  largeJson.push({ transport: "in-process", json: overhead.find((o) => o.payload === "large")!.json });

  progress(`memory: ${settings.memoryCalls} calls in a child process with --expose-gc…`);
  const memory = await measureMemory(socketPath, settings.memoryCalls);

  progress(`cold start: ${settings.coldStartRuns} fresh processes per figure…`);
  const coldStart = await measureColdStart(settings.coldStartRuns, targets.stdioDaemon, socketPath);

  progress("the real daemon (glass-browser) in headless Chromium, glass-sdk and the MCP SDK client over stdio…");
  const realDaemon = await measureRealDaemon(settings.quick ? 2 : 5, settings.quick ? 2 : 4, progress).catch(
    (error: unknown) => `not measured: ${error instanceof Error ? error.message : String(error)}`,
  );

  for (const [warning, count] of warnings) notes.push(`Node warned ${count}× ${warning}`);
  const ladder = readLadderRun();
  notes.push(
    typeof ladder === "string"
      ? `the ladder: ${ladder}`
      : `the ladder comes from its own run (npm run bench:ladder): ${ladder.mode} run of ${ladder.generatedAt}, commit ${ladder.git.commit}`,
  );
  const allRatios = ratios(cells);
  const run: BenchRun = {
    settings,
    fixture,
    cells,
    isolatedCells,
    isolatedRatios: ratios(isolatedCells),
    gateways,
    kyCost,
    ladder,
    ratios: allRatios,
    overhead,
    largeJson,
    memory,
    coldStart,
    bundle,
    targets: evaluateTargets({
      ratios: allRatios,
      overhead,
      largeJson,
      memory,
      bundle,
      gateways,
      ladder: typeof ladder === "string" ? ladder : ladder.targets,
    }),
    wallMs: performance.now() - started,
    notes,
    loadAverage: { start: loadAtStart, end: loadavg() },
    git: gitState(),
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, "latest.json"), `${JSON.stringify(toResults(run), null, 2)}\n`);
  writeFileSync(
    join(RESULTS_DIR, "throughput.svg"),
    throughputSvg(
      cells,
      `Node ${process.version}, ${settings.quick ? "--quick" : "full"} run, fast mock daemon; medians of ${settings.rounds} interleaved rounds`,
    ),
  );
  writeFileSync(
    join(RESULTS_DIR, "real-daemon.json"),
    `${JSON.stringify(typeof realDaemon === "string" ? { notMeasured: realDaemon } : realDaemon, null, 2)}\n`,
  );
  process.stdout.write(
    `${formatTable(run)}\n\n${typeof realDaemon === "string" ? `Real daemon: ${realDaemon}` : realDaemonTable(realDaemon)}\n`,
  );
  progress(`wrote ${join(RESULTS_DIR, "latest.json")} and throughput.svg`);
} catch (error) {
  process.stderr.write(
    `bench: the harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  exitCode = 1;
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
