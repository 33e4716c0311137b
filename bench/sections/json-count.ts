/** One `JSON.parse` or `JSON.stringify` seen during a call. */
export interface JsonCall {
  fn: "parse" | "stringify";
  /** Characters of the text parsed or produced. */
  chars: number;
  /** The calling frames (innermost first), paths relative to the repository. */
  where: string;
}

/** What one call did with JSON, and how many of those calls were about the whole payload. */
export interface JsonCount {
  calls: JsonCall[];
  /** Parses / serializations of at least half the payload's size: the payload itself (or a message carrying it). */
  payloadParses: number;
  payloadSerializations: number;
}

/**
 * Runs `call` with `JSON.parse` and `JSON.stringify` wrapped (restored afterwards, whatever
 * happens) and records each use made in this process while it runs, with its size and caller.
 * Node's own internals keep private copies of both (primordials), so what they do is not seen:
 * only JavaScript-land calls (the SDK's, its dependencies', the client's) are counted.
 */
export async function countJsonCalls(
  call: () => Promise<unknown>,
  payloadChars: number,
  root: string,
): Promise<JsonCount> {
  const realParse = JSON.parse;
  const realStringify = JSON.stringify;
  const calls: JsonCall[] = [];
  let inside = false; // stack capture may itself use JSON (source maps): not counted
  const where = (): string => {
    inside = true;
    try {
      const frames = (new Error().stack ?? "").split("\n").slice(3, 6);
      return frames
        .map((frame) => frame.trim().replace(/^at /, "").replaceAll(`file://${root}`, "").replaceAll(root, ""))
        .join(" < ");
    } finally {
      inside = false;
    }
  };
  JSON.parse = function parse(
    text: string,
    reviver?: (this: unknown, key: string, value: unknown) => unknown,
  ): unknown {
    if (!inside)
      calls.push({ fn: "parse", chars: typeof text === "string" ? text.length : String(text).length, where: where() });
    return realParse(text, reviver);
  } as typeof JSON.parse;
  JSON.stringify = function stringify(value: unknown, replacer?: never, space?: string | number): string {
    const text = realStringify(value, replacer, space);
    if (!inside) calls.push({ fn: "stringify", chars: typeof text === "string" ? text.length : 0, where: where() });
    return text;
  } as typeof JSON.stringify;
  try {
    await call();
  } finally {
    JSON.parse = realParse;
    JSON.stringify = realStringify;
  }
  const big = (fn: JsonCall["fn"]): number => calls.filter((c) => c.fn === fn && c.chars >= payloadChars / 2).length;
  return { calls, payloadParses: big("parse"), payloadSerializations: big("stringify") };
}
