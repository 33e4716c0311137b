/**
 * fast-check arbitraries for version 1 envelopes (protocol page §1): valid requests and responses,
 * and near misses of every rule — identifiers around 128 UTF-8 bytes built from 1-, 2-, 3- and
 * 4-byte characters, whitespace and control characters, deadlines around 0/1/900000/900001,
 * missing/extra fields, lease/session mismatches, ok/result/error disagreements, error codes,
 * messages and details around their byte limits, wrong types and `fc.anything()` junk.
 *
 * Every case carries `tags` naming the near misses it contains, so the tests can prove the
 * generator really reaches each boundary (the verdict itself always comes from the oracle).
 */
import fc from "fast-check";

/** One generated envelope and the near misses it was built with. */
export interface EnvelopeCase {
  value: unknown;
  tags: string[];
}

/** A generated piece of an envelope: a value and its tags. */
interface Part<T = unknown> {
  value: T;
  tags: string[];
}

const encoder = new TextEncoder();
const byteCache = new Map<string, number>();
/** UTF-8 bytes of a string (cached for the short pieces texts are built from). */
const bytesOf = (text: string): number => {
  if (text.length > 4) return encoder.encode(text).length;
  let bytes = byteCache.get(text);
  if (bytes === undefined) {
    bytes = encoder.encode(text).length;
    byteCache.set(text, bytes);
  }
  return bytes;
};

/**
 * Mostly `valid`, sometimes `nearMiss`: components are valid often enough that whole envelopes are
 * valid in a good share of cases, while every near miss is still generated hundreds of times.
 */
const mostly = <T>(valid: fc.Arbitrary<T>, nearMiss: fc.Arbitrary<T>, validWeight = 8): fc.Arbitrary<T> =>
  fc.oneof({ weight: validWeight, arbitrary: valid }, { weight: 1, arbitrary: nearMiss });

/** `null` `nullWeight` times out of `nullWeight + 1`, else a value (fc.option's freq is the other way round). */
const sometimes = <T>(value: fc.Arbitrary<T>, nullWeight: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: nullWeight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });

// ---------------------------------------------------------------------------------------------
// Characters.

const ASCII = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:/@#"];
/** Two-byte characters (U+00A1 is the first printable one after NBSP). */
const TWO_BYTE = ["é", "ß", "ñ", "Ω", "ж", "\u00a1", "\u07ff"];
/** Three-byte characters, including allowed look-alikes of whitespace (ZWSP, U+180E, BOM). */
const THREE_BYTE = ["猫", "€", "ア", "\u0800", "\u2030", "\uffff", "\ufffd", "\ufeff", "\u200b", "\u180e", "\u2060"];
const FOUR_BYTE = ["😀", "𝄞", "🐱", "\u{10000}", "\u{10ffff}"];
const PRINTABLE = [...ASCII, ...TWO_BYTE, ...THREE_BYTE, ...FOUR_BYTE];

/** Every Unicode White_Space character. */
export const WHITESPACE = [
  " ",
  "\t",
  "\n",
  "\u000b",
  "\f",
  "\r",
  "\u0085",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u2001",
  "\u2002",
  "\u2003",
  "\u2004",
  "\u2005",
  "\u2006",
  "\u2007",
  "\u2008",
  "\u2009",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
];

/** A control character (U+0000–U+001F or U+007F–U+009F), every one reachable. */
const controlChar = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((c) => String.fromCharCode(c));

/** Lone low surrogates: they cannot pair with any piece they follow (pieces never end in a high surrogate). */
const LONE_SURROGATES = ["\udc00", "\udfff"];

/**
 * Concatenates `pieces` (cycling) while they fit in `target` UTF-8 bytes, then pads with `a` to
 * exactly `target` bytes. Pieces never end in a high surrogate, so concatenation adds no pairs.
 */
function fillToBytes(pieces: string[], target: number): string {
  let text = "";
  let bytes = 0;
  if (pieces.length > 0) {
    for (let i = 0; ; i++) {
      const piece = pieces[i % pieces.length]!;
      const cost = bytesOf(piece);
      if (bytes + cost > target) break;
      text += piece;
      bytes += cost;
    }
  }
  return text + "a".repeat(target - bytes);
}

/** Inserts `char` at a position chosen by `at` (any position, ends included). */
function insertAt(text: string, char: string, at: number): string {
  const units = [...text];
  const i = at % (units.length + 1);
  units.splice(i, 0, char);
  return units.join("");
}

