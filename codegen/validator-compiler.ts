import { CodeWriter } from "./code-writer.js";
import type { SizerCompiler } from "./sizer-compiler.js";
import { KNOWN_PATTERNS } from "../src/validation/text-patterns.js";
import { reasonText, typeReason } from "./validator-reasons.js";
import {
  checkKeywords,
  constValue,
  enumValues,
  groupApplies,
  isOnlyString,
  isUnconstrained,
  ruleNamesOf,
  typesOf,
  type KeywordGroup,
} from "./schema-keywords.js";
import {
  childPointer,
  locationKey,
  type LocatedSchema,
  type Schema,
  type SchemaLocation,
  type SchemaObject,
  type SchemaRegistry,
} from "./schema-registry.js";

/**
 * `lenient` validates as the schema says; `strict` also closes every `type: "object"` schema that
 * lists properties but says nothing of others (responses tolerate unknown fields unless asked not to).
 */
export type ValidationMode = "lenient" | "strict";

/** One generated validator function and the module it is written to. */
export interface CompiledFunction {
  name: string;
  module: string;
  code: string;
  /** Names of generated functions (possibly in other modules) this one calls. */
  calls: Set<string>;
  /** Module-level constants (regular expressions, enum sets) this function uses. */
  constants: string[];
}

const TYPE_TEST: Record<string, (x: string) => string> = {
  object: (x) => `isJsonObject(${x})`,
  array: (x) => `Array.isArray(${x})`,
  string: (x) => `typeof ${x} === "string"`,
  boolean: (x) => `typeof ${x} === "boolean"`,
  null: (x) => `${x} === null`,
  integer: (x) => `Number.isInteger(${x})`,
  number: (x) => `Number.isFinite(${x})`,
};

/**
 * Compiles JSON Schemas (our dialect, see schema/README.md) into plain TypeScript validator
 * functions: no `eval`, no `new Function`, no schema interpreter at run time.
 *
 * Every function has the signature `(x: unknown, p: string, out: ValidationIssue[] | null) =>
 * boolean`. With `out === null` it answers as fast as it can and returns at the first failure
 * without building a path or a message; with an array it records every issue with its path.
 */
export class ValidatorCompiler {
  private readonly functions = new Map<string, CompiledFunction>();
  private readonly names = new Map<string, string>();
  private readonly usedNames = new Set<string>();
  private readonly queue: { key: string; located: LocatedSchema; mode: ValidationMode; name: string }[] = [];

  constructor(
    private readonly registry: SchemaRegistry,
    private readonly moduleOf: (file: string) => string,
    /** @internal Compiles the sizers that byte limits on non-string values use. */
    readonly sizers: SizerCompiler,
  ) {}

  /** Returns the name of the function validating the schema at `location`, compiling it if needed. */
  entry(location: SchemaLocation, mode: ValidationMode = "lenient", nameHint?: string): string {
    const name = this.functionFor(this.registry.at(location), mode, nameHint);
    this.drain();
    return name;
  }

  /** Every function compiled so far. */
  compiled(): CompiledFunction[] {
    return [...this.functions.values()];
  }

  private drain(): void {
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      this.functions.set(
        job.key,
        new FunctionCompiler(this, job.located, job.mode, job.name, this.moduleOf(job.located.file)).compile(),
      );
    }
  }

  /** @internal Name of the function for a located schema, queued for compilation on first use. */
  functionFor(located: LocatedSchema, mode: ValidationMode, nameHint?: string): string {
    const key = `${mode}:${locationKey(located)}`;
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const title =
      typeof located.schema === "object" && typeof located.schema.title === "string" ? located.schema.title : undefined;
    const base = `validate${nameHint ?? title ?? pascal(`${located.file.replace(/(\.schema)?\.json$/, "")} ${located.pointer}`)}${mode === "strict" ? "Strict" : ""}`;
    let name = base;
    for (let n = 2; this.usedNames.has(name); n++) name = `${base}${n}`;
    this.usedNames.add(name);
    this.names.set(key, name);
    this.queue.push({ key, located, mode, name });
    return name;
  }

  /** @internal */
  resolve(ref: string, from: SchemaLocation): LocatedSchema {
    return this.registry.resolve(ref, from);
  }
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

function asObject(schema: Schema): SchemaObject {
  return typeof schema === "boolean" ? {} : schema;
}

