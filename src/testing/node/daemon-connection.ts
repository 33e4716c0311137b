import { BadFrameError } from "../../errors/error-classes.js";
import { JsonRpcErrorCode, type Framing } from "../../mcp/json-rpc.js";
import { encodeFrame } from "../../node/framing/encode-frame.js";
import { FrameLimits } from "../../node/framing/frame-limits.js";
import { createDaemonFrameReader, type DecodedFrame, type FrameReader } from "../../node/framing/frame-reader.js";
import { rpcError, rpcFailure, type DaemonMessage } from "../../mock-daemon/json-rpc-replies.js";
import type { MockDaemonLimits } from "../../mock-daemon/limits.js";
import type { GarbageKind, SessionConnection } from "../../mock-daemon/mcp-server-session.js";
import { ignore } from "../../transport/transport-util.js";
import { isJsonObject } from "../../validation/json-value.js";
import type { ReadableByteStream, WritableByteStream } from "./byte-streams.js";

/** What a {@link DaemonConnection} runs over and reports to. */
export interface DaemonConnectionOptions {
  /** Bytes from the client (stdin, a socket). */
  readable: ReadableByteStream;
  /** Bytes to the client (stdout, the same socket). */
  writable: WritableByteStream;
  /** The daemon's framing limits. */
  limits: MockDaemonLimits;
  /** A message arrived, in this framing. */
  onMessage(message: unknown, framing: Framing): void;
  /**
   * The connection is over: the client's side ended (EOF, or the socket closed), or — `violation`
   * saying why — the client broke the framing rules and the daemon ended it.
   */
  onEnd(violation?: string): void;
}

const utf8 = new TextEncoder();

/**
 * The daemon's end of one byte stream (§5). It reads requests as the daemon does: newline-delimited
 * JSON (a line and the blank lines before it at most 8192 bytes with its \n, CRLF accepted,
 * whitespace-only lines skipped, a last line without \n taken at EOF) or `Content-Length` frames
 * (header ≤ 8 KiB and the only header, body ≤ 4 MiB). Any framing violation — an oversized line,
 * header or body, a malformed or second header, invalid UTF-8, a frame not complete
 * `frameTimeoutMs` after its first byte — ends the connection with no reply, and calls in flight
 * are never answered. A well-framed body that is not JSON is answered -32700 (id null). Each
 * answer goes out in the framing of its request; one over the response limit becomes a -32001
 * error for the same id. Flow control as the daemon's: while a client does not take its answers
 * (the stream's buffer is full), the daemon stops reading its requests, so what a client that never
 * reads can make it hold is bounded. All of the mock daemon's byte-level code is here.
 */
export class DaemonConnection implements SessionConnection {
  readonly #options: DaemonConnectionOptions;
  readonly #reader: FrameReader;
  #lastFraming: Framing = "newline";
  #silenced = false;
  #ended = false;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reading is paused until the client takes the answers written so far. */
  #waitingForDrain = false;