/**
 * Printable text of up to `maxLength` characters with one character `c` from `chars` inserted
 * anywhere (ends included), tagged with that character's `tag`.
 */
const withCharInserted = (
  maxLength: number,
  chars: fc.Arbitrary<{ c: string; tag: string }>,
): fc.Arbitrary<Part<string>> =>
  fc
    .tuple(fc.array(fc.constantFrom(...PRINTABLE), { minLength: 0, maxLength }), chars, fc.nat())
    .map(([printable, { c, tag }, at]) => ({ value: insertAt(printable.join(""), c, at), tags: [tag] }));

/** Text of exactly `target` UTF-8 bytes from a random mix of 1- to 4-byte characters. */
const textOfBytes = (targets: fc.Arbitrary<number>): fc.Arbitrary<Part<string>> =>
  fc
    .tuple(fc.array(fc.constantFrom(...PRINTABLE), { minLength: 1, maxLength: 8 }), targets)
    .map(([pieces, target]) => ({
      value: fillToBytes(pieces, target),
      tags: [],
    }));

/** Values of the wrong type for a string, number, boolean or object field. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
  fc.string({ maxLength: 6 }),
);

/** Anything at all: mostly not JSON (Maps, Dates, bigints, sparse arrays, boxed values, ...). */
export const junk: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 2,
  maxKeys: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

class Instance {
  constructor(readonly field = 1) {}
}

/** Ordinary non-JSON values (the oracle can judge them; hostile ones live in the tests). */
export const notJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1n),
  fc.constant(null).map(() => new Date(0)),
  fc.constant(null).map(() => new Map([["a", 1]])),
  fc.constant(null).map(() => new Instance()),
  fc.constant(null).map(() => ({ nested: [1, { deeper: undefined }] })),
  fc.constant(null).map(() => [1, , 3]), // a hole
  fc.constant(null).map(() => () => 1),
  fc.constant(null).map(() => Symbol("s")),
  junk,
);

/** JSON values with Unicode strings (keys included). */
export const jsonValue = (maxDepth = 3): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth, stringUnit: "binary" }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(
        null,
        0,
        -0,
        1e21,
        5e-324,
        "",
        "猫😀",
        [],
        {},
        JSON.parse('{"__proto__":{"a":1}}') as unknown,
      ),
    },
  );

// ---------------------------------------------------------------------------------------------
// Identifiers and operation names.

/** A valid identifier: short ASCII, exactly 1..128 bytes of mixed 1- to 4-byte characters, or with an allowed odd character. */
const identifierValid: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.constantFrom(...ASCII), { minLength: 1, maxLength: 24 })
      .map((chars) => ({ value: chars.join(""), tags: ["id:short"] })),
  },
  {
    weight: 3,
    arbitrary: textOfBytes(
      fc.oneof(fc.constantFrom(1, 2, 64, 126, 127, 128, 128), fc.integer({ min: 1, max: 128 })),
    ).map((part) => ({
      value: part.value,
      tags: [bytesOf(part.value) === 128 ? "id:128bytes" : "id:≤128bytes"],
    })),
  },
  {
    weight: 1,
    arbitrary: withCharInserted(
      30,
      fc
        .constantFrom("\ufeff", "\u200b", "\u180e", "\u00a1", "\u00ad", "\u2060")
        .map((c) => ({ c, tag: "id:allowedOddChar" })),
    ),
  },
);

/** An identifier (§1), valid or a near miss, tagged with what it is. */
const identifierAny: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(fc.constantFrom(...ASCII), { minLength: 1, maxLength: 24 })
      .map((chars) => ({ value: chars.join(""), tags: ["id:short"] })),
  },
  {
    weight: 5,
    arbitrary: textOfBytes(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(127, 128, 129, 129, 130) },
        { weight: 1, arbitrary: fc.constantFrom(1, 2, 3, 4, 64, 125, 126, 131, 132) },
        { weight: 1, arbitrary: fc.integer({ min: 100, max: 140 }) },
      ),
    ).map((part) => {
      const bytes = bytesOf(part.value);
      return {
        value: part.value,
        tags: [
          bytes === 128 ? "id:128bytes" : bytes === 129 ? "id:129bytes" : bytes > 128 ? "id:>128bytes" : "id:≤128bytes",
        ],
      };
    }),
  },
  {
    weight: 3,
    arbitrary: withCharInserted(
      30,
      fc.oneof(
        fc.constantFrom(...WHITESPACE).map((c) => ({ c, tag: "id:whitespace" })),
        controlChar.map((c) => ({ c, tag: "id:control" })),
        fc.constantFrom("\ufeff", "\u200b", "\u180e", "\u00a1", "\u00ad").map((c) => ({ c, tag: "id:allowedOddChar" })),
        fc.constantFrom(...LONE_SURROGATES).map((c) => ({ c, tag: "id:loneSurrogate" })),
      ),
    ),
  },
  { weight: 1, arbitrary: fc.constant<Part>({ value: "", tags: ["id:empty"] }) },
  { weight: 1, arbitrary: wrongType.map((value) => ({ value, tags: ["id:wrongType"] })) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: "binary", minLength: 1, maxLength: 40 })
      .map((value) => ({ value, tags: ["id:anyUnicode"] })),
  },
);

