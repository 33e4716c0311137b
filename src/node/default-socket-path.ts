import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** What {@link defaultSocketPath} reads; each defaults to this process's own. */
export interface DefaultSocketPathContext {
  /** Environment variables (only `XDG_DATA_HOME` is read). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The operating system, as `process.platform` names it. */
  platform?: string;
  /** The user's home directory. */
  homeDir?: string;
}

/**
 * Where `glass daemon start` listens by default: the `glass/glass.sock` file in the user's data
 * directory.
 *
 * - Linux and other Unix systems: `$XDG_DATA_HOME/glass/glass.sock` when `XDG_DATA_HOME` is set to
 *   an absolute path (the XDG spec ignores relative ones), else `~/.local/share/glass/glass.sock`
 *   (protocol §5).
 * - macOS: `~/Library/Application Support/glass/glass.sock`. The protocol documents only the Linux
 *   path; Linux's XDG rule is the data directory of Rust's `dirs` crate, whose macOS data directory
 *   is `~/Library/Application Support`, so that is our inference for the daemon (a Rust program). If
 *   a daemon listens elsewhere, pass the path or set `GLASS_SOCKET`.
 *
 * This is the daemon's default only; `socketTransport` prefers an explicit path, then
 * `GLASS_SOCKET`.
 */
export function defaultSocketPath(context: DefaultSocketPathContext = {}): string {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  const home = context.homeDir ?? homedir();
  if (platform === "darwin") return join(home, "Library", "Application Support", "glass", "glass.sock");
  const dataHome = env.XDG_DATA_HOME;
  const dataDir =
    dataHome !== undefined && dataHome !== "" && isAbsolute(dataHome) ? dataHome : join(home, ".local", "share");
  return join(dataDir, "glass", "glass.sock");
}
