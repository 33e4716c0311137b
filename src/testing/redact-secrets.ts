import { REDACTED, redactText } from "../transport/redact-url.js";

/** What replaces a secret in recorded data (the same marker `Lease.toJSON()` shows). */
export { REDACTED };

/**
 * A deep copy of a JSON value in which every string value and object key is scrubbed with
 * `redactText`: each of `secrets` — whole or in part, as written or JSON-escaped once or twice —
 * and, whatever their value, URL credentials anywhere in a string (`?token=…`, `#access_token=…`,
 * `user:password@host`) and bridge tokens as they travel (`glass-bearer.…`, `Bearer …`) are
 * replaced by {@link REDACTED}. Pure.
 */
export function redactSecrets<T>(value: T, secrets: Iterable<string>): T {
  const known = [...secrets];
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redactText(item, known);
    if (Array.isArray(item)) return item.map(walk);
    if (item === null || typeof item !== "object") return item;
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item)) copy[redactText(key, known)] = walk(entry);
    return copy;
  };
  return walk(value) as T;
}
