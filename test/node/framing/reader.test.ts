import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BadFrameError } from "../../../src/errors/error-classes.js";
import { encodeFrame } from "../../../src/node/framing/encode-frame.js";
import {
  createDaemonFrameReader,
  createFrameReader,
  type FrameReader,
  type FrameReaderOptions,
} from "../../../src/node/framing/frame-reader.js";

const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);

function bytes(...parts: (string | Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((part) => (typeof part === "string" ? utf8.encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    out.set(array, offset);
    offset += array.length;
  }
  return out;
}

/** Pushes every chunk, draining after each bad frame as a transport does; returns what came out. */
function feed(reader: FrameReader, chunks: Iterable<Uint8Array>): { messages: unknown[]; errors: BadFrameError[] } {
  const messages: unknown[] = [];
  const errors: BadFrameError[] = [];
  for (const chunk of chunks) {
    let input = chunk;
    for (;;) {
      try {
        messages.push(...reader.push(input));
        break;
      } catch (error) {
        expect(error).toBeInstanceOf(BadFrameError);
        errors.push(error as BadFrameError);
        input = EMPTY;
      }
    }
  }
  return { messages, errors };
}

/** Feeds the chunks and ends the stream; an error from `end()` is collected too. */
function decodeStream(
  chunks: Iterable<Uint8Array>,
  options?: FrameReaderOptions,
  create: (options?: FrameReaderOptions) => FrameReader = createFrameReader,
): { messages: unknown[]; errors: BadFrameError[] } {
  const reader = create(options);
  const result = feed(reader, chunks);
  try {
    reader.end();
  } catch (error) {
    expect(error).toBeInstanceOf(BadFrameError);
    result.errors.push(error as BadFrameError);
  }
  result.messages.push(...reader.push(EMPTY));
  return result;
}

function splitEvery(stream: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < stream.length; offset += size) chunks.push(stream.subarray(offset, offset + size));
  return chunks;
}

/** A small seeded PRNG (mulberry32), so random chunkings are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NEXT = { jsonrpc: "2.0", id: "next", method: "ping" };
const nextFrame = encodeFrame(NEXT);

/** A small stream with both framings, blank lines, a lowercase header, CRLF line ends and multibyte text. */
const smallMessages = [
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: 2, result: { text: "héllo 🙂" } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 4, result: {} },
  { jsonrpc: "2.0", id: 5, result: { n: [1, 2, 3] } },
];
const smallStream = bytes(
  encodeFrame(smallMessages[0]),
  "\n\r\n",
  encodeFrame(smallMessages[1], { framing: "content-length" }),
  `${JSON.stringify(smallMessages[2])}\r\n`,
  `content-length: ${JSON.stringify(smallMessages[3]).length}\r\n\r\n${JSON.stringify(smallMessages[3])}`,
  "  \n",
  `CONTENT-LENGTH:${JSON.stringify(smallMessages[4]).length} \r\n\r\n${JSON.stringify(smallMessages[4])}`,
);

describe("frame reader: decoding", () => {
  it("decodes a newline frame and a Content-Length frame and tells which framing each used", () => {
    const reader = createFrameReader();
    const frames = reader.pushFrames(
      bytes(encodeFrame({ a: 1 }), encodeFrame({ b: "é" }, { framing: "content-length" })),
    );
    expect(frames).toEqual([
      { message: { a: 1 }, framing: "newline", bytes: 7 },
      { message: { b: "é" }, framing: "content-length", bytes: 10 },
    ]);
  });

  it("skips blank lines, reads header names in any case and allows spaces around the length", () => {
    expect(decodeStream([smallStream])).toEqual({ messages: smallMessages, errors: [] });
  });

  it("decodes the same messages at every split point of a small stream", () => {
    for (let split = 0; split <= smallStream.length; split++) {
      const result = decodeStream([smallStream.subarray(0, split), smallStream.subarray(split)]);
      expect(result, `split at byte ${split}`).toEqual({ messages: smallMessages, errors: [] });
    }
  });

  it("decodes a stream pushed one byte at a time", () => {
    expect(decodeStream(splitEvery(smallStream, 1))).toEqual({ messages: smallMessages, errors: [] });
  });

  it("decodes a larger mixed stream under 50 seeded random chunkings", () => {
    const random = seededRandom(0x9a55);
    const messages = Array.from({ length: 300 }, (_, index) => ({
      jsonrpc: "2.0",
      id: index,
      result: { text: "ü".repeat(Math.floor(random() * (index % 10 === 0 ? 12_000 : 300))) },
    }));
    const stream = bytes(
      ...messages.map((message, index) => encodeFrame(message, index % 3 === 0 ? { framing: "content-length" } : {})),
    );
    for (let round = 0; round < 50; round++) {
      const chunks: Uint8Array[] = [];
      for (let offset = 0; offset < stream.length; ) {
        const size = 1 + Math.floor(random() * (round % 2 === 0 ? 64 : 20_000));
        chunks.push(stream.subarray(offset, offset + size));
        offset += size;
      }
      const result = decodeStream(chunks);
      expect(result.errors).toEqual([]);
      expect(result.messages).toEqual(messages);
    }
  });

  it("returns nothing for an empty chunk and keeps a frame's bytes until it completes", () => {
    const reader = createFrameReader();
    expect(reader.push(EMPTY)).toEqual([]);
    expect(reader.push(utf8.encode('{"a":'))).toEqual([]);
    expect(reader.push(utf8.encode("1}\n"))).toEqual([{ a: 1 }]);
  });
});