/** Compiles one located schema into one function. */
class FunctionCompiler {
  private readonly w = new CodeWriter();
  private readonly calls = new Set<string>();
  private readonly constants: string[] = [];
  private counter = 0;

  constructor(
    private readonly owner: ValidatorCompiler,
    private readonly located: LocatedSchema,
    private readonly mode: ValidationMode,
    private readonly name: string,
    private readonly module: string,
  ) {}

  compile(): CompiledFunction {
    const schema = asObject(this.located.schema);
    const doc = typeof schema.title === "string" ? schema.title : `${this.located.file}#${this.located.pointer}`;
    this.w.line(`/** Validates ${doc}${this.mode === "strict" ? " (strict: unknown fields rejected)" : ""}. */`);
    this.w.open(`export function ${this.name}(x: unknown, p: string, out: ValidationIssue[] | null): boolean {`);
    this.w.line("let ok = true;");
    this.schema(this.located, "x", schema["x-pathRoot"] === true ? `""` : "p");
    this.w.line("return ok;");
    this.w.close("}");
    return { name: this.name, module: this.module, code: this.w.text(), calls: this.calls, constants: this.constants };
  }

  private v(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  private constant(code: string): string {
    const name = `${this.name}_c${this.constants.length}`;
    this.constants.push(`const ${name} = ${code};`);
    return name;
  }

  /** Emits a failure at `path` (an expression) with `reason` (an expression). */
  private fail(path: string, reason: string): void {
    this.w.line(`if (out === null) return false;`);
    this.w.line(`ok = fail(out, ${path}, ${reason});`);
  }

  private failIf(condition: string, path: string, reason: string): void {
    this.w.open(`if (${condition}) {`);
    this.fail(path, reason);
    this.w.close("}");
  }

  /** Emits a call to another generated function; `path` is evaluated only when collecting issues. */
  private call(fn: string, x: string, path: string): void {
    this.calls.add(fn);
    this.w.open(`if (!${fn}(${x}, out === null ? "" : ${path}, out)) {`);
    this.w.line("if (out === null) return false;");
    this.w.line("ok = false;");
    this.w.close("}");
  }

  /** Names a hoisted function for a subschema (used by anyOf/oneOf/not/if/contains). */
  private sub(located: LocatedSchema): string {
    const schema = located.schema;
    if (
      typeof schema === "object" &&
      typeof schema.$ref === "string" &&
      Object.keys(schema).every((k) => k === "$ref" || k === "description")
    ) {
      return this.owner.functionFor(this.owner.resolve(schema.$ref, located), this.mode);
    }
    return this.owner.functionFor(located, this.mode, `${this.name.replace(/^validate/, "")}_${this.counter++}`);
  }

  private schema(located: LocatedSchema, x: string, path: string): void {
    const raw = located.schema;
    if (raw === true) return;
    if (raw === false) {
      this.fail(path, JSON.stringify("is not allowed"));
      return;
    }
    const s = raw;
    checkKeywords(s, located);
    const at = (...keys: (string | number)[]): LocatedSchema =>
      this.owner.resolve(`#${childPointer(located.pointer, ...keys)}`, located);

    if (typeof s.$ref === "string")
      this.call(this.owner.functionFor(this.owner.resolve(s.$ref, located), this.mode), x, path);

    const types = typesOf(s, located);
    const groups: [KeywordGroup, string, (y: string) => void][] = [
      [
        "object",
        `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`,
        (y) => this.objectKeywords(s, y, path, at),
      ],
      ["array", TYPE_TEST.array!(x), (y) => this.arrayKeywords(s, y, path, at)],
      ["string", TYPE_TEST.string!(x), (y) => this.stringKeywords(s, y, path)],
      ["number", `typeof ${x} === "number"`, (y) => this.numberKeywords(s, y, path)],
    ];
    const applicable = groups.filter(([group]) => groupApplies(s, types, group));

    if (types.length > 0) {
      const test = types.map((type) => TYPE_TEST[type]!(x)).join(" || ");
      this.w.open(`if (!(${test})) {`);
      this.fail(path, this.reason(s, "type", typeReason(types), `got(${x})`));
      if (applicable.length > 0) {
        this.w.close("} else {");
        this.w.indent();
      }
      for (const [group, guard, emit] of applicable) {
        const needsGuard =
          types.length > 1 && !(group === "number" && types.every((t) => t === "integer" || t === "number"));
        if (needsGuard) this.w.open(`if (${guard}) {`);
        emit(x);
        if (needsGuard) this.w.close("}");
      }
      this.w.close("}");
    } else {
      for (const [, guard, emit] of applicable) {
        this.w.open(`if (${guard}) {`);
        emit(x);
        this.w.close("}");
      }
    }

    if (s.const !== undefined) {
      const value = JSON.stringify(constValue(s, located));
      this.failIf(`${x} !== ${value}`, path, this.reason(s, "const", `must be ${value}`, `gotValue(${x})`));
    }
    if (s.enum !== undefined) this.enumKeyword(s, located, x, path);

    if (Array.isArray(s.allOf)) s.allOf.forEach((_, i) => this.schema(at("allOf", i), x, path));
    if (Array.isArray(s.anyOf))
      this.unionKeyword(
        "anyOf",
        s,
        s.anyOf.map((_, i) => this.sub(at("anyOf", i))),
        x,
        path,
      );
    if (Array.isArray(s.oneOf))
      this.unionKeyword(
        "oneOf",
        s,
        s.oneOf.map((_, i) => this.sub(at("oneOf", i))),
        x,
        path,
      );
    if (s.not !== undefined) {
      const fn = this.sub(at("not"));
      this.calls.add(fn);
      this.failIf(`${fn}(${x}, "", null)`, path, this.reason(s, "not", "must not match the excluded form"));
    }
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const fn = this.sub(at("if"));
      this.calls.add(fn);
      this.w.open(`if (${fn}(${x}, "", null)) {`);
      if (s.then !== undefined) this.schema(at("then"), x, path);
      if (s.else !== undefined) {
        this.w.close("} else {");
        this.w.indent();
        this.schema(at("else"), x, path);
      }
      this.w.close("}");
    }

    if (isUnconstrained(s, types)) {
      // An unconstrained position ("any JSON"): still insist on JSON.
      this.w.open(`if (!checkJson(${x}, out === null ? "" : ${path}, out)) {`);
      this.w.line("if (out === null) return false;");
      this.w.line("ok = false;");
      this.w.close("}");
    }
    const maxBytes = s["x-maxBytes"];
    if (typeof maxBytes === "number" && !isOnlyString(types)) {
      // Only a structurally valid value gets here, so its schema's sizer can measure it.
      const sizer = this.owner.sizers.sizerFor(located);
      this.calls.add(sizer);
      const n = this.v("n");
      this.w.open(`if (ok) {`);
      // The cheap bound settles almost every value; only one near the limit is measured exactly.
      this.w.line(`const ${n} = ${sizer}(${x}, false) > ${maxBytes} ? ${sizer}(${x}, true) : 0;`);
      this.failIf(
        `${n} > ${maxBytes}`,
        path,
        this.reason(s, "x-maxBytes", `must serialize to at most ${maxBytes} bytes of JSON`, `" (got " + ${n} + ")"`),
      );
      this.w.close("}");
    }
    for (const rule of ruleNamesOf(s)) {
      this.w.open(`if (ok && !rules.${rule}(${x} as never, out === null ? "" : ${path}, out ?? scratch())) {`);
      this.w.line("if (out === null) return false;");
      this.w.line("ok = false;");
      this.w.close("}");
    }
  }

