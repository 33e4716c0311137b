/**
 * examples/record-and-replay.ts against the real daemon: it records the sign-in on the example shop
 * served on 127.0.0.1, in headless Chromium, over stdio (GLASS_COMMAND) and on the daemon's socket
 * (GLASS_SOCKET, each change under a lease), then replays the recording in memory with the same
 * answers in recorded order — references, revisions and execution ids as the daemon gave them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadFixture } from "glass-sdk/testing";
import { type ExampleRun, runExample } from "../support/run-example.js";
import { requireInstalledDaemon, socketDaemonPerSuite, withDaemonCommand } from "./support/real-daemon.js";

requireInstalledDaemon();

const CALLS = [
  "navigate",
  "observe",
  "fillForm",
  "observe",
  "fillForm",
  "observe",
  "findTarget",
  "click",
  "getText",
].map((name) => `browser.${name}`);

/** What every run against the real daemon prints and records, whatever the transport. */
async function expectRecordedAndReplayed(run: ExampleRun, path: string): Promise<void> {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const live = run.stdout.slice(run.stdout.indexOf("2. Record"), run.stdout.indexOf("3. Save"));
  const replayed = run.stdout.slice(run.stdout.indexOf("4. Replay"), run.stdout.indexOf("5. A call"));
  // The daemon's own references (r<revision>:c<document>:b<node>) and execution ids, replayed as recorded.
  const clicked = live.match(/findTarget "Sign in" → (r\d+:c[0-9a-f-]+:b\d+); click: execution (act_\d+)/);
  expect(clicked).not.toBeNull();
  expect(replayed).toContain(clicked![0]);
  expect(replayed).toContain(live.match(/observe: \/login, revision \d+/)![0]);
  for (const part of [live, replayed]) expect(part).toContain("getText: 3 orders (1001, 1002 and 1003)");
  expect(run.stdout).toContain("the same answers as the live session");
  expect(run.stdout).toMatch(/✗ mock\.unmatched \(phase preflight, mutationPossible false\)\n.*nearest recording at/);
  expect(run.stdout.trimEnd().endsWith("Done.")).toBe(true);
  const fixture = await loadFixture(path);
  expect(fixture.requests.map((request) => request.operation)).toEqual(CALLS);
  expect(fixture.responses.every((response) => response.ok)).toBe(true);
  expect(readFileSync(path, "utf8")).not.toContain("correct horse");
}

describe("examples/record-and-replay.ts against the real daemon", () => {
  let directory: string;
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it("records over stdio (GLASS_COMMAND) and replays the recording", async () => {
    directory = mkdtempSync(join(tmpdir(), "glass-record-"));
    const path = join(directory, "sign-in.json");
    const run = await withDaemonCommand((env) =>
      runExample("record-and-replay.ts", { args: [path], env, timeoutMs: 90_000 }),
    );
    await expectRecordedAndReplayed(run, path);
  }, 120_000);

  describe("on the daemon's socket (GLASS_SOCKET)", () => {
    const daemon = socketDaemonPerSuite();

    it("records under leases and replays the recording", async () => {
      directory = mkdtempSync(join(tmpdir(), "glass-record-"));
      const path = join(directory, "sign-in.json");
      await expectRecordedAndReplayed(
        await runExample("record-and-replay.ts", {
          args: [path],
          env: { GLASS_SOCKET: daemon().path },
          timeoutMs: 90_000,
        }),
        path,
      );
    }, 120_000);
  });
});
