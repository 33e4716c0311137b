import type { Readable, Writable } from "node:stream";
import type { DaemonContext } from "../../testing/daemon/daemon-context.js";
import { DaemonConnection } from "./daemon-connection.js";
import { McpServerSession } from "../../testing/daemon/mcp-server-session.js";

/** A mock daemon session served over a pair of streams. */
export interface StdioServer {
  /** Resolves when the session is over: EOF on the input, a crash, or `close()`. */
  readonly done: Promise<void>;
  /** Ends the session: in-flight calls are dropped unanswered; the streams are left open. */
  close(): void;
}

/**
 * Serves one MCP session over `input`/`output` (the daemon's stdin and stdout, §5): stdio has no
 * leases and allows 8 active requests. EOF on the input cancels in-flight work and ends the session.
 */
export function serveStdio(context: DaemonContext, input: Readable, output: Writable): StdioServer {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let session: McpServerSession | undefined;
  const connection = new DaemonConnection({
    readable: input,
    writable: output,
    limits: context.limits,
    onMessage: (message, framing) => session?.handle(message, framing),
    onEnd: () => close(),
  });
  session = new McpServerSession(context, "stdio", connection);
  const close = (): void => {
    session?.close();
    connection.detach();
    finish();
  };
  return { done, close };
}
