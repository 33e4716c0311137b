import type { Socket } from "node:net";

/** One open connection as the guard sees it. */
interface Connection {
  /** Whether a request on it presented the right token (it is then never evicted). */
  authenticated: boolean;
  /** Closes it if its first byte has not come in time. */
  firstByteTimer: ReturnType<typeof setTimeout> | undefined;
}

/** What the guard needs from the bridge. */
export interface ConnectionGuardOptions {
  /** Open connections at once. */
  readonly maxConnections: number;
  /** A new connection must send its first byte within this many ms. */
  readonly firstByteTimeoutMs: number;
  /** Writes one log line. */
  readonly log: (line: string) => void;
}

/**
 * The bridge's open TCP connections and the cap on them. Any local process can open connections,
 * so the cap must not let idle or unauthenticated ones keep clients out: a new connection that
 * finds every place taken evicts the oldest connection that has not presented the token, and a
 * connection that sends nothing within `firstByteTimeoutMs` is closed. Connections that presented
 * the token are never evicted; when every place is held by one, the newcomer is closed at once.
 */
export class ConnectionGuard {
  readonly #options: ConnectionGuardOptions;
  /** Open connections, oldest first (a `Map` keeps insertion order). */
  readonly #open = new Map<Socket, Connection>();

  constructor(options: ConnectionGuardOptions) {
    this.#options = options;
  }

  /** Connections open now. */
  get size(): number {
    return this.#open.size;
  }

  /** Takes a new connection (the server's `connection` event), making room for it if needed. */
  admit(socket: Socket): void {
    const connection: Connection = { authenticated: false, firstByteTimer: undefined };
    this.#open.set(socket, connection);
    socket.once("close", () => this.#forget(socket));
    connection.firstByteTimer = setTimeout(() => {
      connection.firstByteTimer = undefined;
      if (socket.bytesRead > 0 || socket.destroyed) return;
      this.#options.log(`closed a connection from ${peerOf(socket)}: no byte within ${this.#options.firstByteTimeoutMs} ms (408)`);
      this.#drop(socket, "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }, this.#options.firstByteTimeoutMs);
    connection.firstByteTimer.unref?.();
    if (this.#open.size > this.#options.maxConnections) this.#makeRoomFor(socket);
  }

  /** Records that a request on this connection presented the right token: it is never evicted. */
  authenticated(socket: Socket): void {
    const connection = this.#open.get(socket);
    if (connection === undefined) return;
    connection.authenticated = true;
    clearTimeout(connection.firstByteTimer);
    connection.firstByteTimer = undefined;
  }

  #makeRoomFor(newcomer: Socket): void {
    const max = this.#options.maxConnections;
    for (const [socket, connection] of this.#open) {
      if (socket === newcomer || connection.authenticated) continue;
      this.#options.log(`evicted a connection from ${peerOf(socket)} that had not presented the token, to admit a new one (maxConnections ${max})`);
      this.#drop(socket);
      return;
    }
    this.#options.log(`refused a connection from ${peerOf(newcomer)}: all ${max} connections have presented the token (maxConnections)`);
    this.#drop(newcomer);
  }

  /** Closes a connection (after writing `last`, when given) and stops counting it at once. */
  #drop(socket: Socket, last?: string): void {
    this.#forget(socket);
    if (last === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.once("finish", () => socket.destroy());
    socket.end(last);
  }

  #forget(socket: Socket): void {
    const connection = this.#open.get(socket);
    if (connection === undefined) return;
    clearTimeout(connection.firstByteTimer);
    this.#open.delete(socket);
  }
}

function peerOf(socket: Socket): string {
  return socket.remoteAddress ?? "unknown";
}
