/**
 * Property tests of the envelope validators (protocol page §1): on generated envelopes — valid
 * ones and near misses of every rule — `validateRequest`, `validateResponse` and
 * `validateResponse(_, { strict: true })` give the same verdict as an independent oracle (the
 * schema compiled by ajv, plus byte limits and the cross-field rule; see envelope-oracle.ts), report
 * well-formed issues when they reject, and never throw, whatever they are given.
 *
 * Seeded: every run generates the same cases. `GLASS_PROPERTY_SEED=<n>` runs another seed; a
 * failure prints fast-check's seed and path, which replay exactly the failing case.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  validateGlassRequest,
  validateGlassResponse,
  validateGlassResponseStrict,
} from "../../../generated/validators/index.js";
import { validateRequest, validateResponse } from "glass-sdk";
import type { GeneratedValidator } from "../../../src/validation/generated-support.js";
import type { ValidationIssue, ValidationResult } from "../../../src/validation/issue.js";
import { junk, requestCase, responseCase, type EnvelopeCase } from "./envelope-arbitraries.js";
import { oracleRequest, oracleResponse, type OracleVerdict } from "./envelope-oracle.js";
import { baseSeed, checkProperty, type TaskWithMeta } from "../support/generated-cases.js";

/** The base seed; each property adds its own offset so that they draw independent cases. */
const SEED = baseSeed(20261202);

/** Runs per property: 4,000 + 3,500 + 3,000 agreement cases, plus the never-throw properties. */
const RUNS = { request: 4_000, response: 3_500, strict: 3_000, hostile: 700, hostileThrows: 300 } as const;

type Validate = (value: unknown) => ValidationResult<unknown>;

const VALIDATORS: { name: string; validate: Validate }[] = [
  { name: "validateRequest", validate: validateRequest },
  { name: "validateResponse", validate: (value) => validateResponse(value) },
  { name: "validateResponse(strict)", validate: (value) => validateResponse(value, { strict: true }) },
];

// ---------------------------------------------------------------------------------------------
// Checks shared by the properties.

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*/;

/** An issue path as schema/README.md defines it: dotted names, `[i]`, `["quoted name"]`; `""` is the root. */
function isWellFormedPath(path: string): boolean {
  let at = 0;
  while (at < path.length) {
    if (path[at] === "[") {
      const index = /^\[(\d+)\]/.exec(path.slice(at));
      if (index !== null) {
        at += index[0].length;
        continue;
      }
      // a JSON string followed by `]`: find the shortest prefix that parses
      let end = path.indexOf('"]', at + 2);
      let parsed = false;
      while (end !== -1 && !parsed) {
        try {
          JSON.parse(path.slice(at + 1, end + 1));
          parsed = true;
        } catch {
          end = path.indexOf('"]', end + 1);
        }
      }
      if (!parsed) return false;
      at = end + 2;
      continue;
    }
    const dotted = at === 0 ? path : path.slice(at + 1);
    if (at !== 0 && path[at] !== ".") return false;
    const name = PLAIN_KEY.exec(dotted);
    if (name === null) return false;
    at += (at === 0 ? 0 : 1) + name[0].length;
  }
  return true;
}

/** Calls a validator; a throw fails the property with the validator's name. */
function callValidator(name: string, validate: Validate, value: unknown): ValidationResult<unknown> {
  try {
    return validate(value);
  } catch (error) {
    let text: string;
    try {
      text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    } catch {
      text = Object.prototype.toString.call(error);
    }
    throw new Error(`${name} threw instead of returning issues: ${text}`);
  }
}

/** The result has the documented shape: the value itself, or a non-empty list of {path, reason}. */
function expectWellFormed(name: string, result: ValidationResult<unknown>, value: unknown): void {
  if (typeof result !== "object" || result === null || typeof result.ok !== "boolean")
    throw new Error(`${name} returned ${String(result)}`);
  if (result.ok) {
    if (result.value !== value) throw new Error(`${name} accepted the value but returned another one`);
    return;
  }
  if (!Array.isArray(result.issues) || result.issues.length === 0)
    throw new Error(`${name} rejected the value without issues`);
  for (const issue of result.issues) {
    if (
      typeof issue !== "object" ||
      issue === null ||
      typeof issue.path !== "string" ||
      typeof issue.reason !== "string" ||
      issue.reason === ""
    ) {
      throw new Error(`${name} returned a malformed issue: ${JSON.stringify(issue)}`);
    }
    if (!isWellFormedPath(issue.path))
      throw new Error(`${name} returned an issue path that is not dotted/[i]/["name"]: ${JSON.stringify(issue.path)}`);
  }
}

