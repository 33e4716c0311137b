import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";
import { runExample, type ExampleRun } from "../support/run-example.js";

/** Runs `npm start`'s script (`tsx examples/quickstart.ts`) with the given extra environment. */
function runQuickstart(extraEnv: Record<string, string> = {}): Promise<ExampleRun> {
  return runExample("quickstart.ts", { env: extraEnv });
}

/** A TCP port on 127.0.0.1 that was free a moment ago: listened on with port 0, then closed. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Where the story runs: the site's origin, and the revision the sign-in page is at when first observed. */
interface Story {
  origin: string;
  firstRevision: number;
}

/** The simulated shop as the mock daemon serves it by default, observed before any change. */
const SIMULATED: Story = { origin: "https://shop.example", firstRevision: 1 };

/** The story every run against the simulated site prints, whatever the transport. */
function expectStory(stdout: string, { origin, firstRevision: r }: Story = SIMULATED): void {
  expect(stdout).toContain("answered by glass-sdk-mock-daemon");
  expect(stdout).toContain(`${origin}/login — "Sign in · Simulated Shop" (authentication), revision ${r}`);
  // As the daemon lists them: the page itself first, then its controls.
  expect(stdout).toContain(
    "targets: Sign in · Simulated Shop (RootWebArea), Email (textbox), Password (textbox) and Sign in (button)",
  );
  // The daemon's references name the revision, the document and the node: r<revision>:c<document>:b<node>.
  expect(stdout).toMatch(
    new RegExp(
      `findTarget "Email" → Email, reference r${r}:c[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}:b3 \\(confidence medium\\)`,
    ),
  );
  // A type with a target clicks it first: the click is act_1, the typing act_2.
  expect(stdout).toContain(`typed ada@example.com at revision ${r}: execution act_2`);
  expect(stdout).toContain(`✗ staleRevision — expected revision ${r} but the page is at revision ${r + 1}`);
  expect(stdout).toContain("mutationPossible false · retry advice safeAfterReobserve");
  expect(stdout).toContain(`re-observed: revision ${r + 1}; the next action names expectedRevision ${r + 1}`);
  expect(stdout).toMatch(/typed into css=#email: execution act_5\n {3}typed into css=#password: execution act_7/);
  expect(stdout).toContain(`the form is now at revision ${r + 3}`);
  expect(stdout).toContain(`clicked Sign in: now ${origin}/orders — "Orders · Simulated Shop" (revision ${r + 4})`);
  expect(stdout).toContain("1001 Ada Lovelace €42.00 Shipped");
  expect(stdout).toContain("1003 Grace Hopper €128.90 Delivered");
  expect(stdout).toMatch(new RegExp(`extractWebIr: revision ${r + 4}, \\d+ entities, \\d+ relationships`));
  expect(stdout).toContain("webIr.validate: valid true");
  expect(stdout).toContain("task.validate: table.extract is valid (task schema v1)");
  expect(stdout).toContain(`task.compile: bound to revision ${r + 4}, steps observeScope and extractTable`);
  expect(stdout).toContain("   entities entity_table_recent-orders; confirmation required: false");
  expect(stdout).toContain(
    "task.execute: table.extract succeeded, steps observeScope succeeded and extractTable succeeded",
  );
  expect(stdout).toContain("9. Close");
  expect(stdout.trimEnd().endsWith("Done.")).toBe(true);
  // Short, readable lines: no raw JSON dumps (a GLASS_COMMAND is echoed as given, however long).
  for (const line of stdout.split("\n").filter((line) => !line.endsWith("(GLASS_COMMAND)")))
    expect(line.length).toBeLessThanOrEqual(120);
}

/**
 * The story of a run against a daemon named by GLASS_SOCKET or GLASS_COMMAND, here the mock daemon
 * with its site at the shop's origin: the shop served there, the browser sent to its sign-in page
 * (one change: the page is at revision 2 when first observed), then the same story.
 */
function expectStoryAtServedShop(stdout: string, origin: string): void {
  expect(stdout).toContain(`serving the shop of examples/shop/ at ${origin}, for the daemon's browser to open`);
  expect(stdout).toContain(`2. Observe the sign-in page\n   navigate ${origin}/login: "Sign in · Simulated Shop"\n`);
  expectStory(stdout, { origin, firstRevision: 2 });
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

  it("on a daemon socket (GLASS_SOCKET) serves the shop, navigates there and tells the same story, each change under a lease", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-quickstart-"));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // The mock daemon stands in for a real one: its simulated site sits at the served shop's origin.
    daemon = await startMockDaemon({ socket: join(dir, "glass.sock"), site: { origin } });
    const run = await runQuickstart({ GLASS_SOCKET: daemon.socketPath!, GLASS_SHOP_PORT: String(port) });
    expect(run.stderr).toBe("");
    // It exited on its own: the shop it served closed with it.
    expect(run.code).toBe(0);
    expectStoryAtServedShop(run.stdout, origin);
    expect(run.stdout).toContain(`transport: Unix socket ${daemon.socketPath} (GLASS_SOCKET)`);
    expect(run.stdout).toContain("the daemon offers leases (localDaemon)");

    // The first call to change anything sent the browser to the served sign-in page.
    const mutations = daemon.calls.filter((call) => ["navigate", "type", "fillForm", "click"].includes(call.tool));
    expect(mutations.map((call) => call.tool)).toEqual(["navigate", "type", "type", "type", "type", "click"]);
    expect(mutations[0]?.arguments).toMatchObject({ url: `${origin}/login` });
    expect(daemon.calls.findIndex((call) => call.tool === "navigate")).toBeLessThan(
      daemon.calls.findIndex((call) => call.tool === "observe"),
    );
    // Every mutation carried a lease token; read-only calls did not; no token was printed.
    const tokens = mutations.map((call) => call.arguments.leaseToken);
    for (const token of tokens) {
      expect(token).toEqual(expect.any(String));
      expect(run.stdout).not.toContain(token as string);
    }
    expect(mutations[0]?.arguments).not.toHaveProperty("mutationLease");
    expect(
      daemon.calls.filter((call) => call.tool === "observe").every((call) => call.arguments.leaseToken === undefined),
    ).toBe(true);
    // withLease released it, and the example disconnected.
    expect(daemon.activeLeases()).toEqual([]);
    await daemon.waitFor((d) => d.clientCount() === 0);
  }, 30_000);

  it("with a daemon command (GLASS_COMMAND) serves the shop and navigates there over stdio, without leases", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const command = `${process.execPath} --import tsx src/cli/main.ts mock-daemon --site-origin ${origin}`;
    const run = await runQuickstart({ GLASS_COMMAND: command, GLASS_SHOP_PORT: String(port) });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectStoryAtServedShop(run.stdout, origin);
    expect(run.stdout).toContain("(GLASS_COMMAND)");
    expect(run.stdout).toContain("no leases: a stdio daemon owns its one session");
  }, 30_000);

  it("exits 1 saying what GLASS_SHOP_PORT must be when it is not a port number", async () => {
    const run = await runQuickstart({ GLASS_SOCKET: "/nowhere/glass.sock", GLASS_SHOP_PORT: "eighty" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      '✗ GLASS_SHOP_PORT must be a port number from 0 to 65535 (0: any free port), not "eighty"',
    );
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
