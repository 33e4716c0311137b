/**
 * The bridge's client sessions: what its handlers share (the context), the registry that caps
 * them, each session's own daemon connection, the idle timer, and the session lifecycle the HTTP
 * and WebSocket sessions build on.
 */
import { randomUUID } from "node:crypto";
import { GlassError } from "../../errors/glass-error.js";
import { isJsonRpcRequest, isJsonRpcResponse, type JsonRpcId, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import type { GlassTransport } from "../../transport/transport.js";
import { isJsonObject } from "../../validation/json-value.js";
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
  /** How long the session has had no traffic, in ms; `undefined` while a request of it is in flight. */
  idleForMs(): number | undefined;
  /** Whether it holds the daemon's mutation lease, as far as the bridge saw the lease methods answered. */
  holdsLease(): boolean;
  /** Ends the session to make room for a new one; resolves when its daemon connection is closed. */
  evict(reason: string): Promise<void>;
}

/** A place among the `maxClients` sessions, held from before the daemon connection opens until the session ends. */
export interface SessionSlot {
  /** Gives the place back (once; later calls do nothing). */
  release(): void;
}

/**
 * The bridge's client sessions and the cap on them. A place is reserved before the daemon
 * connection is opened, so concurrent new clients cannot overshoot the cap. When every place is
 * taken, a new session takes the place of the session idle longest, provided it has been idle for
 * at least `evictIdleAfterMs` with nothing in flight; sessions holding the mutation lease go last.
 */
export class SessionRegistry {
  readonly #maxClients: number;
  readonly #evictIdleAfterMs: number;
  readonly #sessions = new Map<string, ClientSession>();
  #taken = 0;

  constructor(maxClients: number, evictIdleAfterMs: number) {
    this.#maxClients = maxClients;
    this.#evictIdleAfterMs = evictIdleAfterMs;
  }

  /** The cap. */
  get maxClients(): number {
    return this.#maxClients;
  }

  /** Places taken: sessions running plus sessions being opened. */
  count(): number {
    return this.#taken;
  }

  /**
   * Takes a place for a new session. When all `maxClients` are taken, ends the session chosen by
   * {@link evictionCandidate} and takes its place, resolving once that session's daemon connection
   * is closed (so the daemon has let go of that client, and of its lease, before the new session
   * connects). Resolves with `undefined` when every place is taken and no session may be evicted.
   */
  async reserve(): Promise<SessionSlot | undefined> {
    const slot = this.#take();
    if (slot !== undefined) return slot;
    const candidate = this.evictionCandidate();
    if (candidate === undefined) return undefined;
    const idleMs = candidate.idleForMs() ?? 0;
    const ended = candidate.evict(
      `evicted: idle for ${Math.round(idleMs)} ms with nothing in flight${candidate.holdsLease() ? " (holding the mutation lease)" : ""}, ` +
        `while a new client session needed a place (maxClients ${this.#maxClients})`,
    );
    // The evicted session gave its place back as it ended (synchronously): take it before anyone else.
    const freed = this.#take();
    await ended.catch(() => undefined);
    return freed;
  }

