/** A client session as the registry sees it: an HTTP session or a WebSocket connection, each with its own daemon connection. */
export interface ClientSession {
  /** A random UUID (for HTTP, the `Mcp-Session-Id`). */
  readonly id: string;
  /** How the client reaches the bridge. */
  readonly channel: "http" | "websocket";
  /** Ends the session and its daemon connection; resolves when the daemon connection is closed. */
  close(reason: string): Promise<void>;
}

/** A place among the `maxClients` sessions, held from before the daemon connection opens until the session ends. */
export interface SessionSlot {
  /** Gives the place back (once; later calls do nothing). */
  release(): void;
}

/**
 * The bridge's client sessions and the cap on them. A place is reserved before the daemon
 * connection is opened, so concurrent new clients cannot overshoot the cap.
 */
export class SessionRegistry {
  readonly #maxClients: number;
  readonly #sessions = new Map<string, ClientSession>();
  #taken = 0;

  constructor(maxClients: number) {
    this.#maxClients = maxClients;
  }

  /** The cap. */
  get maxClients(): number {
    return this.#maxClients;
  }

  /** Places taken: sessions running plus sessions being opened. */
  count(): number {
    return this.#taken;
  }

  /** Takes a place, or returns `undefined` when all `maxClients` are taken. */
  reserve(): SessionSlot | undefined {
    if (this.#taken >= this.#maxClients) return undefined;
    this.#taken++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#taken--;
      },
    };
  }

  /** Registers a running session (its place was reserved). */
  add(session: ClientSession): void {
    this.#sessions.set(session.id, session);
  }

  /** Forgets a session (its owner releases its place). */
  remove(session: ClientSession): void {
    if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
  }

  /** The HTTP session with this `Mcp-Session-Id`, if it is running. */
  httpSession(id: string): ClientSession | undefined {
    const session = this.#sessions.get(id);
    return session?.channel === "http" ? session : undefined;
  }

  /** Every running session. */
  all(): ClientSession[] {
    return [...this.#sessions.values()];
  }
}
