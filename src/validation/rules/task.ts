import { utf8Length } from "../byte-length.js";
import { joinIndex, joinPath, type ValidationIssue } from "../issue.js";

/** The fields of a structurally valid Task v1 document that {@link taskFamilyRequirements} reads. */
interface TaskShape {
  task: string;
  scope: { regionName?: string; entityKind?: string; entityName?: string };
  inputs?: Readonly<Record<string, string>>;
  limits: { maxItems: number };
  postconditions?: readonly { kind: string; expected?: unknown }[];
}

/** What the daemon requires of one task family beyond the document's structure. */
interface Family {
  /** The entity kinds `scope.entityKind` may name. */
  readonly kinds: readonly string[];
  /** Whether the family works inside a named region, so needs `scope.regionName`. */
  readonly region: boolean;
  /**
   * The inputs it takes: any (`"any"`, form.fill), none (`[]`), or exactly one, named here with the
   * reason the daemon gives when it is missing.
   */
  readonly inputs: "any" | readonly [] | readonly [name: string, missing: string];
  /** The postcondition kinds it accepts. */
  readonly postconditions: readonly string[];
}

const FORM_CHECKS = ["validationClear", "regionPresent", "pageKind", "entityState"];
const EXTRACTED = ["recordsExtracted", "regionPresent", "pageKind"];
const ON_PAGE = ["regionPresent", "pageKind", "entityState"];
const REGION_KINDS = ["region", "form", "table", "collection", "dialog"];

/** The task families as glass-browser 0.3.14 validates them (`GlassTask::validate`). */
const FAMILIES: Readonly<Record<string, Family>> = {
  "form.inspect": { kinds: ["form"], region: true, inputs: [], postconditions: FORM_CHECKS },
  "form.fill": { kinds: ["form"], region: true, inputs: "any", postconditions: FORM_CHECKS },
  "form.validate": { kinds: ["form"], region: true, inputs: [], postconditions: FORM_CHECKS },
  "form.submit": {
    kinds: ["form"],
    region: true,
    inputs: ["submit", "form.submit requires the semantic submit target in inputs.submit"],
    postconditions: [
      "navigationOccurred",
      "validationClear",
      "regionPresent",
      "pageKind",
      "dialogClosed",
      "entityState",
    ],
  },
  "navigation.follow": {
    kinds: ["page"],
    region: false,
    inputs: ["url", "navigation.follow requires a bounded url input"],
    postconditions: ["navigationOccurred", "regionPresent", "pageKind"],
  },
  "navigation.selectTab": {
    kinds: ["tab"],
    region: true,
    inputs: ["tab", "navigation.selectTab requires a bounded tab input"],
    postconditions: ON_PAGE,
  },
  "navigation.openMenu": {
    kinds: ["navigationItem"],
    region: true,
    inputs: ["menu", "navigation.openMenu requires a bounded menu input"],
    postconditions: ON_PAGE,
  },
  "table.extract": { kinds: ["table"], region: true, inputs: [], postconditions: EXTRACTED },
  "collection.extract": { kinds: ["collection"], region: true, inputs: [], postconditions: EXTRACTED },
  "region.extract": { kinds: REGION_KINDS, region: true, inputs: [], postconditions: EXTRACTED },
  "field.read": {
    kinds: ["field"],
    region: true,
    inputs: ["field", "field.read requires the semantic field name in inputs.field"],
    postconditions: ON_PAGE,
  },
  "dialog.inspect": {
    kinds: ["dialog"],
    region: false,
    inputs: [],
    postconditions: ["dialogClosed", "regionPresent", "pageKind"],
  },
  "dialog.confirm": { kinds: ["dialog"], region: false, inputs: [], postconditions: ["dialogClosed", "pageKind"] },
  "dialog.cancel": { kinds: ["dialog"], region: false, inputs: [], postconditions: ["dialogClosed", "pageKind"] },
  "pagination.next": {
    kinds: ["paginationControl"],
    region: true,
    inputs: ["next", "pagination.next requires a bounded next control input"],
    postconditions: ["navigationOccurred", "recordsExtracted", "regionPresent", "pageKind"],
  },
  "pagination.collect": {
    kinds: ["paginationControl"],
    region: true,
    inputs: ["next", "pagination.collect requires a bounded next control input"],
    postconditions: EXTRACTED,
  },
};

