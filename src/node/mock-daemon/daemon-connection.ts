import type { Readable, Writable } from "node:stream";
import { BadFrameError } from "../../errors/error-classes.js";
import { JsonRpcErrorCode, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import { isJsonObject } from "../../validation/json-value.js";
import { encodeFrame, type Framing } from "../framing/encode-frame.js";
import { FrameLimits } from "../framing/frame-limits.js";
import { createFrameReader, pushFramesPastErrors, type FrameReader } from "../framing/frame-reader.js";
import { rpcError, rpcFailure } from "../../testing/daemon/json-rpc-replies.js";
import type { MockDaemonLimits } from "../../testing/daemon/limits.js";
import type { GarbageKind, SessionConnection } from "../../testing/daemon/mcp-server-session.js";
import { ignore } from "../../transport/transport-util.js";

/** What a {@link DaemonConnection} runs over and reports to. */
export interface DaemonConnectionOptions {
  /** Bytes from the client (stdin, a socket). */
  readable: Readable;
  /** Bytes to the client (stdout, the same socket). */
  writable: Writable;
  /** The daemon's framing limits. */
  limits: MockDaemonLimits;
  /** A message arrived, in this framing. */
  onMessage(message: unknown, framing: Framing): void;
  /** The client's side of the stream ended (EOF, or the socket closed). */
  onEnd(): void;
}

const utf8 = new TextEncoder();

/**
 * The daemon's end of one byte stream (§5): decodes frames with the daemon's request limits
 * (newline ≤ 8 KiB, Content-Length header ≤ 8 KiB and body ≤ 4 MiB), answers a bad frame — or one
 * whose bytes stop arriving for `frameTimeoutMs` — with -32700 (id null) and reads on, and writes
 * each answer in the framing of its request; an answer over the response limit becomes a -32603
 * error. All of the mock daemon's byte-level code is here.
 */
export class DaemonConnection implements SessionConnection {
  readonly #options: DaemonConnectionOptions;
  readonly #reader: FrameReader;
  #lastFraming: Framing = "newline";
  #silenced = false;
  #ended = false;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: DaemonConnectionOptions) {
    this.#options = options;
    const { limits } = options;
    this.#reader = createFrameReader({
      maxNewlineFrameBytes: limits.maxNewlineRequestBytes,
      maxHeaderBytes: limits.maxHeaderBytes,
      maxContentLengthBytes: limits.maxContentLengthBytes,
    });
    options.readable.on("data", this.#onData);
    options.readable.on("end", this.#onEnd);
    options.readable.on("close", this.#onEnd);
    options.readable.on("error", ignore);
    options.writable.on("error", ignore);
  }

  write(message: JsonRpcMessage, framing: Framing | undefined): void {
    const chosen = framing ?? this.#lastFraming;
    let frame = encodeFrame(message, { framing: chosen });
    if (frame.length > this.#options.limits.maxResponseBytes && "id" in message && !("method" in message)) {
      const error = rpcError(JsonRpcErrorCode.InternalError, `the answer is ${frame.length} bytes, over the daemon's ${this.#options.limits.maxResponseBytes}-byte response limit`);
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
    const frame = encodeFrame({ jsonrpc: "2.0", id: "glass-server-partial", method: "ping" }, { framing: this.#lastFraming });
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
  }

  #writeBytes(bytes: Uint8Array): void {
    const { writable } = this.#options;
    if (this.#silenced || this.#ended || writable.destroyed || writable.writableEnded) return;
    writable.write(bytes);
  }

  readonly #onData = (chunk: Uint8Array): void => {
    for (const frame of pushFramesPastErrors(this.#reader, chunk, (error) => this.#reportBadFrame(error))) {
      if (this.#ended) return;
      this.#lastFraming = frame.framing;
      this.#options.onMessage(frame.message, frame.framing);
    }
    this.#watchForStall();
  };

  readonly #onEnd = (): void => {
    if (this.#ended) return;
    this.detach();
    this.#options.onEnd();
  };

  #reportBadFrame(error: unknown): void {
    if (!(error instanceof BadFrameError)) throw error;
    const details = error.details;
    const framing = isJsonObject(details) && (details.framing === "newline" || details.framing === "content-length") ? details.framing : this.#lastFraming;
    this.write(rpcFailure(null, rpcError(JsonRpcErrorCode.ParseError, `parse error: ${error.rawMessage}`)), framing);
  }

  /** Arms a timer for the incomplete frame, if there is one: it must be whole `frameTimeoutMs` after its first byte. */
  #watchForStall(): void {
    const since = this.#reader.partialSince();
    this.#clearStallTimer();
    if (since === undefined || this.#ended) return;
    const timeoutMs = this.#options.limits.frameTimeoutMs;
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      if (this.#reader.partialSince() !== since) return this.#watchForStall();
      const error = this.#reader.discardPartial(`the frame did not arrive within ${timeoutMs} ms of its first byte`);
      if (error !== undefined) this.#reportBadFrame(error);
    }, Math.max(0, since + timeoutMs - Date.now()));
    this.#stallTimer.unref?.();
  }

  #clearStallTimer(): void {
    if (this.#stallTimer !== undefined) clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }
}

/**
 * One frame whose body is a byte over the protocol's 32 MiB response limit (§5): a response to an
 * id no client used, padded with spaces (still valid JSON), newline-delimited or with Content-Length.
 */
function oversizedFrame(framing: Framing): Uint8Array {
  const size = FrameLimits.maxResponseBytes + 1;
  const json = utf8.encode('{"jsonrpc":"2.0","id":"mock-oversized","result":{"content":[{"type":"text","text":"{}"}]}}');
  const header = framing === "content-length" ? utf8.encode(`Content-Length: ${size}\r\n\r\n`) : new Uint8Array(0);
  const frame = new Uint8Array(header.length + size + (framing === "newline" ? 1 : 0)).fill(0x20);
  frame.set(header, 0);
  frame.set(json, header.length);
  if (framing === "newline") frame[frame.length - 1] = 0x0a;
  return frame;
}
