import type { DaemonContext } from "../../mock-daemon/daemon-context.js";
import type { ReadableByteStream, WritableByteStream } from "./byte-streams.js";
import { DaemonConnection } from "./daemon-connection.js";
import { McpServerSession } from "../../mock-daemon/mcp-server-session.js";

/** A mock daemon session served over a pair of streams. */
export interface StdioServer {
  /**
   * Resolves when the session is over: EOF on the input, a crash, or `close()` (with `undefined`),
   * or a framing violation of the client (with why).
   */
  readonly done: Promise<string | undefined>;
  /** Ends the session: in-flight calls are dropped unanswered; the streams are left open. */
  close(): void;
}

/**
 * Serves one MCP session over `input`/`output` (the daemon's stdin and stdout, §5): stdio has no
 * leases and allows 8 active requests. EOF on the input cancels in-flight work and ends the
 * session; so does a framing violation, without a reply.
 */
export function serveStdio(context: DaemonContext, input: ReadableByteStream, output: WritableByteStream): StdioServer {
  let finish!: (violation: string | undefined) => void;
  const done = new Promise<string | undefined>((resolve) => (finish = resolve));
  let session: McpServerSession | undefined;
  const connection = new DaemonConnection({
    readable: input,
    writable: output,
    limits: context.limits,
    onMessage: (message, framing) => session?.handle(message, framing),
    onEnd: (violation) => close(violation),
  });
  session = new McpServerSession(context, "stdio", connection);
  const close = (violation?: string): void => {
    session?.close();
    connection.detach();
    finish(violation);
  };
  return { done, close };
}
