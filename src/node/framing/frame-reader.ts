import { BadFrameError } from "../../errors/error-classes.js";
import type { Framing } from "./encode-frame.js";
import { FrameLimits } from "./frame-limits.js";

/** Limits (in bytes) and the clock of a {@link FrameReader}. */
export interface FrameReaderOptions {
  /** The largest frame body accepted in either framing; default 32 MiB (the daemon's response limit). */
  maxFrameBytes?: number;
  /** The largest newline-delimited body (without its `\n`); default `maxFrameBytes` (the daemon side uses 8192). */
  maxNewlineFrameBytes?: number;
  /** The largest `Content-Length` header line, counting its `\r\n`; default 8192. */
  maxHeaderBytes?: number;
  /** The largest `Content-Length` value; default `maxFrameBytes` (the daemon side uses 4 MiB). */
  maxContentLengthBytes?: number;
  /** The clock behind {@link FrameReader.partialSince}; default `Date.now`. */
  now?: () => number;
  /**
   * Whose reading of the stream this is. `client` (the default) reads what a daemon writes.
   * `daemon` reads requests the way the daemon does (§5): blank lines before a frame count toward
   * its line limit (`maxNewlineFrameBytes`, or `maxHeaderBytes` for a header), the header name is
   * the case-sensitive `Content-Length:`, and a last line without its `\n` is a message when the
   * stream ends.
   */
  side?: "client" | "daemon";
}

/** One decoded message and how it was framed, so that a server can answer in the same framing. */
export interface DecodedFrame {
  /** The parsed JSON value. */
  message: unknown;
  /** The framing it arrived in. */
  framing: Framing;
  /** The size of its JSON body in bytes (without the `\n` or the header). */
  bytes: number;
}

/**
 * An incremental decoder for the daemon's framing (§5): newline-delimited JSON and
 * `Content-Length: N\r\n\r\n<body>` frames, in any mix and however the byte stream is split.
 *
 * Strict like upstream: a decimal length and no other header, exactly one blank line after the
 * header, valid UTF-8, valid JSON. Blank lines between frames are skipped. A bad frame makes
 * `push` throw a {@link BadFrameError} after discarding exactly that frame (a bad line up to and
 * including its `\n`; a bad header up to the next `\n`; an oversized body by skipping its declared
 * length as it arrives, never buffering it). Frames decoded before the bad one in the same call stay
 * queued and come out of the next call: drain with `push(new Uint8Array(0))` until it does not
 * throw. The reader keeps references to the chunks it is given: do not modify a chunk after
 * pushing it.
 */
export interface FrameReader {
  /** Adds bytes and returns the messages completed so far. @throws BadFrameError on a bad frame. */
  push(chunk: Uint8Array): unknown[];
  /** Like `push`, with each message's framing and size. @throws BadFrameError on a bad frame. */
  pushFrames(chunk: Uint8Array): DecodedFrame[];
  /**
   * Declares the end of the stream. Frames it completes stay queued for the next `push`.
   * @throws BadFrameError when an incomplete frame remains (truncated content).
   */
  end(): void;
  /**
   * When (by the reader's clock) the first byte of the current incomplete frame arrived, or
   * `undefined` between frames. The reader has no timers: a transport uses this to enforce "a frame
   * body must arrive within 10 s of its first byte".
   */
  partialSince(): number | undefined;
  /**
   * Gives up on the current incomplete frame (it stalled): its bytes so far are dropped and the rest
   * of it is skipped as it arrives. Returns the error to report, or `undefined` between frames.
   */
  discardPartial(reason: string): BadFrameError | undefined;
  /**
   * The frames decoded before the bad frame the last `push` or `end` threw for, without reading any
   * further: for a reader that stops at the first bad frame rather than reading past it.
   */
  takeDecoded(): DecodedFrame[];
}

/** Creates a {@link FrameReader}. */
export function createFrameReader(options: FrameReaderOptions = {}): FrameReader {
  return new StreamFrameReader(options);
}

/**
 * `reader.pushFrames(chunk)` that reads on past bad frames: each error `pushFrames` throws goes to
 * `onBadFrame` (which may rethrow), and the frames queued around it are collected with empty pushes.
 * Returns every good frame the chunk completed.
 */
