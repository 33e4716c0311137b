import { CodeWriter } from "./code-writer.js";
import {
  locationKey,
  childPointer,
  type LocatedSchema,
  type SchemaObject,
  type SchemaRegistry,
} from "./schema-registry.js";

/** One generated sizer function and the module it belongs to. */
export interface CompiledSizer {
  name: string;
  module: string;
  code: string;
  calls: Set<string>;
  constants: string[];
}

function jsonStringBytes(text: string): number {
  return new TextEncoder().encode(JSON.stringify(text)).length;
}

/**
 * Compiles schemas into sizers: `size(x, exact)` returns the length in UTF-8 bytes of a value's
 * compact JSON serialization (or, with `exact` false, an upper bound that reads string lengths but
 * not their characters), for a value already known to be valid against the schema. Knowing the
 * schema, a sizer adds constant key lengths instead of measuring keys, sizes enum values from
 * their length, and measures only the strings and numbers that vary — far cheaper than
 * serializing. Anything the schema leaves open is measured by the generic `jsonByteLength`.
 */
export class SizerCompiler {
  private readonly functions = new Map<string, CompiledSizer>();
  private readonly names = new Map<string, string>();
  private readonly queue: { located: LocatedSchema; name: string }[] = [];

  constructor(
    private readonly registry: SchemaRegistry,
    private readonly moduleOf: (file: string) => string,
  ) {}

  /** Name of the sizer for a located schema, compiling it (and what it calls) if needed. */
  sizerFor(located: LocatedSchema): string {
    const key = locationKey(located);
    let name = this.names.get(key);
    if (name === undefined) {
      const title =
        typeof located.schema === "object" && typeof located.schema.title === "string"
          ? located.schema.title
          : undefined;
      name = `size${title ?? `${located.file.replace(/[^A-Za-z0-9]+/g, "_")}${located.pointer.replace(/[^A-Za-z0-9]+/g, "_")}`}`;
      this.names.set(key, name);
      this.queue.push({ located, name });
    }
    return name;
  }

  /** Compiles everything queued. */
  drain(): void {
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      this.functions.set(job.name, this.compile(job.located, job.name));
    }
  }

  /** Every sizer compiled so far. */
  compiled(): CompiledSizer[] {
    return [...this.functions.values()];
  }

  private compile(located: LocatedSchema, name: string): CompiledSizer {
    const w = new CodeWriter();
    const calls = new Set<string>();
    const constants: string[] = [];
    let counter = 0;
    const fresh = (prefix: string): string => `${prefix}${++counter}`;
    const at = (from: LocatedSchema, ...keys: (string | number)[]): LocatedSchema =>
      this.registry.resolve(`#${childPointer(from.pointer, ...keys)}`, from);

    /** An expression for the size of `x` under schema `located`. */
    const sizeOf = (target: LocatedSchema, x: string): string => {
      const s = target.schema;
      if (typeof s === "boolean") return `jsonByteLength(${x})`;
      if (typeof s.$ref === "string") {
        const callee = this.sizerFor(this.registry.resolve(s.$ref, target));
        calls.add(callee);
        return `${callee}(${x}, exact)`;
      }
      if (s.const !== undefined) return String(new TextEncoder().encode(JSON.stringify(s.const)).length);
      if (Array.isArray(s.enum) && s.enum.every((value) => typeof value === "string")) {
        // Enum values written as plain ASCII (the usual case) cost their length plus the quotes.
        if ((s.enum as string[]).every((value) => jsonStringBytes(value) === value.length + 2))
          return `((${x} as string).length + 2)`;
        const table = `${name}_c${constants.length}`;
        constants.push(
          `const ${table} = new Map<unknown, number>(${JSON.stringify((s.enum as string[]).map((value) => [value, jsonStringBytes(value)]))});`,
        );
        return `${table}.get(${x})!`;
      }
      switch (s.type) {
        case "string":
          // The bound: a UTF-16 code unit never takes more than six bytes in JSON (\u00XX).
          return `(exact ? jsonStringLength(${x} as string) : (${x} as string).length * 6 + 2)`;
        case "boolean":
          return `(${x} ? 4 : 5)`;
        case "integer":
        case "number":
          return `String(${x}).length`;
        case "array":
          return s.items !== undefined && typeof s.items === "object" ? arraySize(target, x) : `jsonByteLength(${x})`;
        case "object":
          return s.additionalProperties === false ? closedObjectSize(target, x) : `jsonByteLength(${x})`;
        default:
          return `jsonByteLength(${x})`;
      }
    };

    const arraySize = (target: LocatedSchema, x: string): string => {
      const a = fresh("a");
      const n = fresh("n");
      w.line(`const ${a} = ${x} as unknown[];`);
      w.line(`let ${n} = ${a}.length === 0 ? 2 : ${a}.length + 1;`);
      const i = fresh("i");
      w.open(`for (let ${i} = 0; ${i} < ${a}.length; ${i}++) {`);
      w.line(`${n} += ${sizeOf(at(target, "items"), `${a}[${i}]`)};`);
      w.close("}");
      return n;
    };

    const closedObjectSize = (target: LocatedSchema, x: string): string => {
      const schema = target.schema as SchemaObject;
      const o = fresh("o");
      const n = fresh("n");
      const fields = fresh("f");
      const properties = Object.keys((schema.properties ?? {}) as object);
      const required = new Set((schema.required ?? []) as string[]);
      w.line(`const ${o} = ${x} as Record<string, unknown>;`);
      // Braces, plus for each required field its key, colon and comma (the last comma is the `}`).
      const fixed =
        1 +
        [...required].filter((key) => properties.includes(key)).reduce((sum, key) => sum + jsonStringBytes(key) + 2, 0);
      w.line(`let ${n} = ${fixed};`);
      w.line(`let ${fields} = ${required.size};`);
      for (const key of properties) {
        const value = `${o}[${JSON.stringify(key)}]`;
        if (required.has(key)) {
          w.line(`${n} += ${sizeOf(at(target, "properties", key), value)};`);
        } else {
          const v = fresh("v");
          w.line(`const ${v} = ${value};`);
          w.open(`if (${v} !== undefined) {`);
          w.line(`${n} += ${jsonStringBytes(key) + 2} + ${sizeOf(at(target, "properties", key), v)};`);
          w.line(`${fields}++;`);
          w.close("}");
        }
      }
      // Each field added its comma; an empty object still needs its closing brace.
      return `(${fields} === 0 ? ${n} + 1 : ${n})`;
    };

    w.line(
      `/** Compact JSON size in UTF-8 bytes of a valid ${typeof located.schema === "object" && typeof located.schema.title === "string" ? located.schema.title : "value"} (exact, or a cheap upper bound). */`,
    );
    w.open(`export function ${name}(x: unknown, exact: boolean): number {`);
    const result = sizeOf(located, "x");
    w.line(`return ${result};`);
    w.close("}");
    return { name, module: this.moduleOf(located.file), code: w.text(), calls, constants };
  }
}