function describeResult(result: ValidationResult<unknown>): string {
  return result.ok ? "valid" : `invalid: ${JSON.stringify(result.issues)}`;
}

function describeVerdict(verdict: OracleVerdict): string {
  return verdict.ok ? "valid" : `invalid: ${verdict.broken.join("; ")}`;
}

/** Tag and verdict counts over a property's cases, to prove the generator reaches every boundary. */
class Coverage {
  readonly tags = new Map<string, number>();
  valid = 0;
  invalid = 0;

  add(envelope: EnvelopeCase, ok: boolean): void {
    if (ok) this.valid++;
    else this.invalid++;
    for (const tag of envelope.tags) this.tags.set(tag, (this.tags.get(tag) ?? 0) + 1);
  }

  /** Both verdicts are common, and every named near miss was generated. */
  expectReached(required: string[]): void {
    const total = this.valid + this.invalid;
    expect(this.valid / total, "share of valid cases").toBeGreaterThan(0.2);
    expect(this.invalid / total, "share of invalid cases").toBeGreaterThan(0.2);
    expect(
      required.filter((tag) => !this.tags.has(tag)),
      "near misses never generated",
    ).toEqual([]);
  }
}

/**
 * One agreement case: the public validator and the oracle give the same verdict, the result is
 * well-formed, and the generated validator's verdict-only and issue-collecting paths agree.
 */
function agreeWithOracle(
  name: string,
  validate: Validate,
  generated: GeneratedValidator,
  oracle: (value: unknown) => OracleVerdict,
  envelope: EnvelopeCase,
  coverage: Coverage,
): void {
  const expected = oracle(envelope.value);
  const actual = callValidator(name, validate, envelope.value);
  expectWellFormed(name, actual, envelope.value);
  if (actual.ok !== expected.ok) {
    throw new Error(
      `${name} says ${describeResult(actual)}; the oracle says ${describeVerdict(expected)} (tags: ${envelope.tags.join(", ")})`,
    );
  }
  const issues: ValidationIssue[] = [];
  const verdictOnly = generated(envelope.value, "", null);
  const collecting = generated(envelope.value, "", issues);
  if (verdictOnly !== expected.ok || collecting !== expected.ok) {
    throw new Error(
      `generated validator paths disagree: verdict-only ${verdictOnly}, collecting ${collecting}, oracle ${expected.ok}`,
    );
  }
  if (!collecting && issues.length === 0)
    throw new Error(`${name}: the collecting path rejected the value without naming an issue`);
  if (collecting && issues.length > 0)
    throw new Error(`${name}: the collecting path accepted the value but reported ${JSON.stringify(issues)}`);
  coverage.add(envelope, expected.ok);
}

// ---------------------------------------------------------------------------------------------