  private objectKeywords(
    s: SchemaObject,
    x: string,
    path: string,
    at: (...keys: (string | number)[]) => LocatedSchema,
  ): void {
    const o = this.v("o");
    this.w.line(`const ${o} = ${x} as Record<string, unknown>;`);
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const names = Object.keys(properties);
    const required = new Set((s.required ?? []) as string[]);
    const isTyped = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
    const closed =
      s.additionalProperties === false ||
      (this.mode === "strict" && isTyped && s.additionalProperties === undefined && names.length > 0);
    const extraSchema = typeof s.additionalProperties === "object" ? at("additionalProperties") : undefined;
    const checkExtraAsJson = !closed && extraSchema === undefined && isTyped && s.additionalProperties !== true;
    const count = s.minProperties !== undefined || s.maxProperties !== undefined ? this.v("count") : undefined;

    // Pass 1, over the keys present: unknown fields, property names, the field count. Known keys are
    // recognised by comparison (no value is read here), like a hand-written validator would.
    if (
      closed ||
      extraSchema !== undefined ||
      checkExtraAsJson ||
      s.propertyNames !== undefined ||
      count !== undefined
    ) {
      const k = this.v("k");
      if (count !== undefined) this.w.line(`let ${count} = 0;`);
      this.w.open(`for (const ${k} in ${o}) {`);
      if (count !== undefined) this.w.line(`${count}++;`);
      if (s.propertyNames !== undefined) this.schema(at("propertyNames"), k, `joinPath(${path}, ${k})`);
      if (closed || extraSchema !== undefined || checkExtraAsJson) {
        const known =
          names.length === 0
            ? "false"
            : names.length <= 12
              ? names.map((name) => `${k} === ${JSON.stringify(name)}`).join(" || ")
              : `${this.constant(`new Set<string>(${JSON.stringify(names)})`)}.has(${k})`;
        this.w.open(`if (!(${known})) {`);
        if (closed) {
          const allowed = names.length === 0 ? "no fields are allowed here" : `allowed fields: ${names.join(", ")}`;
          this.fail(
            `joinPath(${path}, ${k})`,
            this.reason(s, "additionalProperties", `is not allowed (unknown field); ${allowed}`),
          );
        } else if (extraSchema !== undefined) {
          const value = this.v("v");
          this.w.line(`const ${value} = ${o}[${k}];`);
          this.schema(extraSchema, value, `joinPath(${path}, ${k})`);
        } else {
          this.w.open(`if (!checkJson(${o}[${k}], out === null ? "" : joinPath(${path}, ${k}), out)) {`);
          this.w.line("if (out === null) return false;");
          this.w.line("ok = false;");
          this.w.close("}");
        }
        this.w.close("}");
      }
      this.w.close("}");
    }

    // Pass 2, over the known properties, in schema order: named reads the engine can optimise.
    for (const name of names) {
      const key = JSON.stringify(name);
      const value = this.v("v");
      // Only own fields count (`JSON.stringify` writes nothing else); a name that Object.prototype
      // also has (constructor, toString, ...) must not read the inherited one.
      const inherited = name in Object.prototype;
      this.w.line(
        inherited
          ? `const ${value} = Object.hasOwn(${o}, ${key}) ? ${o}[${key}] : undefined;`
          : `const ${value} = ${o}[${key}];`,
      );
      // A present field holding `undefined` is validated (and reported: it is not JSON).
      this.w.open(`if (${value} !== undefined || ${inherited ? `Object.hasOwn(${o}, ${key})` : `${key} in ${o}`}) {`);
      this.schema(at("properties", name), value, `joinPath(${path}, ${key})`);
      if (required.has(name)) {
        this.w.close("} else {");
        this.w.indent();
        this.fail(`joinPath(${path}, ${key})`, this.reason(s, "required", "is required"));
      }
      this.w.close("}");
      required.delete(name);
    }
    for (const name of required) {
      this.failIf(
        `${o}[${JSON.stringify(name)}] === undefined && !(${JSON.stringify(name)} in ${o})`,
        `joinPath(${path}, ${JSON.stringify(name)})`,
        this.reason(s, "required", "is required"),
      );
    }
    if (count !== undefined && typeof s.minProperties === "number") {
      const n = s.minProperties;
      this.failIf(
        `${count} < ${n}`,
        path,
        this.reason(s, "minProperties", n === 1 ? "must have at least one entry" : `must have at least ${n} entries`),
      );
    }
    if (count !== undefined && typeof s.maxProperties === "number") {
      this.failIf(
        `${count} > ${s.maxProperties}`,
        path,
        this.reason(s, "maxProperties", `must have at most ${s.maxProperties} entries`, `" (got " + ${count} + ")"`),
      );
    }
  }

