/**
 * A solid-colour RGB PNG built in code: the IHDR, one IDAT holding a zlib stream of stored
 * (uncompressed) deflate blocks, and IEND, each chunk with its CRC-32. Platform-free (no zlib, no
 * Buffer); small images only.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function chunk(type: string, data: Uint8Array): number[] {
  const typed = new Uint8Array(4 + data.length);
  for (let i = 0; i < 4; i += 1) typed[i] = type.charCodeAt(i);
  typed.set(data, 4);
  return [...u32(data.length), ...typed, ...u32(crc32(typed))];
}

/** A zlib stream of `raw` in stored deflate blocks (at most 65535 bytes each). */
function storedZlib(raw: Uint8Array): Uint8Array {
  const out: number[] = [0x78, 0x01];
  let offset = 0;
  do {
    const block = raw.subarray(offset, offset + 65535);
    offset += block.length;
    out.push(
      offset >= raw.length ? 1 : 0,
      block.length & 0xff,
      block.length >>> 8,
      ~block.length & 0xff,
      (~block.length >>> 8) & 0xff,
    );
    for (const byte of block) out.push(byte);
  } while (offset < raw.length);
  out.push(...u32(adler32(raw)));
  return Uint8Array.from(out);
}

/** Base64 of bytes, without Buffer. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A `width`×`height` PNG of one colour: its base64 text and its size in bytes. */
export function solidPng(
  width: number,
  height: number,
  [r, g, b]: readonly [number, number, number],
): { base64: string; bytes: number } {
  const row = 1 + width * 3;
  const raw = new Uint8Array(row * height);
  for (let y = 0; y < height; y += 1) {
    // Each scanline starts with filter type 0 (none), then its RGB pixels.
    for (let x = 0; x < width; x += 1) raw.set([r, g, b], y * row + 1 + x * 3);
  }
  const header = Uint8Array.from([...u32(width), ...u32(height), 8, 2, 0, 0, 0]);
  const png = Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk("IHDR", header),
    ...chunk("IDAT", storedZlib(raw)),
    ...chunk("IEND", new Uint8Array(0)),
  ]);
  return { base64: base64(png), bytes: png.length };
}
