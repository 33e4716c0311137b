/**
 * The secret scanner of the redaction sweep: every output a scenario produces (error messages,
 * `toJSON()`, `util.inspect`, console output, log lines, CLI stderr, recorded fixtures) is
 * collected as text, and each secret is searched for in every form it could take on the way out:
 * as is, JSON-escaped (once and twice, as in MCP text content), percent-encoded, base64 and
 * base64url at each of the three byte alignments, hex, any 16-character fragment of it and its
 * beginning and end from 8 characters on (a truncated message still leaks).
 */
import { Writable } from "node:stream";
import { Console } from "node:console";
import { format, inspect } from "node:util";

/** A secret to look for. */
export interface Secret {
  /** What it is, for failure messages (`bridge token`, `lease token of client A`). */
  label: string;
  value: string;
}

/** One piece of output. */
export interface Output {
  /** Where it came from (`LeaseError leaseNotOwner: util.inspect`). */
  source: string;
  text: string;
}

/** A secret found in an output. */
export interface Hit {
  source: string;
  secret: string;
  form: string;
  /** The output around the hit. */
  excerpt: string;
}

/** Fragments shorter than this are not searched for (too likely to match by chance). */
const FRAGMENT_LENGTH = 16;
/** The shortest beginning or end of a secret searched for (longer ones contain a fragment). */
const CUT_LENGTH = 8;

/** Every form of `value` worth searching for, by name, without duplicates. */
export function secretForms(value: string): { form: string; text: string }[] {
  const forms = new Map<string, string>();
  const add = (form: string, text: string): void => {
    if (text.length >= 8 && ![...forms.values()].includes(text)) forms.set(form, text);
  };
  const jsonOnce = JSON.stringify(value).slice(1, -1);
  const jsonTwice = JSON.stringify(jsonOnce).slice(1, -1);
  add("raw", value);
  add("JSON-escaped", jsonOnce);
  add("JSON-escaped twice", jsonTwice);
  add("percent-encoded", encodeURIComponent(value));
  const bytes = Buffer.from(value, "utf8");
  for (const start of [0, 1, 2]) {
    // The bytes from `start` on, cut to whole 3-byte groups, encode the same wherever they sit in a
    // longer base64 text whose groups line up with them: one of the three starts always does.
    const whole = bytes.subarray(start, start + Math.floor((bytes.length - start) / 3) * 3);
    add(`base64 (alignment ${start})`, whole.toString("base64"));
    add(`base64url (alignment ${start})`, whole.toString("base64url"));
  }
  add("hex", bytes.toString("hex"));
  add("HEX", bytes.toString("hex").toUpperCase());
  for (const [name, text] of [
    ["raw", value],
    ["JSON-escaped", jsonOnce],
  ] as const) {
    // A quote cut in the middle of a secret leaves its beginning; one cut from the front, its end.
    for (let length = CUT_LENGTH; length < text.length && length < FRAGMENT_LENGTH; length++) {
      add(`${name} beginning of ${length}`, text.slice(0, length));
      add(`${name} end of ${length}`, text.slice(text.length - length));
    }
    if (text.length <= FRAGMENT_LENGTH) continue;
    for (let i = 0; i + FRAGMENT_LENGTH <= text.length; i++)
      add(`${name} fragment at ${i}`, text.slice(i, i + FRAGMENT_LENGTH));
  }
  return [...forms].map(([form, text]) => ({ form, text }));
}

