import { readFileSync } from "node:fs";

/**
 * Whether the process `pid` is gone: `process.kill(pid, 0)` throws ESRCH, or it has exited and only
 * waits to be reaped (a zombie, state `Z` in /proc: an orphan's exit is collected by the
 * container's first process, which may never do it).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
    throw error;
  }
  try {
    // The state follows the command name, which is in parentheses and may contain spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

/** Resolves once {@link processGone} holds for `pid`; rejects after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!processGone(pid)) {
    if (Date.now() > until) throw new Error(`process ${pid} was still running ${timeoutMs} ms later`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Kills `pid` with SIGKILL if it is still there (cleanup after a failed test). */
export function killIfRunning(pid: number | undefined): void {
  if (pid === undefined || processGone(pid)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone meanwhile
  }
}
