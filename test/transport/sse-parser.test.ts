import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "../../src/transport/sse-parser.js";

const encoder = new TextEncoder();

/** Parses `chunks` (bytes or text) as one stream and returns every event, including those completed at the end. */
function parse(chunks: (string | Uint8Array)[]): SseEvent[] {
  const parser = createSseParser();
  const events: SseEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return events;
}

/** The bytes of `text` cut at every position in `cuts`. */
function cutBytes(text: string, cuts: number[]): Uint8Array[] {
  const bytes = encoder.encode(text);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(start, cut));
    start = cut;
  }
  return pieces;
}

const STREAM =
  ": a comment the server sends as a keep-alive\n" +
  'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"ping","id":7}\n\n' +
  'data: {"jsonrpc":"2.0",\n' +
  'data:"id":"r-1","result":{"text":"naïve – ünïcode ✓"}}\n\n';

const EXPECTED: SseEvent[] = [
  { type: "message", data: '{"jsonrpc":"2.0","method":"ping","id":7}', lastEventId: "1" },
  { type: "message", data: '{"jsonrpc":"2.0",\n"id":"r-1","result":{"text":"naïve – ünïcode ✓"}}', lastEventId: "1" },
];

describe("SSE parser", () => {
  it("parses an official-SDK style stream (event, id, data) and keeps the last event id", () => {
    expect(parse([STREAM])).toEqual(EXPECTED);
  });

  it("gives the same events however the bytes are split, even inside a UTF-8 character", () => {
    const length = encoder.encode(STREAM).length;
    for (let cut = 0; cut <= length; cut++) expect(parse(cutBytes(STREAM, [cut]))).toEqual(EXPECTED);
    expect(
      parse(
        cutBytes(
          STREAM,
          Array.from({ length: length - 1 }, (_, i) => i + 1),
        ),
      ),
    ).toEqual(EXPECTED); // one byte at a time
  });

  it("joins multi-line data with newlines and strips one space after the colon only", () => {
    expect(parse(["data:  two spaces\ndata:none\ndata\ndata: last\n\n"])).toEqual([
      { type: "message", data: " two spaces\nnone\n\nlast", lastEventId: "" },
    ]);
  });

  it("ignores comments and unknown fields, and dispatches nothing for an event without data", () => {
    expect(parse([":hello\n: world\n\nfoo: bar\nevent: ping\n\nid: 9\n\n"])).toEqual([]);
  });

  it("accepts CRLF, CR and LF line endings, also with CR and LF in different chunks", () => {
    const crlf = "event: message\r\ndata: a\r\n\r\ndata: b\r\rdata: c\n\n";
    const expected = [
      { type: "message", data: "a", lastEventId: "" },
      { type: "message", data: "b", lastEventId: "" },
      { type: "message", data: "c", lastEventId: "" },
    ];
    expect(parse([crlf])).toEqual(expected);
    for (let cut = 0; cut <= crlf.length; cut++) expect(parse([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(expected);
  });

  it("keeps custom event types, reads retry, and ignores an id holding NUL", () => {
    const parser = createSseParser();
    const events = parser.push(
      "id: 5\nretry: 1500\nevent: endpoint\ndata: /mcp\n\nid: bad\u0000id\nretry: soon\ndata: x\n\n",
    );
    expect(events).toEqual([
      { type: "endpoint", data: "/mcp", lastEventId: "5" },
      { type: "message", data: "x", lastEventId: "5" },
    ]);
    expect(parser.retryMs).toBe(1500);
    expect(parser.lastEventId).toBe("5");
  });

  it("dispatches an empty data line as an empty event (a priming event) and drops a leading BOM", () => {
    expect(parse([new Uint8Array([0xef, 0xbb, 0xbf]), "id: p1\ndata: \n\n"])).toEqual([
      { type: "message", data: "", lastEventId: "p1" },
    ]);
  });

  it("parses thousands of events in one chunk, with LF line ends and then CR ones", () => {
    const count = 20_000;
    const text = `${Array.from({ length: count }, (_, i) => `id: ${i}\ndata: ${i}\n\n`).join("")}data: cr\r\r`;
    const events = parse([text]);
    expect(events).toHaveLength(count + 1);
    expect(events[count - 1]).toEqual({ type: "message", data: String(count - 1), lastEventId: String(count - 1) });
    expect(events[count]).toEqual({ type: "message", data: "cr", lastEventId: String(count - 1) });
  });

  it("discards an event the stream ends before finishing", () => {
    expect(parse(["data: complete\n\ndata: cut off\n"])).toEqual([
      { type: "message", data: "complete", lastEventId: "" },
    ]);
    expect(parse(["data: no newline at all"])).toEqual([]);
  });

  it("moves lastEventId only when an event is finished (a priming event without data too), never to the id of one cut off", () => {
    const parser = createSseParser();
    expect(parser.push("id: p-1\nretry: 200\n")).toEqual([]);
    expect(parser.lastEventId).toBe("");
    parser.push("data: \n\n");
    expect(parser.lastEventId).toBe("p-1");
    parser.push('id: p-2\n\nid: p-3\ndata: {"cut');
    expect(parser.lastEventId).toBe("p-2");
    parser.end();
    expect([parser.lastEventId, parser.retryMs]).toEqual(["p-2", 200]);
  });
});