/** An identifier: mostly valid (boundaries included), sometimes a near miss. */
export const identifier: fc.Arbitrary<Part> = mostly(identifierValid, identifierAny, 10);

const operationValid: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .constantFrom("browser.click", "webIr.diff", "task.compile", "glass/lease/acquire", "x", "猫.é")
      .map((value) => ({ value, tags: ["op:plain"] })),
  },
  {
    weight: 2,
    arbitrary: textOfBytes(fc.oneof(fc.constantFrom(1, 95, 96, 96), fc.integer({ min: 1, max: 96 }))).map((part) => ({
      value: part.value,
      tags: [bytesOf(part.value) === 96 ? "op:96bytes" : "op:≤96bytes"],
    })),
  },
  {
    weight: 1,
    // U+001C–U+001F and the C1 controls other than U+0085 are not White_Space: allowed.
    arbitrary: withCharInserted(
      20,
      controlChar.filter((c) => !WHITESPACE.includes(c)).map((c) => ({ c, tag: "op:controlAllowed" })),
    ),
  },
);

/** An operation name (§1): 1..96 UTF-8 bytes, no Unicode whitespace; control characters are allowed. */
const operationAny: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .constantFrom("browser.click", "webIr.diff", "task.compile", "glass/lease/acquire", "x", "猫.é")
      .map((value) => ({ value, tags: ["op:plain"] })),
  },
  {
    weight: 4,
    arbitrary: textOfBytes(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(95, 96, 97, 97, 98) },
        { weight: 1, arbitrary: fc.constantFrom(1, 94) },
        { weight: 1, arbitrary: fc.integer({ min: 80, max: 110 }) },
      ),
    ).map((part) => {
      const bytes = bytesOf(part.value);
      return {
        value: part.value,
        tags: [bytes === 96 ? "op:96bytes" : bytes === 97 ? "op:97bytes" : bytes > 96 ? "op:>96bytes" : "op:≤96bytes"],
      };
    }),
  },
  {
    weight: 3,
    arbitrary: withCharInserted(
      20,
      fc.oneof(
        fc.constantFrom(...WHITESPACE).map((c) => ({ c, tag: "op:whitespace" })),
        // U+001C–U+001F and the C1 controls other than U+0085 are not White_Space: allowed.
        controlChar.filter((c) => !WHITESPACE.includes(c)).map((c) => ({ c, tag: "op:controlAllowed" })),
      ),
    ),
  },
  { weight: 1, arbitrary: fc.constant<Part>({ value: "", tags: ["op:empty"] }) },
  { weight: 1, arbitrary: wrongType.map((value) => ({ value, tags: ["op:wrongType"] })) },
);

export const operation: fc.Arbitrary<Part> = mostly(operationValid, operationAny, 8);

/** deadlineMs: around 0/1/900000/900001, non-integers, non-finite numbers and wrong types. */
const deadlineAny: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(0, 900_001).map((value) => ({ value, tags: [`deadline:${String(value)}`] })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<unknown>(
        1,
        900_000,
        2,
        899_999,
        900_002,
        -1,
        -0,
        0.5,
        1.5,
        899_999.5,
        900_000.5,
        1e21,
        2 ** 53 + 2,
        5e-324,
        1 + Number.EPSILON,
      )
      .map((value) => ({ value, tags: [`deadline:${Object.is(value, -0) ? "-0" : String(value)}`] })),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: -5, max: 1_000_000 }).map((value) => ({ value, tags: ["deadline:integer"] })),
  },
  { weight: 1, arbitrary: fc.double().map((value) => ({ value, tags: ["deadline:double"] })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<unknown>("900000", "1", null, true, [], {})
      .map((value) => ({ value, tags: ["deadline:wrongType"] })),
  },
);

