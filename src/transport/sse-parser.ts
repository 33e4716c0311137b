import { TransportLimits } from "./transport.js";

/** One event of a Server-Sent Events stream. */
export interface SseEvent {
  /** The event type: the `event:` field, or `message` when the event has none. */
  type: string;
  /** The event's `data:` lines joined with `\n`. */
  data: string;
  /** The stream's last event id when the event was dispatched (`id:` field; `""` when none was sent). */
  lastEventId: string;
}

/** The bound of an {@link SseParser}. */
export interface SseParserOptions {
  /**
   * The largest event, in UTF-8 bytes of its data (its `data:` values and the `\n` joining them);
   * default 32 MiB, the protocol's bound per message. A line may be a little longer (its field
   * name and colon).
   */
  maxEventBytes?: number;
}

/**
 * An incremental parser of a `text/event-stream` body: push the bytes as they arrive (split
 * anywhere, even inside a UTF-8 character or between a CR and its LF) and take the complete events.
 */
export interface SseParser {
  /**
   * Parses the next chunk; returns the events it completed (often none, sometimes several). The
   * parser keeps references to the chunks it is given: do not modify a chunk after pushing it.
   * @throws SseTooLargeError when an event or a line passes the bound; the stream must then be abandoned.
   */
  push(chunk: Uint8Array | string): SseEvent[];
  /**
   * Ends the stream. An event not terminated by a blank line is discarded, as the HTML standard
   * requires; returns the events the last line completed (normally none).
   */
  end(): SseEvent[];
  /**
   * The bytes the parser holds until more arrive: the start of a line that has not ended and the
   * data of an event not yet dispatched (each at most about `maxEventBytes`).
   */
  readonly heldBytes: number;
  /**
   * The stream's last event id (`""` when none): the `id:` of the last event the stream finished
   * (with a blank line, even one without data, such as a priming event) — what a reconnection sends
   * as `Last-Event-ID`. An `id:` of an event the stream has not finished is not counted yet, so a
   * stream cut off inside an event resumes before that event.
   */
  readonly lastEventId: string;
  /** The reconnection delay the stream asked for with `retry:`, in milliseconds, if it did. */
  readonly retryMs: number | undefined;
}

