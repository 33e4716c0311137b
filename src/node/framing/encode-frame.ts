import { FrameLimits } from "./frame-limits.js";

/** How one message is framed on the wire: a JSON line, or a `Content-Length` header and body. */
export type Framing = "newline" | "content-length";

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
 * by `Content-Length: N\r\n\r\n` (N counts bytes, not characters).
 *
 * @throws TypeError when the message has no JSON form (`undefined`, a function, a symbol) or
 * cannot be serialised (a BigInt, a cycle).
 */
export function encodeFrame(message: unknown, options: EncodeFrameOptions = {}): Uint8Array {
  const json = JSON.stringify(message);
  if (json === undefined) throw new TypeError("encodeFrame: the message has no JSON form (undefined, a function or a symbol)");
  const framing = options.framing ?? "auto";
  // Encode once with the line feed in place: most messages are small and go out newline-framed.
  const line = utf8.encode(`${json}\n`);
  const bodyBytes = line.length - 1;
  const fitsLine = framing === "newline" || (framing === "auto" && bodyBytes <= FrameLimits.maxNewlineRequestBytes);
  if (fitsLine) {
    // A raw line feed inside the body would end the frame early. JSON.stringify escapes every line
    // feed, so this never happens; the check keeps the rule true should the serialiser change.
    const earlyLineFeed = line.indexOf(LINE_FEED);
    if (earlyLineFeed === bodyBytes) return line;
    if (framing === "newline") throw new Error("encodeFrame: the JSON body contains a raw line feed and cannot be newline-framed");
  }
  const header = utf8.encode(`Content-Length: ${bodyBytes}\r\n\r\n`);
  const frame = new Uint8Array(header.length + bodyBytes);
  frame.set(header);
  frame.set(line.subarray(0, bodyBytes), header.length);
  return frame;
}
