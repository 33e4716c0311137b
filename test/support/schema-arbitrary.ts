/**
 * fast-check arbitraries that follow a schema of schema/ loosely: mostly values of the right shape
 * with every keyword's boundaries (lengths and byte counts at and past their limits, numbers at and
 * past their bounds, missing and unknown fields, enum near-misses), sometimes anything at all
 * (non-JSON included). For differential tests of the validators, where both valid and invalid
 * values must be common.
 */
import fc from "fast-check";
import {
  childPointer,
  locationKey,
  type LocatedSchema,
  type SchemaObject,
  type SchemaRegistry,
} from "../../codegen/schema-registry.js";

class Point {
  constructor(readonly x = 1) {}
}

/** Values that are not JSON, or not plain. */
export const nonJson: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  undefined,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  () => 1,
  Symbol("s"),
  10n,
  new Date(0),
  new Map([["a", 1]]),
  new Set([1]),
  new Point(),
  Object.create(null) as unknown,
  Object.assign(Object.create(null) as object, { a: 1 }),
  [1, , 3],
  { a: undefined },
  { toString: "x" },
  { constructor: 1 },
  new Uint8Array(2),
);

/** Anything: JSON of any shape, or not JSON. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 3 },
  { arbitrary: nonJson, weight: 2 },
  {
    arbitrary: fc.anything({
      maxDepth: 2,
      maxKeys: 4,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withDate: true,
      withSparseArray: true,
      withBigInt: true,
    }),
    weight: 2,
  },
);

const WEIRD_CHARS = [
  " ",
  "\t",
  "\n",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
  "\u00a0",
  "\u2028",
  "\u3000",
  "é",
  "€",
  "😀",
  "\ud800",
  "?",
  "#",
  '"',
  "\\",
];

/** Strings around a schema's length, byte and pattern limits. */
function stringArbitrary(s: SchemaObject): fc.Arbitrary<string> {
  const limits = [s.minLength, s.maxLength, s["x-minBytes"], s["x-maxBytes"]].filter(
    (n): n is number => typeof n === "number",
  );
  const around = limits.flatMap((n) => [n - 1, n, n + 1]).filter((n) => n >= 0 && n < 20_000);
  const repeated = fc
    .tuple(
      fc.constantFrom(...(around.length > 0 ? around : [0, 1, 2])),
      fc.constantFrom("a", "é", "€", "😀", "a\u00a0", "ab"),
    )
    .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, Math.max(n, 0)));
  // Repeating a multi-byte unit up to a byte limit lands on both sides of it.
  const bytes = fc
    .tuple(fc.constantFrom(...(around.length > 0 ? around : [1])), fc.constantFrom("é", "€", "😀"))
    .map(([n, unit]) => unit.repeat(Math.max(Math.floor(n / new TextEncoder().encode(unit).length), 0)));
  const weird = fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...WEIRD_CHARS), fc.string({ maxLength: 6 }))
    .map(([a, c, b]) => `${a}${c}${b}`);
  return fc.oneof(
    { arbitrary: fc.string({ maxLength: 12 }), weight: 4 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }), weight: 1 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 8 }), weight: 1 },
    { arbitrary: repeated, weight: 2 },
    { arbitrary: bytes, weight: 1 },
    { arbitrary: weird, weight: 2 },
    {
      arbitrary: fc.constantFrom(
        "",
        "x",
        "page",
        "browser.click",
        "https://a.example/p",
        "https://a.example/p?q=1",
        "#top",
      ),
      weight: 1,
    },
  );
}