export const deadline: fc.Arbitrary<Part> = mostly(
  fc.oneof(
    fc.constantFrom(1, 2, 899_999, 900_000).map((value) => ({ value: value as unknown, tags: [`deadline:${value}`] })),
    fc.integer({ min: 1, max: 900_000 }).map((value) => ({ value: value as unknown, tags: ["deadline:integer"] })),
  ),
  deadlineAny,
  4,
);

const payload: fc.Arbitrary<Part> = fc.oneof(
  { weight: 9, arbitrary: jsonValue().map((value) => ({ value, tags: ["payload:json"] })) },
  { weight: 1, arbitrary: notJson.map((value) => ({ value, tags: ["payload:notJson"] })) },
);

/** Variants of a session id that must not compare equal to it. */
function otherSession(id: string, how: number): string {
  switch (how % 5) {
    case 0:
      return id.toUpperCase() === id ? `${id}x` : id.toUpperCase();
    case 1:
      return `${id}x`;
    case 2:
      return id.length > 1 ? id.slice(1) : `${id}${id}`;
    case 3:
      return id.normalize("NFD") === id ? `${id}\u0301` : id.normalize("NFD"); // canonically equivalent, not equal
    default:
      return `s-${id}`;
  }
}

/** sessionId and mutationLease: absent, either, both equal, or both different. */
const leaseAndSession: fc.Arbitrary<Part<Record<string, unknown>>> = fc
  .tuple(fc.integer({ min: 0, max: 11 }), identifier, identifier, fc.nat())
  .map(([shape, session, token, how]) => {
    const lease = (sessionId: unknown): Record<string, unknown> => ({ sessionId, token: token.value });
    const tags = [...session.tags, ...token.tags];
    if (shape <= 1) return { value: {}, tags: ["lease:none"] };
    if (shape <= 3) return { value: { sessionId: session.value }, tags: ["lease:sessionOnly", ...session.tags] };
    if (shape <= 6) return { value: { mutationLease: lease(session.value) }, tags: ["lease:leaseOnly", ...tags] };
    if (shape <= 10)
      return {
        value: { sessionId: session.value, mutationLease: lease(session.value) },
        tags: ["lease:bothEqual", ...tags],
      };
    const other = typeof session.value === "string" ? otherSession(session.value, how) : "s-1";
    return { value: { sessionId: session.value, mutationLease: lease(other) }, tags: ["lease:mismatch", ...tags] };
  });

// ---------------------------------------------------------------------------------------------
// Mutations: each turns an object into a near miss (in place; applied to fresh objects only).

interface Mutation {
  tag: string;
  apply: (target: Record<string, unknown>) => void;
}

/** Defines an own, enumerable property (works for `__proto__` too). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

const UNKNOWN_FIELD_NAMES = [
  "leaseToken",
  "extra",
  "Payload",
  "requestID",
  "protocol_version",
  "__proto__",
  "",
  "x-debug",
  "resultat",
  "😀",
];

const unknownField = (values: fc.Arbitrary<unknown>, tag: string): fc.Arbitrary<Mutation> =>
  fc.tuple(fc.constantFrom(...UNKNOWN_FIELD_NAMES), values).map(([key, value]) => ({
    tag,
    apply: (target) => define(target, key, value),
  }));

const dropField = (fields: string[]): fc.Arbitrary<Mutation> =>
  fc.constantFrom(...fields).map((key) => ({ tag: `drop:${key}`, apply: (target) => void delete target[key] }));

const replaceField = (fields: string[], values: fc.Arbitrary<unknown>, tag: string): fc.Arbitrary<Mutation> =>
  fc
    .tuple(fc.constantFrom(...fields), values)
    .map(([key, value]) => ({ tag: `${tag}:${key}`, apply: (target) => define(target, key, value) }));

const protocolVersion: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  0,
  2,
  -1,
  "1",
  1.5,
  true,
  null,
  [1],
  { v: 1 },
  1 + Number.EPSILON,
);

/** Applies mutations to a copy of the envelope's top level; the root may also become a non-plain object. */
function withMutations(
  base: Record<string, unknown>,
  mutations: Mutation[],
  root: number,
): { value: unknown; tags: string[] } {
  const target: Record<string, unknown> = { ...base };
  for (const mutation of mutations) mutation.apply(target);
  const tags = mutations.map((mutation) => mutation.tag);
  if (root === 1) {
    tags.push("root:nullPrototype");
    return { value: Object.assign(Object.create(null) as Record<string, unknown>, target), tags };
  }
  if (root === 2) {
    tags.push("root:classInstance");
    return { value: Object.assign(new Instance(), target), tags };
  }
  if (root === 3) {
    tags.push("root:array");
    return { value: [target], tags };
  }
  return { value: target, tags };
}