  private arrayKeywords(
    s: SchemaObject,
    x: string,
    path: string,
    at: (...keys: (string | number)[]) => LocatedSchema,
  ): void {
    const a = this.v("a");
    this.w.line(`const ${a} = ${x} as unknown[];`);
    if (typeof s.minItems === "number") {
      const n = s.minItems;
      this.failIf(
        `${a}.length < ${n}`,
        path,
        this.reason(
          s,
          "minItems",
          n === 1 ? "must not be empty" : `must have at least ${n} items`,
          `(out === null ? "" : " (got " + ${a}.length + ")")`,
        ),
      );
    }
    if (typeof s.maxItems === "number") {
      this.failIf(
        `${a}.length > ${s.maxItems}`,
        path,
        this.reason(s, "maxItems", `must have at most ${s.maxItems} items`, `" (got " + ${a}.length + ")"`),
      );
    }
    if (s.items !== undefined) {
      const i = this.v("i");
      const value = this.v("v");
      this.w.open(`for (let ${i} = 0; ${i} < ${a}.length; ${i}++) {`);
      this.w.line(`const ${value} = ${a}[${i}];`);
      this.schema(at("items"), value, `joinIndex(${path}, ${i})`);
      this.w.close("}");
    }
    if (s.uniqueItems === true) {
      const d = this.v("d");
      this.w.line(`const ${d} = duplicateIndex(${a});`);
      this.failIf(
        `${d} !== -1`,
        `joinIndex(${path}, ${d})`,
        this.reason(s, "uniqueItems", "must not repeat an earlier item"),
      );
    }
    if (s.contains !== undefined) {
      const fn = this.sub(at("contains"));
      this.calls.add(fn);
      const c = this.v("c");
      this.w.line(`let ${c} = 0;`);
      this.w.line(`for (const item of ${a}) if (${fn}(item, "", null)) ${c}++;`);
      const min = typeof s.minContains === "number" ? s.minContains : 1;
      this.failIf(
        `${c} < ${min}`,
        path,
        this.reason(
          s,
          "minContains",
          `must contain at least ${min} matching item${min === 1 ? "" : "s"}`,
          `" (got " + ${c} + ")"`,
        ),
      );
      if (typeof s.maxContains === "number") {
        this.failIf(
          `${c} > ${s.maxContains}`,
          path,
          this.reason(
            s,
            "maxContains",
            `must contain at most ${s.maxContains} matching item${s.maxContains === 1 ? "" : "s"}`,
            `" (got " + ${c} + ")"`,
          ),
        );
      }
    }
  }

