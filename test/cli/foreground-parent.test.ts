import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/**
 * A command run in the foreground of a terminal ends when the process that started it ends: the
 * mock daemon on a socket and the bridge, killed around (their parent SIGKILLed, as `kill` of
 * `npm exec` leaves them), stop on their own, removing the socket and the pid file, instead of
 * living on as orphans. A terminal is made with util-linux's `script` (a pseudo-terminal whose
 * foreground process group the command joins); the chain is script → sh (the session leader,
 * which stays) → bash (the parent, killed) → the command. Started in the background, they keep
 * running until a signal: CI has no terminal, and the daemon started there keeps serving.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Polls until `condition` holds or `ms` passes; resolves with whether it held. */
async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The parent pid of a process, from /proc. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/**
 * Starts `command` (CLI arguments after `src/cli/main.ts`) in the foreground of a new terminal,
 * under a bash that is its parent; resolves with the command's pid (from its pid file) once
 * `ready` exists.
 */
async function startInTerminal(dir: string, args: string, ready: string): Promise<number> {
  const pidFile = join(dir, "command.pid");
  const log = join(dir, "command.log");
  const command = `cd '${ROOT}' && '${process.execPath}' --import tsx src/cli/main.ts ${args} --pid-file '${pidFile}' 2>'${log}'; true`;
  const terminal = spawn("script", ["-qec", `sh -c "bash -c \\"${command}\\"; sleep 60"`, "/dev/null"], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  cleanups.push(() => {
    try {
      process.kill(-terminal.pid!, "SIGKILL");
    } catch {
      // gone already
    }
  });
  if (!(await eventually(() => existsSync(ready) && existsSync(pidFile), 20_000)))
    throw new Error(`the command did not start: ${existsSync(log) ? readFileSync(log, "utf8") : "no log"}`);
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  cleanups.push(() => running(pid) && process.kill(pid, "SIGKILL"));
  return pid;
}

describe.skipIf(!HAS_SCRIPT || process.platform !== "linux")(
  "a command run in the foreground ends with its parent",
  () => {
    it("the mock daemon on a socket: its parent killed, it stops within seconds and removes its socket and pid file", async () => {
      const dir = mkdtempSync(join(tmpdir(), "glass-foreground-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const socket = join(dir, "glass.sock");
      const pid = await startInTerminal(dir, `mock-daemon --socket '${socket}'`, socket);
      const parent = parentOf(pid);
      expect(readFileSync(`/proc/${parent}/comm`, "utf8").trim()).toBe("bash");
      process.kill(parent, "SIGKILL");
      expect(await eventually(() => !running(pid), 10_000)).toBe(true);
      expect(existsSync(socket)).toBe(false);
      expect(existsSync(join(dir, "command.pid"))).toBe(false);
      expect(readFileSync(join(dir, "command.log"), "utf8")).toContain(
        "mock daemon: its parent process ended; stopping",
      );
    });

    it("the bridge: its parent killed, it stops within seconds, closing what it started, and removes its pid file", async () => {
      const dir = mkdtempSync(join(tmpdir(), "glass-foreground-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const socket = join(dir, "glass.sock");
      const pidFile = join(dir, "command.pid");
      const pid = await startInTerminal(dir, `bridge --port 0 --socket '${socket}'`, pidFile);
      process.kill(parentOf(pid), "SIGKILL");
      expect(await eventually(() => !running(pid), 10_000)).toBe(true);
      expect(existsSync(pidFile)).toBe(false);
      expect(readFileSync(join(dir, "command.log"), "utf8")).toContain(
        "its parent process ended: closing every session",
      );
    });

    it("without a terminal (in the background), the mock daemon outlives its parent until a signal", async () => {
      const dir = mkdtempSync(join(tmpdir(), "glass-background-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const socket = join(dir, "glass.sock");
      const pidFile = join(dir, "mock.pid");
      const command = `'${process.execPath}' --import tsx src/cli/main.ts mock-daemon --socket '${socket}' --pid-file '${pidFile}'; true`;
      const shell = spawn("bash", ["-c", command], { cwd: ROOT, stdio: "ignore", detached: true });
      expect(await eventually(() => existsSync(socket) && existsSync(pidFile), 20_000)).toBe(true);
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      cleanups.push(() => running(pid) && process.kill(pid, "SIGKILL"));
      process.kill(shell.pid!, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(running(pid)).toBe(true);
      expect(existsSync(socket)).toBe(true);
      process.kill(pid, "SIGTERM");
      expect(await eventually(() => !running(pid), 10_000)).toBe(true);
      expect(existsSync(socket)).toBe(false);
    });
  },
);