const rootShape = fc.oneof(
  { weight: 30, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constantFrom(1, 2, 3) },
);

// ---------------------------------------------------------------------------------------------
// Requests.

const REQUEST_FIELDS = [
  "protocolVersion",
  "requestId",
  "correlationId",
  "sessionId",
  "mutationLease",
  "operation",
  "payload",
  "deadlineMs",
];

const leaseMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({
    tag: "lease:dropToken",
    apply: (t) => void (t["mutationLease"] = { sessionId: t["sessionId"] ?? "s-1" }),
  }),
  fc.constant<Mutation>({
    tag: "lease:dropSession",
    apply: (t) => void (t["mutationLease"] = { token: "tok-1" }),
  }),
  fc.tuple(fc.constantFrom("owner", "expiresAtMs", "Token", "__proto__"), jsonValue(1)).map(([key, value]) => ({
    tag: "lease:extraField",
    apply: (t: Record<string, unknown>) => {
      const lease = { sessionId: t["sessionId"] ?? "s-1", token: "tok-1" };
      define(lease, key, value);
      t["mutationLease"] = lease;
    },
  })),
  fc.constantFrom<unknown>(null, "lease", [], ["s-1", "tok-1"], 1).map((value) => ({
    tag: "lease:notObject",
    apply: (t: Record<string, unknown>) => void (t["mutationLease"] = value),
  })),
);

const requestMutation: fc.Arbitrary<Mutation> = fc.oneof(
  dropField(["protocolVersion", "requestId", "operation", "payload"]),
  unknownField(jsonValue(1), "request:unknownField"),
  replaceField(REQUEST_FIELDS, wrongType, "request:wrongType"),
  replaceField(REQUEST_FIELDS, fc.constant(undefined), "request:undefinedField"),
  replaceField(["protocolVersion"], protocolVersion, "request:protocolVersion"),
  replaceField(["payload"], notJson, "request:payloadNotJson"),
  leaseMutation,
);

/** Valid request envelopes and near misses. */
export const requestCase: fc.Arbitrary<EnvelopeCase> = fc.oneof(
  {
    weight: 19,
    arbitrary: fc
      .record({
        requestId: identifier,
        correlationId: fc.option(identifier, { freq: 2 }),
        lease: leaseAndSession,
        operation,
        payload,
        deadlineMs: fc.option(deadline, { freq: 2 }),
        mutations: fc.oneof(
          { weight: 4, arbitrary: fc.constant<Mutation[]>([]) },
          { weight: 1, arbitrary: fc.array(requestMutation, { minLength: 1, maxLength: 2 }) },
        ),
        root: rootShape,
      })
      .map((parts) => {
        const base: Record<string, unknown> = {
          protocolVersion: 1,
          requestId: parts.requestId.value,
          ...(parts.correlationId === null ? {} : { correlationId: parts.correlationId.value }),
          ...parts.lease.value,
          operation: parts.operation.value,
          payload: parts.payload.value,
          ...(parts.deadlineMs === null ? {} : { deadlineMs: parts.deadlineMs.value }),
        };
        const mutated = withMutations(base, parts.mutations, parts.root);
        const tags = [
          ...parts.requestId.tags,
          ...(parts.correlationId?.tags ?? []),
          ...parts.lease.tags,
          ...parts.operation.tags,
          ...parts.payload.tags,
          ...(parts.deadlineMs?.tags ?? []),
          ...mutated.tags,
        ];
        return { value: mutated.value, tags };
      }),
  },
  { weight: 1, arbitrary: junk.map((value) => ({ value, tags: ["junk"] })) },
);

// ---------------------------------------------------------------------------------------------
// Responses.

