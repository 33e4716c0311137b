import { randomUUID } from "node:crypto";
import type { JsonRpcMessage } from "../../mcp/json-rpc.js";
import { shortId, type BridgeContext } from "./bridge-context.js";
import { IdleTimer } from "./idle-timer.js";
import type { ClientSession, SessionSlot } from "./session-registry.js";
import { describeUpstream, openUpstream, type UpstreamConnection } from "./upstream.js";

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
