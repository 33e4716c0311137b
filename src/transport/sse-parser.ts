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
 * const parser = createSseParser();
 * for (const event of parser.push(chunk)) if (event.type === "message") handle(JSON.parse(event.data));
 */
export function createSseParser(): SseParser {
  return new IncrementalSseParser();
}

class IncrementalSseParser implements SseParser {
  readonly #decoder = new TextDecoder("utf-8");
  /** The start of a line whose end has not arrived yet. */
  #line = "";
  /** The previous chunk ended with CR: a LF opening the next chunk belongs to that line break. */
  #skipLeadingLf = false;
  #atStreamStart = true;
  #eventType = "";
  #data: string[] = [];
  #lastEventId = "";
  #retryMs: number | undefined;

  get lastEventId(): string {
    return this.#lastEventId;
  }

  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    if (this.#atStreamStart && text !== "") {
      this.#atStreamStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    this.#feed(text, events);
    return events;
  }

  end(): SseEvent[] {
    const events: SseEvent[] = [];
    this.#feed(this.#decoder.decode(), events);
    // The standard discards an event the stream did not finish with a blank line.
    this.#line = "";
    this.#data = [];
    this.#eventType = "";
    return events;
  }

  #feed(text: string, events: SseEvent[]): void {
    let index = 0;
    if (this.#skipLeadingLf && text !== "") {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(0) === 0x0a) index = 1;
    }
    while (index < text.length) {
      const lf = text.indexOf("\n", index);
      const cr = text.indexOf("\r", index);
      if (lf === -1 && cr === -1) {
        this.#line += text.slice(index);
        return;
      }
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const line = this.#line + text.slice(index, end);
      this.#line = "";
      index = end + 1;
      if (end === cr) {
        if (index === text.length) this.#skipLeadingLf = true;
        else if (text.charCodeAt(index) === 0x0a) index += 1;
      }
      this.#interpret(line, events);
    }
  }

  #interpret(line: string, events: SseEvent[]): void {
    if (line === "") {
      this.#dispatch(events);
      return;
    }
    if (line.startsWith(":")) return; // a comment (servers send them as keep-alives)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.#eventType = value;
        break;
      case "data":
        this.#data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.#lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.#retryMs = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  #dispatch(events: SseEvent[]): void {
    const data = this.#data;
    const type = this.#eventType;
    this.#data = [];
    this.#eventType = "";
    if (data.length === 0) return; // no data: nothing to dispatch
    events.push({ type: type === "" ? "message" : type, data: data.join("\n"), lastEventId: this.#lastEventId });
  }
}
