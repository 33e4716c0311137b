import { describe, expect, it } from "vitest";
import { encodeFrame } from "../../../src/node/framing/encode-frame.js";
import { FrameLimits } from "../../../src/node/framing/frame-limits.js";

const text = new TextDecoder();
const utf8 = new TextEncoder();

/** A message whose compact JSON is exactly `bytes` bytes, padded with `filler` (1 or 2 bytes in UTF-8). */
function messageOfBytes(bytes: number, filler = "x"): { s: string } {
  const overhead = JSON.stringify({ s: "" }).length; // {"s":""}
  const fillerBytes = utf8.encode(filler).length;
  const room = bytes - overhead;
  const s = filler.repeat(Math.floor(room / fillerBytes)) + "x".repeat(room % fillerBytes);
  expect(utf8.encode(JSON.stringify({ s })).length).toBe(bytes);
  return { s };
}

describe("encodeFrame", () => {
  it("writes compact JSON followed by a line feed for a small message", () => {
    const frame = encodeFrame({ jsonrpc: "2.0", id: 1, method: "ping", params: { a: [1, 2] } });
    expect(text.decode(frame)).toBe('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,2]}}\n');
  });

  it("newline-frames a body of exactly 8192 bytes", () => {
    const frame = encodeFrame(messageOfBytes(8192));
    expect(frame.length).toBe(8193);
    expect(frame[8192]).toBe(0x0a);
    expect(frame.indexOf(0x0a)).toBe(8192);
  });

  it("uses Content-Length for a body of 8193 bytes", () => {
    const message = messageOfBytes(8193);
    const frame = encodeFrame(message);
    const header = "Content-Length: 8193\r\n\r\n";
    expect(text.decode(frame.subarray(0, header.length))).toBe(header);
    expect(frame.length).toBe(header.length + 8193);
    expect(JSON.parse(text.decode(frame.subarray(header.length)))).toEqual(message);
  });

  it("counts multibyte characters in bytes, not characters, both for the choice and the length", () => {
    const fits = messageOfBytes(FrameLimits.maxNewlineRequestBytes, "é");
    expect(JSON.stringify(fits).length).toBeLessThan(4200); // about half as many characters as bytes
    expect(encodeFrame(fits).at(-1)).toBe(0x0a);

    const over = messageOfBytes(FrameLimits.maxNewlineRequestBytes + 1, "é");
    expect(JSON.stringify(over).length).toBeLessThan(8192);
    expect(text.decode(encodeFrame(over).subarray(0, 24))).toBe("Content-Length: 8193\r\n\r\n");

    const emoji = { s: "🙂".repeat(3000) }; // 4 bytes each: 12 008 bytes, 6 008 UTF-16 units
    expect(text.decode(encodeFrame(emoji))).toMatch(/^Content-Length: 12008\r\n\r\n/);
  });

  it("escapes line feeds inside strings, so a newline frame has exactly one, at its end", () => {
    const frame = encodeFrame({ text: "line one\nline two\r\n" });
    expect(frame.indexOf(0x0a)).toBe(frame.length - 1);
    expect(JSON.parse(text.decode(frame))).toEqual({ text: "line one\nline two\r\n" });
  });

  it("forces one framing when asked, whatever the size", () => {
    expect(text.decode(encodeFrame({ a: 1 }, { framing: "content-length" }))).toBe('Content-Length: 7\r\n\r\n{"a":1}');
    const big = encodeFrame({ s: "x".repeat(20_000) }, { framing: "newline" });
    expect(big.indexOf(0x0a)).toBe(big.length - 1);
    expect(encodeFrame({ a: 1 }, { framing: "auto" })).toEqual(encodeFrame({ a: 1 }));
  });

  it("throws a TypeError for a value with no JSON form", () => {
    expect(() => encodeFrame(undefined)).toThrow(TypeError);
    expect(() => encodeFrame(() => 1)).toThrow(TypeError);
    expect(() => encodeFrame({ n: 1n })).toThrow(TypeError);
  });
});

