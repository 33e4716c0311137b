import type { ConnectionGuard } from "./connection-guard.js";
import type { ResolvedBridgeOptions } from "./resolve-options.js";
import type { SessionRegistry } from "./session-registry.js";

/** What the bridge's handlers and sessions share. */
export interface BridgeContext {
  /** The checked options. */
  readonly options: ResolvedBridgeOptions;
  /** Writes one log line (the token is redacted). */
  readonly log: (line: string) => void;
  /** The client sessions and their cap. */
  readonly sessions: SessionRegistry;
  /** The open TCP connections and their cap (which connections presented the token). */
  readonly connections: ConnectionGuard;
  /** The port the bridge listens on (known once it listens; the Host check needs it). */
  port: number;
  /** True once `close()` was called: new sessions are refused. */
  closing: boolean;
}

/** The first 8 characters of a session id, for log lines. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