describe("frame reader: bad frames", () => {
  const cases: { name: string; frame: Uint8Array; error: RegExp; options?: FrameReaderOptions }[] = [
    {
      name: "non-numeric length",
      frame: bytes("Content-Length: nope\r\n\r\n"),
      error: /Content-Length value 'nope' is not a decimal number/,
    },
    {
      name: "negative length",
      frame: bytes("Content-Length: -5\r\n\r\n"),
      error: /value '-5' is not a decimal number/,
    },
    { name: "float length", frame: bytes("Content-Length: 1.5\r\n\r\n"), error: /value '1.5' is not a decimal number/ },
    { name: "empty length", frame: bytes("Content-Length:\r\n\r\n"), error: /value '' is not a decimal number/ },
    {
      name: "text after the length",
      frame: bytes("Content-Length: 2 x\r\n\r\n"),
      error: /value '2 x' is not a decimal number/,
    },
    {
      name: "a second header",
      frame: bytes("Content-Length: 2\r\nContent-Type: x\r\n"),
      error: /exactly one blank line/,
    },
    { name: "header line ending in a bare \\n", frame: bytes("Content-Length: 2\n"), error: /must end with \\r\\n/ },
    { name: "missing blank line", frame: bytes("Content-Length: 2\r\n{}\n"), error: /exactly one blank line/ },
    { name: "non-blank separator", frame: bytes("Content-Length: 2\r\nX\r\n"), error: /exactly one blank line/ },
    { name: "separator of a bare \\r", frame: bytes("Content-Length: 2\r\n\rX\n"), error: /exactly one blank line/ },
    {
      name: "header too long",
      frame: bytes(`Content-Length: ${"0".repeat(9000)}2\r\n\r\n`),
      error: /header is longer than 8192 bytes/,
    },
    {
      name: "Content-Length body over the limit",
      frame: encodeFrame({ s: "x".repeat(200) }, { framing: "content-length" }),
      error: /Content-Length 208 is over the 100-byte limit/,
      options: { maxContentLengthBytes: 100 },
    },
    {
      name: "newline body over the limit",
      frame: encodeFrame({ s: "x".repeat(200) }),
      error: /newline-delimited frame is longer than 100 bytes/,
      options: { maxNewlineFrameBytes: 100 },
    },
    {
      name: "any body over maxFrameBytes",
      frame: encodeFrame({ s: "x".repeat(200) }),
      error: /longer than 100 bytes/,
      options: { maxFrameBytes: 100 },
    },
    {
      name: "invalid UTF-8 in a newline frame",
      frame: bytes([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      error: /newline-delimited frame is not valid UTF-8/,
    },
    {
      name: "invalid UTF-8 in a Content-Length body",
      frame: bytes("Content-Length: 3\r\n\r\n", [0x22, 0xc3, 0x22]),
      error: /Content-Length body is not valid UTF-8/,
    },
    {
      name: "invalid JSON in a newline frame",
      frame: bytes("{nope}\n"),
      error: /newline-delimited frame is not valid JSON/,
    },
    {
      name: "invalid JSON in a Content-Length body",
      frame: bytes("Content-Length: 6\r\n\r\n{nope}"),
      error: /Content-Length body is not valid JSON/,
    },
    {
      name: "an empty Content-Length body",
      frame: bytes("Content-Length: 0\r\n\r\n"),
      error: /Content-Length body is not valid JSON/,
    },
    { name: "a byte-order mark", frame: bytes([0xef, 0xbb, 0xbf], "{}\n"), error: /not valid JSON/ },
    { name: "a line starting with C that is not a header", frame: bytes("Cat\n"), error: /not valid JSON/ },
  ];

  it.each(cases)("$name: throws BadFrameError, then decodes the next frame", ({ frame, error, options }) => {
    const reader = createFrameReader(options);
    let thrown: unknown;
    try {
      reader.push(bytes(frame, nextFrame));
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(BadFrameError);
    expect((thrown as BadFrameError).code).toBe("transport.badFrame");
    expect((thrown as BadFrameError).message).toMatch(error);
    expect(reader.push(EMPTY)).toEqual([NEXT]);
    expect(() => reader.end()).not.toThrow();
  });

  it.each(cases)("$name: the same, with the stream split at every byte", ({ frame, error, options }) => {
    const result = decodeStream(splitEvery(bytes(frame, nextFrame), 1), options);
    expect(result.errors.map((caught) => caught.message)).toEqual([expect.stringMatching(error)]);
    expect(result.messages).toEqual([NEXT]);
  });

  it("keeps the good frames that came before a bad one in the same chunk", () => {
    const reader = createFrameReader();
    const chunk = bytes(
      encodeFrame({ n: 1 }),
      encodeFrame({ n: 2 }, { framing: "content-length" }),
      "{bad}\n",
      encodeFrame({ n: 3 }),
      "[oops\n",
      encodeFrame({ n: 4 }),
    );
    expect(() => reader.push(chunk)).toThrow(/not valid JSON/);
    expect(() => reader.push(EMPTY)).toThrow(/not valid JSON/);
    expect(reader.pushFrames(EMPTY).map((frame) => frame.message)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it("skips an oversized body as it arrives without keeping it, then decodes the next frame", () => {
    const reader = createFrameReader({ maxContentLengthBytes: 1024 });
    expect(() => reader.push(utf8.encode(`Content-Length: ${8 * 1024 * 1024}\r\n\r\n`))).toThrow(
      /over the 1024-byte limit/,
    );
    const megabyte = new Uint8Array(1024 * 1024).fill(0x7b); // "{{{{…": garbage if it were parsed
    for (let index = 0; index < 8; index++) {
      expect(reader.push(megabyte)).toEqual([]);
      expect(reader.partialSince()).toBeUndefined();
    }
    expect(reader.push(nextFrame)).toEqual([NEXT]);
  });

  it("says a frame is past the size limit in details.tooLarge, with the declared or seen size and the limit, so a client can end the connection", () => {
    const errorOf = (reader: ReturnType<typeof createFrameReader>, chunk: Uint8Array): unknown => {
      try {
        reader.push(chunk);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const declared = errorOf(
      createFrameReader({ maxContentLengthBytes: 1024 }),
      utf8.encode("Content-Length: 4096\r\n\r\n"),
    );
    expect(declared).toMatchObject({
      code: "transport.badFrame",
      details: { framing: "content-length", tooLarge: true, declaredBytes: 4096, maxBytes: 1024 },
    });
    const line = errorOf(createFrameReader({ maxNewlineFrameBytes: 64 }), utf8.encode(`{"s":"${"x".repeat(100)}`));
    expect(line).toMatchObject({
      code: "transport.badFrame",
      details: { framing: "newline", tooLarge: true, seenBytes: 106, maxBytes: 64 },
    });
    // A header line that is too long is a bad header, not a frame past the limit.
    const header = errorOf(createFrameReader(), utf8.encode(`Content-Length: ${"0".repeat(9000)}2\r\n\r\n`));
    expect((header as { details: unknown }).details).toEqual({ framing: "content-length" });
  });

  it("discards an over-long line without buffering it, up to and including its line feed", () => {
    const reader = createFrameReader({ maxNewlineFrameBytes: 64 });
    expect(() => reader.push(utf8.encode(`{"s":"${"x".repeat(100)}`))).toThrow(/longer than 64 bytes/);
    expect(reader.push(utf8.encode("x".repeat(100_000)))).toEqual([]);
    expect(reader.push(bytes('xx"}\n', nextFrame))).toEqual([NEXT]);
  });

  it("end() throws for a truncated newline frame or Content-Length frame, not for a blank tail", () => {
    const truncatedLine = createFrameReader();
    truncatedLine.push(utf8.encode('{"a":1}'));
    expect(() => truncatedLine.end()).toThrow(BadFrameError);
    expect(() => truncatedLine.end()).not.toThrow(); // the partial frame is gone

    const truncatedBody = createFrameReader();
    truncatedBody.push(utf8.encode("Content-Length: 4\r\n\r\n{}"));
    expect(() => truncatedBody.end()).toThrow(/2 of 4 body bytes/);

    const truncatedHeader = createFrameReader();
    truncatedHeader.push(utf8.encode("Content-Length: 4\r\n"));
    expect(() => truncatedHeader.end()).toThrow(/inside a Content-Length frame/);

    const blankTail = createFrameReader();
    expect(blankTail.push(utf8.encode('{"a":1}\n \r'))).toEqual([{ a: 1 }]);
    expect(() => blankTail.end()).not.toThrow();
  });
});

describe("frame reader: the daemon's end (createDaemonFrameReader)", () => {
  const readers = [
    ["the client's reader", createFrameReader],
    ["the daemon's reader", createDaemonFrameReader],
  ] as const;

  it("reads the header name case-sensitively, where a client takes any case", () => {
    const stream = utf8.encode('content-length: 7\r\n\r\n{"a":1}Content-Length: 7\r\n\r\n{"b":2}');
    const client = decodeStream([stream]);
    expect(client).toEqual({ messages: [{ a: 1 }, { b: 2 }], errors: [] });
    const daemon = decodeStream([stream], {}, createDaemonFrameReader);
    expect(daemon.messages).toEqual([{ b: 2 }]);
    expect(daemon.errors.map((error) => error.rawMessage)).toEqual([
      expect.stringMatching(/^newline-delimited frame is not valid JSON/),
      expect.stringMatching(/^newline-delimited frame is not valid JSON/),
    ]);
  });

  it("takes a last line without its \\n as a message when the stream ends, where a client's is truncated", () => {
    const stream = utf8.encode('{"a":1}\n{"b":2}');
    expect(decodeStream([stream], {}, createDaemonFrameReader)).toEqual({ messages: [{ a: 1 }, { b: 2 }], errors: [] });
    const client = decodeStream([stream]);
    expect(client.messages).toEqual([{ a: 1 }]);
    expect(client.errors.map((error) => error.rawMessage)).toEqual([
      "the stream ended inside a frame: 7 bytes without the closing \\n",
    ]);
  });

  it("counts the blank lines before a frame toward its line limit, where a client skips them", () => {
    const options = { maxNewlineFrameBytes: 16 };
    const line = '{"a":"12345678"}\n'; // a 16-byte body
    const padded = utf8.encode(`${"\n".repeat(4)}${line}`);
    expect(decodeStream([padded], options)).toEqual({ messages: [{ a: "12345678" }], errors: [] });
    const daemon = decodeStream([padded, utf8.encode(line)], options, createDaemonFrameReader);
    expect(daemon.messages).toEqual([{ a: "12345678" }]); // the line after, without blank lines before it
    expect(daemon.errors.map((error) => error.rawMessage)).toEqual(["newline-delimited frame is longer than 16 bytes"]);

    const blanks = decodeStream([utf8.encode("\n".repeat(17))], options, createDaemonFrameReader);
    expect(blanks.errors.map((error) => error.rawMessage)).toEqual([
      "blank lines before a frame count toward its 16-byte limit, and they are longer than that",
    ]);
  });

  it.each(readers)("%s decodes the same well-formed requests at every split point", (_name, create) => {
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "browser.observe" } },
    ];
    const stream = bytes(encodeFrame(requests[0]), encodeFrame(requests[1], { framing: "content-length" }));
    for (let split = 0; split <= stream.length; split++) {
      const result = decodeStream([stream.subarray(0, split), stream.subarray(split)], {}, create);
      expect(result, `split at ${split}`).toEqual({ messages: requests, errors: [] });
    }
  });
});

describe("frame reader: timing", () => {
  it("partialSince() is when the current incomplete frame's first byte arrived", () => {
    let clock = 1000;
    const reader = createFrameReader({ now: () => clock });
    expect(reader.partialSince()).toBeUndefined();
    reader.push(utf8.encode("\n\n")); // blank lines start no frame
    expect(reader.partialSince()).toBeUndefined();
    reader.push(utf8.encode("Content-Length: 7\r\n"));
    clock = 2000;
    reader.push(utf8.encode("\r\n{"));
    expect(reader.partialSince()).toBe(1000);
    expect(reader.push(utf8.encode('"a":1}\n{"b"'))).toEqual([{ a: 1 }]);
    expect(reader.partialSince()).toBe(2000);
  });

  it("discardPartial() drops a stalled frame, skips the rest of it as it arrives, and reads on", () => {
    const reader = createFrameReader();
    expect(reader.discardPartial("stalled")).toBeUndefined();
    reader.push(utf8.encode('Content-Length: 10\r\n\r\n{"a"'));
    const error = reader.discardPartial("stalled");
    expect(error).toBeInstanceOf(BadFrameError);
    expect(error?.message).toMatch(/stalled: dropped a Content-Length frame after 4 of 10 body bytes/);
    expect(reader.partialSince()).toBeUndefined();
    expect(reader.push(bytes(':"b"}\n', nextFrame))).toEqual([NEXT]); // the late 6 bytes are skipped

    reader.push(utf8.encode('{"half'));
    expect(reader.discardPartial("stalled")?.message).toMatch(/incomplete line of 6 bytes/);
    expect(reader.push(bytes('line"}\n', nextFrame))).toEqual([NEXT]);
  });
});

describe("frame reader: performance", () => {
  it.each(["content-length", "newline"] as const)(
    "decodes a 20 MiB %s message split into 64 KiB chunks in linear time",
    (framing) => {
      const message = {
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "text", text: "x".repeat(20 * 1024 * 1024) }] },
      };
      const chunks = splitEvery(encodeFrame(message, { framing }), 64 * 1024);
      const reader = createFrameReader();
      const started = performance.now();
      const decoded: unknown[] = [];
      for (const chunk of chunks) decoded.push(...reader.push(chunk));
      const elapsed = performance.now() - started;
      console.info(
        `20 MiB ${framing} message in ${chunks.length} chunks of 64 KiB: decoded in ${elapsed.toFixed(1)} ms`,
      );
      expect(decoded).toHaveLength(1);
      expect((decoded[0] as typeof message).result.content[0]!.text.length).toBe(20 * 1024 * 1024);
      // Quadratic work (re-scanning or re-concatenating the buffer per chunk) takes seconds here.
      expect(elapsed).toBeLessThan(2000);
    },
  );

  it("decodes 10 000 messages of 1 KB cheaply", () => {
    const frame = encodeFrame({ jsonrpc: "2.0", id: 7, result: { text: "y".repeat(1000) } });
    const reader = createFrameReader();
    const started = performance.now();
    let count = 0;
    for (let index = 0; index < 10_000; index++) count += reader.push(frame).length;
    const elapsed = performance.now() - started;
    console.info(`10 000 messages of ${frame.length} bytes: ${((elapsed * 1000) / 10_000).toFixed(2)} µs each`);
    expect(count).toBe(10_000);
    expect(elapsed).toBeLessThan(1000);
  });
});

/**
 * Upstream's framing corpus lives outside the project (it is not ours to copy in). Point
 * GLASS_REFERENCE_DIR at it; by default the shared reference folder next to the checkout is used.
 */
const referenceDir =
  process.env.GLASS_REFERENCE_DIR ?? fileURLToPath(new URL("../../../../shared/reference/glass/", import.meta.url));
const corpusFiles = existsSync(referenceDir)
  ? readdirSync(referenceDir).filter((file) => /^mcp_framing_corpus\..*\.json$/.test(file))
  : [];

interface CorpusCase {
  name: string;
  bytes: number[];
  valid: boolean;
}

describe.skipIf(corpusFiles.length === 0)(`upstream framing corpus (${referenceDir})`, () => {
  it.each(corpusFiles)("%s: the reader accepts exactly the valid cases, however they are split", (file) => {
    const corpus = JSON.parse(readFileSync(`${referenceDir}/${file}`, "utf8")) as CorpusCase[];
    expect(corpus.length).toBeGreaterThan(0);
    for (const entry of corpus) {
      const stream = Uint8Array.from(entry.bytes);
      for (let split = 0; split <= stream.length; split++) {
        const result = decodeStream([stream.subarray(0, split), stream.subarray(split)]);
        const verdict = `${entry.name}, split at ${split}: ${result.errors.map((error) => error.rawMessage).join("; ")}`;
        if (entry.valid) {
          expect(result.errors, verdict).toEqual([]);
          expect(result.messages.length, verdict).toBeGreaterThan(0);
        } else {
          expect(result.errors.length, verdict).toBeGreaterThan(0);
        }
      }
    }
  });
});
