/**
 * The compact validator back end: one small interpreter for the schema programs that
 * codegen/compact-program.ts compiles (generated/validators-compact/index.ts). It gives the same
 * verdicts and the same issues, in the same order, as the straight-line validators of
 * codegen/validator-compiler.ts — whose code is the reference for every rule below — at a fraction
 * of their size; only the browser bundle uses it (tsup.config.ts). Plain code: no `eval`, no
 * `new Function`. test/compact-validators-equivalence.test.ts compares the two back ends.
 *
 * A program is an array of nodes, numbered from 1, one per schema (identical schemas share a
 * node). The compiled code reaches a schema two ways: it *calls* a function of its own (`$ref`,
 * anyOf, oneOf, not, if, contains, the exported validators: a fresh verdict `ok`, and `x-pathRoot`
 * applies) or *inlines* it into its parent (properties, items, allOf, then/else,
 * additionalProperties, propertyNames: it shares the parent function's `ok`, which gates `x-rule`
 * and byte limits on non-strings). A node names another as `i` (call it) or `~i` (inline it); the
 * generator writes `~i` only where the difference shows (the node has an `x-pathRoot`, or something
 * it inlines is gated by `ok`).
 */
import { jsonByteLength, jsonStringLength, utf8Length } from "../byte-length.js";
import { codePointLength, duplicateIndex, failUnion, scratch, type GeneratedValidator } from "../generated-support.js";
import { checkJson, got, gotValue, isJsonObject } from "../json-value.js";
import { joinIndex, joinPath, type ValidationIssue } from "../issue.js";
import { isIdentifierText, isNonWhiteSpaceText } from "../text-patterns.js";

/** The hand-written equivalents of schema patterns (text-patterns.ts; KNOWN_PATTERNS names them). */
export const KNOWN_TESTS = [isIdentifierText, isNonWhiteSpaceText];

/**
 * An `x-rule` check (src/validation/rules/): pushes its issues and returns `false` when the value
 * breaks it. It takes the shape its schema guarantees, since it runs once the value is otherwise valid.
 */
// biome-ignore lint/suspicious/noExplicitAny: each rule types the value as the shape its schema guarantees
export type CompactRule = (value: any, path: string, out: ValidationIssue[]) => boolean;

type Primitive = string | number | boolean | null;

/**
 * One schema of a program. Keys are one letter, for size, and written only when the schema needs
 * them; numbers naming nodes are never 0, so a node's presence is its truth.
 */
export interface CompactNode {
  /** `false`: nothing is allowed. */
  f?: 1;
  /** `x-pathRoot`: issue paths restart at `""` when the node is called. */
  h?: 1;
  /** `$ref`. */
  r?: number;
  /**
   * `type`: the types in schema order, one digit each (1 object, 2 array, 3 string, 4 boolean,
   * 5 null, 6 integer, 7 number); a string when the schema lists them (`["object"]`), a number when
   * it names one (`"object"`), as the sizer of a byte limit tells them apart.
   */
  t?: number | string;
  /** Object: property names, in schema order, and their nodes (written `p: [name, node, name, node...]`). */
  p?: string[];
  s?: number[];
  /** Object: `required`, as a bit for each property (1 the first), then the names not in `p`. */
  q?: number;
  Q?: string[];
  /** Object: property names that Object.prototype also has (read as own fields only). */
  z?: string[];
  /**
   * Object: `additionalProperties` false (`c`), true (`A`) or a schema (`X`). When a typed object
   * says nothing of it, unknown fields must be JSON, or are rejected in strict mode if it lists properties.
   */
  c?: 1;
  A?: 1;
  X?: number;
  /** Object: `propertyNames`, `minProperties`, `maxProperties`. */
  N?: number;
  m?: number;
  M?: number;
  /** Array: `items` (`B`: a boolean schema), `minItems`, `maxItems`, `uniqueItems`. */
  i?: number;
  B?: 1;
  l?: number;
  L?: number;
  u?: 1;
  /** Array: `contains`, `minContains`, `maxContains`. */
  C?: number;
  G?: number;
  H?: number;
  /** String: `minLength`, `maxLength`, `x-minBytes`, `x-maxBytes`. */
  v?: number;
  V?: number;
  d?: number;
  D?: number;
  /** String: `pattern` (absent when a hand-written test `K` stands for it and the schema words its reason). */
  P?: string;
  K?: number;
  /** Number: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (holes where absent), `multipleOf`. */
  U?: (number | undefined)[];
  Y?: number;
  /** `const`, `enum` (primitives; written as one string, joined by spaces, when they are strings without spaces). */
  k?: Primitive;
  e?: Primitive[];
  /** `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`. */
  a?: number[];
  y?: number[];
  o?: number[];
  n?: number;
  I?: number;
  T?: number;
  E?: number;
  /** An unconstrained position: the value must be JSON. */
  j?: 1;
  /** `x-maxBytes` on a value that is not (only) a string: its compact JSON (see `size`), once it is otherwise valid. */
  b?: number;
  /** `x-rule`: the rules (their place in src/validation/rules/index.ts's `rules`) run once the value is otherwise valid. */
  w?: number[];
  /** `x-reason`: the schema's own wording, by the key of the keyword (`P`: pattern, `0`: minimum...). */
  x?: Record<string, string>;
  /** @internal The pattern, compiled on first use. */
  R?: RegExp;
}

