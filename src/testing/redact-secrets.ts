import { createRedactor, REDACTED, redactJson } from "../errors/redact.js";

/** What replaces a secret in recorded data (the same marker `Lease.toJSON()` shows). */
export { REDACTED };

/**
 * A deep copy of a JSON value in which every string value and object key is scrubbed
 * ({@link createRedactor}): each of `secrets` — as written, JSON-escaped once or twice,
 * percent-encoded (also form-urlencoded) or HTML-escaped — and, whatever their value, URL credentials anywhere in a string (`?token=…`,
 * `#access_token=…`, `user:password@host`) and bridge tokens as they travel (`glass-bearer.…`,
 * `Bearer …`) are replaced by {@link REDACTED}. Pure.
 */
export function redactSecrets<T>(value: T, secrets: Iterable<string>): T {
  return redactJson(value, createRedactor(secrets));
}
