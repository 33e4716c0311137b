import type { GlassError } from "../../errors/glass-error.js";
import type { JsonRpcMessage } from "../../mcp/json-rpc.js";
import type { GlassTransport } from "../../transport/transport.js";
import { socketTransport } from "../socket-transport.js";
import { stdioTransport } from "../stdio-transport.js";
import type { BridgeUpstream } from "./bridge-options.js";

/** What an upstream connection reports to the client session that owns it. */
export interface UpstreamHandlers {
  /** A message from the daemon. */
  onMessage(message: JsonRpcMessage): void;
  /** The connection ended; `error` says why when the bridge did not close it itself. Called once. */
  onClose(error: GlassError | undefined): void;
  /** The daemon sent a frame that could not be decoded (it was skipped). */
  onBadFrame(error: GlassError): void;
}

/** One client session's own connection to the daemon. */
export interface UpstreamConnection {
  /** Sends a message, framed as the daemon expects (newline up to 8 KiB, Content-Length above). */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the connection (for a command upstream: ends the process); resolves when it is gone. */
  close(): Promise<void>;
}

/** Names the upstream for log lines: `the daemon socket /path` or `` `glass --mcp` ``. */
export function describeUpstream(upstream: BridgeUpstream): string {
  return "socket" in upstream ? `the daemon socket ${upstream.socket}` : `\`${[upstream.command, ...(upstream.args ?? [])].join(" ")}\``;
}

/**
 * Opens a new daemon connection for one client session: a connection to the daemon's Unix socket,
 * or a new daemon process over stdio. Rejects with the transport's error (`transport.unavailable`)
 * when the daemon cannot be reached.
 */
export async function openUpstream(upstream: BridgeUpstream, handlers: UpstreamHandlers): Promise<UpstreamConnection> {
  const transport: GlassTransport =
    "socket" in upstream
      ? socketTransport({ path: upstream.socket })
      : stdioTransport({ command: upstream.command, args: upstream.args ?? [], cwd: upstream.cwd, env: { ...upstream.env, GLASS_BRIDGE_TOKEN: undefined }, stderr: "pipe" });
  await transport.start({
    onMessage: (message) => handlers.onMessage(message),
    onClose: (error) => handlers.onClose(error),
    onError: (error) => handlers.onBadFrame(error),
  });
  return {
    send: (message) => transport.send(message),
    close: () => transport.close(),
  };
}