  private stringKeywords(s: SchemaObject, x: string, path: string): void {
    const str = this.v("s");
    this.w.line(`const ${str} = ${x} as string;`);
    if (typeof s.minLength === "number") {
      const n = s.minLength;
      const cond = n === 1 ? `${str}.length === 0` : `${str}.length < ${n * 2} && codePointLength(${str}) < ${n}`;
      this.failIf(
        cond,
        path,
        this.reason(s, "minLength", n === 1 ? "must not be empty" : `must be at least ${n} characters long`),
      );
    }
    if (typeof s.maxLength === "number") {
      const n = s.maxLength;
      this.failIf(
        `${str}.length > ${n} && codePointLength(${str}) > ${n}`,
        path,
        this.reason(s, "maxLength", `must be at most ${n} characters long`, `" (got " + codePointLength(${str}) + ")"`),
      );
    }
    if (typeof s["x-minBytes"] === "number") {
      const n = s["x-minBytes"];
      this.failIf(
        `${str}.length < ${n} && utf8Length(${str}) < ${n}`,
        path,
        this.reason(s, "x-minBytes", `must be at least ${n} UTF-8 bytes long`),
      );
    }
    if (typeof s["x-maxBytes"] === "number") {
      const n = s["x-maxBytes"];
      // A UTF-16 code unit is at most three UTF-8 bytes: short strings skip the count.
      this.failIf(
        `${str}.length > ${Math.floor(n / 3)} && utf8Length(${str}) > ${n}`,
        path,
        this.reason(s, "x-maxBytes", `must be at most ${n} UTF-8 bytes`, `" (got " + utf8Length(${str}) + ")"`),
      );
    }
    if (typeof s.pattern === "string") {
      const known = KNOWN_PATTERNS[s.pattern];
      const test =
        known !== undefined
          ? `${known}(${str})`
          : `${this.constant(`new RegExp(${JSON.stringify(s.pattern)}, "u")`)}.test(${str})`;
      // An empty string already failed minLength; the pattern would only repeat it less clearly.
      const nonEmpty = typeof s.minLength === "number" && s.minLength >= 1 ? `${str}.length !== 0 && ` : "";
      this.failIf(`${nonEmpty}!${test}`, path, this.reason(s, "pattern", `must match the pattern ${s.pattern}`));
    }
  }

