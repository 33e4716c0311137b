// Reading HTTP response bodies within a bound: the text of a JSON answer or of an error page, its
// media type, and letting go of a body that will not be read.

import { ignore } from "./transport-util.js";

/**
 * What the server sent is past the bound per message — a call's answer or the server stream's —
 * with `howFound` saying how that was found (`its JSON body passed 33554432 bytes`).
 */
export class AnswerTooLarge extends Error {
  constructor(
    readonly howFound: string,
    readonly maxBytes: number,
  ) {
    super(`what the server sent is over the ${maxBytes}-byte limit per message (${howFound})`);
  }
}

/** What to do with a body past its bound: fail with {@link AnswerTooLarge}, or return the text read so far. */
export type Overflow = "fail" | "cut";

/**
 * A response body as text, read as it streams and counted. Past `maxBytes` the body is cancelled
 * and, with `overflow` `fail`, AnswerTooLarge is thrown (at once when its Content-Length declares
 * more); with `cut`, the text read so far is returned. `onReader` is given the body's reader, so a
 * cancel can close it.
 */
export async function readText(
  response: Response,
  maxBytes: number,
  overflow: Overflow,
  onReader?: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): Promise<string> {
  const { body } = response;
  if (body === null) return "";
  const declared = Number(response.headers.get("content-length"));
  if (overflow === "fail" && declared > maxBytes) {
    await discard(response);
    throw new AnswerTooLarge(`its Content-Length declared ${declared} bytes`, maxBytes);
  }
  const reader = body.getReader();
  onReader?.(reader);
  const decoder = new TextDecoder();
  const texts: string[] = [];
  let bytes = 0;
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      const over = bytes + chunk.value.length - maxBytes;
      if (over > 0) {
        if (overflow === "fail") throw new AnswerTooLarge(`its JSON body passed ${maxBytes} bytes`, maxBytes);
        texts.push(decoder.decode(chunk.value.subarray(0, chunk.value.length - over)));
        return texts.join("");
      }
      bytes += chunk.value.length;
      texts.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    if (!done) reader.cancel().catch(ignore);
  }
  texts.push(decoder.decode());
  return texts.join("");
}

/** A response's media type (`text/event-stream`), lower-cased, without parameters; `""` when it has none. */
export function contentTypeOf(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Cancels a body that will not be read, so its connection is released. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(ignore);
}
