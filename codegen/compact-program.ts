import { KNOWN_PATTERNS } from "../src/validation/text-patterns.js";
import { KNOWN_TESTS, type CompactNode } from "../src/validation/compact/index.js";
import { rules } from "../src/validation/rules/index.js";
import { reasonText } from "./validator-reasons.js";
import {
  checkKeywords,
  constValue,
  enumValues,
  groupApplies,
  isOnlyString,
  isUnconstrained,
  locationName,
  ruleNamesOf,
  typesOf,
  type KeywordGroup,
} from "./schema-keywords.js";
import {
  childPointer,
  locationKey,
  type LocatedSchema,
  type SchemaLocation,
  type SchemaObject,
  type SchemaRegistry,
} from "./schema-registry.js";

/*
 * Compiles schemas into a compact program for src/validation/compact/ (the interpreter the browser
 * bundle uses instead of the straight-line validators). It reads a schema exactly as
 * FunctionCompiler.schema in validator-compiler.ts does — the same keywords, the same decisions
 * about which checks apply, the same places where a schema is inlined into its parent or called
 * as a function of its own — and writes those decisions down as data; the interpreter then does
 * what the compiled code would do. Keep the two in step: test/compact-validators-equivalence.test.ts
 * compares them.
 */

const TYPE_CODES: Record<string, number> = {
  object: 1,
  array: 2,
  string: 3,
  boolean: 4,
  null: 5,
  integer: 6,
  number: 7,
};

/** The key under which the interpreter looks up the `x-reason` of each keyword that can fail. */
const REASON_KEYS: Record<string, string> = {
  type: "t",
  const: "k",
  enum: "e",
  not: "n",
  anyOf: "y",
  oneOf: "o",
  additionalProperties: "c",
  required: "q",
  minProperties: "m",
  maxProperties: "M",
  minItems: "l",
  maxItems: "L",
  uniqueItems: "u",
  minContains: "G",
  maxContains: "H",
  minLength: "v",
  maxLength: "V",
  "x-minBytes": "d",
  "x-maxBytes": "D",
  pattern: "P",
  minimum: "0",
  maximum: "1",
  exclusiveMinimum: "2",
  exclusiveMaximum: "3",
  multipleOf: "Y",
};

/** Keys of a node that name nodes the compiled code calls, and nodes it inlines. */
const CALLED = ["r", "C", "n", "I", "y", "o"] as const;
const INLINED = ["X", "N", "i", "T", "E", "s", "a"] as const;
type NodeKey = (typeof CALLED)[number] | (typeof INLINED)[number];

