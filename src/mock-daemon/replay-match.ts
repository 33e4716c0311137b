import { escapePointer } from "./payload-difference.js";

/** Deeper than this, a payload is kept as it is when ignored fields are taken out. */
const MAX_IGNORE_DEPTH = 32;

/**
 * How a replay engine decides that a recorded request answers a live one. By default the operation
 * must be the same and the payloads equal as JSON (key order does not matter). These options widen
 * that; they never narrow it.
 *
 * @example
 * ```ts
 * import { createReplayEngine, goldenFixture } from "glass-sdk/testing";
 *
 * // Any expectedRevision matches: the test does not care which revision it observed.
 * const engine = createReplayEngine(await goldenFixture(), { match: { ignore: ["expectedRevision"] } });
 * ```
 */
export interface ReplayMatchOptions {
  /**
   * Fields left out of both payloads before they are compared: a JSON pointer (RFC 6901, starting
   * with `/`) leaves out that one field, a field name leaves it out at any depth. See
   * docs/testing.md, "How matching works".
   */
  readonly ignore?: readonly string[];
  /**
   * Asked, when no recording equals a live request, with each recording of the same operation in
   * fixture order (payloads as they are, ignored fields included; the recorded one frozen): true
   * answers with it. It may be asked more than once for one call; if it throws, the call fails
   * with -32603. See docs/testing.md, "How matching works".
   */
  readonly matcher?: (operation: string, sent: unknown, recorded: unknown) => boolean;
}

/** The `ignore` list of {@link ReplayMatchOptions}, read once. */
export interface IgnoredFields {
  /** JSON pointers of single fields. */
  readonly pointers: ReadonlySet<string>;
  /** Field names left out at any depth. */
  readonly names: ReadonlySet<string>;
}

/** Reads an `ignore` list; `undefined` when it ignores nothing. */
export function readIgnoredFields(ignore: readonly string[] | undefined): IgnoredFields | undefined {
  if (ignore === undefined || ignore.length === 0) return undefined;
  const pointers = new Set<string>();
  const names = new Set<string>();
  for (const entry of ignore) {
    if (typeof entry !== "string") throw new TypeError("match.ignore must list JSON pointers or field names (strings)");
    if (entry.startsWith("/") || entry === "") pointers.add(entry);
    else names.add(entry);
  }
  return { pointers, names };
}

/**
 * The payload without the ignored fields: object members named in `names`, or at a pointer of
 * `pointers`, are left out; an array item at a pointer becomes `null`, so the items after it keep
 * their places. The payload itself is not changed. The whole payload at pointer `""` is `null`.
 */
export function withoutIgnored(value: unknown, ignored: IgnoredFields, path = "", depth = 0): unknown {
  if (path === "" && ignored.pointers.has("")) return null;
  if (typeof value !== "object" || value === null || depth >= MAX_IGNORE_DEPTH) return value;
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => {
      const itemPath = `${path}/${index}`;
      return ignored.pointers.has(itemPath) ? null : withoutIgnored(item, ignored, itemPath, depth + 1);
    });
  }
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (ignored.names.has(key)) continue;
    const itemPath = `${path}/${escapePointer(key)}`;
    if (ignored.pointers.has(itemPath)) continue;
    kept[key] = withoutIgnored(item, ignored, itemPath, depth + 1);
  }
  return kept;
}