/** Text of exactly `target` bytes from any characters (whitespace and controls are allowed in a code or message). */
const anyTextOfBytes = (name: string, limit: number, targets: fc.Arbitrary<number>): fc.Arbitrary<Part> =>
  fc
    .tuple(
      fc.array(fc.oneof(fc.constantFrom(...PRINTABLE, ...WHITESPACE), controlChar), { minLength: 1, maxLength: 8 }),
      targets,
    )
    .map(([pieces, target]) => {
      const value = fillToBytes(pieces, target);
      const bytes = bytesOf(value);
      return {
        value,
        tags: [
          bytes === limit
            ? `${name}:${limit}bytes`
            : bytes === limit + 1
              ? `${name}:${limit + 1}bytes`
              : `${name}:sized`,
        ],
      };
    });

/** An error code or message: mostly 1..limit bytes (the limit included), sometimes a near miss. */
const boundedText = (name: string, limit: number): fc.Arbitrary<Part> =>
  mostly(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .constantFrom("staleRevision", "task.invalid", "webIr.invalid", "mutation lease required", "猫 failed: é")
          .map((value) => ({
            value,
            tags: [`${name}:plain`],
          })),
      },
      {
        weight: 3,
        arbitrary: anyTextOfBytes(
          name,
          limit,
          fc.oneof(fc.constantFrom(1, limit - 1, limit), fc.integer({ min: 1, max: limit })),
        ),
      },
    ),
    fc.oneof(
      {
        weight: 4,
        arbitrary: anyTextOfBytes(
          name,
          limit,
          fc.oneof(fc.constantFrom(limit + 1, limit + 2, limit + 3), fc.integer({ min: 1, max: limit + 40 })),
        ),
      },
      { weight: 1, arbitrary: fc.constant<Part>({ value: "", tags: [`${name}:empty`] }) },
      { weight: 1, arbitrary: wrongType.map((value) => ({ value, tags: [`${name}:wrongType`] })) },
    ),
    6,
  );

/** Characters of a details blob and what each costs inside a JSON string (escapes included). */
const DETAIL_PIECES = [
  ...ASCII,
  ...TWO_BYTE,
  ...THREE_BYTE,
  ...FOUR_BYTE,
  '"',
  "\\",
  "\n",
  "\t",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u2028",
  ...LONE_SURROGATES,
];
const jsonCostCache = new Map<string, number>();
const jsonCost = (piece: string): number => {
  let cost = jsonCostCache.get(piece);
  if (cost === undefined) {
    cost = encoder.encode(JSON.stringify(piece)).length - 2;
    jsonCostCache.set(piece, cost);
  }
  return cost;
};

/** A blob whose JSON string body (without quotes) is exactly `target` bytes. */
function blobOfJsonBytes(pieces: string[], target: number): string {
  let text = "";
  let bytes = 0;
  for (let i = 0; ; i++) {
    const piece = pieces[i % pieces.length]!;
    const cost = jsonCost(piece);
    if (bytes + cost > target) break;
    text += piece;
    bytes += cost;
  }
  return text + "a".repeat(target - bytes);
}

/** details of `targets` bytes of compact JSON, in several shapes. */
const sizedDetails = (targets: fc.Arbitrary<number>): fc.Arbitrary<Part> =>
  fc
    .tuple(
      fc.array(fc.constantFrom(...DETAIL_PIECES), { minLength: 1, maxLength: 10 }),
      targets,
      fc.constantFrom("object", "string", "array"),
    )
    .map(([pieces, target, shape]) => {
      let value: unknown;
      if (shape === "string") {
        value = blobOfJsonBytes(pieces, target - 2);
      } else if (shape === "array") {
        const overhead = bytesOf(JSON.stringify([1, ""]));
        value = [1, blobOfJsonBytes(pieces, target - overhead)];
      } else {
        const wrap = (reason: string): unknown => ({ kind: "taskValidation", path: "inputs.猫", reason });
        value = wrap(blobOfJsonBytes(pieces, target - bytesOf(JSON.stringify(wrap("")))));
      }
      const size = bytesOf(JSON.stringify(value));
      return {
        value,
        tags: [
          size === 16_384
            ? "details:16384bytes"
            : size === 16_385
              ? "details:16385bytes"
              : size > 16_384
                ? "details:>16KiB"
                : "details:≤16KiB",
        ],
      };
    });

