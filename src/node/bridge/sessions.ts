/**
 * The bridge's client sessions: what its handlers share (the context), the registry that caps
 * them, each session's own daemon connection, the idle timer, and the session lifecycle the HTTP
 * and WebSocket sessions build on.
 */
import { randomUUID } from "node:crypto";
import type { GlassError } from "../../errors/glass-error.js";
import type { JsonRpcMessage } from "../../mcp/json-rpc.js";
import type { GlassTransport } from "../../transport/transport.js";
import { socketTransport } from "../socket-transport.js";
import { stdioTransport } from "../stdio-transport.js";
import type { BridgeUpstream, ResolvedBridgeOptions } from "./options.js";
import type { ConnectionGuard } from "./security.js";

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

/** What an upstream connection reports to the client session that owns it. */
interface UpstreamHandlers {
  /** A message from the daemon. */
  onMessage(message: JsonRpcMessage): void;
  /** The connection ended; `error` says why when the bridge did not close it itself. Called once. */
  onClose(error: GlassError | undefined): void;
  /** The daemon sent a frame that could not be decoded (it was skipped). */
  onBadFrame(error: GlassError): void;
}

/** One client session's own connection to the daemon. */
interface UpstreamConnection {
  /** Sends a message, framed as the daemon expects (newline up to 8 KiB, Content-Length above). */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the connection (for a command upstream: ends the process); resolves when it is gone. */
  close(): Promise<void>;
}

/** Names the upstream for log lines: `the daemon socket /path` or `` `glass --mcp` ``. */
function describeUpstream(upstream: BridgeUpstream): string {
  return "socket" in upstream ? `the daemon socket ${upstream.socket}` : `\`${[upstream.command, ...(upstream.args ?? [])].join(" ")}\``;
}

/**
 * Opens a new daemon connection for one client session: a connection to the daemon's Unix socket,
 * or a new daemon process over stdio. Rejects with the transport's error (`transport.unavailable`)
 * when the daemon cannot be reached.
 */