/**
 * A node as the generated program writes it: `p` holds names and nodes in turn (one string, joined
 * by spaces, when the names have no spaces), `e` may be one string.
 */
export type PackedNode = Omit<CompactNode, "p" | "e"> & { p?: (string | number)[] | string; e?: Primitive[] | string };

/** The type tests and names, by type digit. */
const TYPES: ((x: unknown) => boolean)[] = [
  isJsonObject,
  isJsonObject,
  Array.isArray,
  (x) => typeof x === "string",
  (x) => typeof x === "boolean",
  (x) => x === null,
  Number.isInteger,
  Number.isFinite,
];
const ARTICLES = ",an object,an array,a string,a boolean,null,an integer,a number".split(",");
const LIMITS = ["at least", "at most", "greater than", "less than"];

/**
 * Loads a program (`nodes[0]` is unused) and the rules its nodes name, each at its place in
 * src/validation/rules/index.ts's `rules` (a program passes only those it uses: the others are
 * holes). Returns `validator(node, strict)`: the validator that runs the program from a node
 * (`strict` closes every typed object that lists properties, as the compiled strict variant does).
 */
export function compact(
  program: (PackedNode | undefined)[],
  rules: readonly (CompactRule | undefined)[] = [],
): (node: number, strict?: boolean) => GeneratedValidator {
  /** The issue list (`null`: verdict only), the current function's verdict, strict mode. */
  let O: ValidationIssue[] | null = null;
  let ok = true;
  let S = false;

  // Unpack what is written compactly (see PackedNode).
  for (const n of program) {
    if (n?.p && !n.s) {
      const p = typeof n.p === "string" ? n.p.split(" ") : n.p;
      n.s = p.filter((_, i) => i & 1).map(Number);
      n.p = p.filter((_, i) => !(i & 1)) as string[];
    }
    if (typeof n?.e === "string") n.e = n.e.split(" ");
  }
  const N = program as CompactNode[];

  /** A failure already recorded (or none to record): returns whether to go on. */
  const no = (): boolean => {
    ok = false;
    return O !== null;
  };
  /** Records an issue; returns whether to go on (false: verdict only, stop). */
  const F = (path: string, reason: string): boolean => (O?.push({ path, reason }), no());
  /** The reason for a failed keyword: the schema's own words, or the default followed by `more`. */
  const why = (n: CompactNode, key: string | number, text: string, more = ""): string => {
    const custom = n.x?.[key];
    return custom != null && custom !== text ? custom : text + more;
  };
  const jp = (p: string, k: string): string => (O ? joinPath(p, k) : "");

  /** Runs node `i` as a function of its own (a fresh verdict) and returns the verdict. */
  const call = (i: number, x: unknown, p: string, out: ValidationIssue[] | null): boolean => {
    const outer = O;
    const outerOk = ok;
    O = out;
    ok = true;
    const result = ev(i, x, out && !N[i]!.h ? p : "") && ok;
    O = outer;
    ok = outerOk;
    return result;
  };
  /** Checks `x` against the node named `c` (`~i`: inline); returns whether to go on. */
  const E = (c: number, x: unknown, p: string): boolean => (c < 0 ? ev(~c, x, p) : call(c, x, p, O) || no());
  const branch =
    (i: number): GeneratedValidator =>
    (x, p, out) =>
      call(i, x, p, out);

  /**
   * The compact JSON size of a value valid against node `i`, exactly as codegen/sizer-compiler.ts
   * measures it (or, `exact` false, its cheap upper bound): by the schema — a constant, an enum
   * member, a string, a boolean, a number, the items of `type: "array"`, the listed fields of a
   * closed `type: "object"` (read as `x[name]`) — and anything else as it is.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the interpreter reads whatever the node's schema says the value is, as the compiled validators do
  const size = (i: number, x: any, exact: boolean): number => {
    const n = N[i < 0 ? ~i : i]!;
    let bytes = 1;
    let fields = n.Q?.length ?? 0;
    if (n.r) return size(n.r, x, exact);
    if ("k" in n) return jsonByteLength(n.k);
    if (n.e?.every((v) => typeof v === "string")) {
      return n.e.includes(x)
        ? jsonStringLength(x)
        : n.e.every((v) => jsonStringLength(v as string) === (v as string).length + 2)
          ? x.length + 2
          : NaN;
    }
    switch (n.t) {
      case 1:
        if (!n.c) break;
        n.p?.forEach((k, j) => {
          const v = x[k];
          if ((n.q! / 2 ** j) & 1 || v !== undefined) {
            fields++;
            bytes += jsonStringLength(k) + 2 + size(n.s![j]!, v, exact); // key, colon, value, comma (the last one is the brace)
          }
        });
        return bytes + (fields ? 0 : 1);
      case 2:
        if (!n.i || n.B) break;
        bytes = x.length === 0 ? 2 : x.length + 1;
        for (let j = 0; j < x.length; j++) bytes += size(n.i, x[j], exact);
        return bytes;
      case 3:
        return exact ? jsonStringLength(x) : x.length * 6 + 2;
      case 4:
        return x ? 4 : 5;
      case 6:
      case 7:
        return String(x).length;
    }
    return jsonByteLength(x);
  };

  /** Checks `x` against node `i` inline; returns whether to go on (false: verdict only, failed). */
  // biome-ignore lint/suspicious/noExplicitAny: the interpreter reads whatever the node's schema says the value is, as the compiled validators do
  const ev = (i: number, x: any, p: string): boolean => {
    const n = N[i]!;
    const types = [...(n.t ? `${n.t}` : "")];
    let j: number;
    if (n.f) return F(p, "is not allowed");
    if (n.r && !E(n.r, x, p)) return false;
    if (types.length && !types.some((t) => TYPES[t as never]!(x))) {
      if (!O) return false;
      const words = types.map((t) => ARTICLES[t as never]);
      F(
        p,
        why(
          n,
          "t",
          `must be ${words.length > 2 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words.join(" or ")}`,
          got(x),
        ),
      );
    } else {
      // Each group of keywords is checked on a value of its kind (without its keywords, it does nothing).
      if (typeof x === "object" && x !== null && !Array.isArray(x)) {
        const names = n.p ?? [];
        // A typed object that says nothing of unknown fields: they must be JSON, or (strict) absent.
        const open = types.includes("1") && !n.c && !n.A && !n.X;
        const closed = n.c || (S && open && names.length > 0);
        let count = 0;
        if (closed || open || n.X || n.N || n.m != null || n.M != null) {
          for (const k in x) {
            count++;
            if (n.N && !E(n.N, k, jp(p, k))) return false;
            if ((closed || open || n.X) && !names.includes(k)) {
              if (closed) {
                if (
                  !F(
                    jp(p, k),
                    why(
                      n,
                      "c",
                      `is not allowed (unknown field); ${names.length ? `allowed fields: ${names.join(", ")}` : "no fields are allowed here"}`,
                    ),
                  )
                )
                  return false;
              } else if (n.X) {
                if (!E(n.X, x[k], jp(p, k))) return false;
              } else if (!checkJson(x[k], jp(p, k), O) && !no()) return false;
            }
          }
        }
        for (j = 0; j < names.length; j++) {
          const k = names[j]!;
          // Only own fields count for a name Object.prototype also has (constructor, toString, ...).
          const own = n.z?.includes(k);
          const v = own ? (Object.hasOwn(x, k) ? x[k] : undefined) : x[k];
          if (v !== undefined || (own ? Object.hasOwn(x, k) : k in x)) {
            if (!E(n.s![j]!, v, jp(p, k))) return false;
          } else if ((n.q! / 2 ** j) & 1 && !F(jp(p, k), why(n, "q", "is required"))) return false;
        }
        for (const k of n.Q ?? [])
          if (x[k] === undefined && !(k in x) && !F(jp(p, k), why(n, "q", "is required"))) return false;
        if (
          count < n.m! &&
          !F(p, why(n, "m", n.m === 1 ? "must have at least one entry" : `must have at least ${n.m} entries`))
        )
          return false;
        if (count > n.M! && !F(p, why(n, "M", `must have at most ${n.M} entries`, ` (got ${count})`))) return false;
      }
      if (Array.isArray(x)) {
        j = x.length;
        if (
          j < n.l! &&
          !F(p, why(n, "l", n.l === 1 ? "must not be empty" : `must have at least ${n.l} items`, ` (got ${j})`))
        )
          return false;
        if (j > n.L! && !F(p, why(n, "L", `must have at most ${n.L} items`, ` (got ${j})`))) return false;
        if (n.i) for (j = 0; j < x.length; j++) if (!E(n.i, x[j], O ? joinIndex(p, j) : "")) return false;
        if (
          n.u &&
          (j = duplicateIndex(x)) !== -1 &&
          !F(joinIndex(p, j), why(n, "u", "must not repeat an earlier item"))
        )
          return false;
        if (n.C) {
          let c = 0;
          for (const item of x) if (call(n.C, item, "", null)) c++;
          const least = n.G ?? 1;
          if (
            c < least &&
            !F(p, why(n, "G", `must contain at least ${least} matching item${least === 1 ? "" : "s"}`, ` (got ${c})`))
          )
            return false;
          if (
            c > n.H! &&
            !F(p, why(n, "H", `must contain at most ${n.H} matching item${n.H === 1 ? "" : "s"}`, ` (got ${c})`))
          )
            return false;
        }
      }
      if (typeof x === "string") {
        // A string of n code units has n/2 to n code points and at most 3n UTF-8 bytes: most checks
        // are settled by the length.
        if (
          x.length < 2 * n.v! &&
          codePointLength(x) < n.v! &&
          !F(p, why(n, "v", n.v === 1 ? "must not be empty" : `must be at least ${n.v} characters long`))
        )
          return false;
        if (
          x.length > n.V! &&
          codePointLength(x) > n.V! &&
          !F(p, why(n, "V", `must be at most ${n.V} characters long`, ` (got ${codePointLength(x)})`))
        )
          return false;
        if (x.length < n.d! && utf8Length(x) < n.d! && !F(p, why(n, "d", `must be at least ${n.d} UTF-8 bytes long`)))
          return false;
        if (
          x.length > n.D! / 3 &&
          utf8Length(x) > n.D! &&
          !F(p, why(n, "D", `must be at most ${n.D} UTF-8 bytes`, ` (got ${utf8Length(x)})`))
        )
          return false;
        // An empty string already failed minLength; the pattern would only repeat it less clearly.
        if (
          (n.K ?? n.P) != null &&
          !(n.v! >= 1 && !x) &&
          !(n.K != null ? KNOWN_TESTS[n.K]!(x) : (n.R ??= new RegExp(n.P!, "u")).test(x)) &&
          !F(p, why(n, "P", `must match the pattern ${n.P}`))
        )
          return false;
      }
      if (typeof x === "number") {
        for (j = 0; j < 4; j++) {
          const limit = n.U?.[j] as number;
          if (
            (j === 0 ? x < limit : j === 1 ? x > limit : j === 2 ? x <= limit : x >= limit) &&
            !F(p, why(n, j, `must be ${LIMITS[j]} ${limit}`, ` (got ${x})`))
          )
            return false;
        }
        if (
          n.Y != null &&
          Math.abs(x / n.Y - Math.round(x / n.Y)) > 1e-9 &&
          !F(p, why(n, "Y", `must be a multiple of ${n.Y}`))
        )
          return false;
      }
    }
    if ("k" in n && x !== n.k) {
      if (!O) return false;
      F(p, why(n, "k", `must be ${JSON.stringify(n.k)}`, gotValue(x)));
    }
    if (n.e && !n.e.includes(x)) {
      if (!O) return false;
      F(
        p,
        why(
          n,
          "e",
          `must be one of: ${n.e.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}`,
          gotValue(x),
        ),
      );
    }
    for (const a of n.a ?? []) if (!E(a, x, p)) return false;
    if (n.y && !n.y.some((b) => call(b, x, "", null))) {
      if (!O) return false;
      ok = failUnion(O, p, x, n.y.map(branch), n.x?.y ?? "");
    }
    if (n.o && (j = n.o.filter((b) => call(b, x, "", null)).length) !== 1) {
      if (!O) return false;
      if (j) F(p, n.x?.o ?? "matches more than one of the allowed forms; make it match exactly one");
      else ok = failUnion(O, p, x, n.o.map(branch), n.x?.o ?? "");
    }
    if (n.n && call(n.n, x, "", null) && !F(p, why(n, "n", "must not match the excluded form"))) return false;
    if (n.I) {
      const then = call(n.I, x, "", null) ? n.T : n.E;
      if (then && !E(then, x, p)) return false;
    }
    if (n.j && !checkJson(x, p, O) && !no()) return false;
    // Only a value valid so far gets here, so its schema can measure it.
    if (
      n.b != null &&
      ok &&
      (j = size(i, x, false) > n.b ? size(i, x, true) : 0) > n.b &&
      !F(p, why(n, "D", `must serialize to at most ${n.b} bytes of JSON`, ` (got ${j})`))
    )
      return false;
    for (const rule of n.w ?? []) if (ok && !rules[rule]!(x, p, O ?? scratch()) && !no()) return false;
    return true;
  };

  return (i, strict = false) =>
    (x, p, out) => {
      const outer = S;
      S = strict;
      const result = call(i, x, p, out);
      S = outer;
      return result;
    };
}

/**
 * A validator table (`payloadValidators`): each key of `catalog`, in order, with the validator of
 * its node (0: none), frozen and without a prototype. The keys are read here, not by the caller, so
 * that a bundler drops an unused table whole (its arguments have no side effects).
 */
export function validatorTable(
  validator: (node: number) => GeneratedValidator,
  catalog: Readonly<Record<string, unknown>>,
  nodes: number[],
): Readonly<Record<string, GeneratedValidator>> {
  const names = Object.keys(catalog);
  const table = Object.create(null) as Record<string, GeneratedValidator>;
  nodes.forEach((node, i) => node && (table[names[i]!] = validator(node)));
  return Object.freeze(table);
}
