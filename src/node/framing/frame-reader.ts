import { BadFrameError } from "../../errors/error-classes.js";
import { describeError } from "../../errors/redact.js";
import type { Framing } from "../../mcp/json-rpc.js";
import { FrameLimits } from "./frame-limits.js";

/** Limits (in bytes) and the clock of a {@link FrameReader}. */
export interface FrameReaderOptions {
  /** The largest frame body accepted in either framing; default 32 MiB (the daemon's response limit). */
  maxFrameBytes?: number;
  /** The largest newline-delimited body (without its `\n`); default `maxFrameBytes` (the daemon's own limit for requests is 8192). */
  maxNewlineFrameBytes?: number;
  /** The largest `Content-Length` header line, counting its `\r\n`; default 8192. */
  maxHeaderBytes?: number;
  /** The largest `Content-Length` value; default `maxFrameBytes` (the daemon's own limit for requests is 4 MiB). */
  maxContentLengthBytes?: number;
  /** The clock behind {@link FrameReader.partialSince}; default `Date.now`. */
  now?: () => number;
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
 * length as it arrives, never buffering it). An oversized frame's error says so in
 * `details.tooLarge` (with its size and the limit): a client ends the connection on it (§5). Frames decoded before the bad one in the same call stay
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
   * When (by the reader's clock) the skip of a bad frame's rest began, or `undefined` when nothing is
   * being skipped: the frame's first byte for an oversized frame, else the first byte skipped after
   * {@link discardPartial}. A skip lasts until the frame's declared end (or the line's `\n`), so a
   * peer that declares more than it sends (`Content-Length: 1099511627776`) would have every later
   * frame swallowed: a transport ends the connection when a skip outlasts its frame timeout, as the
   * daemon ends one whose frame is not complete 10 s after its first byte.
   */
  skippingSince(): number | undefined;
  /**
   * Gives up on the current incomplete frame (it stalled): its bytes so far are dropped and the rest
   * of it is skipped as it arrives. Returns the error to report, or `undefined` between frames.
   * Called while a skip is under way ({@link skippingSince}), it returns an error whose
   * `details.framingLost` is true: the reader cannot tell where the next frame begins, and the
   * connection must end.
   */
  discardPartial(reason: string): BadFrameError | undefined;
  /**
   * The frames decoded before the bad frame the last `push` or `end` threw for, without reading any
   * further: for a reader that stops at the first bad frame rather than reading past it.
   */
  takeDecoded(): DecodedFrame[];
}

/** Creates a {@link FrameReader}: a client's, reading what a daemon writes. */
export function createFrameReader(options: FrameReaderOptions = {}): FrameReader {
  return new StreamFrameReader(options, false);
}

/**
 * Creates the {@link FrameReader} of a daemon's end of a stream: it reads requests the way the
 * daemon does (§5). Blank lines before a frame count toward its line limit (`maxNewlineFrameBytes`,
 * or `maxHeaderBytes` for a header), the header name is the case-sensitive `Content-Length:`, and a
 * last line without its `\n` is a message when the stream ends. For the mock daemon
 * (src/testing/node/daemon-connection.ts): no entry point exports it.
 */
export function createDaemonFrameReader(options: FrameReaderOptions = {}): FrameReader {
  return new StreamFrameReader(options, true);
}

/**
 * `reader.pushFrames(chunk)` that reads on past bad frames: each error `pushFrames` throws goes to
 * `onBadFrame` (which may rethrow), and the frames queued around it are collected with empty pushes.
 * Returns every good frame the chunk completed.
 */