/** An event or a line of an SSE stream passed the parser's bound; `completed` holds the events finished before it in the same chunk. */
export class SseTooLargeError extends Error {
  constructor(
    /** What passed the bound: an `event` (its data) or a `line` that has not ended. */
    readonly part: "event" | "line",
    /** Bytes of it seen when it passed the bound. */
    readonly bytes: number,
    /** The bound it passed. */
    readonly maxBytes: number,
    /** Events completed before it in the same chunk. */
    readonly completed: SseEvent[],
  ) {
    super(
      `${part === "event" ? "an event" : "a line"} of the SSE stream passed ${bytes} bytes (at most ${maxBytes} are read)`,
    );
    this.name = "SseTooLargeError";
  }
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
/** Room on a line for its field name and colon (`data: ` and the like) beyond the event bound. */
const FIELD_ALLOWANCE = 64;
/** The longest field name the parser knows (`event`, `retry`): longer names are unknown fields, never decoded. */
const LONGEST_FIELD = 5;
const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * Creates a parser for one Server-Sent Events stream, following the HTML standard's
 * interpretation rules: lines end in CRLF, LF or CR; a line starting with `:` is a comment; `field:
 * value` loses one space after the colon; `data:` lines accumulate; a blank line dispatches the
 * event (unless it has no data); `id:` with a NUL is ignored; `retry:` takes only digits; unknown
 * fields are ignored. A leading BOM is dropped; bytes that are not UTF-8 become U+FFFD.
 * Platform-free.
 *
 * Bounded: lines are split on their bytes and decoded once complete, so what the parser holds is
 * counted in bytes — at most one event's data and one unfinished line, each about `maxEventBytes`.
 * Past that `push` throws an {@link SseTooLargeError}. Each step is linear in the bytes pushed.
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
export function createSseParser(options: SseParserOptions = {}): SseParser {
  const maxEventBytes = options.maxEventBytes ?? TransportLimits.maxMessageBytes;
  const maxLineBytes = maxEventBytes + FIELD_ALLOWANCE;
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The pieces of a line whose end has not arrived yet. */
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  /** The previous chunk ended with CR: a LF opening the next chunk belongs to that line break. */
  let skipLf = false;
  let firstLine = true;
  let type = "";
  let data: string[] = [];
  let dataBytes = 0;
  /** The `id:` last read, which becomes the stream's last event id when its event is finished. */
  let idBuffer = "";
  let lastEventId = "";
  let retryMs: number | undefined;

  /** Interprets one complete line (`field: value`, a comment, or blank). */
  const interpret = (whole: Uint8Array, events: SseEvent[]): void => {
    let line = whole;
    if (firstLine) {
      firstLine = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length === 0) {
      // A blank line finishes the event: its id becomes the stream's, and it is dispatched if it has data.
      lastEventId = idBuffer;
      if (data.length > 0) events.push({ type: type || "message", data: data.join("\n"), lastEventId });
      data = [];
      dataBytes = 0;
      type = "";
      return;
    }
    const colon = line.indexOf(COLON);
    if (colon === 0) return; // a comment (servers send them as keep-alives)
    const nameEnd = colon < 0 ? line.length : colon;
    if (nameEnd > LONGEST_FIELD) return; // an unknown field
    const name = decoder.decode(line.subarray(0, nameEnd));
    const valueStart = colon < 0 ? line.length : line[colon + 1] === SPACE ? colon + 2 : colon + 1;
    const value = line.subarray(valueStart);
    if (name === "data") {
      const added = value.length + (data.length > 0 ? 1 : 0);
      if (dataBytes + added > maxEventBytes)
        throw new SseTooLargeError("event", dataBytes + added, maxEventBytes, events);
      dataBytes += added;
      data.push(decoder.decode(value));
    } else if (name === "event") type = decoder.decode(value);
    else if (name === "id") idBuffer = value.includes(0) ? idBuffer : decoder.decode(value);
    else if (name === "retry" && value.length > 0 && value.every((byte) => byte >= DIGIT_ZERO && byte <= DIGIT_NINE))
      retryMs = Number(decoder.decode(value));
    // unknown fields are ignored
  };

  /** Keeps the start of a line that has not ended, within the bound. */
  const keep = (piece: Uint8Array, events: SseEvent[]): void => {
    if (partBytes + piece.length > maxLineBytes)
      throw new SseTooLargeError("line", partBytes + piece.length, maxLineBytes, events);
    parts.push(piece);
    partBytes += piece.length;
  };

  /** The line whose last piece is `tail`, in one array. */
  const complete = (tail: Uint8Array, events: SseEvent[]): Uint8Array => {
    if (parts.length === 0) return tail;
    keep(tail, events);
    const line = new Uint8Array(partBytes);
    let offset = 0;
    for (const part of parts) {
      line.set(part, offset);
      offset += part.length;
    }
    parts = [];
    partBytes = 0;
    return line;
  };

  const feed = (bytes: Uint8Array): SseEvent[] => {
    const events: SseEvent[] = [];
    let index = 0;
    if (skipLf && bytes.length > 0) {
      skipLf = false;
      if (bytes[0] === LF) index = 1;
    }
    // The next LF and CR at or after `index` (-1: none left in `bytes`), searched again only when passed.
    let lf = -2;
    let cr = -2;
    while (index < bytes.length) {
      if (lf !== -1 && lf < index) lf = bytes.indexOf(LF, index);
      if (cr !== -1 && cr < index) cr = bytes.indexOf(CR, index);
      if (lf === -1 && cr === -1) {
        keep(bytes.subarray(index), events);
        break;
      }
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const line = complete(bytes.subarray(index, end), events);
      index = end + 1;
      if (end === cr) {
        if (index === bytes.length) skipLf = true;
        else if (bytes[index] === LF) index += 1;
      }
      interpret(line, events);
    }
    return events;
  };

  return {
    push(chunk) {
      return feed(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
    end() {
      const events = feed(EMPTY);
      // The standard discards an event the stream did not finish with a blank line.
      parts = [];
      partBytes = 0;
      data = [];
      dataBytes = 0;
      type = "";
      return events;
    },
    get heldBytes() {
      return partBytes + dataBytes;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}