/** Numbers around a schema's bounds. */
function numberArbitrary(s: SchemaObject, integer: boolean): fc.Arbitrary<number> {
  const bounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
    .map((k) => s[k])
    .filter((n): n is number => typeof n === "number");
  const near = bounds.flatMap((n) => [n - 1, n, n + 1, n - 0.5, n + 0.5]);
  return fc.oneof(
    { arbitrary: fc.integer({ min: -5, max: 300 }), weight: 3 },
    {
      arbitrary: fc.constantFrom(...near, 0, -0, 1, 0.5, -1, 2 ** 53, 1e21, Number.NaN, Number.POSITIVE_INFINITY),
      weight: 3,
    },
    { arbitrary: integer ? fc.integer() : fc.double(), weight: 1 },
  );
}

/**
 * Builds arbitraries for the schemas of a registry. `depth` bounds the recursion through `$ref`s
 * and nesting (some schemas are recursive: a verification predicate holds predicates).
 */
export class SchemaArbitraries {
  private readonly memo = new Map<string, fc.Arbitrary<unknown>>();

  constructor(private readonly registry: SchemaRegistry) {}

  for(located: LocatedSchema, depth = 4): fc.Arbitrary<unknown> {
    const key = `${depth}:${locationKey(located)}`;
    let arbitrary = this.memo.get(key);
    if (arbitrary === undefined) {
      arbitrary =
        depth <= 0
          ? junk
          : fc.oneof({ arbitrary: this.shaped(located, depth), weight: 12 }, { arbitrary: junk, weight: 1 });
      this.memo.set(key, arbitrary);
    }
    return arbitrary;
  }

  private at(located: LocatedSchema, ...keys: (string | number)[]): LocatedSchema {
    return this.registry.resolve(`#${childPointer(located.pointer, ...keys)}`, located);
  }

  private shaped(located: LocatedSchema, depth: number): fc.Arbitrary<unknown> {
    const raw = located.schema;
    if (typeof raw === "boolean") return junk;
    const s = raw;
    const options: fc.Arbitrary<unknown>[] = [];
    if (typeof s.$ref === "string") options.push(this.for(this.registry.resolve(s.$ref, located), depth - 1));
    if (s.const !== undefined) options.push(fc.constant(s.const));
    if (Array.isArray(s.enum)) {
      options.push(fc.constantFrom(...(s.enum as unknown[])));
      options.push(
        fc.constantFrom(...(s.enum as unknown[])).map((value) => (typeof value === "string" ? `${value}x` : value)),
      );
    }
    for (const keyword of ["anyOf", "oneOf"]) {
      if (Array.isArray(s[keyword]))
        (s[keyword] as unknown[]).forEach((_, i) => options.push(this.for(this.at(located, keyword, i), depth - 1)));
    }
    if (Array.isArray(s.allOf)) {
      const parts = s.allOf.map((_, i) => this.for(this.at(located, "allOf", i), depth - 1));
      options.push(...parts);
      // Objects drawn for every part, merged: what an allOf of object shapes (an envelope and its result) accepts.
      if (parts.length > 1)
        options.push(
          fc.tuple(...parts).map((values) => (values.every(isPlainObject) ? Object.assign({}, ...values) : values[0])),
        );
    }
    if (s.then !== undefined) options.push(this.for(this.at(located, "then"), depth - 1));
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const implied =
      types.length > 0
        ? types
        : [
            ...(s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined
              ? ["object"]
              : []),
            ...(s.items !== undefined || s.contains !== undefined ? ["array"] : []),
            ...(s.minLength !== undefined || s.pattern !== undefined || s.maxLength !== undefined ? ["string"] : []),
            ...(s.minimum !== undefined || s.maximum !== undefined ? ["number"] : []),
          ];
    for (const type of implied) {
      switch (type) {
        case "object":
          options.push(this.object(located, s, depth));
          break;
        case "array":
          options.push(this.array(located, s, depth));
          break;
        case "string":
          options.push(stringArbitrary(s));
          break;
        case "integer":
        case "number":
          options.push(numberArbitrary(s, type === "integer"));
          break;
        case "boolean":
          options.push(fc.boolean());
          break;
        case "null":
          options.push(fc.constant(null));
          break;
      }
    }
    if (options.length === 0) options.push(fc.jsonValue({ maxDepth: 2 }), junk);
    return fc.oneof(...options);
  }

