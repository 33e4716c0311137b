import { quoteUntrusted } from "../errors/redact.js";

/** The protocol's bound on an error message, in UTF-8 bytes. */
export const MAX_DAEMON_MESSAGE_BYTES = 512;

/**
 * A daemon's text as a failure's message: control characters written out as `GlassError` shows
 * them (tab and line feed kept), then cut to the protocol's 512 bytes (see `quoteUntrusted`), so
 * the bound holds for the `rawMessage` the caller sees, escapes included.
 */
export function boundedDaemonMessage(text: string): string {
  return quoteUntrusted(text, MAX_DAEMON_MESSAGE_BYTES, { keepLineBreaks: true });
}
