import { Buffer } from "node:buffer";
import type { Framing } from "../../mcp/json-rpc.js";
import { FrameLimits } from "./frame-limits.js";

/** Options for {@link encodeFrame}. */
export interface EncodeFrameOptions {
  /**
   * `auto` (the default) frames bodies of at most 8 KiB as a JSON line and larger ones with
   * `Content-Length`, which is what the daemon accepts for requests. `newline` and
   * `content-length` force one framing (a daemon answers in the framing of the request, whatever
   * the size).
   */
  framing?: "auto" | Framing;
}

const LINE_FEED = 0x0a;
const utf8 = new TextEncoder();

/**
 * Encodes one message as a frame: its compact JSON in UTF-8, either followed by `\n` or preceded
 * by `Content-Length: N\r\n\r\n` (N counts bytes, not characters). JSON.stringify escapes every
 * line feed, so a newline frame has exactly one, at its end.
 *
 * @throws TypeError when the message has no JSON form (`undefined`, a function, a symbol) or
 * cannot be serialised (a BigInt, a cycle).
 */
export function encodeFrame(message: unknown, options: EncodeFrameOptions = {}): Uint8Array {
  const json = jsonOf(message);
  const framing = options.framing ?? "auto";
  // A line that certainly fits (or must be one) is encoded in one step: Node's pooled Buffer.from is
  // cheaper for a small message than encoding into scratch space and copying.
  if (framing === "newline" || (framing === "auto" && json.length * 3 <= FrameLimits.maxNewlineRequestBytes)) return Buffer.from(`${json}\n`, "utf8");
  // Longer text is encoded once into scratch space, which also measures it, then copied behind its header.
  const [bytes, length] = utf8Bytes(json);
  if (framing === "auto" && length <= FrameLimits.maxNewlineRequestBytes) {
    const line = new Uint8Array(length + 1);
    line.set(bytes.subarray(0, length));
    line[length] = LINE_FEED;
    return line;
  }
  const header = utf8.encode(`Content-Length: ${length}\r\n\r\n`);
  const frame = new Uint8Array(header.length + length);
  frame.set(header);
  frame.set(bytes.subarray(0, length), header.length);
  return frame;
}

/**
 * A frame as {@link encodeFrameForStream} returns it: the whole frame as text, for the stream to
 * encode, or a long frame measured but not yet encoded — its `Content-Length` header, its body and
 * the body's UTF-8 length, for the caller's bounds — which {@link streamFrameBytes} turns into bytes.
 */
export type StreamFrame = string | readonly [header: string, body: string, bodyBytes: number];

/**
 * A frame for a Node stream (sockets and pipes): a short frame as text, written with `"utf8"`, or
 * a long one measured (`byteLength` measures a string's UTF-8 length, e.g. `Buffer.byteLength`) so
 * the caller can check its bounds before any bytes are made. With `framing` `auto` it is the same
 * frame as {@link encodeFrame}: a JSON line up to 8 KiB, `Content-Length` above — what a Glass
 * daemon reads. With `newline` it is always a JSON line, whatever the size — what a plain MCP
 * server reads (it knows no `Content-Length`, and has no line limit).
 */
export function encodeFrameForStream(message: unknown, byteLength: (text: string) => number, framing: "auto" | "newline" = "auto"): StreamFrame {
  const json = jsonOf(message);
  // JSON.stringify escapes every line feed, so the line below is one frame.
  if (framing === "newline" || json.length * 3 <= FrameLimits.maxNewlineRequestBytes) return `${json}\n`;
  const length = byteLength(json);
  if (length <= FrameLimits.maxNewlineRequestBytes) return `${json}\n`;
  return [`Content-Length: ${length}\r\n\r\n`, json, length];
}

/**
 * The bytes of a long frame from {@link encodeFrameForStream}: one buffer of exactly the frame's
 * size, the header then the body encoded straight into it. Measured on 100 KB and 256 KiB
 * messages over a Unix socket, writing this buffer costs 15-20 % less CPU than handing the stream
 * the header and the body as text, which a corked stream passes to `writev`: there the text is
 * measured again and encoded into storage of the stream's own.
 */
export function streamFrameBytes(frame: readonly [header: string, body: string, bodyBytes: number]): Buffer {
  const [header, body, bodyBytes] = frame;
  const bytes = Buffer.allocUnsafe(header.length + bodyBytes);
  bytes.write(header, 0, "latin1");
  bytes.write(body, header.length, "utf8");
  return bytes;
}

/** `JSON.stringify(message)`; a TypeError when the message has no JSON form. */
function jsonOf(message: unknown): string {
  const json: string | undefined = JSON.stringify(message);
  if (json === undefined) throw new TypeError("encodeFrame: the message has no JSON form (undefined, a function or a symbol)");
  return json;
}

/** Reused for encoding (TextEncoder.encodeInto into a ready buffer is several times faster than encode). */
let scratch = new Uint8Array(16 * 1024);
/** Larger scratch buffers are not kept: one big message must not pin megabytes for the process's life. */
const KEEP_SCRATCH_BYTES = 1024 * 1024;

/** The UTF-8 bytes of `text` in a buffer (valid up to the returned length), without a copy of their own. */
function utf8Bytes(text: string): [Uint8Array, number] {
  const worst = text.length * 3;
  let target = scratch;
  if (worst > target.length) {
    target = new Uint8Array(worst);
    if (worst <= KEEP_SCRATCH_BYTES) scratch = target;
  }
  return [target, utf8.encodeInto(text, target).written];
}
