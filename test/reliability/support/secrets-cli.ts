/**
 * Runs `glass-sdk bridge` (the CLI, from source) as a child process and captures its stderr, for
 * the redaction sweep: the startup line, log lines and anything else it writes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { CLI, eventually, ROOT } from "../../support/bridge-harness.js";

/** A running CLI. */
export interface CliRun {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Waits until stderr matches (up to `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends SIGTERM and resolves with the exit code (SIGKILL after 5 s). */
  stop(): Promise<number | null>;
  /** Resolves with the exit code when the process ends by itself. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `node --import tsx src/cli/main.ts <args>` with `env` as its whole environment
 * (`GLASS_BRIDGE_TOKEN` is never inherited from the test process unless given).
 */
export function runCli(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CliRun {
  const { GLASS_BRIDGE_TOKEN: _inherited, ...base } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    cwd: ROOT,
    env: { ...base, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    exited,
    async waitFor(pattern, timeoutMs = 20_000) {
      await eventually(
        () => pattern.test(stderr),
        `the CLI printed ${String(pattern)}; it printed:\n${stderr}`,
        timeoutMs,
      );
      return pattern.exec(stderr)!;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      // A CLI that does not exit on SIGTERM is killed (its exit code is then null, which tests
      // catch); the grace is generous because a loaded machine can starve the child's event loop.
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The URLs and (generated) token of the CLI's startup line. */
export function startupLine(stderr: string): { line: string; url: string; wsUrl: string; token: string | undefined } {
  const line = stderr.split("\n").find((candidate) => candidate.startsWith("glass-sdk bridge: listening on "));
  if (line === undefined) throw new Error(`no startup line in:\n${stderr}`);
  const match = /listening on (http:\/\/\S+) \(and (ws:\/\/\S+)\) — token: (\S+)/.exec(line);
  if (match === null) throw new Error(`unexpected startup line: ${line}`);
  const token = match[3] === "the" ? undefined : match[3];
  return { line, url: match[1]!, wsUrl: match[2]!, token };
}
