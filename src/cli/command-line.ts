import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { UsageError } from "./usage.js";

/** One option of a command line, as {@link forEachOption} hands it over. */
export interface CommandOption {
  /** The argument as given. */
  readonly arg: string;
  /** The option's name: `--port` of `--port=8787`, or the whole argument. */
  readonly name: string;
  /** The option's value: after `=`, or else the next argument (consumed). Throws a {@link UsageError} when it is missing or empty. */
  value(): string;
  /** Checks that the option is a flag given without `=value`; throws a {@link UsageError} otherwise. */
  flag(): void;
}

/** Calls `visit` with each option of `args` (`--name value` or `--name=value`), in order. */
export function forEachOption(args: readonly string[], visit: (option: CommandOption) => void): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const inline = equals === -1 ? undefined : arg.slice(equals + 1);
    visit({
      arg,
      name,
      value: () => {
        const given = inline ?? args[++i];
        if (given === undefined || given === "") throw new UsageError(`${name} needs a value`);
        return given;
      },
      flag: () => {
        if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      },
    });
  }
}

/** The arguments before `--`, and those after it (`undefined` when there is no `--`). */
export function splitAtSeparator(args: readonly string[]): {
  own: readonly string[];
  rest: readonly string[] | undefined;
} {
  const separator = args.indexOf("--");
  return separator === -1
    ? { own: args, rest: undefined }
    : { own: args.slice(0, separator), rest: args.slice(separator + 1) };
}

/** The signals that stop a command: Ctrl-C (SIGINT), `kill` (SIGTERM) and the terminal going away (SIGHUP). */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** What {@link untilStopRequest} says when the parent of a command run in the foreground ended. */
export const PARENT_ENDED = "its parent process ended";

/** How often a command run in the foreground checks that its parent is still there, in ms. */
const PARENT_CHECK_MS = 500;

/**
 * Resolves with why the command must stop: the first stop signal ({@link STOP_SIGNALS}), or
 * {@link PARENT_ENDED} when the command runs in the foreground of a terminal and the process that
 * started it (`npm exec`, a shell, a test runner) is gone — killed on its own, it would otherwise
 * leave the command running as an orphan nobody sees. In the background (`&`, `setsid`, a
 * supervisor) only a signal stops it. The signal listeners stay installed: a second signal while
 * the command closes what it started must not kill it half-way and leave its children running (it
 * is reported to `onRepeat` instead; the close is bounded by {@link closeWithin}).
 */
export function untilStopRequest(onRepeat: (signal: NodeJS.Signals) => void = () => undefined): Promise<string> {
  return new Promise<string>((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (received) onRepeat(signal);
      received = true;
      resolve(signal);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    if (!runsInForeground()) return;
    const parent = process.ppid;
    const check = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(check);
      received = true;
      resolve(PARENT_ENDED);
    }, PARENT_CHECK_MS);
    check.unref();
  });
}

/**
 * Whether this process runs in the foreground of a terminal: on Linux, whether its process group
 * is its terminal's foreground group (`/proc/self/stat`); elsewhere, whether its stdin is a
 * terminal.
 */
export function runsInForeground(): boolean {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "utf8");
  } catch {
    return process.stdin.isTTY === true;
  }
  // After "pid (command) ": state, ppid, pgrp, session, tty_nr, tpgid, … (the command may hold spaces).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const processGroup = Number(fields[2]);
  const foregroundGroup = Number(fields[5]);
  return foregroundGroup > 0 && foregroundGroup === processGroup;
}

/**
 * Runs `close` (what a command started: a bridge, a daemon) and resolves when it is done; rejects
 * with an Error naming `what` when it takes longer than `ms`, so that a stop signal always ends
 * the command.
 */
export async function closeWithin(close: () => Promise<void>, ms: number, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not close within ${ms} ms; exiting anyway`)), ms);
  });
  try {
    await Promise.race([close(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Writes this process's pid to `path` (`--pid-file`; readable by this user only), so that
 * `kill "$(cat path)"` signals the command itself rather than a wrapper such as `npm exec` or
 * `sh -c`. Returns what removes the file again, if it still names this process.
 */
export function writePidFile(path: string): () => void {
  const pid = String(process.pid);
  try {
    writeFileSync(path, `${pid}\n`, { mode: 0o600 });
  } catch (error) {
    throw new UsageError(`--pid-file: cannot write ${path}: ${(error as Error).message}`);
  }
  return () => {
    try {
      if (readFileSync(path, "utf8").trim() === pid) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
}
