import type { Readable, Writable } from "node:stream";
import { Buffer } from "node:buffer";
import { BadFrameError, requestInvalid, TransportClosedError } from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import { describeError } from "../errors/redact.js";
import {
  isJsonRpcMessage,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../mcp/json-rpc.js";
import { isJsonObject } from "../validation/json-value.js";
import type { TransportHandlers } from "../transport/transport.js";
import { SlotList } from "../collections/slot-list.js";
import { encodeFrameForStream, type StreamFrame } from "./framing/encode-frame.js";
import { FrameLimits } from "./framing/frame-limits.js";
import {
  createFrameReader,
  pushFramesPastErrors,
  type DecodedFrame,
  type FrameReader,
} from "./framing/frame-reader.js";
import { TransportLimits } from "../transport/transport.js";
import {
  callHandler,
  closed,
  ignore,
  notEncodable,
  peerNotReading,
  reportBadFrame,
} from "../transport/transport-util.js";

/** What a {@link FramedConnection} runs over. */
export interface FramedConnectionOptions {
  /** The bytes from the daemon (a child's stdout, a socket). */
  readable: Readable;
  /** The bytes to the daemon (a child's stdin, the same socket). */
  writable: Writable;
  /** The transport owner's handlers. */
  handlers: TransportHandlers;
  /** A frame must be complete this many milliseconds after its first byte, or it is dropped as bad. */
  frameTimeoutMs: number;
  /** The peer, for messages: "the Glass daemon `glass --mcp`". */
  peer: string;
  /**
   * Ends the stream from this side, after the connection told the owner why (`onClose(error)`): the
   * peer sent a frame past the 32 MiB bound, or its framing can no longer be followed (a frame it
   * declared never ended within the frame timeout, so every later frame would be swallowed).
   */
  abandon(error: GlassError): void;
}

const EMPTY = new Uint8Array(0);
const utf8Length = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * JSON-RPC messages over a pair of Node byte streams (§5): the part the stdio and socket transports
 * share. It writes frames, decodes what arrives (JSON lines and Content-Length frames), reports bad
 * and stalled frames to `onError` and reads on, and ends with `finish`, which calls `onClose`
 * exactly once, rejects unfinished sends and detaches from the streams. Exceptions thrown by the
 * owner's handlers never reach the streams: they are reported asynchronously, as an EventTarget
 * listener's would be.
 *
 * Nothing the peer does makes it hold more than bounded memory: a frame is at most 32 MiB, and one
 * past that (a `Content-Length` over it, or a line that grows past it) ends the connection
 * (`abandon`, `transport.closed` with `details.reason: "frameTooLarge"`) without being kept, since
 * a Glass daemon answers -32001 instead of sending one; a bad frame still being skipped when the
 * frame timeout passes ends it too (`details.framingLost`), since every later frame would be
 * swallowed; and at most 32 MiB of writes wait for a peer that stops reading — a send past that
 * rejects with OverloadedError, unsent.
 *
 * How it frames depends on who the peer turned out to be. Until a server has identified itself as
 * Glass — an answer to an `initialize` sent here whose result carries the `glass` manifest — every
 * message goes as a JSON line, whatever its size: that is all a plain MCP server reads (with no
 * size limit), and an `initialize` always fits the daemon's 8 KiB line. Once the peer is Glass,
 * messages above 8 KiB go with `Content-Length`, as the daemon requires, and a message whose body
 * would exceed the daemon's 4 MiB is refused before it is written (the daemon would drop the whole
 * connection). The bridge's daemon connections learn it the same way, from the initialize they
 * pass through.
 */
