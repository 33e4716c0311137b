import type { SchemaObject } from "./schema-registry.js";

const ARTICLES: Record<string, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  boolean: "a boolean",
  null: "null",
  integer: "an integer",
  number: "a number",
};

/** `must be a string`, `must be an integer or null`: the reason for a failed `type`. */
export function typeReason(types: string[]): string {
  const words = types.map((type) => ARTICLES[type] ?? type);
  return `must be ${words.length <= 2 ? words.join(" or ") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`}`;
}

/**
 * The reason an issue reports when `keyword` of schema `s` fails: the schema's own wording from
 * `x-reason` (the daemon's words, where we know them) or the generator's default.
 */
export function reasonText(s: SchemaObject, keyword: string, fallback: string): string {
  const custom = s["x-reason"];
  if (custom !== undefined && (custom === null || typeof custom !== "object" || Array.isArray(custom))) {
    throw new Error(`x-reason must be an object mapping keywords to messages (found ${JSON.stringify(custom)})`);
  }
  const text = custom?.[keyword as keyof typeof custom];
  return typeof text === "string" ? text : fallback;
}
