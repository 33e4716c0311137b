import { chmod, link, lstat, mkdtemp, rmdir, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import type { DaemonContext } from "../../mock-daemon/daemon-context.js";
import { DaemonConnection } from "./daemon-connection.js";
import { McpServerSession } from "../../mock-daemon/mcp-server-session.js";

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
 * Listens on a Unix socket at `path` (mode 0600, never connectable by another user, whatever the
 * umask: see {@link listenPrivately}) and serves each client its own MCP session with the daemon's
 * shared lease and limits (§4, §5): at most `maxClients` clients — the next one is closed at once,
 * without a reply — and a client's lease is released when it disconnects. A client that breaks the
 * framing rules is disconnected (and reported to `onFramingViolation`); one that ended its side is
 * given `frameTimeoutMs` to read the last answers. A stale socket file is replaced; a path where a
 * daemon answers, or that is not a socket, is an error. `close()` ends every connection at once.
 */
export async function serveSocket(
  context: DaemonContext,
  path: string,
  onFramingViolation?: (clientId: string, reason: string) => void,
): Promise<SocketServer> {
  await clearStaleSocket(path);
  const clients = new Map<Socket, McpServerSession>();
  /** Every connection not closed yet: the served clients, and those whose session ended but whose last answers are still being written. */
  const open = new Set<Socket>();
  let nextClient = 0;
  const server = createServer((socket) => {
    socket.on("error", () => {});
    if (clients.size >= context.limits.maxClients) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once("close", () => open.delete(socket));
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
        // After a violation nothing more is sent; after the client's EOF, what was written is
        // flushed first, for as long as a frame may take: a client that never reads it is dropped.
        if (violation === undefined) endWithin(socket, context.limits.frameTimeoutMs);
        else socket.destroy();
        context.record.changed();
        if (violation !== undefined) onFramingViolation?.(clientId, violation);
      },
    });
    session = new McpServerSession(context, clientId, connection);
    clients.set(socket, session);
    context.record.changed();
  });
  await listenPrivately(server, path);

  const dropClients = (): void => {
    for (const session of clients.values()) session.close();
    clients.clear();
    for (const socket of open) socket.destroy();
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

/** Ends a connection gracefully, and destroys it if its peer has not taken what was written within `ms`. */
function endWithin(socket: Socket, ms: number): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/** The longest Unix socket path, in bytes (`sun_path` less its final NUL; 104 bytes on macOS and the BSDs). */
const MAX_SOCKET_PATH_BYTES = process.platform === "linux" ? 107 : 103;

/**
 * Listens on the Unix socket `path` so that no other user can ever connect to it, whatever the
 * umask. The socket is bound inside a fresh directory of mode 0700 in `path`'s directory (so only its owner
 * can reach it there), made 0600, and only then hard-linked to `path` — atomically, and failing if
 * something took `path` meanwhile; the private name and directory are removed at once. Changing the
 * umask around `listen` would do it too, but the umask is the whole process's: it would change the
 * mode of every file another part of the process (or a worker thread) creates meanwhile, and
 * `process.umask(mask)` throws in worker threads.
 */
async function listenPrivately(server: Server, path: string): Promise<void> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `the socket path ${path} is too long (${Buffer.byteLength(path)} bytes; a Unix socket path has at most ${MAX_SOCKET_PATH_BYTES}): choose a shorter one`,
    );
  }
  // `dir/.glass-XXXXXX`: in the socket's own directory (join(dir, ".") would name the directory
  // itself, and mkdtemp would put the staging directory beside it, in its parent).
  const staging = await mkdtemp(join(dirname(path), ".glass-")).catch((error: unknown) => {
    throw new Error(`cannot create the socket ${path}: ${describeFsError(error)}`);
  });
  const staged = join(staging, "s");
  try {
    if (Buffer.byteLength(staged) > MAX_SOCKET_PATH_BYTES) {
      throw new Error(
        `the socket path ${path} is too long to be created safely (its directory's path leaves no room for a private one): choose a shorter one`,
      );
    }
    await listen(server, staged);
    await chmod(staged, 0o600);
    await link(staged, path).catch((error: unknown) => {
      throw new Error(
        (error as { code?: unknown }).code === "EEXIST"
          ? `${path} was taken while the daemon was starting; choose another path`
          : `cannot create the socket ${path}: ${describeFsError(error)}`,
      );
    });
  } catch (error) {
    server.close();
    throw error;
  } finally {
    await unlink(staged).catch(() => {});
    await rmdir(staging).catch(() => {});
  }
}

/** A file-system error as a short phrase: its code (`EACCES`), or its message. */
function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOENT") return "its directory does not exist";
  return typeof code === "string" ? code : String(error);
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