  constructor(options: DaemonConnectionOptions) {
    this.#options = options;
    const { limits } = options;
    this.#reader = createDaemonFrameReader({
      // The limit counts the line's \n; the reader's counts the body alone.
      maxNewlineFrameBytes: limits.maxNewlineRequestBytes - 1,
      maxHeaderBytes: limits.maxHeaderBytes,
      maxContentLengthBytes: limits.maxContentLengthBytes,
    });
    options.readable.on("data", this.#onData);
    options.readable.on("end", this.#onEnd);
    options.readable.on("close", this.#onEnd);
    options.readable.on("error", ignore);
    options.writable.on("error", ignore);
  }

  write(message: DaemonMessage, framing: Framing | undefined): void {
    const chosen = framing ?? this.#lastFraming;
    let frame = encodeFrame(message, { framing: chosen });
    const { maxResponseBytes } = this.#options.limits;
    if (
      frame.length > maxResponseBytes &&
      "id" in message &&
      !("method" in message) &&
      bodyBytes(frame, chosen) > maxResponseBytes
    ) {
      const error = rpcError(
        JsonRpcErrorCode.ResponseTooLarge,
        `the answer is ${bodyBytes(frame, chosen)} bytes, over the daemon's ${maxResponseBytes}-byte response limit`,
      );
      frame = encodeFrame(rpcFailure(message.id, error), { framing: chosen });
    }
    this.#writeBytes(frame);
  }

  writeGarbage(kind: GarbageKind): void {
    if (kind === "malformedFrame") {
      this.#writeBytes(utf8.encode('{"jsonrpc":"2.0","id": this is not JSON}\n'));
      return;
    }
    if (kind === "oversizedFrame") {
      this.#writeBytes(oversizedFrame(this.#lastFraming));
      return;
    }
    const frame = encodeFrame(
      { jsonrpc: "2.0", id: "glass-server-partial", method: "ping" },
      { framing: this.#lastFraming },
    );
    this.#writeBytes(frame.subarray(0, Math.floor(frame.length / 2)));
    this.#silenced = true;
  }

  /** Stops reading and writing (the stream itself is left to its owner). */
  detach(): void {
    this.#ended = true;
    this.#clearStallTimer();
    const { readable } = this.#options;
    readable.off("data", this.#onData);
    readable.off("end", this.#onEnd);
    readable.off("close", this.#onEnd);
    this.#options.writable.off("drain", this.#onDrain);
  }

  #writeBytes(bytes: Uint8Array): void {
    const { readable, writable } = this.#options;
    if (this.#silenced || this.#ended || writable.destroyed || writable.writableEnded) return;
    if (writable.write(bytes) || this.#waitingForDrain) return;
    // Backpressure: read no more requests until the client has taken these answers.
    this.#waitingForDrain = true;
    readable.pause();
    writable.once("drain", this.#onDrain);
  }

  readonly #onDrain = (): void => {
    this.#waitingForDrain = false;
    if (!this.#ended) this.#options.readable.resume();
  };

  readonly #onData = (chunk: Uint8Array): void => {
    let input = chunk;
    while (!this.#ended) {
      let frames: DecodedFrame[];
      let bad: BadFrameError | undefined;
      try {
        frames = this.#reader.pushFrames(input);
      } catch (error) {
        if (!(error instanceof BadFrameError)) throw error;
        frames = this.#reader.takeDecoded();
        bad = error;
      }
      this.#deliver(frames);
      if (bad === undefined) return this.#watchForStall();
      if (!isInvalidJson(bad)) return this.#finish(bad.rawMessage);
      // A well-framed body that is not JSON: -32700 (id null), and the reading goes on.
      this.write(
        rpcFailure(null, rpcError(JsonRpcErrorCode.ParseError, `parse error: ${bad.rawMessage}`)),
        framingOf(bad),
      );
      input = EMPTY;
    }
  };

  /** The client's side ended: a last line without its \n is still a message; half a frame is a violation. */
  readonly #onEnd = (): void => {
    if (this.#ended) return;
    let bad: BadFrameError | undefined;
    try {
      this.#reader.end();
    } catch (error) {
      if (!(error instanceof BadFrameError)) throw error;
      bad = error;
    }
    this.#deliver(this.#reader.takeDecoded());
    if (bad !== undefined && isInvalidJson(bad)) {
      this.write(
        rpcFailure(null, rpcError(JsonRpcErrorCode.ParseError, `parse error: ${bad.rawMessage}`)),
        framingOf(bad),
      );
      bad = undefined;
    }
    this.#finish(bad?.rawMessage);
  };

  #deliver(frames: readonly DecodedFrame[]): void {
    for (const frame of frames) {
      if (this.#ended) return;
      this.#lastFraming = frame.framing;
      this.#options.onMessage(frame.message, frame.framing);
    }
  }

  /** Ends the connection once; after a violation nothing more is written to it. */
  #finish(violation: string | undefined): void {
    if (this.#ended) return;
    if (violation !== undefined) this.#silenced = true;
    this.detach();
    this.#options.onEnd(violation);
  }

  /** Arms a timer for the incomplete frame, if there is one: it must be whole `frameTimeoutMs` after its first byte. */
  #watchForStall(): void {
    const since = this.#reader.partialSince();
    this.#clearStallTimer();
    if (since === undefined || this.#ended) return;
    const timeoutMs = this.#options.limits.frameTimeoutMs;
    this.#stallTimer = setTimeout(
      () => {
        this.#stallTimer = undefined;
        if (this.#reader.partialSince() !== since) return this.#watchForStall();
        this.#finish(`the frame did not arrive within ${timeoutMs} ms of its first byte`);
      },
      Math.max(0, since + timeoutMs - Date.now()),
    );
    this.#stallTimer.unref?.();
  }

  #clearStallTimer(): void {
    if (this.#stallTimer !== undefined) clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }
}

const EMPTY = new Uint8Array(0);

/** Whether a bad frame was sound framing around a body that is not JSON (answered -32700, not a violation). */
function isInvalidJson(error: BadFrameError): boolean {
  return isJsonObject(error.details) && error.details.invalidJson === true;
}

/** The framing a bad frame arrived in. */
function framingOf(error: BadFrameError): Framing {
  return isJsonObject(error.details) && error.details.framing === "content-length" ? "content-length" : "newline";
}

/** The size of a frame's JSON body: without its \n, or without its Content-Length header. */
function bodyBytes(frame: Uint8Array, framing: Framing): number {
  if (framing === "newline") return frame.length - 1;
  return frame.length - (frame.indexOf(0x0a, frame.indexOf(0x0a) + 1) + 1);
}

/**
 * One frame whose body is a byte over the protocol's 32 MiB response limit (§5): a response to an
 * id no client used, padded with spaces (still valid JSON), newline-delimited or with Content-Length.
 */
function oversizedFrame(framing: Framing): Uint8Array {
  const size = FrameLimits.maxResponseBytes + 1;
  const json = utf8.encode(
    '{"jsonrpc":"2.0","id":"mock-oversized","result":{"content":[{"type":"text","text":"{}"}]}}',
  );
  const header = framing === "content-length" ? utf8.encode(`Content-Length: ${size}\r\n\r\n`) : new Uint8Array(0);
  const frame = new Uint8Array(header.length + size + (framing === "newline" ? 1 : 0)).fill(0x20);
  frame.set(header, 0);
  frame.set(json, header.length);
  if (framing === "newline") frame[frame.length - 1] = 0x0a;
  return frame;
}
