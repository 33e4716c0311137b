import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";
import { runExample, type ExampleRun } from "../support/run-example.js";

/** Runs `npm start`'s script (`tsx examples/quickstart.ts`) with the given extra environment. */
function runQuickstart(extraEnv: Record<string, string> = {}): Promise<ExampleRun> {
  return runExample("quickstart.ts", { env: extraEnv });
}

/** The story every run against the simulated site prints, whatever the transport. */
function expectStory(stdout: string): void {
  expect(stdout).toContain("answered by glass-sdk-mock-daemon");
  expect(stdout).toContain('https://shop.example/login — "Sign in · Simulated Shop" (authentication), revision 1');
  expect(stdout).toContain("targets: Email (textbox), Password (textbox) and Sign in (button)");
  expect(stdout).toMatch(/findTarget "Email" → Email, reference r1:b\d+ \(confidence exact\)/);
  expect(stdout).toMatch(/typed ada@example\.com at revision 1: execution exec-\d+/);
  expect(stdout).toContain("✗ staleRevision — expected revision 1 but the page is at revision 2");
  expect(stdout).toContain("mutationPossible false · retry advice safeAfterReobserve");
  expect(stdout).toContain("re-observed: revision 2; the next action names expectedRevision 2");
  expect(stdout).toMatch(/fillForm \(Email, Password\): execution exec-\d+; the form is now at revision 3/);
  expect(stdout).toContain('clicked Sign in: now https://shop.example/orders — "Orders · Simulated Shop" (revision 4)');
  expect(stdout).toContain("1001 Ada Lovelace €42.00 Shipped");
  expect(stdout).toContain("1003 Grace Hopper €128.90 Delivered");
  expect(stdout).toMatch(/extractWebIr: revision 4, \d+ entities, \d+ relationships/);
  expect(stdout).toContain("webIr.validate: valid true");
  expect(stdout).toContain("task.validate: table.extract is valid (task schema v1)");
  expect(stdout).toContain("task.compile: bound to revision 4, steps scopeToRegion and extractRows");
  expect(stdout).toContain("9. Close");
  expect(stdout.trimEnd().endsWith("Done.")).toBe(true);
  // Short, readable lines: no raw JSON dumps.
  for (const line of stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(120);
}

describe("examples/quickstart.ts (npm start)", () => {
  let daemon: MockDaemon | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await daemon?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    daemon = undefined;
    dir = undefined;
  });

  it("tells the sign-in story against the mock daemon's simulated site over stdio, without leases", async () => {
    const run = await runQuickstart();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectStory(run.stdout);
    expect(run.stdout).toContain("transport: stdio, child process `glass-sdk mock-daemon`");
    expect(run.stdout).toContain("no leases: a stdio daemon owns its one session");
  }, 30_000);

  it("tells the same story on a daemon socket (GLASS_SOCKET), each mutation under a lease", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-quickstart-"));
    daemon = await startMockDaemon({ socket: join(dir, "glass.sock") });
    const run = await runQuickstart({ GLASS_SOCKET: daemon.socketPath! });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectStory(run.stdout);
    expect(run.stdout).toContain(`transport: Unix socket ${daemon.socketPath} (GLASS_SOCKET)`);
    expect(run.stdout).toContain("the daemon offers leases (localDaemon)");

    // Every mutation carried a lease token; read-only calls did not; no token was printed.
    const mutations = daemon.calls.filter((call) => ["type", "fillForm", "click"].includes(call.tool));
    expect(mutations.map((call) => call.tool)).toEqual(["type", "type", "fillForm", "click"]);
    const tokens = mutations.map((call) => call.arguments.leaseToken);
    for (const token of tokens) {
      expect(token).toEqual(expect.any(String));
      expect(run.stdout).not.toContain(token as string);
    }
    expect(mutations[0]?.arguments).not.toHaveProperty("mutationLease");
    expect(daemon.calls.filter((call) => call.tool === "observe").every((call) => call.arguments.leaseToken === undefined)).toBe(true);
    // withLease released it, and the example disconnected.
    expect(daemon.activeLeases()).toEqual([]);
    await daemon.waitFor((d) => d.clientCount() === 0);
  }, 30_000);

  it("exits 1 with the error that says how to fix it when nothing listens at GLASS_SOCKET", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-quickstart-"));
    const path = join(dir, "missing.sock");
    const run = await runQuickstart({ GLASS_SOCKET: path });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`✗ glass: transport.unavailable — no Glass daemon is listening at ${path}`);
    expect(run.stderr).toContain("glass daemon start");
  }, 30_000);
});