  private object(located: LocatedSchema, s: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    const names = Object.keys((s.properties ?? {}) as object);
    const required = new Set((s.required ?? []) as string[]);
    const fields = names.map((name) =>
      fc
        .option(this.for(this.at(located, "properties", name), depth - 1), {
          freq: required.has(name) ? 20 : 2,
          nil: undefined as never,
        })
        .map((value) => [name, value] as const),
    );
    const extraValue =
      typeof s.additionalProperties === "object" ? this.for(this.at(located, "additionalProperties"), depth - 1) : junk;
    const extraKey = fc.oneof(
      fc.constantFrom("extra", "a b", "0", "constructor", "__proto__", "toString", ...names),
      fc.string({ maxLength: 5 }),
    );
    const extras = fc.array(fc.tuple(extraKey, extraValue), { maxLength: 3 });
    return fc
      .tuple(
        fc.tuple(...fields),
        fc.oneof({ arbitrary: fc.constant([] as [string, unknown][]), weight: 4 }, { arbitrary: extras, weight: 1 }),
        fc.integer({ min: 0, max: 30 }),
      )
      .map(([present, more, mode]) => {
        const object: Record<string, unknown> = {};
        for (const [name, value] of present) {
          if (value !== undefined) object[name] = value;
          else if (mode === 0) object[name] = undefined; // a present field holding undefined
        }
        for (const [name, value] of more)
          Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
        return object;
      });
  }

  private array(located: LocatedSchema, s: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    const item = s.items !== undefined ? this.for(this.at(located, "items"), depth - 1) : junk;
    const max = typeof s.maxItems === "number" ? Math.min(s.maxItems + 1, 6) : 5;
    const plain = fc.array(item, { maxLength: max });
    // Repeats, for uniqueItems.
    const repeated = fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => [...items, items[0]]);
    const long =
      typeof s.maxItems === "number" && s.maxItems <= 64
        ? fc.array(item, { minLength: s.maxItems, maxLength: s.maxItems + 1 })
        : plain;
    return fc.oneof(
      { arbitrary: plain, weight: 6 },
      { arbitrary: repeated, weight: 1 },
      { arbitrary: long, weight: 1 },
    );
  }
}

/**
 * A copy of `value` with one place changed, chosen by `choice`: a field removed, a value replaced
 * by `replacement`, an unknown field added, or an array item repeated.
 */
export function mutate(value: unknown, choice: number[], replacement: unknown): unknown {
  const copy = structuredClone(value) as unknown;
  let holder: unknown = copy;
  const steps = choice.slice(0, -1);
  for (const step of steps) {
    const keys = holder !== null && typeof holder === "object" ? Object.keys(holder) : [];
    if (keys.length === 0) break;
    const next = (holder as Record<string, unknown>)[keys[step % keys.length]!];
    if (next === null || typeof next !== "object") break;
    holder = next;
  }
  if (holder === null || typeof holder !== "object") return replacement;
  const keys = Object.keys(holder);
  const op = (choice.at(-1) ?? 0) % 4;
  const target = holder as Record<string, unknown>;
  const key = keys[(choice[0] ?? 0) % Math.max(keys.length, 1)];
  if (op === 0 && key !== undefined) {
    if (Array.isArray(holder)) holder.splice(Number(key), 1);
    else delete target[key];
  } else if (op === 1 && key !== undefined) {
    target[key] = replacement;
  } else if (op === 2) {
    if (Array.isArray(holder)) holder.push(replacement);
    else target[`unknown${keys.length}`] = replacement;
  } else if (Array.isArray(holder) && holder.length > 0) {
    holder.push(structuredClone(holder[0]));
  } else if (key !== undefined) {
    target[key] = structuredClone(target[key]);
  }
  return copy;
}

/** Whether a drawn value is a plain object (not an array, not null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
