/**
 * `npm start` against the real daemon: the quickstart (examples/quickstart.ts) serves the example
 * shop on 127.0.0.1 and tells its whole story in headless Chromium, over stdio (GLASS_COMMAND) and
 * on the daemon's socket (GLASS_SOCKET, each change under a lease).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runExample, type ExampleRun } from "../support/run-example.js";
import { DAEMON_VERSION, daemonState, freePort, globalFlags, DAEMON_EXECUTABLE, requireInstalledDaemon, type SocketDaemon, startSocketDaemon } from "./support/real-daemon.js";

requireInstalledDaemon();

/** What every run against the real daemon prints, whatever the transport. */
function expectStory(run: ExampleRun): void {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const { stdout } = run;
  expect(stdout).toContain(`answered by glass ${DAEMON_VERSION}`);
  expect(stdout).toMatch(/navigate http:\/\/127\.0\.0\.1:\d+\/login/);
  expect(stdout).toMatch(/\/login — "Sign in · Simulated Shop" \(authentication\), revision \d+/);
  // References name the revision and the document: r<revision>:c<document>:b<node>.
  expect(stdout).toMatch(/findTarget "Email" → Email, reference r\d+:c[0-9a-f-]+:b\d+ \(confidence (?:medium|high|exact)\)/);
  expect(stdout).toMatch(/✗ staleRevision — expected revision \d+ but the page is at revision \d+/);
  expect(stdout).toMatch(/clicked Sign in: now http:\/\/127\.0\.0\.1:\d+\/orders — "Orders · Simulated Shop"/);
  expect(stdout).toContain("1001 Ada Lovelace €42.00 Shipped");
  expect(stdout).toContain("1003 Grace Hopper €128.90 Delivered");
  expect(stdout).toContain("task.validate: table.extract is valid (task schema v1)");
  expect(stdout).toContain(`this daemon (${DAEMON_VERSION}) has no extractWebIr: the task runs on the live page instead`);
  expect(stdout).toContain("task.execute: table.extract succeeded, steps observeScope succeeded and extractTable succeeded");
  expect(stdout.trimEnd().endsWith("Done.")).toBe(true);
}

describe("npm start against the real daemon", () => {
  it("tells the whole story over stdio (GLASS_COMMAND), without leases", async () => {
    const state = daemonState();
    try {
      const command = [DAEMON_EXECUTABLE, ...globalFlags(await freePort()), "--mcp"].join(" ");
      const run = await runExample("quickstart.ts", { env: { ...state.env, GLASS_COMMAND: command }, timeoutMs: 90_000 });
      expectStory(run);
      expect(run.stdout).toContain("no leases: a stdio daemon owns its one session");
    } finally {
      state.remove();
    }
  }, 120_000);

  describe("on the daemon's socket (GLASS_SOCKET)", () => {
    let daemon: SocketDaemon;
    beforeAll(async () => {
      daemon = await startSocketDaemon();
    });
    afterAll(async () => {
      await daemon?.stop();
    });

    it("tells the whole story, each change under a lease", async () => {
      const run = await runExample("quickstart.ts", { env: { GLASS_SOCKET: daemon.path }, timeoutMs: 90_000 });
      expectStory(run);
      expect(run.stdout).toContain("the daemon offers leases (localDaemon): each change below runs inside glass.withLease");
    }, 120_000);
  });
});
