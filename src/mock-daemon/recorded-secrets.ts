import { REDACTED } from "../errors/redact.js";
import type { PayloadDifference } from "./payload-difference.js";

// A fixture recorded with `redact` holds `[redacted]` where a secret was. A live call that misses
// such a recording differs from it right there, and the miss must not print the secret the
// recorder was told to hide.

/** What a miss may not show of the payload sent: the secrets it carries where recordings hide one. */
export interface RecordedSecrets {
  /** The sent text standing where a recording has `[redacted]` (each found by the text around it). */
  readonly secrets: readonly string[];
  /** Whether a sent value differs from a recording that hides a secret in a way that does not show which part is the secret. */
  readonly unplaced: boolean;
}

/** The escaped form of `text` in a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The secrets in `sent` where `recorded` has `[redacted]`: the recorded text around each marker is
 * kept as it was, so the sent text between those pieces is what the recorder hid. `undefined` when
 * the sent text does not have the recorded pieces (it differs elsewhere too).
 */
function secretsAt(sent: string, recorded: string): string[] | undefined {
  const pieces = recorded.split(REDACTED);
  const pattern = new RegExp(`^${pieces.map(escapeRegExp).join("([\\s\\S]+?)")}$`);
  const match = pattern.exec(sent);
  return match === null ? undefined : match.slice(1).filter((secret) => secret !== REDACTED);
}

/**
 * Whether a difference between a sent payload and a recording is only the recorder's hiding: the
 * recording has `[redacted]` there and the sent text is the recorded text with something in the
 * marker's place (what the recorder hid).
 */
export function onlyHidden(difference: PayloadDifference): boolean {
  const { sent, recorded } = difference;
  return (
    typeof recorded === "string" &&
    recorded.includes(REDACTED) &&
    typeof sent === "string" &&
    secretsAt(sent, recorded) !== undefined
  );
}

/** Whether a JSON value holds `[redacted]` in one of its strings. */
export function holdsRedacted(value: unknown): boolean {
  if (typeof value === "string") return value.includes(REDACTED);
  if (Array.isArray(value)) return value.some(holdsRedacted);
  if (typeof value === "object" && value !== null) return Object.values(value).some(holdsRedacted);
  return false;
}

/** The secrets the differences between sent payloads and recordings show, from every recording compared. */
export function recordedSecrets(differences: readonly PayloadDifference[]): RecordedSecrets {
  const secrets = new Set<string>();
  let unplaced = false;
  for (const { sent, recorded } of differences) {
    if (typeof recorded !== "string" || !recorded.includes(REDACTED) || sent === undefined) continue;
    const found = typeof sent === "string" ? secretsAt(sent, recorded) : undefined;
    if (found === undefined) unplaced = true;
    else for (const secret of found) secrets.add(secret);
  }
  // Longest first, so that a secret containing another is replaced whole.
  return { secrets: [...secrets].sort((a, b) => b.length - a.length), unplaced };
}

/** `value` (any JSON) with every secret in its strings, keys included, replaced by `[redacted]`. */
export function withoutSecrets<Value>(value: Value, secrets: readonly string[]): Value {
  if (secrets.length === 0) return value;
  const scrub = (text: string): string => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return scrub(item);
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === "object" && item !== null)
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [scrub(key), walk(inner)]));
    return item;
  };
  return walk(value) as Value;
}

/**
 * A difference as a miss may show it: the sent value hidden where the recording hides a secret and
 * the secret cannot be told apart from the rest of the sent value.
 */
export function shownDifference(difference: PayloadDifference): PayloadDifference {
  const { sent, recorded } = difference;
  if (typeof recorded !== "string" || !recorded.includes(REDACTED) || sent === undefined) return difference;
  if (typeof sent === "string" && secretsAt(sent, recorded) !== undefined) return difference;
  return { ...difference, sent: REDACTED };
}
