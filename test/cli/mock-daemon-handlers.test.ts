import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Glass, GlassError } from "glass-sdk";
import { socketTransport, stdioTransport } from "glass-sdk/node";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = ["--import", "tsx", "src/cli/main.ts", "mock-daemon"];
const dir = mkdtempSync(join(tmpdir(), "glass-cli-handlers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a module into the temp directory and returns its path. */
function moduleFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/**
 * A handlers module as a user writes one: it logs (which must not reach the MCP stream), keeps
 * state, and fails a stale click with mockError (imported here from the source by file URL, as a
 * project would import it from glass-sdk/testing).
 */
const HANDLERS = moduleFile(
  "handlers.mjs",
  `import { mockError } from ${JSON.stringify(pathToFileURL(join(ROOT, "src/testing/index.ts")).href)};
let revision = 1;
export default {
  "browser.getText": () => {
    console.log("getText called");
    return { text: "Welcome back (revision " + revision + ")" };
  },
  "browser.click": (payload, ctx) => {
    if (payload.expectedRevision !== undefined && payload.expectedRevision !== revision) {
      throw mockError("staleRevision", "expected revision " + payload.expectedRevision + " but the page is at revision " + revision);
    }
    revision++;
    return { executionId: "exec-" + revision, leased: ctx.leased };
  },
};
`,
);

/** Runs the CLI to completion and returns its exit code and stderr. */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

async function failure(promise: Promise<unknown>): Promise<GlassError> {
  const caught = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(caught).toBeInstanceOf(GlassError);
  return caught as GlassError;
}

/**
 * Runs `mock-daemon --handlers <handlers>` over stdio, initializes, calls getText once and ends
 * stdin: what the process wrote to stdout and to stderr until it exited.
 */
async function getTextOverStdio(handlers: string): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...CLI, "--handlers", handlers], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const answered = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"id":2')) resolve();
    });
  });
  const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "getText", arguments: {} } });
  await answered;
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return { stdout, stderr };
}

describe("glass-sdk mock-daemon --handlers", () => {
  it("over stdio: the module's handlers answer their operations, the fixture the rest", async () => {
    const glass = await Glass.connect(
      stdioTransport({ command: process.execPath, args: [...CLI, "--handlers", HANDLERS], cwd: ROOT }),
    );
    try {
      expect(await glass.browser.getText({})).toEqual({ text: "Welcome back (revision 1)" });
      expect(await glass.browser.click({ target: "ref=1", expectedRevision: 1 })).toEqual({
        executionId: "exec-2",
        leased: false,
      });
      const stale = await failure(glass.browser.click({ target: "ref=1", expectedRevision: 1 }));
      expect({ code: stale.code, retryable: stale.retryable }).toEqual({ code: "staleRevision", retryable: true });
      // Without a handler, the golden fixture still answers its recorded requests.
      expect((await glass.browser.observe({ level: "summary" })).revision).toBeTypeOf("number");
    } finally {
      await glass.close();
    }
  });

  it("over stdio, what a handler logs goes to stderr: stdout carries only MCP", async () => {
    const { stdout, stderr } = await getTextOverStdio(HANDLERS);
    const lines = stdout.trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2]);
    expect(stderr).toContain("getText called");
  });

  it("over stdio, every console method and process.stdout.write of a handler module go to stderr: stdout carries only MCP", async () => {
    const loud = moduleFile(
      "loud-handlers.mjs",
      `import nodeConsole from "node:console";
console.dir({ marker: "dir-at-load" });
export default {
  "browser.getText": () => {
    console.dir({ marker: "dir-in-handler" });
    console.table([{ marker: "table" }]);
    console.trace("marker-trace");
    console.group("marker-group");
    console.groupCollapsed("marker-group-collapsed");
    console.groupEnd();
    console.groupEnd();
    console.count("marker-count");
    console.countReset("marker-count");
    console.time("marker-time");
    console.timeLog("marker-time");
    console.timeEnd("marker-time");
    console.assert(false, "marker-assert");
    console.dirxml({ marker: "dirxml" });
    console.log("marker-log");
    console.info("marker-info");
    console.debug("marker-debug");
    console.warn("marker-warn");
    nodeConsole.dir({ marker: "node-console-dir" });
    nodeConsole.log("marker-node-console-log");
    process.stdout.write("marker-stdout-write\\n");
    return { text: "quiet" };
  },
};
`,
    );
    const { stdout, stderr } = await getTextOverStdio(loud);
    expect(stdout).not.toContain("marker");
    const lines = stdout.trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2]);
    expect(stdout).toContain("quiet");
    for (const marker of [
      "dir-at-load",
      "dir-in-handler",
      "table",
      "Trace: marker-trace",
      "marker-group",
      "marker-group-collapsed",
      "marker-count: 1",
      "marker-time:",
      "Assertion failed: marker-assert",
      "dirxml",
      "marker-log",
      "marker-info",
      "marker-debug",
      "marker-warn",
      "node-console-dir",
      "marker-node-console-log",
      "marker-stdout-write",
    ]) {
      expect(stderr).toContain(marker);
    }
  });

  it("on the socket: a click needs the lease, and with it the handler sees ctx.leased", async () => {
    const path = join(dir, "glass.sock");
    const child = spawn(process.execPath, [...CLI, "--socket", path, "--handlers", HANDLERS], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      await new Promise<void>((resolve) => {
        let said = "";
        child.stderr!.on("data", (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes("listening")) resolve();
        });
      });
      const glass = await Glass.connect(socketTransport({ path }));
      try {
        expect((await failure(glass.browser.click({ target: "ref=1" }))).code).toBe("leaseRequired");
        const clicked = await glass.withLease(() => glass.browser.click({ target: "ref=1", expectedRevision: 1 }), {
          ttlMs: 10_000,
        });
        expect(clicked).toEqual({ executionId: "exec-2", leased: true });
      } finally {
        await glass.close();
      }
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("explains a module that does not exist, and exits 1", async () => {
    const missing = join(dir, "no-such-handlers.mjs");
    expect(await run(["--handlers", missing])).toEqual({
      code: 1,
      stderr: `glass-sdk: --handlers: cannot load ${missing}: no such file\n`,
    });
  });

  it("explains a module without a default export, and exits 1", async () => {
    const file = moduleFile("named.mjs", `export const handlers = {};\n`);
    const { code, stderr } = await run(["--handlers", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^glass-sdk: --handlers: .*named\.mjs has no default export; export the handlers: export default \{/,
    );
  });

  it("explains a default export that is not handlers, and exits 1", async () => {
    const file = moduleFile("wrong.mjs", `export default { "browser.observ": () => ({}) };\n`);
    const { code, stderr } = await run(["--handlers", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^glass-sdk: --handlers: the default export of .*wrong\.mjs is not handlers: handlers: "browser\.observ" is not an operation of the catalog/,
    );
  });

  it("explains a module that throws while loading, and exits 1", async () => {
    const file = moduleFile("broken.mjs", `throw new Error("handlers need a database");\n`);
    const { code, stderr } = await run(["--handlers", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^glass-sdk: --handlers: cannot load .*broken\.mjs: handlers need a database\n$/);
  });

  it("refuses --handlers with --fast (exit 2)", async () => {
    const { code, stderr } = await run(["--fast", "--handlers", HANDLERS]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^glass-sdk mock-daemon: --fast answers from the fixture alone: it cannot be combined with --handlers/,
    );
  });
});
