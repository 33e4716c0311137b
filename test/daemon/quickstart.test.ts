/**
 * `npm start` against the real daemon: the quickstart (examples/quickstart.ts) serves the example
 * shop on 127.0.0.1 and tells its whole story in headless Chromium, over stdio (GLASS_COMMAND) and
 * on the daemon's socket (GLASS_SOCKET, each change under a lease); and it tells the same story,
 * step by step, against the mock daemon's simulated shop at the same origin.
 */
import { describe, expect, it } from "vitest";
import { runExample, type ExampleRun } from "../support/run-example.js";
import {
  DAEMON_VERSION,
  freePort,
  requireInstalledDaemon,
  socketDaemonPerSuite,
  withDaemonCommand,
} from "./support/real-daemon.js";

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
  expect(stdout).toMatch(
    /findTarget "Email" → Email, reference r\d+:c[0-9a-f-]+:b\d+ \(confidence (?:medium|high|exact)\)/,
  );
  expect(stdout).toMatch(/✗ staleRevision — expected revision \d+ but the page is at revision \d+/);
  expect(stdout).toMatch(/clicked Sign in: now http:\/\/127\.0\.0\.1:\d+\/orders — "Orders · Simulated Shop"/);
  expect(stdout).toContain("1001 Ada Lovelace €42.00 Shipped");
  expect(stdout).toContain("1003 Grace Hopper €128.90 Delivered");
  expect(stdout).toContain("task.validate: table.extract is valid (task schema v1)");
  expect(stdout).toContain(
    `this daemon (${DAEMON_VERSION}) has no extractWebIr: the task runs on the live page instead`,
  );
  expect(stdout).toContain(
    "task.execute: table.extract succeeded, steps observeScope succeeded and extractTable succeeded",
  );
  expect(stdout.trimEnd().endsWith("Done.")).toBe(true);
}

/**
 * A step of the story with what differs between any two runs named: the shop's origin, revisions,
 * references (`r<revision>:c<document>:b<node>`) and execution ids (`act_<n>`). A value in another
 * form is left as it is, so a mock that answers in other forms differs.
 */
function normalizedLine(line: string): string {
  return line
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "‹origin›")
    .replace(/\br\d+:c[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:b\d+\b/g, "‹reference›")
    .replace(/\b(revision|expectedRevision) \d+/g, "$1 ‹n›")
    .replace(/\bact_\d+\b/g, "‹execution›");
}

/** The story's steps, by their heading (`2. Observe the sign-in page`), each its normalized lines; the connection's own lines left out. */
function storySteps(stdout: string): Record<string, string[]> {
  const steps: Record<string, string[]> = {};
  let heading = "";
  for (const line of stdout.split("\n")) {
    if (/^\d+\. /.test(line)) heading = line;
    else if (
      heading !== "" &&
      line.trim() !== "" &&
      !/^\s+(transport|answered by):/.test(line) &&
      !line.startsWith("   answered by")
    )
      (steps[heading] ??= []).push(normalizedLine(line));
  }
  return steps;
}

/**
 * The steps where the story against the mock's simulated shop is told otherwise than against the
 * real daemon, with the reason the difference stays.
 */
const STORY_DIFFERENCES: Readonly<Record<string, string>> = {
  "8. Web IR and a task": `the mock answers extractWebIr, which daemons newer than ${DAEMON_VERSION} have: the quickstart compiles the task on the extracted Web IR there, and runs it on the live page here`,
};

describe("npm start against the real daemon", () => {
  it("tells the whole story over stdio (GLASS_COMMAND), without leases", async () => {
    const run = await withDaemonCommand((env) => runExample("quickstart.ts", { env, timeoutMs: 90_000 }));
    expectStory(run);
    expect(run.stdout).toContain("no leases: a stdio daemon owns its one session");
  }, 120_000);

  describe("on the daemon's socket (GLASS_SOCKET)", () => {
    const daemon = socketDaemonPerSuite();

    it("tells the whole story, each change under a lease", async () => {
      const run = await runExample("quickstart.ts", { env: { GLASS_SOCKET: daemon().path }, timeoutMs: 90_000 });
      expectStory(run);
      expect(run.stdout).toContain(
        "the daemon offers leases (localDaemon): each change below runs inside glass.withLease",
      );
    }, 120_000);
  });
});

describe("the quickstart's story, mock versus daemon", () => {
  it("is told the same way step by step against the mock's simulated shop at the same origin, apart from the listed steps", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const daemonRun = await withDaemonCommand((env) =>
      runExample("quickstart.ts", { env: { ...env, GLASS_SHOP_PORT: String(port) }, timeoutMs: 90_000 }),
    );
    const mockCommand = `${process.execPath} --import tsx src/cli/main.ts mock-daemon --site-origin ${origin}`;
    const mockRun = await runExample("quickstart.ts", {
      env: { GLASS_COMMAND: mockCommand, GLASS_SHOP_PORT: String(port) },
      timeoutMs: 60_000,
    });
    expect(daemonRun.code).toBe(0);
    expect(mockRun.code).toBe(0);
    const daemon = storySteps(daemonRun.stdout);
    const mock = storySteps(mockRun.stdout);
    expect(Object.keys(mock)).toEqual(Object.keys(daemon));
    const differing = Object.keys(daemon).filter(
      (heading) => JSON.stringify(daemon[heading]) !== JSON.stringify(mock[heading]),
    );
    for (const heading of differing.filter((step) => STORY_DIFFERENCES[step] === undefined)) {
      expect.soft(mock[heading], `${heading}: the mock's story`).toEqual(daemon[heading]);
    }
    expect(differing).toEqual(Object.keys(STORY_DIFFERENCES));
  }, 180_000);
});
