import { chmod, lstat, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { DaemonContext } from "../../testing/daemon/daemon-context.js";
import { DaemonConnection } from "./daemon-connection.js";
import { McpServerSession } from "../../testing/daemon/mcp-server-session.js";

/** A mock daemon listening on a Unix socket. */
export interface SocketServer {
  /** The socket's path. */
  readonly path: string;
  /** Clients connected now. */
  clientCount(): number;
  /** Drops every client at once (the crash fault); the daemon keeps listening, like one restarted. */
  dropClients(): void;
  /** Stops listening, drops every client and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Listens on a Unix socket at `path` (mode 0600) and serves each client its own MCP session with
 * the daemon's shared lease and limits (§4, §5): at most `maxClients` clients — the next one is
 * closed at once, without a reply — and a client's lease is released when it disconnects. A client
 * that breaks the framing rules is disconnected (and reported to `onFramingViolation`). A stale
 * socket file is replaced; a path where a daemon answers, or that is not a socket, is an error.
 */
export async function serveSocket(
  context: DaemonContext,
  path: string,
  onFramingViolation?: (clientId: string, reason: string) => void,
): Promise<SocketServer> {
  await clearStaleSocket(path);
  const clients = new Map<Socket, McpServerSession>();
  let nextClient = 0;
  const server = createServer((socket) => {
    if (clients.size >= context.limits.maxClients) {
      socket.on("error", () => {});
      socket.destroy();
      return;
    }
    const clientId = `client-${++nextClient}`;
    let session: McpServerSession | undefined;
    const connection = new DaemonConnection({
      readable: socket,
      writable: socket,
      limits: context.limits,
      onMessage: (message, framing) => session?.handle(message, framing),
      onEnd: (violation) => {
        session?.close();
        clients.delete(socket);
        // After a violation nothing more is sent; after the client's EOF, what was written is flushed first.
        if (violation === undefined) socket.end();
        else socket.destroy();
        context.record.changed();
        if (violation !== undefined) onFramingViolation?.(clientId, violation);
      },
    });
    session = new McpServerSession(context, clientId, connection);
    clients.set(socket, session);
    context.record.changed();
  });
  await listen(server, path);
  await chmod(path, 0o600);

  const dropClients = (): void => {
    for (const [socket, session] of clients) {
      session.close();
      socket.destroy();
    }
    clients.clear();
    context.record.changed();
  };
  return {
    path,
    clientCount: () => clients.size,
    dropClients,
    async close() {
      dropClients();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(path).catch(() => {});
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Removes a socket file no daemon answers on; refuses to touch anything else. */
async function clearStaleSocket(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) return;
  if (!stats.isSocket()) throw new Error(`${path} exists and is not a socket; choose another path`);
  const answering = await new Promise<boolean>((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (answering) throw new Error(`a daemon is already listening on ${path}`);
  await unlink(path);
}