describe("envelope validators agree with the independent oracle", () => {
  it(`validateRequest: ${RUNS.request} generated requests`, (context: TaskWithMeta) => {
    const coverage = new Coverage();
    checkProperty(
      context,
      fc.property(requestCase, (envelope) => {
        agreeWithOracle("validateRequest", validateRequest, validateGlassRequest, oracleRequest, envelope, coverage);
        // Secrets: a lease token never appears in an issue (tokens long enough not to be a common word).
        const token = (envelope.value as { mutationLease?: { token?: unknown } } | null)?.mutationLease?.token;
        const result = validateRequest(envelope.value);
        if (!result.ok && typeof token === "string" && token.length >= 12) {
          const leaked = result.issues.find((issue) => issue.reason.includes(token) || issue.path.includes(token));
          if (leaked !== undefined) throw new Error(`the lease token leaked into an issue: ${JSON.stringify(leaked)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS.request },
    );
    coverage.expectReached([
      "id:short",
      "id:128bytes",
      "id:129bytes",
      "id:>128bytes",
      "id:whitespace",
      "id:control",
      "id:allowedOddChar",
      "id:loneSurrogate",
      "id:empty",
      "id:wrongType",
      "op:plain",
      "op:96bytes",
      "op:97bytes",
      "op:whitespace",
      "op:controlAllowed",
      "op:empty",
      "op:wrongType",
      "deadline:0",
      "deadline:1",
      "deadline:900000",
      "deadline:900001",
      "deadline:1.5",
      "deadline:-0",
      "deadline:wrongType",
      "deadline:double",
      "lease:none",
      "lease:sessionOnly",
      "lease:leaseOnly",
      "lease:bothEqual",
      "lease:mismatch",
      "lease:dropToken",
      "lease:dropSession",
      "lease:extraField",
      "lease:notObject",
      "drop:protocolVersion",
      "drop:requestId",
      "drop:operation",
      "drop:payload",
      "request:unknownField",
      "request:undefinedField:payload",
      "request:wrongType:operation",
      "request:protocolVersion:protocolVersion",
      "request:payloadNotJson:payload",
      "payload:json",
      "payload:notJson",
      "root:nullPrototype",
      "root:classInstance",
      "root:array",
      "junk",
    ]);
  });

  it(`validateResponse: ${RUNS.response} generated responses (unknown fields tolerated)`, (context: TaskWithMeta) => {
    const coverage = new Coverage();
    checkProperty(
      context,
      fc.property(responseCase, (envelope) => {
        agreeWithOracle(
          "validateResponse",
          (value) => validateResponse(value),
          validateGlassResponse,
          (value) => oracleResponse(value, false),
          envelope,
          coverage,
        );
      }),
      { seed: SEED + 1, numRuns: RUNS.response },
    );
    coverage.expectReached(RESPONSE_TAGS);
  });

  it(`validateResponse({ strict: true }): ${RUNS.strict} generated responses (unknown fields rejected)`, (context: TaskWithMeta) => {
    const coverage = new Coverage();
    checkProperty(
      context,
      fc.property(responseCase, (envelope) => {
        agreeWithOracle(
          "validateResponse(strict)",
          (value) => validateResponse(value, { strict: true }),
          validateGlassResponseStrict,
          (value) => oracleResponse(value, true),
          envelope,
          coverage,
        );
        // Strict only ever rejects more: strict-valid implies valid.
        if (validateResponse(envelope.value, { strict: true }).ok && !validateResponse(envelope.value).ok) {
          throw new Error("accepted in strict mode but rejected in the default mode");
        }
      }),
      { seed: SEED + 2, numRuns: RUNS.strict },
    );
    coverage.expectReached(RESPONSE_TAGS);
  });
});

const RESPONSE_TAGS = [
  "id:128bytes",
  "id:129bytes",
  "id:whitespace",
  "id:control",
  "outcome:success",
  "outcome:failure",
  "outcome:okTrueWithError",
  "outcome:okFalseWithResult",
  "outcome:okTrueWithBoth",
  "outcome:okFalseWithBoth",
  "outcome:okTrueNeither",
  "outcome:okFalseNeither",
  "outcome:okNotBoolean",
  "code:64bytes",
  "code:65bytes",
  "code:empty",
  "code:wrongType",
  "message:512bytes",
  "message:513bytes",
  "message:empty",
  "details:16384bytes",
  "details:16385bytes",
  "details:json",
  "details:known",
  "details:notJson",
  "phase:valid",
  "phase:bad",
  "mutationPossible:wrongType",
  "retryable:wrongType",
  "retry:classification",
  "retry:badClassification",
  "retry:extraField",
  "retry:notObject",
  "retry:drop:recommendedOperation",
  "error:extraField",
  "error:legacy",
  "error:notObject",
  "error:drop:code",
  "drop:protocolVersion",
  "drop:ok",
  "response:unknownField",
  "response:unknownFieldNotJson",
  "response:undefinedField:result",
  "result:json",
  "result:notJson",
  "root:nullPrototype",
  "root:classInstance",
  "junk",
];

// ---------------------------------------------------------------------------------------------
// Never throws: hostile values the oracle does not judge.

/** What a hostile value throws when it is read. */
type ThrowKind = (typeof ORDINARY_THROWS)[number] | (typeof UNPRINTABLE_THROWS)[number];

/** Thrown values `String()` can print. */
const ORDINARY_THROWS = [
  "Error",
  "RangeError",
  "TypeError",
  "string",
  "number",
  "undefined",
  "null",
  "symbol",
  "plainObject",
] as const;
/** Thrown values that cannot be turned into a string, or whose reading throws again. */
const UNPRINTABLE_THROWS = [
  "nullPrototypeObject",
  "toStringThrows",
  "toPrimitiveThrows",
  "errorMessageGetterThrows",
  "proxyGetPrototypeOfThrows",
] as const;

function thrown(kind: ThrowKind): unknown {
  switch (kind) {
    case "Error":
      return new Error("getter exploded");
    case "RangeError":
      return new RangeError("Maximum call stack size exceeded");
    case "TypeError":
      return new TypeError("bad read");
    case "string":
      return "a thrown string";
    case "number":
      return 42;
    case "undefined":
      return undefined;
    case "null":
      return null;
    case "symbol":
      return Symbol("thrown");
    case "plainObject":
      return { message: "not an Error" };
    case "nullPrototypeObject":
      return Object.create(null) as object;
    case "toStringThrows":
      return {
        toString(): string {
          throw new Error("toString exploded");
        },
      };
    case "toPrimitiveThrows":
      return {
        [Symbol.toPrimitive](): never {
          throw new Error("toPrimitive exploded");
        },
      };
    case "errorMessageGetterThrows": {
      const error = new Error("x");
      Object.defineProperty(error, "message", {
        get(): never {
          throw new Error("message getter exploded");
        },
      });
      return error;
    }
    case "proxyGetPrototypeOfThrows":
      return new Proxy(
        {},
        {
          getPrototypeOf(): never {
            throw new Error("getPrototypeOf exploded");
          },
        },
      );
  }
}

const HOSTILE_KINDS = [
  "cycleObject",
  "cycleArray",
  "throwingGetter",
  "proxyThrowingTrap",
  "transparentProxy",
  "revokedProxy",
  "deepArray",
  "deepObject",
  "function",
  "symbol",
  "bigint",
  "flakyGetter",
  "anything",
] as const;
type HostileKind = (typeof HOSTILE_KINDS)[number];

const PROXY_TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const;

/** Where the hostile value goes: the root itself, or a field of an otherwise valid envelope. */
const POSITIONS = [
  "root",
  "request.requestId",
  "request.payload",
  "request.payload.nested",
  "request.mutationLease",
  "request.mutationLease.token",
  "request.unknown",
  "response.result",
  "response.result.nested",
  "response.error",
  "response.error.details",
  "response.error.retry",
  "response.error.unknown",
  "response.unknown",
] as const;
type Position = (typeof POSITIONS)[number];

/** A recipe for a hostile input: plain data, so fast-check prints and shrinks it; built fresh per run. */
interface HostileRecipe {
  kind: HostileKind;
  position: Position;
  throws: ThrowKind;
  trap: (typeof PROXY_TRAPS)[number];
  depth: number;
  anything: unknown;
}

function hostileValue(recipe: HostileRecipe): unknown {
  const base = { a: 1, list: [1, "two", null] };
  switch (recipe.kind) {
    case "cycleObject": {
      const cycle: Record<string, unknown> = { ...base };
      cycle["self"] = { back: cycle };
      return cycle;
    }
    case "cycleArray": {
      const cycle: unknown[] = [1, 2];
      cycle.push([cycle]);
      return cycle;
    }
    case "throwingGetter": {
      const object: Record<string, unknown> = { ...base };
      Object.defineProperty(object, "exploding", {
        enumerable: true,
        get(): never {
          throw thrown(recipe.throws);
        },
      });
      return object;
    }
    case "proxyThrowingTrap":
      return new Proxy(
        { ...base },
        {
          [recipe.trap]: (): never => {
            throw thrown(recipe.throws);
          },
        },
      );
    case "transparentProxy":
      return new Proxy({ ...base }, {});
    case "revokedProxy": {
      const { proxy, revoke } = Proxy.revocable({ ...base }, {});
      revoke();
      return proxy;
    }
    case "deepArray": {
      let value: unknown = [];
      for (let i = 0; i < recipe.depth; i++) value = [value];
      return value;
    }
    case "deepObject": {
      let value: unknown = {};
      for (let i = 0; i < recipe.depth; i++) value = { d: value };
      return value;
    }
    case "function":
      return Object.assign(() => 1, { a: 1 });
    case "symbol":
      return Symbol("hostile");
    case "bigint":
      return 10n ** 30n;
    case "flakyGetter": {
      let reads = 0;
      const object: Record<string, unknown> = {};
      Object.defineProperty(object, "flaky", {
        enumerable: true,
        get: () => (reads++ % 2 === 0 ? "fine" : undefined),
      });
      return object;
    }
    case "anything":
      return recipe.anything;
  }
}

function validRequest(): Record<string, unknown> {
  return {
    protocolVersion: 1,
    requestId: "req-1",
    sessionId: "s-1",
    mutationLease: { sessionId: "s-1", token: "tok-1" },
    operation: "browser.click",
    payload: { target: "#go" },
  };
}

function validResponse(): Record<string, unknown> {
  return {
    protocolVersion: 1,
    requestId: "req-1",
    ok: false,
    error: {
      code: "staleRevision",
      message: "stale",
      retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
      details: { kind: "x" },
    },
  };
}

/** The hostile value placed at its position. */
function hostileInput(recipe: HostileRecipe): unknown {
  const value = hostileValue(recipe);
  const [envelope, ...path] = recipe.position.split(".");
  if (envelope === "root") return value;
  const root = envelope === "request" ? validRequest() : validResponse();
  if (recipe.position === "response.result" || recipe.position === "response.result.nested") {
    root["ok"] = true;
    delete root["error"];
    root["result"] = {};
  }
  let target: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) target = target[path[i]!] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  target[last === "nested" || last === "unknown" ? "hostile" : last] = value;
  if (last === "nested") target["hostile"] = { inner: [value] };
  return root;
}

/** Kinds that are never JSON (and never valid), wherever they are read. */
const NEVER_VALID: ReadonlySet<HostileKind> = new Set([
  "cycleObject",
  "cycleArray",
  "throwingGetter",
  "revokedProxy",
  "function",
  "symbol",
  "bigint",
]);

const hostileRecipe = (throws: readonly ThrowKind[]): fc.Arbitrary<HostileRecipe> =>
  fc.record({
    kind: fc.constantFrom(...HOSTILE_KINDS),
    position: fc.constantFrom(...POSITIONS),
    throws: fc.constantFrom(...throws),
    trap: fc.constantFrom(...PROXY_TRAPS),
    depth: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1_000, max: 12_000 })),
    anything: junk,
  });

function neverThrows(recipe: HostileRecipe): void {
  for (const { name, validate } of VALIDATORS) {
    const input = hostileInput(recipe);
    const result = callValidator(name, validate, input);
    expectWellFormed(name, result, input);
    // The root positions of the other envelope kind are rejected anyway; only judge clear cases.
    if (NEVER_VALID.has(recipe.kind) && result.ok)
      throw new Error(`${name} accepted a ${recipe.kind} at ${recipe.position}`);
  }
}

describe("envelope validators never throw", () => {
  it(`on ${RUNS.hostile} hostile inputs: cycles, throwing getters and proxy traps, revoked proxies, deep nesting, functions, symbols, bigints, fc.anything()`, (context: TaskWithMeta) => {
    checkProperty(context, fc.property(hostileRecipe(ORDINARY_THROWS), neverThrows), {
      seed: SEED + 3,
      numRuns: RUNS.hostile,
    });
  });
});

describe("the validators do not throw even when a getter or proxy trap throws a value that cannot be printed", () => {
  // Describing what was thrown must not throw in turn: a thrown null-prototype object, an object
  // whose toString throws, an Error whose message getter throws, a Proxy whose getPrototypeOf trap
  // throws.
  it(`on ${RUNS.hostileThrows} hostile inputs whose reads throw unprintable values`, (context: TaskWithMeta) => {
    checkProperty(context, fc.property(hostileRecipe(UNPRINTABLE_THROWS), neverThrows), {
      seed: SEED + 4,
      numRuns: RUNS.hostileThrows,
    });
  });
});