/** The postcondition kinds the daemon knows; another kind is refused when the daemon reads the task, before these rules. */
const POSTCONDITION_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "pageKind",
  "regionPresent",
  "entityState",
  "navigationOccurred",
  "dialogClosed",
  "validationClear",
  "recordsExtracted",
]);
/** The states an `entityState` postcondition may name. */
const ENTITY_STATES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "disabled",
  "readOnly",
  "required",
  "checked",
  "empty",
]);
/** Rust's `char::is_control`: the Unicode control characters (category Cc). */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** Only Unicode White_Space (what Rust's `str::trim` removes). */
const BLANK = /^\p{White_Space}*$/u;
/** A number Rust's `u32::from_str` reads: an optional `+`, then decimal digits. */
const UNSIGNED = /^\+?([0-9]+)$/;

// The daemon's reasons, word for word.
const EMPTY_SCOPE = "scope requires a semantic region or entity constraint";
const NAME_WITHOUT_KIND = "entityName requires entityKind";
const KIND_FOR_FAMILY = "entity kind is incompatible with the task family";
const KIND_FOR_REGION_EXTRACT = "entity kind is incompatible with region extraction";
const INPUT_NAMES = "input names are incompatible with the task family";
const POSTCONDITION_FOR_FAMILY = "postcondition kind is incompatible with the task family";
const EXPECTED_BOUND = "expected value exceeds its bound or contains a control character";
const REGION_PRESENT = "regionPresent requires the expected semantic region name";
const TEXT = "value must be non-empty, bounded, and free of control characters";
const ENTITY_STATE_FORM = "entityState requires '<entity-name>.<state>=<true|false>'";
const ENTITY_STATE_PARTS = "entityState selector, state, or boolean value is invalid";
const RECORDS_INTEGER = "recordsExtracted expected must be a non-negative integer";
const RECORDS_OVER_LIMIT = "recordsExtracted expected exceeds task maxItems";
const SUBMIT_POSTCONDITION = "form.submit requires at least one bounded postcondition";
const FILL_INPUT = "form.fill requires at least one bounded input";
const REGION = "browser-backed task requires a semantic region scope";

/**
 * Document rule of Task v1: what each task family needs beyond its structure, the daemon's checks
 * (glass-browser 0.3.14, `GlassTask::validate`) with its paths and reasons, in its order. The daemon
 * stops at the first failure; this rule reports every issue it finds, the daemon's first one first.
 *
 * | # | check | issue path | reason (the daemon's) |
 * |---|---|---|---|
 * | 1 | the scope names a region or an entity (`regionName`, `entityKind` or `entityName`) | `scope` | `scope requires a semantic region or entity constraint` |
 * | 2 | `entityName` comes with `entityKind` | `scope.entityKind` | `entityName requires entityKind` |
 * | 3 | `entityKind` is the family's: region.extract takes region, form, table, collection or dialog | `scope.entityKind` | `entity kind is incompatible with region extraction` |
 * | 3 | … the others: form.* form, field.read field, navigation.selectTab tab, navigation.openMenu navigationItem, table.extract table, collection.extract collection, dialog.* dialog, pagination.* paginationControl, navigation.follow page | `scope.entityKind` | `entity kind is incompatible with the task family` |
 * | 4 | the input names suit the family: form.fill any; a family of one input (below) only that one, once it is there; the others none | `inputs` | `input names are incompatible with the task family` |
 * | 5 | each postcondition's kind is one the family accepts | `postconditions[i].kind` | `postcondition kind is incompatible with the task family` |
 * | 6 | … its `expected`, when a string: at most 256 UTF-8 bytes, no control character | `postconditions[i].expected` | `expected value exceeds its bound or contains a control character` |
 * | 7 | … regionPresent has an `expected` | `postconditions[i].expected` | `regionPresent requires the expected semantic region name` |
 * | 8 | … regionPresent's and pageKind's `expected` is not empty | `postconditions[i].expected` | `value must be non-empty, bounded, and free of control characters` |
 * | 9 | … entityState's `expected` reads `<entity-name>.<state>=<value>` | `postconditions[i].expected` | `entityState requires '<entity-name>.<state>=<true\|false>'` |
 * | 10 | … with a non-blank name, a state of disabled, readOnly, required, checked, empty, and a value true or false | `postconditions[i].expected` | `entityState selector, state, or boolean value is invalid` |
 * | 11 | … recordsExtracted's `expected` is a non-negative integer (below 2^32) | `postconditions[i].expected` | `recordsExtracted expected must be a non-negative integer` |
 * | 12 | … and at most `limits.maxItems` | `postconditions[i].expected` | `recordsExtracted expected exceeds task maxItems` |
 * | 13 | form.submit has at least one postcondition | `postconditions` | `form.submit requires at least one bounded postcondition` |
 * | 14 | form.fill has at least one input | `inputs` | `form.fill requires at least one bounded input` |
 * | 15 | form.*, field.read, navigation.selectTab, navigation.openMenu, pagination.* and the extractions have `scope.regionName` | `scope.regionName` | `browser-backed task requires a semantic region scope` |
 * | 16 | form.submit has the input `submit` | `inputs.submit` | `form.submit requires the semantic submit target in inputs.submit` |
 * | 16 | navigation.openMenu has `menu` | `inputs.menu` | `navigation.openMenu requires a bounded menu input` |
 * | 16 | navigation.selectTab has `tab` | `inputs.tab` | `navigation.selectTab requires a bounded tab input` |
 * | 16 | pagination.next and pagination.collect have `next` | `inputs.next` | `pagination.next requires a bounded next control input` (`pagination.collect …`) |
 * | 16 | navigation.follow has `url`, not empty (the daemon takes an empty url; the SDK does not send one) | `inputs.url` | `navigation.follow requires a bounded url input` |
 * | 16 | field.read has `field` | `inputs.field` | `field.read requires the semantic field name in inputs.field` |
 *
 * Checks 6 to 12 apply to a postcondition of a kind the daemon knows (pageKind, regionPresent,
 * entityState, navigationOccurred, dialogClosed, validationClear, recordsExtracted) whose `expected`
 * is absent or a string: the daemon cannot read any other, and refuses it before validating. What
 * the schema states of a single value (`risk`, limits, text bounds) is the schema's, checked first.
 */
export function taskFamilyRequirements(task: TaskShape, path: string, out: ValidationIssue[]): boolean {
  const before = out.length;
  const family = FAMILIES[task.task];
  if (family === undefined) return true; // not a family: the schema reports it
  const scope = task.scope;
  const scopePath = joinPath(path, "scope");
  const inputsPath = joinPath(path, "inputs");
  const inputs = task.inputs ?? {};
  const names = Object.keys(inputs);

  if (scope.regionName === undefined && scope.entityKind === undefined && scope.entityName === undefined) {
    out.push({ path: scopePath, reason: EMPTY_SCOPE });
  }
  if (scope.entityName !== undefined && scope.entityKind === undefined) {
    out.push({ path: joinPath(scopePath, "entityKind"), reason: NAME_WITHOUT_KIND });
  }
  if (scope.entityKind !== undefined && !family.kinds.includes(scope.entityKind)) {
    out.push({
      path: joinPath(scopePath, "entityKind"),
      reason: task.task === "region.extract" ? KIND_FOR_REGION_EXTRACT : KIND_FOR_FAMILY,
    });
  }

  const wanted = family.inputs;
  if (wanted !== "any") {
    const only = wanted.length === 0 ? undefined : wanted[0];
    // A family of one input checks the names only once that input is there (its absence is check 16).
    if (only === undefined ? names.length > 0 : Object.hasOwn(inputs, only) && names.length > 1) {
      out.push({ path: inputsPath, reason: INPUT_NAMES });
    }
  }

  const postconditions = task.postconditions ?? [];
  const postconditionsPath = joinPath(path, "postconditions");
  for (let i = 0; i < postconditions.length; i++) {
    const { kind, expected } = postconditions[i]!;
    if (!POSTCONDITION_KINDS.has(kind)) continue;
    const at = joinIndex(postconditionsPath, i);
    if (!family.postconditions.includes(kind)) {
      out.push({ path: joinPath(at, "kind"), reason: POSTCONDITION_FOR_FAMILY });
      continue;
    }
    if (expected !== undefined && typeof expected !== "string") continue;
    const reason = expectedProblem(kind, expected, task.limits.maxItems);
    if (reason !== undefined) out.push({ path: joinPath(at, "expected"), reason });
  }

  if (task.task === "form.submit" && postconditions.length === 0)
    out.push({ path: postconditionsPath, reason: SUBMIT_POSTCONDITION });
  if (task.task === "form.fill" && names.length === 0) out.push({ path: inputsPath, reason: FILL_INPUT });
  if (family.region && scope.regionName === undefined)
    out.push({ path: joinPath(scopePath, "regionName"), reason: REGION });
  if (wanted !== "any" && wanted.length === 2) {
    const [name, missing] = wanted;
    if (!Object.hasOwn(inputs, name) || (name === "url" && inputs[name] === ""))
      out.push({ path: joinPath(inputsPath, name), reason: missing });
  }
  return out.length === before;
}

/** What is wrong with a postcondition's `expected` for its kind (checks 6 to 12), or `undefined`. */
function expectedProblem(kind: string, expected: string | undefined, maxItems: number): string | undefined {
  if (expected !== undefined && ((expected.length * 3 > 256 && utf8Length(expected) > 256) || CONTROL.test(expected)))
    return EXPECTED_BOUND;
  switch (kind) {
    case "regionPresent":
      if (expected === undefined) return REGION_PRESENT;
      return expected === "" ? TEXT : undefined;
    case "pageKind":
      return expected === "" ? TEXT : undefined;
    case "entityState": {
      const equals = expected?.lastIndexOf("=") ?? -1;
      const dot = equals < 0 ? -1 : expected!.lastIndexOf(".", equals - 1);
      if (expected === undefined || equals < 0 || dot < 0) return ENTITY_STATE_FORM;
      const name = expected.slice(0, dot);
      const state = expected.slice(dot + 1, equals);
      const value = expected.slice(equals + 1);
      if (BLANK.test(name) || !ENTITY_STATES.has(state) || (value !== "true" && value !== "false"))
        return ENTITY_STATE_PARTS;
      return undefined;
    }
    case "recordsExtracted": {
      if (expected === undefined) return undefined;
      const digits = UNSIGNED.exec(expected)?.[1]?.replace(/^0+(?=.)/, "");
      if (digits === undefined || digits.length > 10 || Number(digits) > 0xffffffff) return RECORDS_INTEGER;
      return Number(digits) > maxItems ? RECORDS_OVER_LIMIT : undefined;
    }
    default:
      return undefined;
  }
}
