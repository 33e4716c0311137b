/** What replaces a secret in recorded data (the same marker `Lease.toJSON()` shows). */
export const REDACTED = "[redacted]";

/**
 * A deep copy of a JSON value in which every occurrence of each secret — inside any string value
 * or object key, whole or in part, as written or JSON-escaped once or twice — is replaced by
 * {@link REDACTED}. Longer secrets are replaced first; empty strings are ignored. Pure.
 */
export function redactSecrets<T>(value: T, secrets: Iterable<string>): T {
  // A secret may also appear escaped, inside a string that is itself JSON (once or twice over).
  const forms = [...secrets].flatMap((secret) => {
    const once = JSON.stringify(secret).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    return [secret, once, twice];
  });
  const ordered = [...new Set(forms)].filter((secret) => secret !== "").sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => {
    let out = text;
    for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return scrub(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item === null || typeof item !== "object") return item;
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item)) copy[scrub(key)] = walk(entry);
    return copy;
  };
  return walk(value) as T;
}
