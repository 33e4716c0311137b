/**
 * The canonical JSON text of a value: compact, object keys sorted by UTF-16 code unit, array order
 * kept. Two JSON values that differ only in key order have the same canonical text, so it can key a
 * `Map`. Fields whose value is `undefined` are skipped, as `JSON.stringify` skips them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = "{";
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalJson(item)}`;
    first = false;
  }
  return `${text}}`;
}
