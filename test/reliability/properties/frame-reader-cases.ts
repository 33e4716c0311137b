/**
 * The frame reader's properties (protocol page §5), run by frame-reader-worker.mjs in a worker
 * thread so that a reader that hangs (a synchronous loop inside `push`) fails its test with the
 * case it hung on instead of freezing the suite. Plain `node:assert`, no vitest: this module runs
 * outside the test runner.
 *
 * **What "the next valid frame" means.** The reader resynchronises at line feeds, except inside a
 * Content-Length body, whose length it trusts. Precisely (frame-reader.ts): between frames, line
 * feeds are skipped and any other byte starts a line; a line ends at its `\n`, whether it is good,
 * bad, too long or binary. A line that begins with `C`/`c`, is at most `maxHeaderBytes - 1` bytes
 * and reads `content-length:` (any case), optional spaces/tabs, decimal digits, optional spaces/
 * tabs and `\r`, is a header: the reader then expects exactly `\r\n`; if it gets them, the next N
 * bytes are the body (decoded, or skipped unbuffered when N is over the limit) and the reader is
 * between frames right after them; if it gets anything else, it discards up to and including the
 * next `\n`. {@link readerStateAfter} is that rule as a whole-buffer scan. So after junk `J`
 * followed by `\n`, a following newline frame `F` is decoded exactly when the scan of `J + "\n"`
 * ends between frames; when it ends expecting the blank line, `F` is discarded as the bad
 * separator's line and the frame after it is decoded; when it ends inside a body with R bytes to go,
 * the first R bytes that follow are that body and the frame after them is decoded.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { BadFrameError } from "../../../src/errors/error-classes.js";
import type { Framing } from "../../../src/mcp/json-rpc.js";
import { encodeFrame } from "../../../src/node/framing/encode-frame.js";
import { FrameLimits } from "../../../src/node/framing/frame-limits.js";
import {
  createFrameReader,
  type DecodedFrame,
  type FrameReader,
  type FrameReaderOptions,
} from "../../../src/node/framing/frame-reader.js";

/** A single push (or end()) taking longer than this counts as a hang. */
export const PUSH_BUDGET_MS = 1_000;

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = new Uint8Array(0);
const utf8 = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Feeding a reader the way a transport does.

export interface FeedOutcome {
  frames: DecodedFrame[];
  errors: BadFrameError[];
}

function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : `${typeof error} ${String(error)}`;
  } catch {
    return Object.prototype.toString.call(error);
  }
}

function timed<T>(what: string, action: () => T): T {
  const started = performance.now();
  try {
    return action();
  } finally {
    const elapsed = performance.now() - started;
    if (elapsed > PUSH_BUDGET_MS) {
      // biome-ignore lint/correctness/noUnsafeFinally: over budget fails the case whatever the action did
      throw new Error(`${what} took ${Math.round(elapsed)} ms (budget ${PUSH_BUDGET_MS} ms)`);
    }
  }
}

/**
 * Pushes each chunk; after a BadFrameError, drains with empty pushes until one returns (each bad
 * frame throws once, so a chunk can cause at most one error per byte plus one for a pending header).
 * Anything thrown other than a BadFrameError fails the property.
 */
export function feed(reader: FrameReader, chunks: Iterable<Uint8Array>, discardEvery = 0): FeedOutcome {
  const frames: DecodedFrame[] = [];
  const errors: BadFrameError[] = [];
  let count = 0;
  for (const chunk of chunks) {
    let input = chunk;
    for (let attempt = 0; ; attempt++) {
      if (attempt > chunk.length + 2)
        throw new Error(`push keeps throwing after ${attempt} drains of a ${chunk.length}-byte chunk: no progress`);
      try {
        frames.push(...timed("push", () => reader.pushFrames(input)));
        break;
      } catch (error) {
        if (!(error instanceof BadFrameError))
          throw new Error(`push threw ${describeThrown(error)}, not a BadFrameError`);
        errors.push(error);
        input = EMPTY;
      }
    }
    count++;
    if (discardEvery > 0 && count % discardEvery === 0) {
      // What a transport does when a frame stalls for 10 s.
      const dropped = reader.discardPartial("stalled");
      if (dropped !== undefined && !(dropped instanceof BadFrameError))
        throw new Error("discardPartial returned something other than a BadFrameError");
    }
  }
  return { frames, errors };
}

