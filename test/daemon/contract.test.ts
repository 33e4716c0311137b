/**
 * `npm run test:contract` against the real daemon, run as a user runs it: over stdio
 * (GLASS_COMMAND) and on the daemon's socket (GLASS_SOCKET, each call under a lease). Its own
 * report must show every request it could replay passed: the golden fixture's browser-free
 * requests, and the session recorded from glass-browser on the example shop (fixtures/
 * glass-browser-shop.json), replayed on the shop the suite serves; only the golden fixture's
 * requests on the mock's simulated library site are skipped.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../src/testing/load-fixture.js";
import { requireInstalledDaemon, socketDaemonPerSuite, withDaemonCommand } from "./support/real-daemon.js";

requireInstalledDaemon();

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const golden = await loadFixture(join(ROOT, "fixtures/protocol-golden-v1.json"));
const shop = await loadFixture(join(ROOT, "fixtures/glass-browser-shop.json"));
const onLibrarySite = golden.requests.filter((request) => request.operation.startsWith("browser."));

/** The vitest JSON report's counts. */
interface ContractReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: { title: string; status: string }[] }[];
}

/** Where `npm run test:contract` writes its JSON report (vitest.contract.config.ts); this suite's files run one at a time. */
const REPORT = join(ROOT, "test-results/vitest-contract.json");

/** Runs `npm run test:contract` with `env` and reads its JSON report. */
function runContractSuite(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; report: ContractReport }> {
  rmSync(REPORT, { force: true });
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env.GLASS_COMMAND === undefined) delete childEnv.GLASS_COMMAND;
  if (env.GLASS_SOCKET === undefined) delete childEnv.GLASS_SOCKET;
  return new Promise((resolve, reject) => {
    execFile(
      "npm",
      ["run", "test:contract"],
      { cwd: ROOT, env: childEnv, timeout: 150_000 },
      (error, stdout, stderr) => {
        try {
          const report = JSON.parse(readFileSync(REPORT, "utf8")) as ContractReport;
          resolve({
            code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
            output: `${stdout}\n${stderr}`,
            report,
          });
        } catch (failure) {
          reject(
            new Error(`npm run test:contract wrote no report (${(failure as Error).message}): ${stdout}\n${stderr}`),
          );
        }
      },
    );
  });
}

/** What every run against the real daemon reports. */
function expectAllReplayed(run: { code: number | null; output: string; report: ContractReport }): void {
  const results = run.report.testResults.flatMap((file) => file.assertionResults);
  expect(
    results.filter((result) => result.status === "failed").map((result) => result.title),
    run.output,
  ).toEqual([]);
  expect(run.code).toBe(0);
  // Two "has requests" checks, the golden fixture's browser-free requests, every request of the shop session.
  expect(run.report.numPassedTests).toBe(2 + golden.requests.length - onLibrarySite.length + shop.requests.length);
  expect(
    results
      .filter((result) => result.status === "skipped" || result.status === "pending")
      .map((result) => result.title.split(" ")[0]),
  ).toEqual(onLibrarySite.map((request) => request.requestId));
}

describe("npm run test:contract against the real daemon", () => {
  it("passes over stdio (GLASS_COMMAND)", async () => {
    expectAllReplayed(await withDaemonCommand((env) => runContractSuite(env)));
  }, 180_000);

  describe("on the daemon's socket (GLASS_SOCKET)", () => {
    const daemon = socketDaemonPerSuite();

    it("passes, each call under a lease", async () => {
      expectAllReplayed(await runContractSuite({ GLASS_SOCKET: daemon().path }));
    }, 180_000);
  });
});