/** The nodes a node names under `key` (one or a list), as a list. */
function childrenOf(node: CompactNode, key: NodeKey): number[] {
  const value = node[key] as number | number[] | undefined;
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** The program: its nodes, and a way to find the node of a schema. */
export class CompactProgramCompiler {
  private readonly nodes: CompactNode[] = [];
  private readonly functions = new Map<string, number>();
  private readonly queue: { index: number; located: LocatedSchema }[] = [];
  private readonly entries: number[] = [];

  constructor(private readonly registry: SchemaRegistry) {}

  /** The node of the schema at `location`, as an exported validator calls it. */
  entry(location: SchemaLocation): number {
    const index = this.fn(this.registry.at(location));
    this.entries.push(index);
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift())
      this.nodes[job.index] = this.node(job.located);
    return index;
  }

  /**
   * The finished program, and `map` from the indexes entry() returned to the program's. Identical
   * nodes are merged; a node that is only a `$ref` disappears (whoever names it calls its target);
   * a node named where the compiled code inlines it is written `~i` when inlining matters (see
   * {@link CompactNode}); the nodes named most often get the smallest numbers, from 1 (`nodes[0]`
   * is unused).
   */
  program(): { nodes: CompactNode[]; map: (index: number) => number } {
    // Merge nodes that are written the same once their children are merged, until nothing changes
    // (a schema repeated in many places — `{type: "string", minLength: 1}` — becomes one node).
    let classOf = this.nodes.map((_, i) => i);
    for (;;) {
      const keys = new Map<string, number>();
      const next = this.nodes.map((node) => {
        const key = JSON.stringify(renumber(node, (_key, i) => classOf[i]!));
        if (!keys.has(key)) keys.set(key, keys.size);
        return keys.get(key)!;
      });
      const changed = keys.size !== new Set(classOf).size;
      classOf = next;
      if (!changed) break;
    }
    // A node that is only a $ref: calling or inlining it calls its target.
    const target = (index: number): number => {
      for (
        let node = this.nodes[index]!, hops = 0;
        Object.keys(node).length === 1 && node.r !== undefined && hops < 100;
        node = this.nodes[index]!, hops++
      )
        index = node.r;
      return classOf[index]!;
    };
    const representative = new Map<number, CompactNode>();
    classOf.forEach((cls, i) => {
      if (!representative.has(cls)) representative.set(cls, this.nodes[i]!);
    });
    // Inlined, a node shares the verdict of the function it is inlined into, which gates its
    // x-rule and byte limit (and those of what it inlines); called, it applies its x-pathRoot.
    // Where neither is at stake, calling it is the same as inlining it.
    const gated = new Map<number, boolean>();
    const gates = (cls: number): boolean => {
      let known = gated.get(cls);
      if (known === undefined) {
        const node = representative.get(cls)!;
        known =
          node.w !== undefined ||
          node.b !== undefined ||
          INLINED.some((key) => childrenOf(node, key).some((child) => gates(classOf[child]!)));
        gated.set(cls, known);
      }
      return known;
    };
    const reference = (key: NodeKey, child: number): number => {
      const cls = target(child);
      if (cls !== classOf[child]) return cls;
      const node = representative.get(cls)!;
      return (INLINED as readonly string[]).includes(key) && (gates(cls) || node.h !== undefined) ? ~cls : cls;
    };
    // The nodes reachable from the entries, by the class numbers, then renumbered by use.
    const uses = new Map<number, number>();
    const seen = new Set<number>();
    const visit = (cls: number): void => {
      uses.set(cls, (uses.get(cls) ?? 0) + 1);
      if (seen.has(cls)) return;
      seen.add(cls);
      renumber(representative.get(cls)!, (key, child) => (visit(ref(reference(key, child))), child));
    };
    const ref = (encoded: number): number => (encoded < 0 ? ~encoded : encoded);
    for (const index of this.entries) visit(target(index));
    const order = [...seen].sort((a, b) => uses.get(b)! - uses.get(a)! || a - b);
    const position = new Map(order.map((cls, i) => [cls, i + 1])); // numbered from 1: 0 means none
    const nodes = [
      {},
      ...order.map((cls) =>
        renumber(representative.get(cls)!, (key, child) => {
          const encoded = reference(key, child);
          return encoded < 0 ? ~position.get(~encoded)! : position.get(encoded)!;
        }),
      ),
    ];
    return { nodes, map: (index) => position.get(target(index))! };
  }

  /** A schema called as a function of its own: one node per location, compiled later (schemas may be recursive). */
  private fn(located: LocatedSchema): number {
    const key = locationKey(located);
    let index = this.functions.get(key);
    if (index === undefined) {
      index = this.nodes.push({}) - 1;
      this.functions.set(key, index);
      this.queue.push({ index, located });
    }
    return index;
  }

  /** A subschema the compiled code calls (anyOf/oneOf/not/if/contains): a bare `$ref` is called directly. */
  private sub(located: LocatedSchema): number {
    const schema = located.schema;
    if (
      typeof schema === "object" &&
      typeof schema.$ref === "string" &&
      Object.keys(schema).every((k) => k === "$ref" || k === "description")
    ) {
      return this.fn(this.registry.resolve(schema.$ref, located));
    }
    return this.fn(located);
  }

  /** A subschema the compiled code inlines into its parent. */
  private inline(located: LocatedSchema): number {
    return this.nodes.push(this.node(located)) - 1;
  }

  private node(located: LocatedSchema): CompactNode {
    const raw = located.schema;
    if (raw === true) return {};
    if (raw === false) return { f: 1 };
    const s = raw;
    const where = locationName(located);
    checkKeywords(s, located);
    const at = (...keys: (string | number)[]): LocatedSchema =>
      this.registry.resolve(`#${childPointer(located.pointer, ...keys)}`, located);
    const n: CompactNode = {};
    if (s["x-pathRoot"] === true) n.h = 1;
    if (typeof s.$ref === "string") n.r = this.fn(this.registry.resolve(s.$ref, located));

    const types = typesOf(s, located);
    const groups: [KeywordGroup, () => void][] = [
      ["object", () => this.objectKeywords(s, n, types, at, where)],
      ["array", () => this.arrayKeywords(s, n, at)],
      ["string", () => this.stringKeywords(s, n)],
      ["number", () => this.numberKeywords(s, n)],
    ];
    if (types.length > 0) {
      const digits = types.map((type) => TYPE_CODES[type]).join("");
      n.t = Array.isArray(s.type) ? digits : Number(digits);
    }
    // The keywords of a group are written only when the group applies; the interpreter runs a
    // group on every value of its kind, which does nothing when none of its keywords is there.
    for (const [group, emit] of groups) if (groupApplies(s, types, group)) emit();

    if (s.const !== undefined) n.k = constValue(s, located);
    if (s.enum !== undefined) n.e = enumValues(s, located);
    if (Array.isArray(s.allOf)) n.a = s.allOf.map((_, i) => this.inline(at("allOf", i)));
    if (Array.isArray(s.anyOf)) n.y = s.anyOf.map((_, i) => this.sub(at("anyOf", i)));
    if (Array.isArray(s.oneOf)) n.o = s.oneOf.map((_, i) => this.sub(at("oneOf", i)));
    if (s.not !== undefined) n.n = this.sub(at("not"));
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      n.I = this.sub(at("if"));
      if (s.then !== undefined) n.T = this.inline(at("then"));
      if (s.else !== undefined) n.E = this.inline(at("else"));
    }

    if (isUnconstrained(s, types)) n.j = 1;
    const maxBytes = s["x-maxBytes"];
    if (typeof maxBytes === "number" && !isOnlyString(types)) n.b = maxBytes;
    const ruleNames = ruleNamesOf(s);
    for (const rule of ruleNames)
      if (!Object.hasOwn(rules, rule))
        throw new Error(`${where}: x-rule ${rule} is not a rule of src/validation/rules/index.ts`);
    if (ruleNames.length > 0) n.w = ruleNames.map((rule) => Object.keys(rules).indexOf(rule));

    if (s["x-reason"] !== undefined) {
      reasonText(s, "", ""); // throws unless x-reason is an object
      const reasons = Object.entries(s["x-reason"] as object).filter(
        ([keyword, text]) => typeof text === "string" && REASON_KEYS[keyword] !== undefined,
      );
      if (reasons.length > 0) n.x = Object.fromEntries(reasons.map(([keyword, text]) => [REASON_KEYS[keyword], text]));
    }
    return n;
  }

  private objectKeywords(
    s: SchemaObject,
    n: CompactNode,
    types: string[],
    at: (...keys: (string | number)[]) => LocatedSchema,
    where: string,
  ): void {
    const names = Object.keys((s.properties ?? {}) as object);
    const isTyped = types.includes("object");
    const ap = s.additionalProperties;
    if (ap !== undefined && typeof ap !== "boolean" && typeof ap !== "object")
      throw new Error(`${where}: additionalProperties must be a boolean or a schema`);
    // A typed object without additionalProperties (neither c, A nor X): the interpreter checks
    // unknown fields as JSON, or rejects them in strict mode when the object lists properties.
    if (ap === false) n.c = 1;
    else if (ap === true && isTyped) n.A = 1;
    else if (typeof ap === "object") n.X = this.inline(at("additionalProperties"));
    if (s.propertyNames !== undefined) n.N = this.inline(at("propertyNames"));
    for (const keyword of ["minProperties", "maxProperties"]) {
      if (s[keyword] !== undefined && typeof s[keyword] !== "number")
        throw new Error(`${where}: ${keyword} must be a number`);
    }
    if (typeof s.minProperties === "number") n.m = s.minProperties;
    if (typeof s.maxProperties === "number") n.M = s.maxProperties;
    const required = new Set((s.required ?? []) as string[]);
    if (names.length > 0) {
      n.p = names;
      n.s = names.map((name) => this.inline(at("properties", name)));
      const inherited = names.filter((name) => name in Object.prototype);
      if (inherited.length > 0) n.z = inherited;
      const mask = names.reduce((sum, name, i) => (required.has(name) ? sum + 2 ** i : sum), 0);
      if (mask > Number.MAX_SAFE_INTEGER)
        throw new Error(`${where}: a required property after the 53rd is not supported by the compact validators`);
      if (mask !== 0) n.q = mask;
    }
    const others = [...required].filter((name) => !names.includes(name));
    if (others.length > 0) n.Q = others;
  }

  private arrayKeywords(s: SchemaObject, n: CompactNode, at: (...keys: (string | number)[]) => LocatedSchema): void {
    if (typeof s.minItems === "number") n.l = s.minItems;
    if (typeof s.maxItems === "number") n.L = s.maxItems;
    if (s.items !== undefined) n.i = this.inline(at("items"));
    if (typeof s.items === "boolean") n.B = 1; // a byte limit measures the array as it is, not item by item
    if (s.uniqueItems === true) n.u = 1;
    if (s.contains !== undefined) {
      n.C = this.sub(at("contains"));
      if (typeof s.minContains === "number") n.G = s.minContains;
      if (typeof s.maxContains === "number") n.H = s.maxContains;
    }
  }

  private stringKeywords(s: SchemaObject, n: CompactNode): void {
    const [v, V, d, D] = [num(s.minLength), num(s.maxLength), num(s["x-minBytes"]), num(s["x-maxBytes"])];
    if (v !== undefined) n.v = v;
    if (V !== undefined) n.V = V;
    if (d !== undefined) n.d = d;
    if (D !== undefined) n.D = D;
    if (typeof s.pattern === "string") {
      const known = KNOWN_PATTERNS[s.pattern];
      if (known === undefined) {
        n.P = s.pattern;
      } else {
        n.K = KNOWN_TESTS.findIndex((test) => test.name === known);
        if (n.K === -1)
          throw new Error(
            `KNOWN_PATTERNS names ${known}, which src/validation/compact/index.ts does not list in KNOWN_TESTS`,
          );
        // The pattern itself is only needed for the default reason.
        if (reasonText(s, "pattern", "") === "") n.P = s.pattern;
      }
    }
  }

  private numberKeywords(s: SchemaObject, n: CompactNode): void {
    const limits = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].map((keyword) => num(s[keyword]));
    while (limits.length > 0 && limits.at(-1) === undefined) limits.pop();
    if (limits.length > 0) n.U = limits;
    if (typeof s.multipleOf === "number") n.Y = s.multipleOf;
  }
}

/** A copy of a node with the nodes it names renumbered (`map` is told under which key each is named). */
function renumber(node: CompactNode, map: (key: NodeKey, index: number) => number): CompactNode {
  const copy: Record<string, unknown> = { ...node };
  for (const key of [...CALLED, ...INLINED]) {
    const value = node[key] as number | number[] | undefined;
    if (value !== undefined) copy[key] = Array.isArray(value) ? value.map((child) => map(key, child)) : map(key, value);
  }
  return copy as CompactNode;
}
