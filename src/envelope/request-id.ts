/** Random bytes fetched at once and handed out 16 at a time: one system call per 256 ids. */
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let next = POOL_IDS;
const HEX: string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * A fresh request id: a random UUID (version 4). Uses `crypto.getRandomValues`, which every
 * runtime the SDK supports has (Node 20, browsers on http and https pages, workers), drawing from a
 * pool so that an id costs no system call of its own.
 */
export function newRequestId(): string {
  if (next === POOL_IDS) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  const o = 16 * next++;
  const b = pool;
  return (
    HEX[b[o]!]! + HEX[b[o + 1]!]! + HEX[b[o + 2]!]! + HEX[b[o + 3]!]! + "-" +
    HEX[b[o + 4]!]! + HEX[b[o + 5]!]! + "-" +
    HEX[(b[o + 6]! & 0x0f) | 0x40]! + HEX[b[o + 7]!]! + "-" +
    HEX[(b[o + 8]! & 0x3f) | 0x80]! + HEX[b[o + 9]!]! + "-" +
    HEX[b[o + 10]!]! + HEX[b[o + 11]!]! + HEX[b[o + 12]!]! + HEX[b[o + 13]!]! + HEX[b[o + 14]!]! + HEX[b[o + 15]!]!
  );
}
