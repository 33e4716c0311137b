import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseMockDaemonArgs } from "../../src/cli/mock-daemon-command.js";
import { handshake, RawPeer, toolCall } from "../support/raw-mcp-peer.js";
import { killIfRunning, processGone, waitUntilGone } from "./support/processes.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs the CLI to completion and returns its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
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

describe("glass-sdk CLI", () => {
  it("prints the commands for --help and exits 0", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: glass-sdk <command>");
    expect(stdout).toContain("mock-daemon");
    expect(stdout).toContain("Run `glass-sdk <command> --help`");
    expect(stdout).not.toContain("--latency");
  });

  it("prints its own help for mock-daemon --help, not the bridge's", async () => {
    const { code, stdout } = await run(["mock-daemon", "--help"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe("Usage: glass-sdk mock-daemon [options]");
    expect(stdout).toContain("--latency MS");
    expect(stdout).not.toContain("--allow-origin");
  });

  it("answers an unknown command with the error and where the help is, on stderr, and exits 2", async () => {
    const { code, stdout, stderr } = await run(["teleport"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "glass-sdk: unknown command: teleport (the commands are mock-daemon and bridge)\nRun `glass-sdk --help` for the commands.\n",
    );
  });

  it("rejects a bad option or value with exit 2, the error last and no wall of help above it", async () => {
    expect((await run(["mock-daemon", "--latency", "soon"])).code).toBe(2);
    const unknown = await run(["mock-daemon", "--frobnicate=1"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "glass-sdk mock-daemon: unknown option: --frobnicate\nRun `glass-sdk mock-daemon --help` for its options.\n",
    );
  });

  it("reads --ignore-field as often as it is given, for the fields matching leaves out", () => {
    expect(
      parseMockDaemonArgs(["--ignore-field", "expectedRevision", "--ignore-field=/target/name"]).ignoreFields,
    ).toEqual(["expectedRevision", "/target/name"]);
    expect(parseMockDaemonArgs([]).ignoreFields).toBeUndefined();
  });

  it("reads --site-origin as the simulated site's origin, and refuses one that is not an http(s) origin with exit 2", async () => {
    expect(parseMockDaemonArgs(["--site-origin", "http://127.0.0.1:8080/"]).siteOrigin).toBe("http://127.0.0.1:8080");
    expect(parseMockDaemonArgs(["--site-origin=HTTPS://Shop.Test"]).siteOrigin).toBe("https://shop.test");
    expect(parseMockDaemonArgs([]).siteOrigin).toBeUndefined();
    const { code, stderr } = await run(["mock-daemon", "--site-origin", "127.0.0.1:8080/login"]);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(
      'glass-sdk mock-daemon: --site-origin needs an http: or https: origin such as http://127.0.0.1:8080, with no path, not "127.0.0.1:8080/login"',
    );
  });

  it("explains a missing fixture in one line and exits 1", async () => {
    const { code, stderr } = await run(["mock-daemon", "--fixture", "/no/such/fixture.json"]);
    expect(code).toBe(1);
    expect(stderr).toBe("glass-sdk: cannot read the fixture /no/such/fixture.json: ENOENT\n");
  });

  it("listens on a socket (mode 0600), says so on stderr, and removes the socket on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-cli-"));
    const path = join(dir, "glass.sock");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "mock-daemon", "--socket", path, "--latency", "1"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let stderr = "";
      await new Promise<void>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes("\n")) resolve();
        });
      });
      expect(stderr).toBe(`mock daemon listening on ${path}\n`);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const peer = await RawPeer.connect(path);
      await handshake(peer);
      expect((await peer.request(1, "tools/call", toolCall("observe", { level: "summary" }))).result).toBeDefined();
      peer.close();
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(existsSync(path)).toBe(false);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("with --pid-file, started through a shell as npm exec starts it, writes its own pid: killing that stops the daemon, its socket and pid file go", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-cli-"));
    const path = join(dir, "glass.sock");
    const pidFile = join(dir, "mock.pid");
    const command = `"${process.execPath}" --import tsx src/cli/main.ts mock-daemon --socket "${path}" --pid-file "${pidFile}"`;
    // sh -c with a second command after it, so that the shell stays (npm 11 runs `npx` commands this way).
    const shell = spawn("sh", ["-c", `${command}; true`], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let daemonPid: number | undefined;
    try {
      await new Promise<void>((resolve) =>
        shell.stderr.on("data", () => existsSync(path) && existsSync(pidFile) && resolve()),
      );
      daemonPid = Number(readFileSync(pidFile, "utf8").trim());
      expect(statSync(pidFile).mode & 0o777).toBe(0o600);
      expect(Number.isInteger(daemonPid) && daemonPid !== shell.pid).toBe(true);
      const shellExited = new Promise<number | null>((resolve) => shell.once("exit", resolve));
      process.kill(daemonPid, "SIGTERM");
      expect(await shellExited).toBe(0);
      await waitUntilGone(daemonPid, 5_000);
      expect(existsSync(path)).toBe(false);
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      if (daemonPid !== undefined) killIfRunning(daemonPid);
      shell.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("on a socket, SIGHUP (the terminal going away) also removes the socket and exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "glass-cli-"));
    const path = join(dir, "glass.sock");
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock-daemon", "--socket", path], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      await new Promise<void>((resolve) => child.stderr.on("data", () => existsSync(path) && resolve()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGHUP");
      expect(await exited).toBe(0);
      expect(existsSync(path)).toBe(false);
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("over stdio, exits when the process that started it is killed (its stdin closes)", async () => {
    // A parent that starts the mock daemon over stdio, says its pid, and is then SIGKILLed: it can clean nothing up.
    const parentScript = `
      const { spawn } = require("node:child_process");
      const daemon = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock-daemon"], { stdio: ["pipe", "pipe", "inherit"] });
      daemon.stdout.once("data", () => process.stdout.write(String(daemon.pid) + "\\n"));
      daemon.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "parent", version: "1" } } }) + "\\n");
      setInterval(() => {}, 60000);
    `;
    const parent = spawn(process.execPath, ["-e", parentScript], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let daemonPid: number | undefined;
    try {
      daemonPid = await new Promise<number>((resolve, reject) => {
        let out = "";
        parent.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve(Number(out.trim()));
        });
        parent.once("exit", () => reject(new Error("the parent exited before the daemon answered")));
      });
      expect(processGone(daemonPid)).toBe(false);
      parent.kill("SIGKILL");
      await waitUntilGone(daemonPid, 10_000);
    } finally {
      parent.kill("SIGKILL");
      killIfRunning(daemonPid);
    }
  });
});