export function pushFramesPastErrors(reader: FrameReader, chunk: Uint8Array, onBadFrame: (error: unknown) => void): DecodedFrame[] {
  let input = chunk;
  for (;;) {
    try {
      return reader.pushFrames(input);
    } catch (error) {
      onBadFrame(error);
      input = EMPTY;
    }
  }
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const UPPER_C = 0x43;
const LOWER_C = 0x63;
const HEADER_NAME = /^content-length:/i;
const EXACT_HEADER_NAME = /^Content-Length:/;
const DECIMAL = /^[0-9]+$/;
const OPTIONAL_WHITESPACE = /^[ \t]+|[ \t]+$/g;
const EMPTY = new Uint8Array(0);

/** Fatal: invalid UTF-8 is a bad frame. `ignoreBOM` keeps a byte-order mark, which JSON.parse rejects. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Where the reader is in the stream:
 * `between` frames; collecting a JSON `line` or a `headerLine` (a line that began with `C`/`c`);
 * expecting the `separator` (the blank line after the header); collecting a `body`; or discarding the
 * rest of a bad frame (`skipLine` up to the next `\n`, `skipBody` for `skipRemaining` bytes).
 */
type ReaderMode = "between" | "line" | "headerLine" | "separator" | "body" | "skipLine" | "skipBody";

class StreamFrameReader implements FrameReader {
  readonly #maxNewlineBytes: number;
  readonly #maxHeaderBytes: number;
  readonly #maxContentLength: number;
  readonly #now: () => number;
  readonly #daemonSide: boolean;

  /** Bytes pushed but not yet examined (only non-empty after a bad frame stopped a push). */
  #input: Uint8Array[] = [];
  #inputOffset = 0;
  /** The pieces of the current incomplete line or body, concatenated once when it completes. */
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  /** Decoded frames not yet returned. */
  #ready: DecodedFrame[] = [];
  /** The bad frame found by the current step, thrown once the input position is saved. */
  #failure: BadFrameError | undefined;

  #mode: ReaderMode = "between";
  #since: number | undefined;
  #contentLength = 0;
  #sawSeparatorCarriageReturn = false;
  #skipRemaining = 0;
  /** Daemon side: bytes of the blank lines since the last frame, which count toward the next one's limit. */
  #blankBytes = 0;

  constructor(options: FrameReaderOptions) {
    const maxFrameBytes = options.maxFrameBytes ?? FrameLimits.maxResponseBytes;
    this.#maxNewlineBytes = options.maxNewlineFrameBytes ?? maxFrameBytes;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? FrameLimits.maxHeaderBytes;
    this.#maxContentLength = options.maxContentLengthBytes ?? maxFrameBytes;
    this.#now = options.now ?? Date.now;
    this.#daemonSide = options.side === "daemon";
  }

  push(chunk: Uint8Array): unknown[] {
    return this.pushFrames(chunk).map((frame) => frame.message);
  }

  pushFrames(chunk: Uint8Array): DecodedFrame[] {
    if (chunk.length > 0) this.#input.push(chunk);
    this.#drain();
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  end(): void {
    this.#drain();
    const mode = this.#mode;
    if (mode === "line" && this.#daemonSide) {
      // The daemon takes a last line without its \n as a message.
      const line = this.#takeParts(EMPTY);
      this.#reset();
      this.#decodeLine(line);
      const failure = this.#failure;
      this.#failure = undefined;
      if (failure !== undefined) throw failure;
    } else if (mode === "line" || mode === "headerLine") {
      const blank = this.#parts.every(isBlank);
      const received = this.#partBytes;
      this.#reset();
      if (!blank) throw badFrame(`the stream ended inside a frame: ${received} bytes without the closing \\n`, "newline");
    } else if (mode === "separator" || mode === "body") {
      const received = mode === "body" ? this.#partBytes : 0;
      const declared = this.#contentLength;
      this.#reset();
      throw badFrame(`the stream ended inside a Content-Length frame: ${received} of ${declared} body bytes arrived`, "content-length");
    } else {
      this.#reset();
    }
  }

  partialSince(): number | undefined {
    return this.#since;
  }

  takeDecoded(): DecodedFrame[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  discardPartial(reason: string): BadFrameError | undefined {
    if (this.#since === undefined) return undefined;
    const mode = this.#mode;
    const received = this.#partBytes;
    this.#clearParts();
    this.#since = undefined;
    if (mode === "body") {
      this.#mode = "skipBody";
      this.#skipRemaining = this.#contentLength - received;
      return badFrame(`${reason}: dropped a Content-Length frame after ${received} of ${this.#contentLength} body bytes`, "content-length");
    }
    const framing: Framing = mode === "line" ? "newline" : "content-length";
    this.#mode = "skipLine";
    return badFrame(`${reason}: dropped an incomplete ${mode === "line" ? "line" : "Content-Length header"} of ${received} bytes`, framing);
  }

  /** Examines the pending input; throws the first bad frame after saving the input position. */
  #drain(): void {
    while (this.#input.length > 0) {
      const chunk = this.#input[0]!;
      let at = this.#inputOffset;
      while (at < chunk.length && this.#failure === undefined) at = this.#step(chunk, at);
      if (at >= chunk.length) {
        this.#input.shift();
        this.#inputOffset = 0;
      } else {
        this.#inputOffset = at;
      }
      const failure = this.#failure;
      if (failure !== undefined) {
        this.#failure = undefined;
        throw failure;
      }
    }
  }

  /** Consumes bytes of `chunk` from `at` in the current mode; returns the new position. */
  #step(chunk: Uint8Array, at: number): number {
    switch (this.#mode) {
      case "between":
        return this.#startFrame(chunk, at);
      case "line":
      case "headerLine":
        return this.#collectLine(chunk, at);
      case "separator":
        return this.#expectSeparator(chunk, at);
      case "body":
        return this.#collectBody(chunk, at);
      case "skipLine": {
        const lineFeed = chunk.indexOf(LINE_FEED, at);
        if (lineFeed === -1) return chunk.length;
        this.#mode = "between";
        return lineFeed + 1;
      }
      case "skipBody": {
        const skipped = Math.min(this.#skipRemaining, chunk.length - at);
        this.#skipRemaining -= skipped;
        if (this.#skipRemaining === 0) this.#mode = "between";
        return at + skipped;
      }
    }
  }

  #startFrame(chunk: Uint8Array, at: number): number {
    const first = chunk[at]!;
    if (first === LINE_FEED) {
      // An empty line between frames.
      if (this.#daemonSide) this.#countBlank(1);
      return at + 1;
    }
    this.#since = this.#now();
    this.#mode = first === UPPER_C || (first === LOWER_C && !this.#daemonSide) ? "headerLine" : "line";
    return at;
  }

  /** Daemon side: a blank line of `bytes` (its \n included) before the next frame; too many of them are a bad frame. */
  #countBlank(bytes: number): void {
    this.#blankBytes += bytes;
    if (this.#blankBytes > this.#maxNewlineBytes) {
      this.#blankBytes = 0;
      this.#failure = badFrame(`blank lines before a frame count toward its ${this.#maxNewlineBytes}-byte limit, and they are longer than that`, "newline");
    }
  }

  #collectLine(chunk: Uint8Array, at: number): number {
    const header = this.#mode === "headerLine";
    // A header line's limit counts its `\n`; a JSON line's limit is its body alone.
    const limit = header ? this.#maxHeaderBytes - 1 : this.#maxNewlineBytes;
    const lineFeed = chunk.indexOf(LINE_FEED, at);
    const end = lineFeed === -1 ? chunk.length : lineFeed;
    const lineBytes = this.#partBytes + (end - at);
    if (lineBytes + this.#blankBytes > limit) {
      this.#clearParts();
      this.#since = undefined;
      this.#blankBytes = 0;
      this.#mode = lineFeed === -1 ? "skipLine" : "between";
      this.#failure = header
        ? badFrame(`Content-Length header is longer than ${this.#maxHeaderBytes} bytes`, "content-length")
        : badFrame(`newline-delimited frame is longer than ${this.#maxNewlineBytes} bytes`, "newline");
      return lineFeed === -1 ? chunk.length : lineFeed + 1;
    }
    if (lineFeed === -1) {
      this.#parts.push(chunk.subarray(at));
      this.#partBytes = lineBytes;
      return chunk.length;
    }
    const line = this.#takeParts(chunk.subarray(at, lineFeed));
    this.#mode = "between";
    if (header && (this.#daemonSide ? EXACT_HEADER_NAME : HEADER_NAME).test(asciiText(line, 15))) this.#readHeader(line);
    else this.#decodeLine(line);
    return lineFeed + 1;
  }

  #readHeader(line: Uint8Array): void {
    const text = asciiText(line, line.length);
    if (!text.endsWith("\r")) {
      this.#since = undefined;
      this.#failure = badFrame("Content-Length header line must end with \\r\\n", "content-length");
      return;
    }
    const value = text.slice("content-length:".length, -1).replace(OPTIONAL_WHITESPACE, "");
    if (!DECIMAL.test(value)) {
      this.#since = undefined;
      this.#failure = badFrame(`Content-Length value '${preview(value)}' is not a decimal number`, "content-length");
      return;
    }
    this.#contentLength = Number(value);
    this.#blankBytes = 0;
    this.#sawSeparatorCarriageReturn = false;
    this.#mode = "separator";
  }

  #expectSeparator(chunk: Uint8Array, at: number): number {
    const byte = chunk[at]!;
    if (!this.#sawSeparatorCarriageReturn && byte === CARRIAGE_RETURN) {
      this.#sawSeparatorCarriageReturn = true;
      return at + 1;
    }
    if (this.#sawSeparatorCarriageReturn && byte === LINE_FEED) {
      if (this.#contentLength > this.#maxContentLength) {
        this.#since = undefined;
        this.#mode = "skipBody";
        this.#skipRemaining = this.#contentLength;
        this.#failure = badFrame(`Content-Length ${this.#contentLength} is over the ${this.#maxContentLength}-byte limit`, "content-length");
      } else if (this.#contentLength === 0) {
        // An empty body completes without another byte (and is not valid JSON).
        this.#mode = "between";
        this.#since = undefined;
        this.#decodeBody(EMPTY, "content-length");
      } else {
        this.#mode = "body";
      }
      return at + 1;
    }
    this.#since = undefined;
    this.#mode = "skipLine";
    this.#failure = badFrame("expected exactly one blank line (\\r\\n) after the Content-Length header", "content-length");
    return at;
  }

  #collectBody(chunk: Uint8Array, at: number): number {
    const needed = this.#contentLength - this.#partBytes;
    const available = chunk.length - at;
    if (available < needed) {
      this.#parts.push(chunk.subarray(at));
      this.#partBytes += available;
      return chunk.length;
    }
    const body = this.#takeParts(chunk.subarray(at, at + needed));
    this.#mode = "between";
    this.#since = undefined;
    this.#decodeBody(body, "content-length");
    return at + needed;
  }

  #decodeLine(line: Uint8Array): void {
    this.#since = undefined;
    if (isBlank(line)) {
      if (this.#daemonSide) this.#countBlank(line.length + 1);
      return;
    }
    this.#blankBytes = 0;
    this.#decodeBody(line, "newline");
  }

  #decodeBody(body: Uint8Array, framing: Framing): void {
    const kind = framing === "newline" ? "newline-delimited frame" : "Content-Length body";
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      this.#failure = badFrame(`${kind} is not valid UTF-8`, framing);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.#failure = badFrame(`${kind} is not valid JSON (${error instanceof Error ? error.message : String(error)})`, framing, true);
      return;
    }
    this.#ready.push({ message, framing, bytes: body.length });
  }

  /** The current parts followed by `tail`, concatenated (no copy when `tail` is the whole frame). */
  #takeParts(tail: Uint8Array): Uint8Array {
    if (this.#parts.length === 0) return tail;
    const whole = new Uint8Array(this.#partBytes + tail.length);
    let offset = 0;
    for (const part of this.#parts) {
      whole.set(part, offset);
      offset += part.length;
    }
    whole.set(tail, offset);
    this.#clearParts();
    return whole;
  }

  #clearParts(): void {
    this.#parts = [];
    this.#partBytes = 0;
  }

  #reset(): void {
    this.#clearParts();
    this.#mode = "between";
    this.#since = undefined;
    this.#blankBytes = 0;
  }
}

/**
 * A bad frame; `details.framing` says how it was framed, and `details.invalidJson` marks a frame
 * whose framing was sound but whose body is not JSON (a daemon answers that one with -32700 instead
 * of ending the connection).
 */
function badFrame(message: string, framing: Framing, invalidJson = false): BadFrameError {
  return new BadFrameError({ message, phase: "dispatch", details: invalidJson ? { framing, invalidJson } : { framing } });
}

/** True for a line of spaces, tabs and carriage returns only: a blank line between frames. */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB && byte !== CARRIAGE_RETURN) return false;
  return true;
}

/** The first `length` bytes as text, one character per byte (headers are ASCII). */
function asciiText(bytes: Uint8Array, length: number): string {
  return String.fromCharCode(...bytes.subarray(0, Math.min(length, bytes.length)));
}

function preview(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, "?");
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}