describe("encodeFrameForStream", () => {
  it("is the same frame as encodeFrame (short frames as text, long ones as bytes), on both sides of the 8 KiB line limit", async () => {
    const { encodeFrame, encodeFrameForStream } = await import("../../../src/node/framing/encode-frame.js");
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      {
        jsonrpc: "2.0",
        id: "猫",
        method: "tools/call",
        params: { name: "type", arguments: { text: "é".repeat(2000) } },
      },
      ...[8100, 8150, 8170, 8200, 9000, 30_000].map((size) => ({
        jsonrpc: "2.0",
        id: size,
        method: "x",
        params: { text: "ß".repeat(size / 2) },
      })),
      { jsonrpc: "2.0", id: 2, method: "x", params: { text: "a".repeat(8150) } },
      { jsonrpc: "2.0", id: 3, method: "x", params: { text: '😀—\u0000"'.repeat(20_000), lone: "\ud800" } },
    ];
    for (const message of messages) {
      const frame = encodeFrameForStream(message, "auto");
      const bytes = typeof frame === "string" ? Buffer.from(frame) : Buffer.from(frame.frame!);
      if (typeof frame !== "string") expect(bytes.subarray(bytes.indexOf("\r\n\r\n") + 4).length).toBe(frame.bodyBytes);
      expect(bytes).toEqual(Buffer.from(encodeFrame(message)));
    }
  });

  it("measures a body over the bound but makes no frame of it, whether its characters or only its bytes pass the bound", async () => {
    const { encodeFrameForStream } = await import("../../../src/node/framing/encode-frame.js");
    const json = (message: unknown) => JSON.stringify(message);
    const wide = { jsonrpc: "2.0", id: 1, method: "x", params: { text: "é".repeat(6000) } }; // 12,000+ bytes, 6,000+ characters
    const long = { jsonrpc: "2.0", id: 2, method: "x", params: { text: "a".repeat(20_000) } };
    expect(encodeFrameForStream(wide, "auto", 10_000)).toEqual({
      frame: undefined,
      bodyBytes: Buffer.byteLength(json(wide)),
    });
    expect(encodeFrameForStream(long, "auto", 10_000)).toEqual({
      frame: undefined,
      bodyBytes: Buffer.byteLength(json(long)),
    });
    const fits = encodeFrameForStream(wide, "auto", 20_000);
    expect(
      typeof fits !== "string" && fits.frame !== undefined && fits.bodyBytes === Buffer.byteLength(json(wide)),
    ).toBe(true);
  });

  it("frames a message of more than a megabyte byte for byte as TextEncoder encodes it, and measures one over the bound without framing it", async () => {
    const { encodeFrame, encodeFrameForStream } = await import("../../../src/node/framing/encode-frame.js");
    // Past 349,525 characters (1 MiB at 3 bytes each) the frame is encoded straight into its buffer.
    for (const text of ["a".repeat(400_000), 'ß—😀\u0000"'.repeat(80_000), `${"x".repeat(400_000)}\ud800`]) {
      const message = { jsonrpc: "2.0", id: 4, method: "x", params: { text } };
      const body = utf8.encode(JSON.stringify(message));
      const expected = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
      expect(Buffer.from(encodeFrame(message)).equals(expected)).toBe(true);
      const frame = encodeFrameForStream(message, "auto");
      expect(typeof frame !== "string" && frame.bodyBytes).toBe(body.length);
      expect(typeof frame !== "string" && Buffer.from(frame.frame!).equals(expected)).toBe(true);
      // Fewer characters than the bound, more bytes: measured, no frame made.
      expect(encodeFrameForStream(message, "auto", body.length - 1)).toEqual({
        frame: undefined,
        bodyBytes: body.length,
      });
    }
  });

  it("with newline framing is always one JSON line, whatever the size (what a plain MCP server reads)", async () => {
    const { encodeFrame, encodeFrameForStream } = await import("../../../src/node/framing/encode-frame.js");
    for (const size of [10, 8192, 9000, 100_000]) {
      const message = { jsonrpc: "2.0", id: size, method: "x", params: { text: "é\n".repeat(size / 2) } };
      const frame = encodeFrameForStream(message, "newline", 1000);
      expect(frame).toBe(`${JSON.stringify(message)}\n`);
      expect(Buffer.from(frame as string)).toEqual(Buffer.from(encodeFrame(message, { framing: "newline" })));
    }
  });
});
