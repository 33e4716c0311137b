/**
 * Generated hostile daemon messages, shared by the property tests of the bridge and of the SDK's
 * transports: answers to a call that are deep (relayable, or far past what a serialiser can write
 * back), wide, long, full of numbers that grow when written back, or errors with such data; and
 * around an answer, garbage lines, stray and duplicate answers, and notifications and requests of
 * the daemon's own. Every message is JSON text built by hand (deep values cannot be stringified).
 */
import fc from "fast-check";

/** Nesting a serialiser writes back (relayable) and nesting it cannot (the bridge must not die). */
export const SHALLOW = { min: 1, max: 400 };
export const UNRELAYABLE = { min: 20_000, max: 60_000 };

/** What the daemon answers a call with, as JSON text built by hand (deep values cannot be stringified). */
export type Answer =
  | { kind: "plain" }
  | { kind: "deep"; container: "array" | "object"; levels: number }
  | { kind: "wide"; count: number }
  | { kind: "long"; bytes: number }
  | { kind: "numbers"; count: number }
  | { kind: "errorWithData"; levels: number };

/** What the daemon sends around its answer. */
export type Extra =
  | { kind: "garbage"; text: string }
  | { kind: "stray"; levels: number }
  | { kind: "duplicate" }
  | { kind: "notification"; levels: number }
  | { kind: "request"; levels: number };

/** One case a daemon plays for a call: extras before its answer, the answer, extras after. */
export interface DaemonCase {
  before: Extra[];
  answer: Answer;
  after: Extra[];
}

/** A nesting depth: relayable, or far past what a serialiser writes back. */
export const levels = fc.oneof(fc.integer(SHALLOW), fc.integer(UNRELAYABLE));
/** Generated answers. */
export const answerArbitrary: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant<Answer>({ kind: "plain" }),
  fc.record({
    kind: fc.constant("deep" as const),
    container: fc.constantFrom("array" as const, "object" as const),
    levels,
  }),
  fc.record({ kind: fc.constant("wide" as const), count: fc.integer({ min: 0, max: 50_000 }) }),
  fc.record({ kind: fc.constant("long" as const), bytes: fc.integer({ min: 0, max: 2 * 1024 * 1024 }) }),
  fc.record({ kind: fc.constant("numbers" as const), count: fc.integer({ min: 1, max: 20_000 }) }),
  fc.record({ kind: fc.constant("errorWithData" as const), levels }),
);
/** Generated messages around an answer. */
export const extraArbitrary: fc.Arbitrary<Extra> = fc.oneof(
  fc.record({
    kind: fc.constant("garbage" as const),
    text: fc.constantFrom("{", "not json", '{"jsonrpc":"2.0"', "]]]]", '{"jsonrpc":"1.0","id":1}', "null"),
  }),
  fc.record({ kind: fc.constant("stray" as const), levels }),
  fc.constant<Extra>({ kind: "duplicate" }),
  fc.record({ kind: fc.constant("notification" as const), levels }),
  fc.record({ kind: fc.constant("request" as const), levels }),
);
/** Generated cases. */
export const caseArbitrary: fc.Arbitrary<DaemonCase> = fc.record({
  before: fc.array(extraArbitrary, { maxLength: 3 }),
  answer: answerArbitrary,
  after: fc.array(extraArbitrary, { maxLength: 2 }),
});

/** The JSON text of `depth` nested arrays or objects. */
export function nested(container: "array" | "object", depth: number): string {
  return container === "array"
    ? "[".repeat(depth) + "]".repeat(depth)
    : `${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`;
}

/** Whether a depth is past what a serialiser writes back. */
export const isUnrelayable = (depth: number): boolean => depth >= UNRELAYABLE.min;

/** The JSON text of `answer` to the call `id`. */
export function answerLine(id: unknown, answer: Answer): string {
  const result = (value: string): string =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"{}"}],"value":${value}}}`;
  switch (answer.kind) {
    case "plain":
      return result("0");
    case "deep":
      return result(nested(answer.container, answer.levels));
    case "wide":
      return result(`[${Array.from({ length: answer.count }, () => "0").join(",")}]`);
    case "long":
      return result(JSON.stringify("é".repeat(Math.floor(answer.bytes / 2))));
    case "numbers":
      return result(`[${Array.from({ length: answer.count }, () => "1e20").join(",")}]`);
    case "errorWithData":
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32603,"message":"tool failed","data":${nested("array", answer.levels)}}}`;
  }
}

/** The lines an extra sends, around `answer` (the answer's own line) to the call `id`. */
export function extraLines(id: unknown, extra: Extra, answer: string): string[] {
  switch (extra.kind) {
    case "garbage":
      return [extra.text];
    case "stray":
      return [`{"jsonrpc":"2.0","id":"stray-${id}","result":{"value":${nested("array", extra.levels)}}}`];
    case "duplicate":
      return [answer];
    case "notification":
      return [
        `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${nested("array", extra.levels)}}}`,
      ];
    case "request":
      return [
        `{"jsonrpc":"2.0","id":"ask-${id}","method":"elicitation/create","params":{"message":"?","requestedSchema":${nested("object", extra.levels)}}}`,
      ];
  }
}