  /**
   * The reason expression for a failed keyword: the schema's own wording (`x-reason`) verbatim, or
   * the generator's wording followed by `detail` (an expression such as ` (got 3)`).
   */
  private reason(s: SchemaObject, keyword: string, fallback: string, detail?: string): string {
    const text = reasonText(s, keyword, fallback);
    return text !== fallback || detail === undefined ? JSON.stringify(text) : `${JSON.stringify(text)} + ${detail}`;
  }

  private numberKeywords(s: SchemaObject, x: string, path: string): void {
    const n = this.v("n");
    this.w.line(`const ${n} = ${x} as number;`);
    const checks: [string, string, string][] = [
      ["minimum", "<", "must be at least"],
      ["maximum", ">", "must be at most"],
      ["exclusiveMinimum", "<=", "must be greater than"],
      ["exclusiveMaximum", ">=", "must be less than"],
    ];
    for (const [keyword, op, words] of checks) {
      const limit = s[keyword];
      if (typeof limit !== "number") continue;
      this.failIf(`${n} ${op} ${limit}`, path, this.reason(s, keyword, `${words} ${limit}`, `" (got " + ${n} + ")"`));
    }
    if (typeof s.multipleOf === "number") {
      // Within floating-point error: 0.3 is a multiple of 0.1.
      this.failIf(
        `Math.abs(${n} / ${s.multipleOf} - Math.round(${n} / ${s.multipleOf})) > 1e-9`,
        path,
        this.reason(s, "multipleOf", `must be a multiple of ${s.multipleOf}`),
      );
    }
  }

  private enumKeyword(s: SchemaObject, located: LocatedSchema, x: string, path: string): void {
    const values = enumValues(s, located);
    const listed = values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(", ");
    const reason = this.reason(s, "enum", `must be one of: ${listed}`, `gotValue(${x})`);
    if (values.length <= 4) {
      this.failIf(values.map((value) => `${x} !== ${JSON.stringify(value)}`).join(" && "), path, reason);
    } else if (values.every((value) => typeof value === "string")) {
      // Strings: dispatch on the length, then compare with the few values of that length.
      const byLength = new Map<number, string[]>();
      for (const value of values as string[])
        byLength.set(value.length, [...(byLength.get(value.length) ?? []), value]);
      const cases = [...byLength.entries()]
        .sort(([a], [b]) => a - b)
        .map(
          ([length, group]) =>
            `    case ${length}: return ${group.map((value) => `v === ${JSON.stringify(value)}`).join(" || ")};`,
        );
      const member = this.constant(
        `(v: unknown): boolean => {\n  if (typeof v !== "string") return false;\n  switch (v.length) {\n${cases.join("\n")}\n    default: return false;\n  }\n}`,
      );
      this.failIf(`!${member}(${x})`, path, reason);
    } else {
      const set = this.constant(`new Set<unknown>(${JSON.stringify(values)})`);
      this.failIf(`!${set}.has(${x})`, path, reason);
    }
  }

  private unionKeyword(keyword: "anyOf" | "oneOf", s: SchemaObject, branches: string[], x: string, path: string): void {
    for (const fn of branches) this.calls.add(fn);
    const list = `[${branches.join(", ")}]`;
    if (keyword === "anyOf") {
      this.w.open(`if (!(${branches.map((fn) => `${fn}(${x}, "", null)`).join(" || ")})) {`);
      this.w.line("if (out === null) return false;");
      this.w.line(`ok = failUnion(out, ${path}, ${x}, ${list}, ${JSON.stringify(reasonText(s, "anyOf", ""))});`);
      this.w.close("}");
      return;
    }
    const matches = this.v("m");
    this.w.line(`const ${matches} = ${branches.map((fn) => `(${fn}(${x}, "", null) ? 1 : 0)`).join(" + ")};`);
    this.w.open(`if (${matches} !== 1) {`);
    this.w.line("if (out === null) return false;");
    this.w.line(
      `ok = ${matches} === 0 ? failUnion(out, ${path}, ${x}, ${list}, ${JSON.stringify(reasonText(s, "oneOf", ""))}) : fail(out, ${path}, ${JSON.stringify(reasonText(s, "oneOf", "matches more than one of the allowed forms; make it match exactly one"))});`,
    );
    this.w.close("}");
  }
}