export function pushFramesPastErrors(
  reader: FrameReader,
  chunk: Uint8Array,
  onBadFrame: (error: unknown) => void,
): DecodedFrame[] {
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
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
const HEADER_NAME = /^content-length:$/i;
const EXACT_HEADER_NAME = "Content-Length:";
const HEADER_NAME_BYTES = EXACT_HEADER_NAME.length;
/** At most this many characters of a bad header value are quoted. */
const PREVIEW_CHARS = 40;

/** How much of a frame that is not JSON is kept to quote (what a process printed instead of MCP). */
const TEXT_PREVIEW_CHARS = 160;
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
  /** When the current skip began (see {@link FrameReader.skippingSince}); `undefined` until its first byte. */
  #skipSince: number | undefined;
  /** Daemon side: bytes of the blank lines since the last frame, which count toward the next one's limit. */
  #blankBytes = 0;

  /** `daemonSide`: read requests as the daemon does (see {@link createDaemonFrameReader}). */
  constructor(options: FrameReaderOptions, daemonSide: boolean) {
    const maxFrameBytes = options.maxFrameBytes ?? FrameLimits.maxResponseBytes;
    this.#maxNewlineBytes = options.maxNewlineFrameBytes ?? maxFrameBytes;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? FrameLimits.maxHeaderBytes;
    this.#maxContentLength = options.maxContentLengthBytes ?? maxFrameBytes;
    this.#now = options.now ?? Date.now;
    this.#daemonSide = daemonSide;
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
      if (!blank)
        throw badFrame(`the stream ended inside a frame: ${received} bytes without the closing \\n`, "newline");
    } else if (mode === "separator" || mode === "body") {
      const received = mode === "body" ? this.#partBytes : 0;
      const declared = this.#contentLength;
      this.#reset();
      throw badFrame(
        `the stream ended inside a Content-Length frame: ${received} of ${declared} body bytes arrived`,
        "content-length",
      );
    } else {
      this.#reset();
    }
  }

  partialSince(): number | undefined {
    return this.#since;
  }

  skippingSince(): number | undefined {
    return this.#skipSince;
  }

  takeDecoded(): DecodedFrame[] {
    const ready = this.#ready;
    this.#ready = [];
    return ready;
  }

  discardPartial(reason: string): BadFrameError | undefined {
    const mode = this.#mode;
    if ((mode === "skipBody" || mode === "skipLine") && this.#skipSince !== undefined) {
      // The skip goes on (nothing else can be done with the bytes), but the stream is lost.
      this.#skipSince = undefined;
      const what =
        mode === "skipBody"
          ? `the rest of a Content-Length frame (${this.#skipRemaining} bytes it declared are still to come)`
          : "the rest of a bad line (its \\n has not come)";
      return new BadFrameError({
        message: `${reason}: still skipping ${what}; the frames after it cannot be told apart`,
        phase: "dispatch",
        details: { framing: mode === "skipBody" ? "content-length" : "newline", framingLost: true },
      });
    }
    if (this.#since === undefined) return undefined;
    const received = this.#partBytes;
    this.#clearParts();
    this.#since = undefined;
    if (mode === "body") {
      this.#mode = "skipBody";
      this.#skipRemaining = this.#contentLength - received;
      return badFrame(
        `${reason}: dropped a Content-Length frame after ${received} of ${this.#contentLength} body bytes`,
        "content-length",
      );
    }
    const framing: Framing = mode === "line" ? "newline" : "content-length";
    this.#mode = "skipLine";
    return badFrame(
      `${reason}: dropped an incomplete ${mode === "line" ? "line" : "Content-Length header"} of ${received} bytes`,
      framing,
    );
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
        this.#skipSince ??= this.#now();
        const lineFeed = chunk.indexOf(LINE_FEED, at);
        if (lineFeed === -1) return chunk.length;
        this.#endSkip();
        return lineFeed + 1;
      }
      case "skipBody": {
        this.#skipSince ??= this.#now();
        const skipped = Math.min(this.#skipRemaining, chunk.length - at);
        this.#skipRemaining -= skipped;
        if (this.#skipRemaining === 0) this.#endSkip();
        return at + skipped;
      }
    }
  }

  /** Skips the rest of the current frame from now on; `since` is when its first byte came, if it did. */
  #startSkip(mode: "skipLine" | "skipBody", since: number | undefined): void {
    this.#mode = mode;
    this.#skipSince = since;
    this.#since = undefined;
  }

  #endSkip(): void {
    this.#mode = "between";
    this.#skipSince = undefined;
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
      this.#failure = badFrame(
        `blank lines before a frame count toward its ${this.#maxNewlineBytes}-byte limit, and they are longer than that`,
        "newline",
      );
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
      this.#blankBytes = 0;
      if (lineFeed === -1) this.#startSkip("skipLine", this.#since);
      else {
        this.#mode = "between";
        this.#since = undefined;
      }
      this.#failure = header
        ? badFrame(`Content-Length header is longer than ${this.#maxHeaderBytes} bytes`, "content-length")
        : badFrame(`newline-delimited frame is longer than ${this.#maxNewlineBytes} bytes`, "newline", {
            tooLarge: true,
            seenBytes: lineBytes,
            maxBytes: this.#maxNewlineBytes,
          });
      return lineFeed === -1 ? chunk.length : lineFeed + 1;
    }
    if (lineFeed === -1) {
      this.#parts.push(chunk.subarray(at));
      this.#partBytes = lineBytes;
      return chunk.length;
    }
    const line = this.#takeParts(chunk.subarray(at, lineFeed));
    this.#mode = "between";
    if (header && this.#isHeaderName(line)) this.#readHeader(line);
    else this.#decodeLine(line);
    return lineFeed + 1;
  }

  /** Whether a line starts with the header name (any case on the client side, exact on the daemon side). */
  #isHeaderName(line: Uint8Array): boolean {
    if (line.length < HEADER_NAME_BYTES) return false;
    const name = latin1(line, 0, HEADER_NAME_BYTES);
    return this.#daemonSide ? name === EXACT_HEADER_NAME : HEADER_NAME.test(name);
  }

  /**
   * Reads `Content-Length: <digits>\r` with optional spaces and tabs around the digits. One pass
   * over the bytes, no regular expression on the value: a header of 8 KiB of spaces costs what its
   * length costs, never its square.
   */
  #readHeader(line: Uint8Array): void {
    if (line[line.length - 1] !== CARRIAGE_RETURN) {
      this.#since = undefined;
      this.#failure = badFrame("Content-Length header line must end with \\r\\n", "content-length");
      return;
    }
    let start = HEADER_NAME_BYTES;
    let end = line.length - 1;
    while (start < end && isOptionalWhitespace(line[start]!)) start++;
    while (end > start && isOptionalWhitespace(line[end - 1]!)) end--;
    let digits = start < end;
    for (let index = start; digits && index < end; index++)
      digits = line[index]! >= DIGIT_ZERO && line[index]! <= DIGIT_NINE;
    if (!digits) {
      this.#since = undefined;
      this.#failure = badFrame(
        `Content-Length value '${preview(line, start, end)}' is not a decimal number`,
        "content-length",
      );
      return;
    }
    this.#contentLength = Number(latin1(line, start, end));
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
        this.#startSkip("skipBody", this.#since);
        this.#skipRemaining = this.#contentLength;
        this.#failure = badFrame(
          `Content-Length ${this.#contentLength} is over the ${this.#maxContentLength}-byte limit`,
          "content-length",
          {
            tooLarge: true,
            declaredBytes: this.#contentLength,
            maxBytes: this.#maxContentLength,
          },
        );
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
    this.#startSkip("skipLine", this.#since);
    this.#failure = badFrame(
      "expected exactly one blank line (\\r\\n) after the Content-Length header",
      "content-length",
    );
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
      this.#failure = badFrame(`${kind} is not valid JSON (${describeError(error)})`, framing, {
        invalidJson: true,
        text: preview(body, 0, body.length, TEXT_PREVIEW_CHARS),
      });
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
    this.#skipSince = undefined;
    this.#blankBytes = 0;
  }
}

