/**
 * The real Glass daemon (`glass-browser`, installed by scripts/install-daemon.sh at the version in
 * scripts/glass-browser.version) started for a test: over stdio (`glass-browser --mcp`) or as the
 * socket daemon (`glass-browser daemon serve`), each in a state directory of its own, driving
 * headless Debian Chromium through test/daemon/support/chromium.sh on a Chrome debugging port of its
 * own.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import type { GlassTransport } from "glass-sdk";
import { stdioTransport } from "glass-sdk/node";
import { freePort } from "../../support/free-port.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The daemon version this repository is verified with (scripts/glass-browser.version). */
export const DAEMON_VERSION = readFileSync(join(ROOT, "scripts/glass-browser.version"), "utf8").trim();

/** The daemon's executable: `glass-browser` in cargo's bin directory, else on PATH. */
export const DAEMON_EXECUTABLE = ((): string => {
  const cargoBin = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin", "glass-browser");
  return existsSync(cargoBin) ? cargoBin : "glass-browser";
})();

const CHROMIUM = fileURLToPath(new URL("./chromium.sh", import.meta.url));

/**
 * Fails with what to run when the installed daemon is missing or another version: the suite never
 * runs against a daemon it was not written for, and is never skipped.
 */
export function requireInstalledDaemon(): void {
  let printed: string;
  try {
    printed = execFileSync(DAEMON_EXECUTABLE, ["--version"], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new Error(
      `the Glass daemon (${DAEMON_EXECUTABLE}) cannot run: ${(error as Error).message}. Install it with scripts/install-daemon.sh`,
    );
  }
  if (printed !== `glass-browser ${DAEMON_VERSION}`) {
    throw new Error(
      `${DAEMON_EXECUTABLE} --version printed "${printed}", not glass-browser ${DAEMON_VERSION}: run scripts/install-daemon.sh`,
    );
  }
}

/** A free TCP port on 127.0.0.1 (for Chrome's debugging port: two daemons at once need two). */
export { freePort };

/**
 * Starts `glass-browser` with `args` in a process group of its own, with pipes for its stdio, for
 * tests that speak to it raw. {@link killDaemon} ends it with the browser it started.
 */
export function spawnDaemon(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): ChildProcessWithoutNullStreams {
  return spawn(DAEMON_EXECUTABLE, args, { env: { ...process.env, ...env }, stdio: "pipe", detached: true });
}

/**
 * Ends a daemon started by {@link spawnDaemon} and everything it started: SIGKILL to its process
 * group, so its Chromium does not outlive it (a daemon killed alone leaves its browser running).
 */
export function killDaemon(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** A daemon's private state: its config home (profiles, knowledge) and data home (socket, status). */
export interface DaemonState {
  readonly directory: string;
  readonly env: Record<string, string>;
  remove(): void;
}

/** A fresh state directory and the environment that points the daemon at it. */
export function daemonState(): DaemonState {
  const directory = mkdtempSync(join(tmpdir(), "glass-daemon-"));
  const env: Record<string, string> = {
    GLASS_CONFIG_HOME: join(directory, "config"),
    XDG_DATA_HOME: join(directory, "data"),
    // Chromium refuses to start as root inside its sandbox; the daemon adds --no-sandbox only when told.
    ...(process.getuid?.() === 0 ? { GLASS_DISABLE_CHROME_SANDBOX: "1" } : {}),
  };
  return { directory, env, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** The daemon's global flags: headless Chromium through our wrapper, a throwaway profile, its own debugging port. */
export function globalFlags(port: number, extra: readonly string[] = []): string[] {
  return ["--chrome-path", CHROMIUM, "--incognito", "--port", String(port), ...extra];
}

/** A real daemon over stdio: the transport, and its state to remove after the test. */
export interface StdioDaemon {
  readonly transport: GlassTransport;
  readonly state: DaemonState;
  /** The command line, as `GLASS_COMMAND` would name it. */
  readonly command: readonly string[];
}

/** `glass-browser --mcp` in a fresh state directory (started when the client connects). */
export async function stdioDaemon(extraFlags: readonly string[] = []): Promise<StdioDaemon> {
  const state = daemonState();
  const args = [...globalFlags(await freePort(), extraFlags), "--mcp"];
  const transport = stdioTransport({ command: DAEMON_EXECUTABLE, args, env: state.env, closeTimeoutMs: 5000 });
  return { transport, state, command: [DAEMON_EXECUTABLE, ...args] };
}

/**
 * Runs `use` with the environment that names a fresh real daemon over stdio as `GLASS_COMMAND`
 * (with its state directory), for a script or suite that starts the daemon itself; then removes the
 * state.
 */
export async function withDaemonCommand<T>(use: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const state = daemonState();
  try {
    const command = [DAEMON_EXECUTABLE, ...globalFlags(await freePort()), "--mcp"].join(" ");
    return await use({ ...state.env, GLASS_COMMAND: command });
  } finally {
    state.remove();
  }
}

/**
 * Starts a socket daemon before the tests of the `describe` it is called in and stops it after
 * them; returns a getter for it.
 */
export function socketDaemonPerSuite(): () => SocketDaemon {
  let daemon: SocketDaemon | undefined;
  beforeAll(async () => {
    daemon = await startSocketDaemon();
  });
  afterAll(async () => {
    await daemon?.stop();
  });
  return () => {
    if (daemon === undefined) throw new Error("the socket daemon is started before the suite's tests run");
    return daemon;
  };
}

/** A running socket daemon (`glass-browser daemon serve`). */
export interface SocketDaemon {
  /** The daemon's Unix socket. */
  readonly path: string;
  readonly state: DaemonState;
  /** What the daemon printed on stderr so far. */
  stderr(): string;
  /** SIGTERM (the daemon removes its socket and status file), then SIGKILL after 5 s; removes the state. */
  stop(): Promise<void>;
}

/** Starts the socket daemon in the foreground in a fresh state directory; resolves once its socket exists. */
export async function startSocketDaemon(extraFlags: readonly string[] = []): Promise<SocketDaemon> {
  const state = daemonState();
  const path = join(state.directory, "data", "glass", "glass.sock");
  const status = join(state.directory, "data", "glass", "daemon.json");
  const args = [...globalFlags(await freePort(), extraFlags), "daemon", "serve", "--socket", path, "--status", status];
  const child = spawn(DAEMON_EXECUTABLE, args, {
    env: { ...process.env, ...state.env },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-16_384);
  });
  const deadline = Date.now() + 20_000;
  while (!existsSync(path)) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the socket daemon exited (${child.exitCode ?? child.signalCode}) before listening: ${stderr}`);
    if (Date.now() > deadline) {
      await terminate(child);
      throw new Error(`the socket daemon did not create ${path} within 20 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    path,
    state,
    stderr: () => stderr,
    stop: async () => {
      await terminate(child);
      state.remove();
    },
  };
}

/** SIGTERM (the daemon removes its socket and status file), SIGKILL after 5 s; then whatever it left in its group. */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
  killDaemon(child);
}
