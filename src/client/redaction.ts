import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { createRedactor, describeError, neutraliseControls, redactJson } from "../errors/redact.js";
import { GlassError } from "../errors/glass-error.js";
import type { GlassTransport } from "../transport/transport.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import type { GlassLogEvent } from "./options.js";

/** How many lease tokens the client keeps scrubbing after it stopped holding them (a daemon may still echo them). */
const REMEMBERED_TOKENS = 16;

/**
 * Keeps the secrets a client knows out of what it reports: the lease tokens it holds or held, the
 * lease token of a hand-built request, the transport's own secrets (through the transport's
 * `redact`, e.g. a bridge token a server echoes) and credentials in URLs. Every failure a call
 * reports (message and details), every error a connect or a lease method throws and every log
 * event that may quote the daemon go through it. Failures only: a successful result is never
 * touched.
 */
export class ClientRedaction {
  readonly #transport: GlassTransport;
  readonly #tokens: string[] = [];
  #redactor: ((text: string) => string) | undefined;

  constructor(transport: GlassTransport) {
    this.#transport = transport;
  }

  /** Adds a lease token to scrub from now on (the latest {@link REMEMBERED_TOKENS} are kept). */
  rememberToken(token: string): void {
    if (typeof token !== "string" || token === "" || this.#tokens.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > REMEMBERED_TOKENS) this.#tokens.shift();
    this.#redactor = undefined;
  }

  /** A scrubbing function for texts, with `extra` secrets besides the remembered ones. */
  #scrubber(extra: readonly string[]): (text: string) => string {
    const own =
      extra.length === 0
        ? (this.#redactor ??= createRedactor(this.#tokens))
        : createRedactor([...this.#tokens, ...extra]);
    return (text) => this.#viaTransport(own(text));
  }

  /** The transport's own scrubbing, when it has one (a transport that fails at it changes nothing). */
  #viaTransport(text: string): string {
    const transport = this.#transport;
    if (typeof transport.redact !== "function") return text;
    try {
      const out = transport.redact(text);
      return typeof out === "string" ? out : text;
    } catch {
      return text;
    }
  }

  /** A text scrubbed of every secret the client knows (and `extra`). */
  text(text: string, extra: readonly string[] = []): string {
    return this.#scrubber(extra)(text);
  }

  /** A failure's error object with every string in it (message, code, details, keys) scrubbed. */
  errorObject(error: GlassErrorObject, extra: readonly string[] = []): GlassErrorObject {
    return redactJson(error, this.#scrubber(extra));
  }

  /**
   * A thrown error as the caller may see it: a GlassError (anything else becomes one, code
   * `internal`) whose message and details are scrubbed. The error is returned as it is when
   * nothing in it, nor in its causes, needed scrubbing; otherwise a copy without the causes.
   */
  glassError(error: unknown): GlassError {
    const glassError =
      error instanceof GlassError ? error : new GlassError({ code: "internal", message: describeError(error) });
    const scrub = this.#scrubber([]);
    let changed = false;
    const watched = (text: string): string => {
      const out = scrub(text);
      if (out !== text) changed = true;
      return out;
    };
    const scrubbed = redactJson(glassError.toJSON(), watched) as unknown as GlassErrorObject;
    for (
      let cause: unknown = glassError.cause, hops = 0;
      cause instanceof Error && hops < 8 && !changed;
      cause = cause.cause, hops++
    )
      watched(cause.message);
    if (!changed) return glassError;
    return errorFromEnvelope(scrubbed, glassError.operation, glassError.requestId);
  }

  /** A log event with the parts that may quote the daemon (a wire or connection detail, an error code, a lease's session id) scrubbed and on one line. */
  logEvent(event: GlassLogEvent): GlassLogEvent {
    if (event.type === "lease") {
      const sessionId = neutraliseControls(this.text(event.sessionId));
      return sessionId === event.sessionId ? event : { ...event, sessionId };
    }
    if (event.type === "wire" || event.type === "connection") {
      const detail = neutraliseControls(this.text(event.detail));
      return detail === event.detail ? event : { ...event, detail };
    }
    if ((event.type === "response" || event.type === "retry") && typeof event.code === "string" && event.code !== "") {
      const code = neutraliseControls(this.text(event.code));
      return code === event.code ? event : { ...event, code };
    }
    return event;
  }
}
