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
 * Where `glass daemon start` listens by default: `glass/glass.sock` in the user's data directory
 * (`$XDG_DATA_HOME` when absolute, else `~/.local/share`; on macOS `~/Library/Application Support`).
 * See docs/connecting.md, "Transports". `socketTransport` prefers an explicit path, then `GLASS_SOCKET`.
 */
export function defaultSocketPath(context: DefaultSocketPathContext = {}): string {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  const home = context.homeDir ?? homedir();
  // The protocol documents only the Linux path (§5). Its XDG rule is the data directory of Rust's
  // `dirs` crate, whose macOS data directory is `~/Library/Application Support`: the macOS path is
  // inferred from that (the daemon is a Rust program).
  if (platform === "darwin") return join(home, "Library", "Application Support", "glass", "glass.sock");
  const dataHome = env.XDG_DATA_HOME;
  const dataDir =
    dataHome !== undefined && dataHome !== "" && isAbsolute(dataHome) ? dataHome : join(home, ".local", "share");
  return join(dataDir, "glass", "glass.sock");
}