const details: fc.Arbitrary<Part> = fc.oneof(
  { weight: 6, arbitrary: jsonValue(2).map((value) => ({ value, tags: ["details:json"] })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("taskValidation", "taskCompilation", "webIrValidation"), fc.string(), fc.string())
      .map(([kind, path, reason]) => ({ value: { kind, path, reason }, tags: ["details:known"] })),
  },
  {
    weight: 2,
    arbitrary: sizedDetails(
      fc.oneof(fc.constantFrom(16_383, 16_384, 16_384), fc.integer({ min: 15_000, max: 16_384 })),
    ),
  },
  {
    weight: 1,
    arbitrary: sizedDetails(
      fc.oneof(fc.constantFrom(16_385, 16_385, 16_386), fc.integer({ min: 16_385, max: 17_000 })),
    ),
  },
  { weight: 1, arbitrary: notJson.map((value) => ({ value, tags: ["details:notJson"] })) },
);

const CLASSIFICATIONS = [
  "safeImmediate",
  "safeAfterReobserve",
  "safeAfterReconcile",
  "unsafeUntilReconciled",
  "requiresUserDecision",
  "notRetryable",
  "unknown",
];
const PHASES = ["preflight", "dispatch", "postDispatch", "verification", "reconciliation"];

const retry: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .tuple(
        fc.oneof(
          {
            weight: 8,
            arbitrary: fc
              .constantFrom(...CLASSIFICATIONS)
              .map((value) => ({ value: value as unknown, tags: ["retry:classification"] })),
          },
          {
            weight: 1,
            arbitrary: fc
              .constantFrom<unknown>("SafeToRetry", "safe_to_retry", "", "unknown ", null, 1)
              .map((value) => ({ value, tags: ["retry:badClassification"] })),
          },
        ),
        identifier,
        sometimes(fc.tuple(fc.constantFrom("since", "note", "__proto__"), jsonValue(1)), 5),
        fc.constantFrom("", "", "", "", "", "", "", "", "classification", "recommendedOperation"),
      )
      .map(([classification, recommended, extra, drop]) => {
        const value: Record<string, unknown> = {
          classification: classification.value,
          recommendedOperation: recommended.value,
        };
        const tags = [...classification.tags, ...recommended.tags.map((tag) => `retry.${tag}`)];
        if (extra !== null) {
          define(value, extra[0], extra[1]);
          tags.push("retry:extraField");
        }
        if (drop !== "") {
          delete value[drop];
          tags.push(`retry:drop:${drop}`);
        }
        return { value, tags };
      }),
  },
  { weight: 1, arbitrary: wrongType.map((value) => ({ value, tags: ["retry:notObject"] })) },
);

const optionalBoolean = (name: string): fc.Arbitrary<Part | null> =>
  fc.option(
    fc.oneof(
      { weight: 8, arbitrary: fc.boolean().map((value) => ({ value: value as unknown, tags: [`${name}:boolean`] })) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<unknown>("true", 0, 1, null)
          .map((value) => ({ value, tags: [`${name}:wrongType`] })),
      },
    ),
    { freq: 2 },
  );

/** An error object (§1), valid or a near miss; sometimes with unknown fields (strict rejects them). */
export const errorObject: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .record({
        code: boundedText("code", 64),
        message: boundedText("message", 512),
        phase: fc.option(
          fc.oneof(
            {
              weight: 8,
              arbitrary: fc
                .constantFrom(...PHASES)
                .map((value) => ({ value: value as unknown, tags: ["phase:valid"] })),
            },
            {
              weight: 1,
              arbitrary: fc
                .constantFrom<unknown>("Preflight", "pre-flight", "", "dispatch ", 1, null)
                .map((value) => ({ value, tags: ["phase:bad"] })),
            },
          ),
          { freq: 2 },
        ),
        mutationPossible: optionalBoolean("mutationPossible"),
        retry: fc.option(retry, { freq: 2 }),
        retryable: optionalBoolean("retryable"),
        details: fc.option(details, { freq: 2 }),
        extra: sometimes(
          fc.tuple(
            fc.constantFrom("hint", "cause", "Code", "__proto__"),
            fc.oneof({ weight: 8, arbitrary: jsonValue(1) }, { weight: 1, arbitrary: notJson }),
          ),
          4,
        ),
        drop: fc.constantFrom("", "", "", "", "", "", "", "", "", "", "code", "message"),
      })
      .map((parts) => {
        const value: Record<string, unknown> = { code: parts.code.value, message: parts.message.value };
        const tags = [...parts.code.tags, ...parts.message.tags];
        for (const key of ["phase", "mutationPossible", "retry", "retryable", "details"] as const) {
          const part = parts[key];
          if (part !== null) {
            value[key] = part.value;
            tags.push(...part.tags);
          }
        }
        if (parts.extra !== null) {
          define(value, parts.extra[0], parts.extra[1]);
          tags.push("error:extraField");
        }
        if (parts.drop !== "") {
          delete value[parts.drop];
          tags.push(`error:drop:${parts.drop}`);
        }
        return { value, tags };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Part>({
      value: { code: "staleRevision", message: "stale", retryable: true },
      tags: ["error:legacy"],
    }),
  },
  { weight: 1, arbitrary: wrongType.map((value) => ({ value, tags: ["error:notObject"] })) },
);

