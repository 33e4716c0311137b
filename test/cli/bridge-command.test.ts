/**
 * `glass-sdk bridge` as a real process: its own help, and the end of what it started when it is
 * told to stop (the daemon process of each client session).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseBridgeArgs } from "../../src/cli/bridge-command.js";
import { CLI, eventually, INITIALIZE_PARAMS, mcpHeaders, ROOT } from "../support/bridge-harness.js";
import { runCli, startupLine } from "../reliability/support/secrets-cli.js";
import { killIfRunning, processGone, waitUntilGone } from "./support/processes.js";

const STUBBORN_DAEMON = join(ROOT, "test/cli/support/stubborn-daemon.mjs");
const TOKEN = "bridge-command-test-token-0123456789";

/** Runs the CLI to completion and returns its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("glass-sdk bridge, the command", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("prints its own help for bridge --help, not the mock daemon's", async () => {
    const { code, stdout } = await run(["bridge", "--help"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe("Usage: glass-sdk bridge [options] [-- COMMAND ARGS...]");
    expect(stdout).toContain("--allow-origin URL");
    expect(stdout).toContain("--evict-idle-after S");
    expect(stdout).not.toContain("--latency");
  });

  it("reads --evict-idle-after in seconds (the bridge's evictIdleAfterMs) and refuses what is not a whole number of them", () => {
    expect(parseBridgeArgs(["--evict-idle-after", "45"], {}).evictIdleAfterMs).toBe(45_000);
    expect(parseBridgeArgs([], {}).evictIdleAfterMs).toBeUndefined();
    for (const bad of ["0", "1.5", "-3", "soon"]) {
      expect(() => parseBridgeArgs(["--evict-idle-after", bad], {})).toThrow(
        /--evict-idle-after needs a whole number 1\.\.86400/,
      );
    }
  });

  it("answers an unknown option with the error last, naming the option but not its value", async () => {
    const { code, stdout, stderr } = await run(["bridge", "--tokn=hunter2-secret"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("glass-sdk bridge: unknown option: --tokn\nRun `glass-sdk bridge --help` for its options.\n");
  });

  it.each(["SIGTERM", "SIGHUP", "SIGINT"] as const)(
    "on %s ends the daemon process it started for a session (even one that ignores stdin EOF and SIGTERM) and exits 0",
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), "glass-bridge-cli-"));
      const pidFile = join(dir, "daemon.pid");
      const cli = runCli(["bridge", "--port", "0", "--", process.execPath, STUBBORN_DAEMON, pidFile], {
        GLASS_BRIDGE_TOKEN: TOKEN,
      });
      let daemonPid: number | undefined;
      cleanups.push(() => {
        cli.child.kill("SIGKILL");
        killIfRunning(daemonPid);
        rmSync(dir, { recursive: true, force: true });
      });
      await cli.waitFor(/browser pages/);
      const { url } = startupLine(cli.stderr());
      // A client session starts the daemon process.
      const response = await fetch(url, {
        method: "POST",
        headers: mcpHeaders(TOKEN),
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS }),
      });
      expect(response.status).toBe(200);
      await response.text();
      await eventually(
        () => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "",
        "the daemon wrote its pid",
        20_000,
      );
      daemonPid = Number(readFileSync(pidFile, "utf8"));
      expect(processGone(daemonPid)).toBe(false);

      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      // The bridge waited for it: stdin closed, SIGTERM 2 s later, SIGKILL a second after that.
      await waitUntilGone(daemonPid, 2000);
      expect(cli.stderr()).toContain(`${signal}: closing every session and every daemon process it started`);
    },
  );

  it("with --pid-file writes its own pid while it runs: SIGTERM to that pid stops it, and the file goes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-bridge-cli-"));
    const pidFile = join(dir, "bridge.pid");
    const cli = runCli(
      [
        "bridge",
        "--port",
        "0",
        "--pid-file",
        pidFile,
        "--",
        process.execPath,
        STUBBORN_DAEMON,
        join(dir, "daemon.pid"),
      ],
      { GLASS_BRIDGE_TOKEN: TOKEN },
    );
    cleanups.push(() => {
      cli.child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    await cli.waitFor(/browser pages/);
    expect(Number(readFileSync(pidFile, "utf8").trim())).toBe(cli.child.pid);
    process.kill(Number(readFileSync(pidFile, "utf8").trim()), "SIGTERM");
    expect(await cli.exited).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });
});
