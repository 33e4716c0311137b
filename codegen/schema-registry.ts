import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** A JSON Schema as read from disk: an object or a boolean schema. */
export type Schema = boolean | SchemaObject;

/** A JSON Schema object; keywords are read by the generator as needed. */
export interface SchemaObject {
  [keyword: string]: unknown;
}

/** Where a schema lives: its file (relative to `schema/`) and a JSON pointer inside it. */
export interface SchemaLocation {
  file: string;
  pointer: string;
}

/** A schema together with the place it was found (for `$ref` resolution and naming). */
export interface LocatedSchema extends SchemaLocation {
  schema: Schema;
}

/** A stable text key for a location, `web-ir-v1.schema.json#/$defs/entity`. */
export function locationKey(location: SchemaLocation): string {
  return `${location.file}#${location.pointer}`;
}

/**
 * Loads schema files from the `schema/` folder on demand and resolves `$ref`s between them.
 * Only local references (`#/...`) and relative file references (`other.json#/...`) are allowed:
 * the generator never fetches anything.
 */
export class SchemaRegistry {
  private readonly files = new Map<string, unknown>();

  constructor(private readonly root: string) {}

  /** Reads (once) and returns a file's parsed JSON. `file` is relative to the schema folder. */
  load(file: string): unknown {
    let json = this.files.get(file);
    if (json === undefined) {
      const text = readFileSync(join(this.root, file), "utf8");
      try {
        json = JSON.parse(text) as unknown;
      } catch (error) {
        throw new Error(`schema/${file} is not valid JSON: ${(error as Error).message}`);
      }
      this.files.set(file, json);
    }
    return json;
  }

  /** The schema at a location. */
  at(location: SchemaLocation): LocatedSchema {
    let node = this.load(location.file);
    for (const part of location.pointer.split("/").slice(1)) {
      const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
      if (node === null || typeof node !== "object" || !(key in node)) {
        throw new Error(`schema/${location.file}: nothing at ${location.pointer}`);
      }
      node = (node as Record<string, unknown>)[key];
    }
    if (typeof node !== "boolean" && (node === null || typeof node !== "object" || Array.isArray(node))) {
      throw new Error(`schema/${location.file}#${location.pointer} is not a schema`);
    }
    return { ...location, schema: node as Schema };
  }

  /** Resolves a `$ref` found in `from.file` to the schema it names. */
  resolve(ref: string, from: SchemaLocation): LocatedSchema {
    const hash = ref.indexOf("#");
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const pointer = hash === -1 ? "" : ref.slice(hash + 1);
    if (/^[a-z]+:/i.test(filePart)) throw new Error(`schema/${from.file}: remote $ref ${ref} is not allowed`);
    if (pointer !== "" && !pointer.startsWith("/"))
      throw new Error(`schema/${from.file}: $ref ${ref} must use a JSON pointer`);
    const file = filePart === "" ? from.file : normalize(join(dirname(from.file), filePart));
    if (relative(".", file).startsWith(".."))
      throw new Error(`schema/${from.file}: $ref ${ref} leaves the schema folder`);
    return this.at({ file, pointer });
  }
}

/** Appends a key to a JSON pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, ...keys: (string | number)[]): string {
  return keys.reduce<string>((acc, key) => `${acc}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`, pointer);
}
