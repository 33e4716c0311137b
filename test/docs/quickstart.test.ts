import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm start`'s script (`tsx examples/quickstart.ts`) with the given extra environment. */
function runQuickstart(extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  if (extraEnv.GLASS_COMMAND === undefined) delete env.GLASS_COMMAND;
  if (extraEnv.GLASS_SOCKET === undefined) delete env.GLASS_SOCKET;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "examples/quickstart.ts"], { cwd: ROOT, env, timeout: 25_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The facts every run against the golden fixture prints, whatever the transport. */
function expectFixtureFacts(stdout: string): void {
  expect(stdout).toContain("answered by glass-sdk-mock-daemon");
  expect(stdout).toContain("agreed schemas: webIr v1 and task v1");
  expect(stdout).toMatch(/browser\.observe .* → revision 12: "My loans · City Library"/);
  expect(stdout).toContain("a listing page; regions Library navigation (navigation), Renew loans (form) and Borrowed items (table)");
  expect(stdout).toContain("✗ staleRevision — expected revision 11 but the page is at revision 12");
  expect(stdout).toContain("mutationPossible false");
  expect(stdout).toContain("re-observed: the page is at revision 12");
  expect(stdout).toContain("execution exec-renew-0412, completed");
  expect(stdout).toContain("inspect: revision 12, 7 entities, 7 relationships");
  expect(stdout).toContain("validate: valid true (revision 3)");
  expect(stdout).toContain("diff 12 → 14: entities 1 added, 1 removed, 1 changed");
  expect(stdout).toContain("relationships 1 added, 1 removed");
  expect(stdout).toContain("continuity of field-card: rebound, now field-card-2");
  expect(stdout).toContain("validate: form.fill is valid");
  expect(stdout).toContain("plan bound to revision 12, 2 steps");
  expect(stdout).toContain("entities region-loans and table-loans");
  expect(stdout).toContain("✗ webIr.invalid — Web IR validation failed (phase preflight; requests sent: 0)");
  expect(stdout).toContain("details.path entities[5].kind");
  expect(stdout).toContain("details.reason web ir must contain exactly one page entity");
  expect(stdout).toContain("the daemon answers webIr.invalid at entities[5].kind");
  expect(stdout).toContain("the SDK's preflight error and the daemon's are equal: yes");
  expect(stdout).toContain("8. Close");
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

  it("runs against the mock daemon over stdio and prints each step's key facts", async () => {
    const run = await runQuickstart();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectFixtureFacts(run.stdout);
    expect(run.stdout).toContain("transport: stdio, child process `glass-sdk mock-daemon`");
    expect(run.stdout).toContain("localDaemon not offered");
    expect(run.stdout).toContain("plain click, no lease: a stdio daemon owns its one session");
    expect(run.stdout).not.toContain("under a mutation lease");
  }, 30_000);

  it("takes the lease path on a daemon socket (GLASS_SOCKET) and still meets staleRevision", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-quickstart-"));
    daemon = await startMockDaemon({ socket: join(dir, "glass.sock") });
    const run = await runQuickstart({ GLASS_SOCKET: daemon.socketPath! });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectFixtureFacts(run.stdout);
    expect(run.stdout).toContain(`transport: Unix socket ${daemon.socketPath} (GLASS_SOCKET)`);
    expect(run.stdout).toContain("localDaemon available");
    expect(run.stdout).toMatch(/under a mutation lease: Lease\(sess-mock-[0-9a-f]+, expires [^)]+\)\n.*✗ staleRevision/);

    // The click and the workflow carried the lease; read-only calls did not; the token was never printed.
    const byTool = (tool: string) => daemon!.calls.filter((call) => call.tool === tool);
    const [click] = byTool("click");
    const token = click?.arguments.leaseToken as string | undefined;
    expect(token).toEqual(expect.any(String));
    expect(click?.arguments).not.toHaveProperty("mutationLease");
    expect(click?.arguments).not.toHaveProperty("sessionId");
    const workflowToken = byTool("workflow")[0]?.arguments.leaseToken as string | undefined;
    expect(workflowToken).toEqual(expect.any(String));
    expect(byTool("observe").every((call) => call.arguments.leaseToken === undefined)).toBe(true);
    expect(run.stdout).not.toContain(token!);
    expect(run.stdout).not.toContain(workflowToken!);
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
