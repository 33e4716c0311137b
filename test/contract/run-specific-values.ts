/**
 * The values a real daemon gives differently each time the same session runs, so that a recorded
 * session can be replayed against it and compared value for value. Two recordings of the example
 * shop's sign-in against glass-browser 0.3.14 differ only in these:
 *
 * | kind | example | where |
 * |---|---|---|
 * | `origin` | `http://127.0.0.1:44491` | the served site's port, in URLs |
 * | `target` | `1156AB610D2004CA8EF646759C9D6FFD` | Chrome's target and frame ids (`targetId`, `frame_id`, …) |
 * | `node` | `27e63cf3-4ca1-4cf6-9e10-3211f875e6d6:b3` | a node of a document in a reference (`r10:c<uuid>:b3`): Chrome's document id and backend node id, which depend on how the page loaded |
 * | `uuid` | `27e63cf3-4ca1-4cf6-9e10-3211f875e6d6` | any other UUID |
 * | `resultId` | `mcp_1796418935858_1` | a result's detail handle (a clock in milliseconds) |
 * | `elapsed` | `2` | the value of a key that times the call (`elapsed_ms`, `elapsedMs`, `durationMs`) |
 * | `loading` | `26` | `revision`, `currentRevision` and `verification.revisionDelta` of an action that navigated (`verification.urlChanged`): the daemon answers while the next page loads, so they count its changes so far (25 or 26 after the shop's sign-in) |
 *
 * Revisions (also inside references), texts, counts and every other value must be equal. Each side of a
 * comparison (the recording, this run) names its values `⟨kind#n⟩` in the order they first appear
 * in the session, so two sessions agree when the same value appears in the same places; and a value
 * the recording sent (a reference it was given, the site's origin) is sent as the value this run
 * has at the same place.
 */

/** A kind of run-specific value, found in any string. */
interface ValueKind {
  readonly name: string;
  readonly pattern: RegExp;
}

const KINDS: readonly ValueKind[] = [
  { name: "origin", pattern: /http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/g },
  { name: "target", pattern: /\b[0-9A-F]{32}\b/g },
  { name: "node", pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:b\d+/g },
  { name: "uuid", pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g },
  { name: "resultId", pattern: /\bmcp_\d+_\d+\b/g },
];

/** Keys whose number times the call. */
const ELAPSED_KEYS: ReadonlySet<string> = new Set(["elapsed_ms", "elapsedMs", "durationMs", "duration_ms"]);

const ELAPSED = "⟨elapsed⟩";

/** The run-specific values of one side (the recording, or this run), each named once. */
class Side {
  private readonly names = new Map<string, string>();
  private readonly values = new Map<string, string>();
  private counter = 0;

  /** The value's name, given one now if it has none yet. */
  name(value: string, kind: string): string {
    let name = this.names.get(value);
    if (name === undefined) {
      name = `⟨${kind}#${++this.counter}⟩`;
      this.names.set(value, name);
      this.values.set(name, value);
    }
    return name;
  }

  /** The name of a value already seen, or undefined. */
  known(value: string): string | undefined {
    return this.names.get(value);
  }

  /** The value a name stands for on this side, or undefined. */
  value(name: string): string | undefined {
    return this.values.get(name);
  }

  /** `value` with its run-specific values named. */
  canonical(value: unknown): unknown {
    return mapStrings(
      withLoadingRevisionsNamed(value),
      (text) => replaceValues(text, (found, kind) => this.name(found, kind)),
      true,
    );
  }
}

const LOADING = "⟨loading⟩";

/** A call's outcome with the revisions of an action that navigated named (see the table above). */
function withLoadingRevisionsNamed(outcome: unknown): unknown {
  const result = (outcome as { result?: unknown } | null)?.result;
  if (result === null || typeof result !== "object") return outcome;
  const action = result as {
    revision?: unknown;
    currentRevision?: unknown;
    verification?: { urlChanged?: unknown; revisionDelta?: unknown };
  };
  if (action.verification?.urlChanged !== true) return outcome;
  const named = { ...action, verification: { ...action.verification, revisionDelta: LOADING } };
  if ("revision" in action) named.revision = LOADING;
  if ("currentRevision" in action) named.currentRevision = LOADING;
  return { ...(outcome as object), result: named };
}

/**
 * `value` with `change` applied to each string in it (object keys visited in sorted order, so two
 * sides name their values alike whatever their key order), and, when `nameElapsed`, elapsed times
 * named.
 */
function mapStrings(value: unknown, change: (text: string) => string, nameElapsed: boolean, key?: string): unknown {
  if (typeof value === "string") return change(value);
  if (nameElapsed && typeof value === "number" && key !== undefined && ELAPSED_KEYS.has(key)) return ELAPSED;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change, nameElapsed));
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((name) => [name, mapStrings((value as Record<string, unknown>)[name], change, nameElapsed, name)] as const);
    return Object.fromEntries(entries);
  }
  return value;
}

/** Every kind in one pattern (one group each, in the order of {@link KINDS}), so a replacement is never scanned again. */
const ANY_VALUE = new RegExp(KINDS.map((kind) => `(${kind.pattern.source})`).join("|"), "g");

/** `text` with each run-specific value replaced by what `replace` gives for it. */
function replaceValues(text: string, replace: (found: string, kind: string) => string): string {
  return text.replace(ANY_VALUE, (found: string, ...groups: unknown[]) =>
    replace(found, KINDS[groups.findIndex((group) => group !== undefined)]!.name),
  );
}

/**
 * One replay of a recorded session against a live daemon: what to send for each recorded request,
 * and each recorded answer and live answer in a form that compares with `toEqual`.
 */
export class SessionReplay {
  private readonly recording = new Side();
  private readonly live = new Side();

  /** Says that `recorded` (e.g. the origin the session was recorded on) is `current` in this run. */
  bind(recorded: string, current: string): void {
    const kind = KINDS.find((candidate) => new RegExp(`^${candidate.pattern.source}$`).test(recorded))?.name ?? "value";
    this.live.name(current, kind);
    this.recording.name(recorded, kind);
  }

  /**
   * The payload to send for a recorded one: each run-specific value the recording had is replaced
   * by the value this run has in the same place.
   * @throws Error naming the value when this run has not yet produced its counterpart (the answers
   *   before it differed).
   */
  payload(recorded: unknown): unknown {
    return mapStrings(
      recorded,
      (text) =>
        replaceValues(text, (found) => {
          const name = this.recording.known(found);
          const current = name === undefined ? undefined : this.live.value(name);
          if (current === undefined)
            throw new Error(
              `the recording sent ${found}, which no earlier answer of this run has a counterpart for: an earlier answer differed`,
            );
          return current;
        }),
      false,
    );
  }

  /** A recorded answer, its run-specific values named. */
  expected(answer: unknown): unknown {
    return this.recording.canonical(answer);
  }

  /** This run's answer, its run-specific values named. */
  actual(answer: unknown): unknown {
    return this.live.canonical(answer);
  }
}