/** Every occurrence of every form of every secret in the outputs. */
export function findSecrets(outputs: readonly Output[], secrets: readonly Secret[]): Hit[] {
  const hits: Hit[] = [];
  const searches = secrets.flatMap((secret) => secretForms(secret.value).map((form) => ({ secret, ...form })));
  for (const output of outputs) {
    for (const search of searches) {
      const at = output.text.indexOf(search.text);
      if (at === -1) continue;
      const excerpt = output.text.slice(Math.max(0, at - 60), at + search.text.length + 60);
      hits.push({ source: output.source, secret: search.secret.label, form: search.form, excerpt });
    }
  }
  // One hit per source and secret is enough to read (fragments of one leak would repeat it).
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = `${hit.source}\u0000${hit.secret}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How many times `value` occurs in `text`, as is. */
export function occurrences(text: string, value: string): number {
  return value === "" ? 0 : text.split(value).length - 1;
}

/** Runs `print` against a real `Console` whose output is captured (what `console.log` would write). */
export function captureConsole(print: (console: Console) => void): string {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const console = new Console({ stdout: sink, stderr: sink, colorMode: false });
  print(console);
  return text;
}

/**
 * A value rendered every way a program might print it: `String`, template literal, JSON,
 * `util.inspect` (plain, deep with hidden properties, without custom inspectors), `util.format`'s
 * `%s %o %O %j`, and `console.log`/`console.dir`/`console.error`.
 */
export function renderings(value: unknown): { how: string; text: string }[] {
  const out: { how: string; text: string }[] = [];
  const attempt = (how: string, render: () => string | undefined): void => {
    try {
      out.push({ how, text: String(render()) });
    } catch (error) {
      out.push({ how: `${how} (threw)`, text: String(error) });
    }
  };
  attempt("String()", () => String(value));
  attempt("template literal", () => `${value as string}`);
  attempt("JSON.stringify", () => JSON.stringify(value));
  attempt("JSON.stringify (nested, indented)", () => JSON.stringify({ wrapped: value, list: [value] }, null, 2));
  attempt("util.inspect", () => inspect(value));
  attempt("util.inspect (deep, hidden, getters)", () =>
    inspect(value, { depth: Infinity, showHidden: true, getters: true }),
  );
  attempt("util.inspect (no custom inspect)", () =>
    inspect(value, { depth: Infinity, showHidden: true, customInspect: false }),
  );
  attempt("util.format %s %o %O %j", () => format("%s | %o | %O | %j", value, value, value, value));
  attempt("console.log/dir/error", () =>
    captureConsole((console) => {
      console.log(value);
      console.log("value: %o", value);
      console.dir(value, { depth: Infinity, showHidden: true });
      console.error(value);
    }),
  );
  return out;
}

/** Everything an error shows: its message, stack, `toJSON()`, details, and every rendering. */
export function errorRenderings(error: unknown): { how: string; text: string }[] {
  const out = renderings(error);
  if (error instanceof Error) {
    out.push({ how: "message", text: error.message });
    out.push({ how: "stack", text: String(error.stack) });
    const withJson = error as Error & { toJSON?: () => unknown; details?: unknown; rawMessage?: unknown };
    if (typeof withJson.toJSON === "function") out.push({ how: "toJSON()", text: JSON.stringify(withJson.toJSON()) });
    if (withJson.details !== undefined) out.push({ how: "details", text: JSON.stringify(withJson.details) });
    if (withJson.rawMessage !== undefined) out.push({ how: "rawMessage", text: String(withJson.rawMessage) });
  }
  return out;
}

/** Collects outputs under names and scans them. */
export class OutputCorpus {
  readonly outputs: Output[] = [];

  /** Adds a piece of text. */
  text(source: string, text: string): void {
    this.outputs.push({ source, text });
  }

  /** Adds every rendering of an error. */
  error(source: string, error: unknown): void {
    for (const { how, text } of errorRenderings(error)) this.outputs.push({ source: `${source}: ${how}`, text });
  }

  /** Adds every rendering of a value. */
  value(source: string, value: unknown): void {
    for (const { how, text } of renderings(value)) this.outputs.push({ source: `${source}: ${how}`, text });
  }

  /** Outputs whose source starts with `prefix`. */
  from(prefix: string): Output[] {
    return this.outputs.filter((output) => output.source.startsWith(prefix));
  }
}

/** Runs `fn` and returns what it threw (fails when it does not throw). */
export async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw, and it did not");
}

/** A readable list of hits for an assertion message. */
export function describeHits(hits: readonly Hit[]): string {
  return hits.map((hit) => `- ${hit.secret} (${hit.form}) in ${hit.source}: …${hit.excerpt}…`).join("\n");
}