/** Calls end(); only a BadFrameError may come out of it. */
function endStream(reader: FrameReader): BadFrameError | undefined {
  try {
    timed("end()", () => reader.end());
    return undefined;
  } catch (error) {
    if (!(error instanceof BadFrameError)) throw new Error(`end() threw ${describeThrown(error)}, not a BadFrameError`);
    return error;
  }
}

// ---------------------------------------------------------------------------------------------
// Chunkings.

/** How a stream is cut: at arbitrary points, or every `size` bytes. */
export type Chunking = { cuts: number[] } | { every: number };

export const chunking: fc.Arbitrary<Chunking> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.nat(), { maxLength: 40 }).map((cuts) => ({ cuts })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 97 }).map((every) => ({ every })) },
);

export function chunk(stream: Uint8Array, how: Chunking): Uint8Array[] {
  if ("every" in how) {
    const size = Math.max(how.every, Math.ceil(stream.length / 4_000)); // at most ~4,000 pushes
    const chunks: Uint8Array[] = [];
    for (let offset = 0; offset < stream.length; offset += size) chunks.push(stream.subarray(offset, offset + size));
    return chunks;
  }
  const points = [...new Set(how.cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, stream.length]) {
    chunks.push(stream.subarray(from, point)); // empty chunks included: they must be harmless
    from = point;
  }
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// Valid messages and streams.

const bigText = fc
  .tuple(fc.integer({ min: 8_000, max: 40_000 }), fc.constantFrom("a", "é", "猫", "😀", '"\\\n', "\u2028", "\u0000"))
  .map(([bytes, unit]) => unit.repeat(Math.ceil(bytes / utf8.encode(JSON.stringify(unit)).length)));

/** A JSON message: any JSON (Unicode, lone surrogates), MCP-shaped, or above 8 KiB. */
export const message: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }) },
  {
    weight: 3,
    arbitrary: fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.oneof(fc.integer(), fc.string({ unit: "grapheme" })),
      method: fc.string(),
      params: fc.jsonValue({ maxDepth: 2, stringUnit: "grapheme" }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: bigText.map((text) => ({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text }] } })),
  },
);

type FramingChoice = "auto" | Framing;

export interface EncodedMessage {
  message: unknown;
  framing: FramingChoice;
  /** Blank lines written after the frame. */
  separator: string;
}

export const encodedMessage: fc.Arbitrary<EncodedMessage> = fc.record({
  message,
  framing: fc.constantFrom<FramingChoice>("auto", "auto", "newline", "content-length"),
  separator: fc.constantFrom("", "", "", "\n", "\r\n", " \t\r\n", "\n\n"),
});

/** The stream's bytes and the frames a reader must decode from it. */
export function encodeStream(items: EncodedMessage[]): { stream: Uint8Array; expected: DecodedFrame[] } {
  const parts: Uint8Array[] = [];
  const expected: DecodedFrame[] = [];
  for (const item of items) {
    const json = JSON.stringify(item.message);
    const body = utf8.encode(json).length;
    parts.push(encodeFrame(item.message, { framing: item.framing }), utf8.encode(item.separator));
    const framing: Framing =
      item.framing === "auto"
        ? body <= FrameLimits.maxNewlineRequestBytes
          ? "newline"
          : "content-length"
        : item.framing;
    expected.push({ message: JSON.parse(json) as unknown, framing, bytes: body });
  }
  return { stream: concat(parts), expected };
}

/** The frame a reader must decode after junk; small enough for every reader configuration used. */
export const NEXT = { jsonrpc: "2.0", id: "next", method: "ping" };
const NEXT_FRAME = encodeFrame(NEXT, { framing: "newline" });

// ---------------------------------------------------------------------------------------------
// Junk.

const FRAGMENTS = [
  "Content-Length: ",
  "content-length:",
  "CONTENT-LENGTH:\t",
  "Content-Length:  ",
  "Content-Lengthy: 3",
  "Content-Type: json",
  "\r\n",
  "\r",
  "\n",
  "\r\n\r\n",
  "{",
  "}",
  "[",
  "]",
  '"',
  "\\",
  "null",
  "true",
  "12",
  " ",
  "\t",
  "é",
  "😀",
  '{"jsonrpc":"2.0","id":1}',
  "C",
  "c",
].map((text) => utf8.encode(text));