export class FramedConnection {
  readonly #readable: Readable;
  readonly #writable: Writable;
  readonly #frameTimeoutMs: number;
  readonly #peer: string;
  readonly #abandon: (error: GlassError) => void;
  readonly #reader: FrameReader = createFrameReader();
  /** Sends not yet written, by slot (a slot list: they churn once per call). */
  readonly #pendingSends = new SlotList<(error: GlassError | undefined) => void>();
  #handlers: TransportHandlers | undefined;
  #acceptingSends = true;
  /** Whether the peer identified itself as a Glass daemon (its initialize result had a `glass` manifest). */
  #glassPeer = false;
  /** Ids of `initialize` requests sent and not yet answered: their answer tells who the peer is. */
  readonly #initializeIds = new Set<JsonRpcId>();
  #finished = false;
  /** Whether the peer has sent a JSON-RPC message yet (before that, text that is not JSON means it does not speak MCP). */
  #heardMcp = false;
  /** The first text that is not JSON in the chunk being read, before any JSON-RPC message: decided once the chunk's frames are delivered. */
  #notMcpCandidate: { error: GlassError; text: string } | undefined;
  /** Bytes handed to the writable whose write has not completed: what waits for the peer to read. */
  #queuedBytes = 0;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  #stallTimerFor: number | undefined;
  #corked = false;
  readonly #uncork = (): void => {
    this.#corked = false;
    this.#writable.uncork();
  };

  constructor(options: FramedConnectionOptions) {
    this.#readable = options.readable;
    this.#writable = options.writable;
    this.#handlers = options.handlers;
    this.#frameTimeoutMs = options.frameTimeoutMs;
    this.#peer = options.peer;
    this.#abandon = options.abandon;
    this.#readable.on("data", this.#onData);
    this.#readable.on("end", this.#onEnd);
    // Write errors (EPIPE after the peer exited) reach the write callbacks; the close follows.
    this.#readable.on("error", ignore);
    this.#writable.on("error", ignore);
  }

  /** Writes one message; resolves when the operating system has it. Never throws synchronously. */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.#acceptingSends)
      return Promise.reject(closed("the transport is closing or closed; the message was not sent"));
    let frame: StreamFrame;
    try {
      frame = encodeFrameForStream(message, this.#glassPeer ? "auto" : "newline", FrameLimits.maxRequestBodyBytes);
    } catch (error) {
      return Promise.reject(notEncodable(error));
    }
    let data: string | Uint8Array;
    if (typeof frame === "string") data = frame;
    else if (frame.frame === undefined) return Promise.reject(tooLarge(frame.bodyBytes, this.#peer));
    else data = frame.frame;
    const bytes = typeof data === "string" ? utf8Length(data) : data.length;
    if (this.#queuedBytes > 0 && this.#queuedBytes + bytes > TransportLimits.maxQueuedSendBytes) {
      return Promise.reject(peerNotReading(this.#peer, this.#queuedBytes, TransportLimits.maxQueuedSendBytes));
    }
    if (isJsonRpcRequest(message) && message.method === "initialize") this.#initializeIds.add(message.id);
    this.#queuedBytes += bytes;
    return new Promise<void>((resolve, reject) => {
      const settle = (error: GlassError | undefined): void => {
        if (!this.#pendingSends.release(slot, settle)) return;
        if (error === undefined) resolve();
        else reject(error);
      };
      const slot = this.#pendingSends.add(settle);
      let counted = true;
      const written = (error?: Error | null): void => {
        if (counted) this.#queuedBytes -= bytes;
        counted = false;
        settle(error ? closed(`could not write to ${this.#peer}: ${error.message}`, error) : undefined);
      };
      try {
        // Frames written in the same tick leave in one system call (writev).
        if (!this.#corked) {
          this.#corked = true;
          this.#writable.cork();
          process.nextTick(this.#uncork);
        }
        if (typeof data === "string") this.#writable.write(data, "utf8", written);
        else this.#writable.write(data, written);
      } catch (error) {
        written(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * Bytes handed to the stream whose write has not completed: what waits for the peer to read
   * (at most 32 MiB, besides one message larger than that).
   */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** Refuses further sends (they reject with TransportClosedError); sends already written may still complete. */
  stopSending(): void {
    this.#acceptingSends = false;
  }

  /**
   * Ends the connection: calls `onClose(error)` (once, however often this is called), rejects sends
   * not yet written, stops the frame timer and detaches from the streams.
   */
  finish(error?: GlassError): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#acceptingSends = false;
    this.#clearStallTimer();
    this.#readable.off("data", this.#onData);
    this.#readable.off("end", this.#onEnd);
    const unsent = closed(
      error === undefined ? "the transport closed before the message was written" : error.rawMessage,
    );
    for (const settle of this.#pendingSends.values()) settle(unsent);
    const handlers = this.#handlers;
    this.#handlers = undefined;
    if (handlers !== undefined) callHandler(() => handlers.onClose(error));
  }

  #onData = (chunk: Uint8Array): void => {
    let frames: DecodedFrame[];
    try {
      frames = pushFramesPastErrors(this.#reader, chunk, (error) => this.#onBadFrame(asBadFrame(error)));
    } catch (error) {
      // A frame past the bound: the frames that came before it are answers, then the connection ends.
      for (const frame of this.#reader.takeDecoded()) this.#deliver(frame.message);
      return this.#refuseOversized(asBadFrame(error));
    }
    for (const frame of frames) this.#deliver(frame.message);
    const notMcp = this.#notMcpCandidate;
    this.#notMcpCandidate = undefined;
    // Decided once the chunk's frames are delivered: a message before the text in the same chunk counts.
    if (notMcp !== undefined) {
      if (!this.#heardMcp) return this.#notMcp(notMcp.error, notMcp.text);
      this.#reportError(notMcp.error);
    }
    this.#armStallTimer();
  };

  /**
   * Reports a bad frame and reads on; rethrows a frame past the size bound, which ends the
   * connection. Text that is not JSON before the peer sent any MCP message ends the connection at
   * once, quoting it: the process is not an MCP server (a daemon started without its MCP mode, a
   * shell script's output), and waiting for an answer would only run into the deadline.
   */
  #onBadFrame(error: GlassError): void {
    const details = isJsonObject(error.details) ? error.details : {};
    if (details.tooLarge === true) throw error;
    if (
      !this.#heardMcp &&
      this.#notMcpCandidate === undefined &&
      details.invalidJson === true &&
      typeof details.text === "string"
    ) {
      this.#notMcpCandidate = { error, text: details.text };
      return;
    }
    this.#reportError(error);
  }

  /** The peer printed `text` instead of MCP before any message: the connection ends, saying what it printed. */
  #notMcp(badFrame: GlassError, text: string): void {
    this.#end(
      badFrame,
      new TransportClosedError({
        message:
          `${this.#peer} printed ${JSON.stringify(text)} where MCP was expected (one JSON-RPC message per line or Content-Length frame): ` +
          "it is not speaking MCP — start the daemon in its MCP mode (glass-browser: `--mcp`), or point the transport at the daemon's socket. The connection was closed",
        details: { reason: "notMcp", printed: text },
        cause: badFrame,
      }),
    );
  }

  #onEnd = (): void => {
    this.#clearStallTimer();
    for (;;) {
      try {
        this.#reader.end();
        break;
      } catch (error) {
        this.#reportError(asBadFrame(error)); // a truncated frame: report it, then finish reading
      }
    }
    for (const frame of this.#reader.pushFrames(EMPTY)) this.#deliver(frame.message);
  };

  #deliver(message: unknown): void {
    const handlers = this.#handlers;
    if (handlers === undefined) return;
    if (!isJsonRpcMessage(message))
      return reportBadFrame(handlers, "the frame holds JSON but not a JSON-RPC 2.0 message object");
    this.#heardMcp = true;
    if (this.#initializeIds.size > 0) this.#learnPeer(message);
    callHandler(() => handlers.onMessage(message));
  }

  /** Reads who the peer is from the answer to an `initialize` sent here: a `glass` manifest means a Glass daemon. */
  #learnPeer(message: JsonRpcMessage): void {
    if (!isJsonRpcResponse(message) || message.id === null || !this.#initializeIds.delete(message.id)) return;
    if ("result" in message && isJsonObject(message.result) && isJsonObject(message.result.glass))
      this.#glassPeer = true;
  }

  #reportError(error: GlassError): void {
    const handlers = this.#handlers;
    if (handlers?.onError !== undefined) callHandler(() => handlers.onError?.(error));
  }

  /** When the frame being read, or the bad frame being skipped, began. */
  #frameSince(): number | undefined {
    return this.#reader.partialSince() ?? this.#reader.skippingSince();
  }

  /**
   * Keeps a timer on the current incomplete frame; a frame still incomplete when it fires is
   * dropped, and a bad frame still being skipped then ends the connection.
   */
  #armStallTimer(): void {
    const since = this.#frameSince();
    if (since === undefined || this.#finished) return this.#clearStallTimer();
    if (this.#stallTimer !== undefined && this.#stallTimerFor === since) return;
    this.#clearStallTimer();
    this.#stallTimerFor = since;
    this.#stallTimer = setTimeout(() => this.#onStall(since), Math.max(0, since + this.#frameTimeoutMs - Date.now()));
    this.#stallTimer.unref?.();
  }

  #onStall(since: number): void {
    this.#stallTimer = undefined;
    this.#stallTimerFor = undefined;
    if (this.#finished) return;
    if (this.#frameSince() === since) {
      const error = this.#reader.discardPartial(
        `no complete frame from ${this.#peer} within ${this.#frameTimeoutMs} ms of its first byte`,
      );
      if (error !== undefined && isJsonObject(error.details) && error.details.framingLost === true)
        return this.#lose(error);
      if (error !== undefined) this.#reportError(error);
    }
    this.#armStallTimer();
  }

  /** The peer's framing is lost: the connection ends (the owner learns why), and the transport closes the stream. */
  #lose(badFrame: GlassError): void {
    this.#end(
      badFrame,
      new TransportClosedError({
        message: `${badFrame.rawMessage}: the connection to ${this.#peer} was closed, since every later answer would be lost (calls in flight may have been carried out)`,
        details: { framingLost: true },
        cause: badFrame,
      }),
    );
  }

  /**
   * The peer sent a frame past the 32 MiB bound on an answer. A Glass daemon never does (it answers
   * -32001 instead, §2), so the peer is broken and the answer that frame held would never come: the
   * connection ends and every call in flight fails at once, rather than each waiting for its
   * deadline.
   */
  #refuseOversized(badFrame: GlassError): void {
    const details = isJsonObject(badFrame.details) ? badFrame.details : {};
    const size =
      typeof details.declaredBytes === "number"
        ? `declared ${details.declaredBytes} bytes`
        : `passed ${typeof details.seenBytes === "number" ? details.seenBytes : "its"} bytes`;
    this.#end(
      badFrame,
      new TransportClosedError({
        message: `${this.#peer} sent a frame that ${size}, past the ${details.maxBytes}-byte bound on an answer (a Glass daemon answers -32001 instead): the connection was closed (calls in flight may have been carried out)`,
        details: { reason: "frameTooLarge", ...details },
        cause: badFrame,
      }),
    );
  }

  /** Ends the connection over a bad frame: reports the frame, tells the owner why, and lets the transport close the stream. */
  #end(badFrame: GlassError, error: GlassError): void {
    this.#reportError(badFrame);
    this.finish(error);
    this.#abandon(error);
  }

  #clearStallTimer(): void {
    if (this.#stallTimer !== undefined) clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    this.#stallTimerFor = undefined;
  }
}

/** The error for a request the daemon would refuse by closing the connection (a body over 4 MiB). */
function tooLarge(bytes: number, peer: string): GlassError {
  return requestInvalid(
    `the message is ${bytes} bytes; ${peer} reads at most ${FrameLimits.maxRequestBodyBytes} bytes per message and would drop the connection: send less (it was not sent)`,
    { details: { bytes, maxBytes: FrameLimits.maxRequestBodyBytes } },
  );
}

function asBadFrame(error: unknown): GlassError {
  return error instanceof GlassError
    ? error
    : new BadFrameError({ message: describeError(error), phase: "dispatch", cause: error });
}
