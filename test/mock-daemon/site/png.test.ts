import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { solidPng } from "../../../src/mock-daemon/site/png.js";

/** The chunks of a PNG: type and data, each checked against its CRC. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  const out: { type: string; data: Buffer }[] = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `${type} CRC`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe("solidPng", () => {
  it("is a PNG of the size asked for, its byte count given, every chunk's CRC right", () => {
    const { base64, bytes } = solidPng(3, 2, [10, 20, 30]);
    const png = Buffer.from(base64, "base64");
    expect(png.length).toBe(bytes);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [header, ...rest] = chunks(png);
    expect(header!.type).toBe("IHDR");
    expect(header!.data.readUInt32BE(0)).toBe(3);
    expect(header!.data.readUInt32BE(4)).toBe(2);
    expect([...header!.data.subarray(8)]).toEqual([8, 2, 0, 0, 0]); // 8-bit RGB, no interlace
    expect(rest.map((chunk) => chunk.type)).toEqual(["IDAT", "IEND"]);
  });

  it("holds the one colour in every pixel, each scanline unfiltered", () => {
    const png = Buffer.from(solidPng(4, 3, [200, 100, 50]).base64, "base64");
    const idat = chunks(png).find((chunk) => chunk.type === "IDAT")!;
    const raw = inflateSync(idat.data);
    expect(raw.length).toBe(3 * (1 + 4 * 3));
    for (let y = 0; y < 3; y++) {
      const row = raw.subarray(y * 13, (y + 1) * 13);
      expect(row[0]).toBe(0);
      expect([...row.subarray(1)]).toEqual([200, 100, 50, 200, 100, 50, 200, 100, 50, 200, 100, 50]);
    }
  });
});