/** Bytes that are not valid UTF-8 (lone continuation, truncated sequences, an encoded surrogate, overlong). */
const BAD_UTF8 = [[0xff], [0x80], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]].map(
  (bytes) => Uint8Array.from(bytes),
);

/** Header fragments, lengths, JSON pieces, raw and invalid UTF-8 bytes, in any order. */
const tokenSoup: fc.Arbitrary<Uint8Array> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
      {
        weight: 2,
        arbitrary: fc
          .oneof(fc.nat({ max: 64 }), fc.nat({ max: 70_000 }), fc.constant(Number.MAX_SAFE_INTEGER))
          .map((n) => utf8.encode(String(n))),
      },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 8 }) },
      { weight: 1, arbitrary: fc.constantFrom(...BAD_UTF8) },
    ),
    { maxLength: 60 },
  )
  .map(concat);

type Corruption =
  | { op: "insert"; at: number; bytes: Uint8Array }
  | { op: "delete"; at: number; length: number }
  | { op: "overwrite"; at: number; byte: number }
  | { op: "duplicate"; at: number; length: number }
  | { op: "truncate"; at: number };

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({
    op: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 16 }), fc.constantFrom(...FRAGMENTS, ...BAD_UTF8)),
  }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant("overwrite" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant("duplicate" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
);

function corrupt(stream: Uint8Array, corruptions: Corruption[]): Uint8Array {
  let bytes = stream;
  for (const c of corruptions) {
    const at = c.at % (bytes.length + 1);
    switch (c.op) {
      case "insert":
        bytes = concat([bytes.subarray(0, at), c.bytes, bytes.subarray(at)]);
        break;
      case "delete":
        bytes = concat([bytes.subarray(0, at), bytes.subarray(at + c.length)]);
        break;
      case "overwrite":
        if (at < bytes.length) {
          bytes = Uint8Array.from(bytes);
          bytes[at] = c.byte;
        }
        break;
      case "duplicate":
        bytes = concat([bytes.subarray(0, at + c.length), bytes.subarray(at)]);
        break;
      case "truncate":
        bytes = bytes.subarray(0, at);
        break;
    }
  }
  return bytes;
}

/** Valid streams (small messages mostly) with corruption inserted. */
const corruptedStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.array(encodedMessage, { minLength: 1, maxLength: 5 }), fc.array(corruption, { minLength: 1, maxLength: 4 }))
  .map(([items, corruptions]) => corrupt(encodeStream(items).stream, corruptions));

/** Header endings that leave the reader expecting the blank line or inside a body once a \n follows. */
const headerTail: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.oneof(fc.nat({ max: 100 }), fc.constantFrom(0, 1_000_000, 40 * 1024 * 1024, 10 ** 15)).map(String),
    fc.constantFrom("\r", "\r\n\r", "\r\n", "\r\n\r\n"),
    fc.constantFrom("Content-Length: ", "content-length:", "CONTENT-LENGTH:\t "),
  )
  .map(([length, end, name]) => utf8.encode(`${name}${length}${end}`));

/** Junk: random bytes, header/JSON token soup, or corrupted valid streams; sometimes ending in a header. */
export const junkBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 2_000 }) },
  { weight: 3, arbitrary: tokenSoup },
  { weight: 3, arbitrary: corruptedStream },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof(fc.uint8Array({ maxLength: 200 }), tokenSoup), fc.constantFrom("", "\n"), headerTail)
      .map(([junk, lineFeed, tail]) => concat([junk, utf8.encode(lineFeed), tail])),
  },
);

/** Reader configurations: the client default, tight limits (to reach the skip paths), the daemon side. */
export const readerOptions: fc.Arbitrary<FrameReaderOptions> = fc.constantFrom<FrameReaderOptions>(
  {},
  { maxFrameBytes: 300, maxHeaderBytes: 40 },
  { maxNewlineFrameBytes: FrameLimits.maxNewlineRequestBytes, maxContentLengthBytes: FrameLimits.maxRequestBodyBytes },
);

// ---------------------------------------------------------------------------------------------
// The resynchronisation rule as a whole-buffer scan (see the module comment).

/** Where the reader is after a whole stream: between frames, expecting the blank line, or inside a body. */
export type ReaderState = { kind: "between" } | { kind: "separator" } | { kind: "body"; remaining: number };

const HEADER = /^content-length:[ \t]*([0-9]+)[ \t]*\r$/i;

