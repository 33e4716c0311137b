import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadFixture } from "glass-sdk/testing";
import { startMockDaemon, type MockDaemon } from "glass-sdk/testing/node";
import { freePort } from "../support/free-port.js";
import { runExample } from "../support/run-example.js";

/** The document id a daemon reference carries (a UUID). */
const DOCUMENT = "[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}";

const SIGN_IN = [
  "browser.observe",
  "browser.fillForm",
  "browser.observe",
  "browser.fillForm",
  "browser.observe",
  "browser.findTarget",
  "browser.click",
  "browser.getText",
];

/** The story of a run against the mock daemon's simulated shop, whatever the transport. */
function expectStory(stdout: string, fixturePath: string, calls: readonly string[] = SIGN_IN): void {
  expect(stdout).toContain("answered by glass-sdk-mock-daemon");
  // Recorded live, then replayed in recorded order: the same observations, click and orders.
  const live = stdout.slice(stdout.indexOf("2. Record"), stdout.indexOf("3. Save"));
  const replayed = stdout.slice(stdout.indexOf("4. Replay"), stdout.indexOf("5. A call"));
  const firstRevision = calls[0] === "browser.navigate" ? 2 : 1;
  for (const part of [live, replayed]) {
    expect(part).toContain(`observe: /login, revision ${firstRevision}`);
    expect(part).toContain(`fillForm Email, observe, fillForm Password, observe: revision ${firstRevision + 2}`);
    // A daemon reference names the revision, the document and the node (the button is node 5).
    expect(part).toMatch(
      new RegExp(`findTarget "Sign in" → r${firstRevision + 2}:c${DOCUMENT}:b5; click: execution act_\\d+`),
    );
    expect(part).toContain("getText: 3 orders (1001, 1002 and 1003)");
  }
  expect(live.match(/click: execution (act_\d+)/)?.[1]).toBe(replayed.match(/click: execution (act_\d+)/)?.[1]);
  const names = calls.map((operation) => operation.replace("browser.", ""));
  expect(stdout).toContain(`saveFixture: ${calls.length} calls (${names.slice(0, -1).join(", ")} and ${names.at(-1)})`);
  expect(stdout).toContain(`written to ${fixturePath}`);
  expect(stdout).toContain("calls, replayed as they were recorded");
  expect(stdout).toContain("the same answers as the live session");
  // The deliberate miss, explained.
  expect(stdout).toContain("✗ mock.unmatched (phase preflight, mutationPossible false)");
  expect(stdout).toMatch(
    new RegExp(`/target: sent "r${firstRevision}:c${DOCUMENT}:b3", recorded "r${firstRevision + 2}:c${DOCUMENT}:b5"`),
  );
  expect(stdout.trimEnd().endsWith("Done.")).toBe(true);
  // Short, readable lines, a daemon reference (45 characters of ids) counted as one word.
  for (const line of stdout.split("\n"))
    expect(line.replace(new RegExp(`r\\d+:c${DOCUMENT}:b\\d+`, "g"), "r…").length).toBeLessThanOrEqual(120);
}

describe("examples/record-and-replay.ts", () => {
  let daemon: MockDaemon | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await daemon?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    daemon = undefined;
    dir = undefined;
  });

  it("records a sign-in against the mock daemon, writes a fixture loadFixture reads, and replays it with the same answers", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-record-"));
    const path = join(dir, "recordings", "sign-in.json");

    const run = await runExample("record-and-replay.ts", { args: [path] });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expectStory(run.stdout, path);
    const fixture = await loadFixture(path);
    expect(fixture.requests.map((request) => request.operation)).toEqual(SIGN_IN);
    expect(fixture.responses.every((response) => response.ok)).toBe(true);
    // The password was typed, but never written down.
    expect(readFileSync(path, "utf8")).not.toContain("correct horse");
    expect(fixture.requests[1]?.payload).toMatchObject({ fields: [{ value: "ada@example.com" }] });
    expect(fixture.requests[3]?.payload).toMatchObject({ fields: [{ value: "[redacted]" }] });
  }, 30_000);

  it("records on a daemon socket under leases, and no lease token reaches the fixture", async () => {
    dir = mkdtempSync(join(tmpdir(), "glass-record-"));
    // The mock daemon stands in for a real one: its simulated site sits at the served shop's origin.
    const port = await freePort();
    daemon = await startMockDaemon({ socket: join(dir, "glass.sock"), site: { origin: `http://127.0.0.1:${port}` } });
    const path = join(dir, "sign-in.json");

    const run = await runExample("record-and-replay.ts", {
      args: [path],
      env: { GLASS_SOCKET: daemon.socketPath!, GLASS_SHOP_PORT: String(port) },
    });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // A daemon named by GLASS_SOCKET gets the shop served on 127.0.0.1, opened first.
    const calls = ["browser.navigate", ...SIGN_IN];
    expectStory(run.stdout, path, calls);
    expect(run.stdout).toMatch(/serving the shop of examples\/shop\/ at http:\/\/127\.0\.0\.1:\d+/);
    const tokens = daemon.calls.map((call) => call.arguments.leaseToken).filter((token) => token !== undefined);
    expect(tokens).toHaveLength(4); // navigate, two fillForms and click
    const written = readFileSync(path, "utf8");
    for (const token of tokens) expect(written).not.toContain(token as string);
    expect((await loadFixture(path)).requests.map((request) => request.operation)).toEqual(calls);
  }, 30_000);

  it("writes the fixture to a new temporary directory when given no path", async () => {
    const run = await runExample("record-and-replay.ts");

    expect(run.code).toBe(0);
    const path = run.stdout.match(/written to (\S+)/)?.[1];
    expect(path).toMatch(/glass-recording-.+sign-in\.json$/);
    dir = join(path!, "..");
    expect((await loadFixture(path!)).requests).toHaveLength(SIGN_IN.length);
  }, 30_000);
});