/**
 * A bad frame; `details.framing` says how it was framed. `details.invalidJson` marks a frame whose
 * framing was sound but whose body is not JSON (a daemon answers that one with -32700 instead of
 * ending the connection); `details.tooLarge` a frame past the size limit, with the length it
 * declared (`declaredBytes`, Content-Length) or the bytes seen before its line passed the limit
 * (`seenBytes`, newline), and the limit (`maxBytes`).
 */
function badFrame(message: string, framing: Framing, more: FrameProblem = {}): BadFrameError {
  return new BadFrameError({ message, phase: "dispatch", details: { framing, ...more } });
}

/** What a bad frame's details say besides its framing. */
interface FrameProblem {
  invalidJson?: true;
  /** The beginning of a frame that is not JSON, printable ASCII (anything else as `?`). */
  text?: string;
  tooLarge?: true;
  declaredBytes?: number;
  seenBytes?: number;
  maxBytes?: number;
}

/** True for a line of spaces, tabs and carriage returns only: a blank line between frames. */
function isBlank(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB && byte !== CARRIAGE_RETURN) return false;
  return true;
}

function isOptionalWhitespace(byte: number): boolean {
  return byte === SPACE || byte === TAB;
}

/** Bytes `start` to `end` as text, one character per byte (headers are ASCII). */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = "";
  // In slices: a spread of a long header's bytes as arguments would overflow the stack.
  for (let at = start; at < end; at += 4096)
    text += String.fromCharCode(...bytes.subarray(at, Math.min(end, at + 4096)));
  return text;
}

/** The start of a bad header value, printable (other bytes shown as `?`), at most {@link PREVIEW_CHARS} characters. */
function preview(bytes: Uint8Array, start: number, end: number, chars = PREVIEW_CHARS): string {
  let shown = "";
  for (let index = start; index < end && index < start + chars; index++) {
    const byte = bytes[index]!;
    shown += byte >= 0x20 && byte <= 0x7e ? String.fromCharCode(byte) : "?";
  }
  return end - start > chars ? `${shown}…` : shown;
}