const result: fc.Arbitrary<Part> = fc.oneof(
  { weight: 9, arbitrary: jsonValue().map((value) => ({ value, tags: ["result:json"] })) },
  { weight: 1, arbitrary: notJson.map((value) => ({ value, tags: ["result:notJson"] })) },
);

/** ok/result/error: the two valid combinations, and every disagreement. */
const outcome: fc.Arbitrary<Part<Record<string, unknown>>> = fc.oneof(
  {
    weight: 8,
    arbitrary: result.map((res) => ({
      value: { ok: true, result: res.value },
      tags: ["outcome:success", ...res.tags],
    })),
  },
  {
    weight: 8,
    arbitrary: errorObject.map((err) => ({
      value: { ok: false, error: err.value },
      tags: ["outcome:failure", ...err.tags],
    })),
  },
  fc
    .tuple(fc.integer({ min: 0, max: 6 }), result, errorObject, fc.constantFrom<unknown>("true", 1, 0, null, "false"))
    .map(([shape, res, err, badOk]) => {
      const tags = [...res.tags, ...err.tags];
      switch (shape) {
        case 0:
          return { value: { ok: true, error: err.value }, tags: ["outcome:okTrueWithError", ...err.tags] };
        case 1:
          return { value: { ok: false, result: res.value }, tags: ["outcome:okFalseWithResult", ...res.tags] };
        case 2:
          return {
            value: { ok: true, result: res.value, error: err.value },
            tags: ["outcome:okTrueWithBoth", ...tags],
          };
        case 3:
          return {
            value: { ok: false, result: res.value, error: err.value },
            tags: ["outcome:okFalseWithBoth", ...tags],
          };
        case 4:
          return { value: { ok: true }, tags: ["outcome:okTrueNeither"] };
        case 5:
          return { value: { ok: false }, tags: ["outcome:okFalseNeither"] };
        default:
          return { value: { ok: badOk, result: res.value }, tags: ["outcome:okNotBoolean", ...res.tags] };
      }
    }),
);

const RESPONSE_FIELDS = ["protocolVersion", "requestId", "correlationId", "ok", "result", "error"];

const responseMutation: fc.Arbitrary<Mutation> = fc.oneof(
  dropField(["protocolVersion", "requestId", "ok"]),
  { arbitrary: unknownField(jsonValue(1), "response:unknownField"), weight: 2 },
  unknownField(notJson, "response:unknownFieldNotJson"),
  replaceField(RESPONSE_FIELDS, wrongType, "response:wrongType"),
  replaceField(["protocolVersion"], protocolVersion, "response:protocolVersion"),
  replaceField(["correlationId", "result", "error"], fc.constant(undefined), "response:undefinedField"),
);

/** Valid response envelopes and near misses. */
export const responseCase: fc.Arbitrary<EnvelopeCase> = fc.oneof(
  {
    weight: 19,
    arbitrary: fc
      .record({
        requestId: identifier,
        correlationId: fc.option(identifier, { freq: 2 }),
        outcome,
        mutations: fc.oneof(
          { weight: 4, arbitrary: fc.constant<Mutation[]>([]) },
          { weight: 1, arbitrary: fc.array(responseMutation, { minLength: 1, maxLength: 2 }) },
        ),
        root: rootShape,
      })
      .map((parts) => {
        const base: Record<string, unknown> = {
          protocolVersion: 1,
          requestId: parts.requestId.value,
          ...(parts.correlationId === null ? {} : { correlationId: parts.correlationId.value }),
          ...parts.outcome.value,
        };
        const mutated = withMutations(base, parts.mutations, parts.root);
        const tags = [
          ...parts.requestId.tags,
          ...(parts.correlationId?.tags ?? []),
          ...parts.outcome.tags,
          ...mutated.tags,
        ];
        return { value: mutated.value, tags };
      }),
  },
  { weight: 1, arbitrary: junk.map((value) => ({ value, tags: ["junk"] })) },
);