export function readerStateAfter(stream: Uint8Array, maxHeaderBytes: number): ReaderState {
  let at = 0;
  while (at < stream.length) {
    if (stream[at] === LF) {
      at++;
      continue;
    }
    const lineFeed = stream.indexOf(LF, at);
    if (lineFeed === -1) throw new Error("readerStateAfter: the stream must end with a line feed");
    const first = stream[at];
    let length: number | undefined;
    if ((first === 0x43 || first === 0x63) && lineFeed - at <= maxHeaderBytes - 1) {
      const match = HEADER.exec(String.fromCharCode(...stream.subarray(at, lineFeed)));
      if (match !== null) length = Number(match[1]);
    }
    at = lineFeed + 1;
    if (length === undefined) continue;
    if (at === stream.length) return { kind: "separator" };
    if (stream[at] === CR && at + 1 === stream.length) return { kind: "separator" };
    if (stream[at] === CR && stream[at + 1] === LF) {
      at += 2;
      if (at + length > stream.length) return { kind: "body", remaining: at + length - stream.length };
      at += length;
      continue;
    }
    const next = stream.indexOf(LF, at); // a bad separator: discarded up to and including the next \n
    if (next === -1) throw new Error("readerStateAfter: the stream must end with a line feed");
    at = next + 1;
  }
  return { kind: "between" };
}

// ---------------------------------------------------------------------------------------------
// The properties.

/** Counts a property reports besides pass/fail (which resync states were reached, ...). */
export type Stats = Record<string, number>;

function count(stats: Stats, key: string): void {
  stats[key] = (stats[key] ?? 0) + 1;
}

const frameSummary = (frames: DecodedFrame[]): unknown[] => frames.map((frame) => frame.message);

/** (a) Any valid stream decodes to its messages, framings and sizes, however it is chunked; end() is then quiet. */
function roundTrip(stats: Stats): fc.IProperty<[EncodedMessage[], Chunking, FrameReaderOptions]> {
  return fc.property(
    fc.array(encodedMessage, { minLength: 1, maxLength: 12 }),
    chunking,
    fc.constantFrom<FrameReaderOptions>({}, { maxNewlineFrameBytes: 64 * 1024 }),
    (items, how, options) => {
      const { stream, expected } = encodeStream(items);
      const reader = createFrameReader(options);
      const out = feed(reader, chunk(stream, how));
      assert.deepStrictEqual(
        out.errors.map((error) => error.message),
        [],
        "a valid stream produced bad frames",
      );
      assert.deepStrictEqual(out.frames, expected);
      assert.equal(reader.partialSince(), undefined, "the reader thinks a frame is incomplete after a complete stream");
      assert.equal(endStream(reader), undefined, "end() threw after a complete stream");
      assert.deepStrictEqual(reader.push(EMPTY), []);
      stats["messages"] = (stats["messages"] ?? 0) + items.length;
      if (expected.some((frame) => frame.bytes > 8_192)) count(stats, "streams with a message above 8 KiB");
      if (
        expected.some((frame) => frame.framing === "content-length") &&
        expected.some((frame) => frame.framing === "newline")
      )
        count(stats, "mixed framings");
    },
  );
}

/** (b) Junk pushed in random chunks: only BadFrameError, no push over budget, no endless error loop; end() too. */
function junkNeverBreaks(stats: Stats): fc.IProperty<[Uint8Array, Chunking, FrameReaderOptions, number]> {
  return fc.property(
    junkBytes,
    chunking,
    readerOptions,
    fc.constantFrom(0, 0, 3, 7),
    (junk, how, options, discardEvery) => {
      const reader = createFrameReader(options);
      const out = feed(reader, chunk(junk, how), discardEvery);
      const endError = endStream(reader);
      timed("push after end()", () => reader.push(EMPTY));
      if (out.errors.length > 0 || endError !== undefined) count(stats, "streams with bad frames");
      if (out.frames.length > 0) count(stats, "streams with good frames");
    },
  );
}