  /**
   * The session a newcomer may evict when every place is taken: of the sessions idle at least
   * `evictIdleAfterMs` with nothing in flight, those without the mutation lease first, and among
   * them the one idle longest. `undefined` when none qualifies.
   */
  evictionCandidate(): ClientSession | undefined {
    let best: { session: ClientSession; idleMs: number; lease: boolean } | undefined;
    for (const session of this.#sessions.values()) {
      const idleMs = session.idleForMs();
      if (idleMs === undefined || idleMs < this.#evictIdleAfterMs) continue;
      const lease = session.holdsLease();
      if (best === undefined || (best.lease && !lease) || (best.lease === lease && idleMs > best.idleMs))
        best = { session, idleMs, lease };
    }
    return best?.session;
  }

  /** Takes a free place, if there is one. */
  #take(): SessionSlot | undefined {
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
  return "socket" in upstream
    ? `the daemon socket ${upstream.socket}`
    : `\`${[upstream.command, ...(upstream.args ?? [])].join(" ")}\``;
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
      : stdioTransport({
          command: upstream.command,
          args: upstream.args ?? [],
          cwd: upstream.cwd,
          env: { ...upstream.env, GLASS_BRIDGE_TOKEN: undefined },
          stderr: "pipe",
        });
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
  /** When the idle period started (`performance.now()`): the last traffic, or the end of the last work in flight. */
  #since = performance.now();

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

  /** How long the session has been idle, in ms; `undefined` while work is in flight. */
  idleForMs(): number | undefined {
    return this.#busy > 0 ? undefined : performance.now() - this.#since;
  }

  /** Stops the timer for good. */
  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #arm(): void {
    this.#clear();
    this.#since = performance.now();
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
 * Who ended a session: the client, the daemon (its connection closed), the idle timer, a new
 * session that took its place at the cap (`evicted`: idle, nothing in flight), the bridge
 * (shutdown), or an internal error while relaying.
 */
export type SessionEndCause = "client" | "upstream" | "idle" | "evicted" | "bridge" | "internal";

/** The lease methods (§4), by the name the bridge tracks them under. */
const LEASE_METHODS: ReadonlyMap<string, "acquire" | "renew" | "release"> = new Map([
  ["glass/lease/acquire", "acquire"],
  ["glass/lease/renew", "renew"],
  ["glass/lease/release", "release"],
]);

/**
 * What a client is told when the daemon socket closed a new session's connection before answering
 * anything: what the daemon does to a client past its limit (4 clients, §5). `maxClients` is the
 * bridge's own cap, to say what to lower. Short enough (under 200 characters with its 503 prefix)
 * for `httpTransport` to quote it whole.
 */
export function daemonRefusalReason(maxClients: number): string {
  return `the Glass daemon closed the new connection before answering, as it does past its client limit (4): close other clients of the daemon or lower --max-clients (now ${maxClients})`;
}

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
  #endCause: SessionEndCause | undefined;
  /** Whether the daemon ever sent this session anything. */
  #heard = false;
  /** The client's lease requests awaiting the daemon's answer, by id: how the bridge knows whether the session holds the lease. */
  readonly #leaseCalls = new Map<JsonRpcId, "acquire" | "renew" | "release">();
  /** Until when (ms since the epoch, the daemon's `expiresAtMs`) the session holds the mutation lease; 0 when it holds none. */
  #leaseUntil = 0;
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

  /**
   * True when the daemon socket closed this session's connection before sending anything: how the
   * daemon refuses a client past its limit (§5), so the client is refused in turn with
   * {@link daemonRefusalReason} rather than given an error for its first request.
   */
  get refusedByDaemon(): boolean {
    return this.#endCause === "upstream" && !this.#heard && "socket" in this.context.options.upstream;
  }

  /** Ends the session (bridge shutdown). */
  close(reason: string): Promise<void> {
    return this.end(reason, "bridge");
  }

  /** Ends the session to make room for a new one at the cap (it is idle with nothing in flight). */
  evict(reason: string): Promise<void> {
    return this.end(reason, "evicted");
  }

  /** How long the session has had no traffic, in ms; `undefined` while a request is in flight or once it ended. */
  idleForMs(): number | undefined {
    return this.isEnded ? undefined : this.#idle?.idleForMs();
  }

  /** Whether the daemon granted this session the mutation lease (acquire, renew) and it has neither been released nor expired. */
  holdsLease(): boolean {
    return this.#leaseUntil > Date.now();
  }

  /**
   * Opens the daemon connection and registers the session. On failure the place is released and
   * the error (`transport.unavailable`) is rethrown.
   */
  protected async connect(): Promise<void> {
    try {
      this.#upstream = await openUpstream(this.context.options.upstream, {
        onMessage: (message) => {
          this.#heard = true;
          if (this.isEnded) return;
          this.#noteLeaseAnswer(message);
          try {
            this.onUpstreamMessage(message);
          } catch (error) {
            // Whatever a daemon sends must not take the bridge down: the one session ends instead.
            this.context.log(
              `session ${shortId(this.id)}: internal error relaying a daemon message: ${error instanceof Error ? error.message : String(error)}`,
            );
            void this.end("an internal error while relaying a daemon message", "internal");
          }
        },
        onClose: (error) =>
          void this.end(
            error === undefined ? "the daemon connection closed" : `the daemon connection closed: ${error.rawMessage}`,
            "upstream",
          ),
        onBadFrame: (error) =>
          this.context.log(`session ${shortId(this.id)}: skipped a bad frame from the daemon: ${error.rawMessage}`),
      });
    } catch (error) {
      this.#slot.release();
      throw error;
    }
    this.context.sessions.add(this);
    const idleMs = this.context.options.idleTimeoutMs;
    this.#idle = new IdleTimer(idleMs, () => void this.end(`idle for ${idleMs} ms`, "idle"));
    this.context.log(
      `session ${shortId(this.id)} started (${this.channel}, client ${this.#peer}) → ${describeUpstream(this.context.options.upstream)}`,
    );
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
    if (this.#upstream === undefined || this.isEnded)
      return Promise.reject(new Error("the daemon connection is closed"));
    this.#noteLeaseCall(message);
    const sent = this.#upstream.send(message);
    sent.catch((error: unknown) => {
      // A write the connection failed (EPIPE: the daemon closed it) means it is gone and its close
      // follows: end the session now, before the caller answers the message's sender, so that a
      // daemon refusing a new client is told apart from a failed request.
      if (error instanceof GlassError && error.code === "transport.closed")
        void this.end(`the daemon connection closed: ${error.rawMessage}`, "upstream");
    });
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

  /** Remembers a lease request on its way to the daemon, to read its answer (at most as many as may be in flight). */
  #noteLeaseCall(message: JsonRpcMessage): void {
    if (!isJsonRpcRequest(message)) return;
    const method = LEASE_METHODS.get(message.method);
    if (method === undefined) return;
    this.#leaseCalls.delete(message.id);
    this.#leaseCalls.set(message.id, method);
    if (this.#leaseCalls.size > REQUESTS_IN_FLIGHT_PER_SESSION)
      this.#leaseCalls.delete(this.#leaseCalls.keys().next().value as JsonRpcId);
  }

  /** Reads the daemon's answer to a lease request: acquired or renewed until `expiresAtMs`, released, or lost. */
  #noteLeaseAnswer(message: JsonRpcMessage): void {
    if (!isJsonRpcResponse(message) || message.id === null) return;
    const method = this.#leaseCalls.get(message.id);
    if (method === undefined) return;
    this.#leaseCalls.delete(message.id);
    const result: unknown = "result" in message ? message.result : undefined;
    if (!isJsonObject(result)) {
      // A failed renewal means the lease expired or is not this client's; a failed acquire or release changes nothing.
      if (method === "renew") this.#leaseUntil = 0;
      return;
    }
    if (method === "release") {
      this.#leaseUntil = 0;
      return;
    }
    const expiresAtMs = result.expiresAtMs;
    this.#leaseUntil =
      typeof expiresAtMs === "number" && Number.isFinite(expiresAtMs) ? expiresAtMs : Number.POSITIVE_INFINITY;
  }

  /**
   * Ends the session once: stops the idle timer, frees its place, logs why, lets the subclass
   * answer what is pending, and closes the daemon connection. Resolves when that is closed.
   */
  protected end(reason: string, cause: SessionEndCause): Promise<void> {
    if (this.#ended !== undefined) return this.#ended;
    this.#ending = true;
    this.#endCause = cause;
    this.#idle?.stop();
    this.context.sessions.remove(this);
    this.#slot.release();
    const why = this.refusedByDaemon
      ? `refused by the daemon (${reason}): ${daemonRefusalReason(this.context.sessions.maxClients)}`
      : reason;
    this.context.log(`session ${shortId(this.id)} ended (${this.channel}): ${why}`);
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
