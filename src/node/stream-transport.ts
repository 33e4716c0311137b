import type { JsonRpcMessage } from "../mcp/json-rpc.js";
import type { GlassTransport, TransportHandlers } from "../transport/transport.js";
import { closed, CLOSED_BEFORE_START, ignore, NOT_SENT, startedTwice } from "../transport/transport-util.js";
import type { FramedConnection } from "./framed-connection.js";

/**
 * The life of a transport that reaches the daemon over a byte stream (the stdio and socket
 * transports): `start` once, which opens the stream; `send` through its {@link FramedConnection};
 * `close` once, which stops sending and ends the stream. A subclass opens and ends its stream and
 * calls {@link markGone} when the stream is closed (or could not be opened).
 *
 * It reports `bufferedBytes` (the frames its connection has not written yet). It has no `redact`:
 * a stdio or socket transport holds no secret (no token, no URL credentials) that a peer could echo.
 */
export abstract class StreamTransport implements GlassTransport {
  abstract readonly kind: string;
  abstract readonly maxInFlight: number;
  /** The framed connection over the stream, once it is open. */
  protected connection: FramedConnection | undefined;
  /** Whether `close()` was called: a close from then on is the owner's, not a failure. */
  protected closeRequested = false;
  /** Settles (never rejects) once `start` has succeeded or failed; undefined before `start`. */
  #startSettled: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** Resolves when the stream is closed (or was never opened). */
  readonly #gone: Promise<void>;
  #resolveGone!: () => void;
  #isGone = false;

  constructor() {
    this.#gone = new Promise<void>((resolve) => (this.#resolveGone = resolve));
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.#startSettled !== undefined) return Promise.reject(startedTwice());
    if (this.closeRequested) return Promise.reject(closed(CLOSED_BEFORE_START));
    const starting = this.open(handlers);
    this.#startSettled = starting.then(ignore, ignore);
    return starting;
  }

  /** Bytes given to `send` that the stream has not written yet (the peer has not read them): 0 before `start`. */
  get bufferedBytes(): number {
    return this.connection?.queuedBytes ?? 0;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.closeRequested) return Promise.reject(closed(NOT_SENT));
    if (this.connection === undefined) return Promise.reject(closed(this.notStarted()));
    return this.connection.send(message);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** Opens the stream and sets {@link connection}; rejects with a TransportUnavailableError saying how to fix it. */
  protected abstract open(handlers: TransportHandlers): Promise<void>;

  /** Ends a stream that is open; resolves once it is gone. */
  protected abstract end(): Promise<void>;

  /** Why `send` failed before `start`. */
  protected abstract notStarted(): string;

  /** Records that the stream is closed, or could not be opened. */
  protected markGone(): void {
    this.#isGone = true;
    this.#resolveGone();
  }

  /** Resolves when the stream is gone. */
  protected get gone(): Promise<void> {
    return this.#gone;
  }

  /** Whether the stream is gone within `ms`. */
  protected goneWithin(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.#gone.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async #shutdown(): Promise<void> {
    this.closeRequested = true;
    if (this.#startSettled === undefined) return; // never started
    await this.#startSettled;
    this.connection?.stopSending();
    if (!this.#isGone) await this.end();
  }
}