/** (b) After junk and a line feed, the next valid frame is decoded exactly as {@link readerStateAfter} says. */
function resync(stats: Stats): fc.IProperty<[Uint8Array, Chunking, Chunking, FrameReaderOptions]> {
  return fc.property(junkBytes, chunking, chunking, readerOptions, (junk, how, howNext, options) => {
    const stream = concat([junk, Uint8Array.of(LF)]);
    const reader = createFrameReader(options);
    feed(reader, chunk(stream, how));
    const state = readerStateAfter(stream, options.maxHeaderBytes ?? FrameLimits.maxHeaderBytes);
    if (state.kind === "between") {
      count(stats, "between frames");
      const out = feed(reader, chunk(NEXT_FRAME, howNext));
      assert.deepStrictEqual(frameSummary(out.frames), [NEXT], "the frame after junk + \\n was not decoded");
      assert.equal(out.errors.length, 0);
      assert.equal(reader.partialSince(), undefined);
      assert.equal(endStream(reader), undefined, "end() threw after the next frame");
    } else if (state.kind === "separator") {
      count(stats, "expecting the blank line after a header");
      const discarded = feed(reader, chunk(NEXT_FRAME, howNext));
      assert.deepStrictEqual(
        frameSummary(discarded.frames),
        [],
        "a frame in place of the header's blank line was decoded",
      );
      assert.equal(discarded.errors.length, 1, "a missing blank line after a header is one bad frame");
      const out = feed(reader, [NEXT_FRAME]);
      assert.deepStrictEqual(
        frameSummary(out.frames),
        [NEXT],
        "the frame after the bad separator's line was not decoded",
      );
    } else if (state.remaining <= 70_000) {
      count(stats, "inside a Content-Length body");
      feed(reader, [new Uint8Array(state.remaining).fill(0x20)]);
      const out = feed(reader, chunk(NEXT_FRAME, howNext));
      assert.deepStrictEqual(frameSummary(out.frames), [NEXT], "the frame after the declared body was not decoded");
      assert.equal(out.errors.length, 0);
    } else {
      count(stats, "inside a huge Content-Length body");
      const out = feed(reader, chunk(NEXT_FRAME, howNext));
      assert.deepStrictEqual(frameSummary(out.frames), [], "bytes inside a declared body were decoded as a frame");
      assert.equal(out.errors.length, 0);
    }
  });
}

/** (c) end() after junk, a line feed that resynchronises, a complete stream and a blank tail does not throw. */
function endAfterComplete(stats: Stats): fc.IProperty<[Uint8Array, EncodedMessage[], string[], Chunking]> {
  return fc.property(
    fc.oneof(fc.constant(EMPTY), fc.uint8Array({ maxLength: 200 })),
    fc.array(encodedMessage, { minLength: 0, maxLength: 4 }),
    fc.array(fc.constantFrom(" ", "\t", "\r", "\n"), { maxLength: 6 }),
    chunking,
    (junk, items, tail, how) => {
      const prefix = concat([junk, Uint8Array.of(LF)]);
      if (readerStateAfter(prefix, FrameLimits.maxHeaderBytes).kind !== "between") return; // counted as run, nothing to check
      const { stream, expected } = encodeStream(items);
      const reader = createFrameReader();
      const out = feed(reader, chunk(concat([prefix, stream, utf8.encode(tail.join(""))]), how));
      assert.deepStrictEqual(
        frameSummary(out.frames).slice(out.frames.length - expected.length),
        frameSummary(expected),
      );
      assert.equal(endStream(reader), undefined, "end() threw after a complete stream with a blank tail");
      assert.deepStrictEqual(reader.push(EMPTY), []);
      count(stats, tail.length > 0 && !tail.includes("\n") ? "unterminated blank tail" : "complete");
    },
  );
}

export const READER_PROPERTIES = { roundTrip, junkNeverBreaks, resync, endAfterComplete } as const;
export type ReaderPropertyName = keyof typeof READER_PROPERTIES;

export interface ReaderPropertyOutcome {
  numRuns: number;
  failed: boolean;
  report: string | undefined;
  stats: Stats;
}

/** Runs one property; `onCase` is told each case's index before it runs (so a hang can be located). */
export function runReaderProperty(
  name: ReaderPropertyName,
  run: { seed: number; numRuns: number },
  onCase: (index: number) => void,
): ReaderPropertyOutcome {
  const stats: Stats = {};
  const property = READER_PROPERTIES[name](stats) as fc.IProperty<unknown[]>;
  let index = 0;
  const details = fc.check(property, {
    seed: run.seed,
    numRuns: run.numRuns,
    includeErrorInReport: true,
    plugins: [fc.beforeEach(() => onCase(index++))],
  }) as fc.RunDetails<unknown[]>;
  return { numRuns: details.numRuns, failed: details.failed, report: fc.defaultReportMessage(details), stats };
}
