import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { jsonByteLength } from "../validation/byte-length.js";
import { canonicalJson } from "./canonical-json.js";

/** Deeper than this, two values are compared whole (their canonical JSON), not field by field. */
const MAX_DIFF_DEPTH = 32;

/**
 * One place where a sent payload and a recorded one differ: a JSON pointer (RFC 6901, `""` for the
 * payload itself) and the value on each side. A side whose field is absent has no key at all
 * (`"sent" in difference` is false: the field was not sent).
 */
export interface PayloadDifference {
  /** Where, as a JSON pointer from the payload: `/target/name`, `/steps/0/kind`. */
  readonly path: string;
  /** The sent value; absent when the field was not sent. */
  readonly sent?: unknown;
  /** The recorded value; absent when the field was not recorded. */
  readonly recorded?: unknown;
}

/**
 * The field-level differences between a sent payload and a recorded one, sorted by path (object
 * keys in code-unit order, array items by index). Objects are compared member by member and arrays
 * item by item; a field present on one side only is one difference, whatever it holds, and so is a
 * leaf (or a value of another kind) that differs. Stops once `max` differences are found, so
 * ranking many recorded payloads costs no more than needed.
 */
export function payloadDifferences(
  sent: unknown,
  recorded: unknown,
  max = Number.POSITIVE_INFINITY,
): PayloadDifference[] {
  const out: PayloadDifference[] = [];
  compare(sent, recorded, "", 0, out, max);
  return out;
}

function compare(
  sent: unknown,
  recorded: unknown,
  path: string,
  depth: number,
  out: PayloadDifference[],
  max: number,
): void {
  if (out.length >= max) return;
  if (depth < MAX_DIFF_DEPTH && isRecord(sent) && isRecord(recorded)) {
    const keys = [...new Set([...Object.keys(sent), ...Object.keys(recorded)])].sort();
    for (const key of keys) {
      member(sent[key], recorded[key], `${path}/${escapePointer(key)}`, depth, out, max);
      if (out.length >= max) return;
    }
    return;
  }
  if (depth < MAX_DIFF_DEPTH && Array.isArray(sent) && Array.isArray(recorded)) {
    const length = Math.max(sent.length, recorded.length);
    for (let i = 0; i < length && out.length < max; i++) member(sent[i], recorded[i], `${path}/${i}`, depth, out, max);
    return;
  }
  if (sent === recorded) return;
  if (
    typeof sent === "object" &&
    typeof recorded === "object" &&
    sent !== null &&
    recorded !== null &&
    canonicalJson(sent) === canonicalJson(recorded)
  )
    return;
  out.push({ path, sent, recorded });
}

function member(
  sent: unknown,
  recorded: unknown,
  path: string,
  depth: number,
  out: PayloadDifference[],
  max: number,
): void {
  if (sent === undefined && recorded === undefined) return;
  if (sent === undefined) out.push({ path, recorded });
  else if (recorded === undefined) out.push({ path, sent });
  else compare(sent, recorded, path, depth + 1, out, max);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A key as a JSON pointer segment: `~` becomes `~0`, `/` becomes `~1` (RFC 6901). */
export function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * A value's compact JSON, at most `maxBytes` UTF-8 bytes: the whole text when it fits, else its
 * beginning ending in "…". Builds no more of the text than it shows, however large the value.
 */
export function previewJson(value: unknown, maxBytes: number): string {
  if (jsonByteLength(value, maxBytes) <= maxBytes) return JSON.stringify(value) ?? "null";
  const state = { text: "", limit: maxBytes };
  writePreview(value, state, 0);
  return truncateUtf8(state.text, maxBytes);
}

function writePreview(value: unknown, state: { text: string; limit: number }, depth: number): void {
  if (state.text.length > state.limit) return;
  if (typeof value === "string") {
    state.text += JSON.stringify(value.slice(0, state.limit + 1));
    return;
  }
  if (value === null || typeof value !== "object") {
    state.text += JSON.stringify(value) ?? "null";
    return;
  }
  if (depth >= MAX_DIFF_DEPTH) {
    state.text += "…";
    return;
  }
  if (Array.isArray(value)) {
    state.text += "[";
    for (let i = 0; i < value.length && state.text.length <= state.limit; i++) {
      if (i > 0) state.text += ",";
      writePreview(value[i], state, depth + 1);
    }
    state.text += "]";
    return;
  }
  state.text += "{";
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (state.text.length > state.limit) return;
    if (item === undefined) continue;
    state.text += `${first ? "" : ","}${JSON.stringify(key.slice(0, state.limit + 1))}:`;
    first = false;
    writePreview(item, state, depth + 1);
  }
  state.text += "}";
}
