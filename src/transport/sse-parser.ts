/** One event of a Server-Sent Events stream. */
export interface SseEvent {
  /** The event type: the `event:` field, or `message` when the event has none. */
  type: string;
  /** The event's `data:` lines joined with `\n`. */
  data: string;
  /** The stream's last event id when the event was dispatched (`id:` field; `""` when none was sent). */
  lastEventId: string;
}

/**
 * An incremental parser of a `text/event-stream` body: push the bytes as they arrive (split
 * anywhere, even inside a UTF-8 character or between a CR and its LF) and take the complete events.
 */
export interface SseParser {
  /** Parses the next chunk; returns the events it completed (often none, sometimes several). */
  push(chunk: Uint8Array | string): SseEvent[];
  /**
   * Ends the stream. An event not terminated by a blank line is discarded, as the HTML standard
   * requires; returns what the decoder still held (normally nothing).
   */
  end(): SseEvent[];
  /** The last `id:` the stream set (`""` when none): what a reconnection would send as `Last-Event-ID`. */
  readonly lastEventId: string;
  /** The reconnection delay the stream asked for with `retry:`, in milliseconds, if it did. */
  readonly retryMs: number | undefined;
}

/**
 * Creates a parser for one Server-Sent Events stream, following the HTML standard's
 * interpretation rules: lines end in CRLF, LF or CR; a line starting with `:` is a comment; `field:
 * value` loses one space after the colon; `data:` lines accumulate; a blank line dispatches the
 * event (unless it has no data); `id:` with a NUL is ignored; `retry:` takes only digits; unknown
 * fields are ignored. Bytes are decoded as UTF-8 with a streaming TextDecoder (a leading BOM is
 * dropped). Platform-free.
 *
 * @example
 * ```ts
 * import { createSseParser } from "./sse-parser.js";
 *
 * declare const chunks: AsyncIterable<Uint8Array>; // a text/event-stream body, as it arrives
 * declare function handle(message: unknown): void;
 *
 * const parser = createSseParser();
 * for await (const chunk of chunks) {
 *   for (const event of parser.push(chunk)) if (event.type === "message") handle(JSON.parse(event.data));
 * }
 * ```
 */
export function createSseParser(): SseParser {
  const decoder = new TextDecoder();
  /** The start of a line whose end has not arrived yet. */
  let line = "";
  /** The previous chunk ended with CR: a LF opening the next chunk belongs to that line break. */
  let skipLf = false;
  let atStart = true;
  let type = "";
  let data: string[] = [];
  let lastEventId = "";
  let retryMs: number | undefined;

  /** Interprets one complete line (`field: value`, a comment, or blank). */
  const interpret = (text: string, events: SseEvent[]): void => {
    if (text === "") {
      // A blank line dispatches the event, if it has data.
      if (data.length > 0) events.push({ type: type || "message", data: data.join("\n"), lastEventId });
      data = [];
      type = "";
      return;
    }
    const colon = text.indexOf(":");
    if (colon === 0) return; // a comment (servers send them as keep-alives)
    const name = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(text.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (name === "event") type = value;
    else if (name === "data") data.push(value);
    else if (name === "id") lastEventId = value.includes("\0") ? lastEventId : value;
    else if (name === "retry" && /^[0-9]+$/.test(value)) retryMs = Number(value);
    // unknown fields are ignored
  };

  const feed = (text: string): SseEvent[] => {
    const events: SseEvent[] = [];
    let index = 0;
    if (skipLf && text !== "") {
      skipLf = false;
      if (text.charCodeAt(0) === 0x0a) index = 1;
    }
    // The next LF and CR at or after `index` (-1: none left in `text`), searched again only when passed.
    let lf = -2;
    let cr = -2;
    while (index < text.length) {
      if (lf !== -1 && lf < index) lf = text.indexOf("\n", index);
      if (cr !== -1 && cr < index) cr = text.indexOf("\r", index);
      if (lf === -1 && cr === -1) {
        line += text.slice(index);
        break;
      }
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const complete = line + text.slice(index, end);
      line = "";
      index = end + 1;
      if (end === cr) {
        if (index === text.length) skipLf = true;
        else if (text.charCodeAt(index) === 0x0a) index += 1;
      }
      interpret(complete, events);
    }
    return events;
  };

  return {
    push(chunk) {
      let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (atStart && text !== "") {
        atStart = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return feed(text);
    },
    end() {
      const events = feed(decoder.decode());
      // The standard discards an event the stream did not finish with a blank line.
      line = "";
      data = [];
      type = "";
      return events;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}