async function openUpstream(upstream: BridgeUpstream, handlers: UpstreamHandlers): Promise<UpstreamConnection> {
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

/**
 * Fires `onIdle` once a session has had no traffic for `idleMs` while nothing was in flight.
 * `touch()` records traffic; `begin()` marks work in flight (no idling until its `end` is called).
 */
class IdleTimer {
  readonly #idleMs: number;
  readonly #onIdle: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #busy = 0;
  #stopped = false;

  constructor(idleMs: number, onIdle: () => void) {
    this.#idleMs = idleMs;
    this.#onIdle = onIdle;
    this.#arm();
  }

  /** Records traffic: the idle period starts again. */
  touch(): void {
    this.#arm();
  }

  /** Marks one piece of work in flight; call the returned function (once) when it ends. */
  begin(): () => void {
    this.#busy++;
    this.#arm();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#busy--;
      this.#arm();
    };
  }

  /** Stops the timer for good. */
  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #arm(): void {
    this.#clear();
    if (this.#stopped || this.#busy > 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#stopped && this.#busy === 0) this.#onIdle();
    }, this.#idleMs);
    this.#timer.unref?.();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * Requests of one session forwarded to the daemon and not yet answered; more are answered -32000
 * at once (the daemon itself takes 4 per client, so a client never needs more).
 */
export const REQUESTS_IN_FLIGHT_PER_SESSION = 64;

/**
 * Who ended a session: the client, the daemon (its connection closed), the idle timer, the bridge
 * (shutdown), or an internal error while relaying.
 */
export type SessionEndCause = "client" | "upstream" | "idle" | "bridge" | "internal";

/**
 * A client session and its own daemon connection (one per session, so the daemon sees each client
 * as a separate client: its own initialize, request ids, lease). This base class owns the
 * lifecycle: it opens the daemon connection, registers the session, runs the idle timer, and ends
 * everything once, with one log line at the start and one at the end. Subclasses relay messages.
 */
export abstract class UpstreamSession implements ClientSession {
  abstract readonly channel: "http" | "websocket";
  readonly id: string = randomUUID();
  protected readonly context: BridgeContext;
  readonly #slot: SessionSlot;
  readonly #peer: string;
  #upstream: UpstreamConnection | undefined;
  #idle: IdleTimer | undefined;
  #ended: Promise<void> | undefined;
  #ending = false;
  /** Bytes of client messages handed to the daemon connection and not yet written to it. */
  #upstreamBacklog = 0;

  protected constructor(context: BridgeContext, slot: SessionSlot, peer: string) {
    this.context = context;
    this.#slot = slot;
    this.#peer = peer;
  }

  /** True once the session has ended. */
  get isEnded(): boolean {
    return this.#ending;
  }

  /** Ends the session (bridge shutdown). */
  close(reason: string): Promise<void> {
    return this.end(reason, "bridge");
  }

  /**
   * Opens the daemon connection and registers the session. On failure the place is released and
   * the error (`transport.unavailable`) is rethrown.
   */
  protected async connect(): Promise<void> {
    try {
      this.#upstream = await openUpstream(this.context.options.upstream, {
        onMessage: (message) => {
          if (this.isEnded) return;
          try {
            this.onUpstreamMessage(message);
          } catch (error) {
            // Whatever a daemon sends must not take the bridge down: the one session ends instead.
            this.context.log(`session ${shortId(this.id)}: internal error relaying a daemon message: ${error instanceof Error ? error.message : String(error)}`);
            void this.end("an internal error while relaying a daemon message", "internal");
          }
        },
        onClose: (error) => void this.end(error === undefined ? "the daemon connection closed" : `the daemon connection closed: ${error.rawMessage}`, "upstream"),
        onBadFrame: (error) => this.context.log(`session ${shortId(this.id)}: skipped a bad frame from the daemon: ${error.rawMessage}`),
      });
    } catch (error) {
      this.#slot.release();
      throw error;
    }
    this.context.sessions.add(this);
    const idleMs = this.context.options.idleTimeoutMs;
    this.#idle = new IdleTimer(idleMs, () => void this.end(`idle for ${idleMs} ms`, "idle"));
    this.context.log(`session ${shortId(this.id)} started (${this.channel}, client ${this.#peer}) → ${describeUpstream(this.context.options.upstream)}`);
    if (this.context.closing) void this.end("the bridge is shutting down", "bridge");
  }

  /** Records traffic on the session (restarts the idle period). */
  protected touch(): void {
    this.#idle?.touch();
  }

  /** Marks a request in flight (the session does not idle until the returned function is called). */
  protected beginWork(): () => void {
    return this.#idle?.begin() ?? (() => {});
  }

  /**
   * Sends a message to the daemon. Rejects when the connection is closed or the message cannot be
   * encoded. `bytes` (the size the client sent it in) counts toward {@link upstreamBacklog} until
   * it is written.
   */
  protected sendUpstream(message: JsonRpcMessage, bytes = 0): Promise<void> {
    if (this.#upstream === undefined || this.isEnded) return Promise.reject(new Error("the daemon connection is closed"));
    const sent = this.#upstream.send(message);
    if (bytes === 0) return sent;
    this.#upstreamBacklog += bytes;
    const written = (): void => {
      this.#upstreamBacklog -= bytes;
      this.onUpstreamWritten();
    };
    sent.then(written, written);
    return sent;
  }

  /** Bytes of client messages not yet written to the daemon connection (it reads slower than the client sends). */
  protected get upstreamBacklog(): number {
    return this.#upstreamBacklog;
  }

  /** A client message was written to the daemon connection (or failed to be): the backlog shrank. */
  protected onUpstreamWritten(): void {}

  /**
   * Ends the session once: stops the idle timer, frees its place, logs why, lets the subclass
   * answer what is pending, and closes the daemon connection. Resolves when that is closed.
   */
  protected end(reason: string, cause: SessionEndCause): Promise<void> {
    if (this.#ended !== undefined) return this.#ended;
    this.#ending = true;
    this.#idle?.stop();
    this.context.sessions.remove(this);
    this.#slot.release();
    this.context.log(`session ${shortId(this.id)} ended (${this.channel}): ${reason}`);
    const upstream = this.#upstream;
    this.#ended = (async () => {
      try {
        this.onEnd(reason, cause);
      } finally {
        await upstream?.close().catch(() => undefined);
      }
    })();
    return this.#ended;
  }

  /** A message from the daemon (only while the session runs). */
  protected abstract onUpstreamMessage(message: JsonRpcMessage): void;

  /** The session ended: answer or drop what is pending, close the client side. */
  protected abstract onEnd(reason: string, cause: SessionEndCause): void;
}
