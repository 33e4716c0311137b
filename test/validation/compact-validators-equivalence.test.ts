/**
 * The compact validators (generated/validators-compact/, the browser bundle's) against the compiled
 * ones (generated/validators/, the Node builds'): for every named validator and every payload and
 * result validator, on the golden fixture, the upstream reference data, large Web IR documents,
 * schema-guided fuzz, mutations of valid values and junk, both give the same verdict (verdict only
 * and collecting issues, from the root and from a base path) and the same issues in the same
 * order — or throw the same error.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inspect, isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../codegen/catalog.js";
import { emitCompactValidators } from "../../codegen/emit-compact-validators.js";
import { emitValidators, type NamedEntry } from "../../codegen/emit-validators.js";
import { SchemaRegistry, type SchemaLocation } from "../../codegen/schema-registry.js";
import * as compiled from "../../generated/validators/index.js";
import * as compact from "../../generated/validators-compact/index.js";
import * as compactCore from "../../generated/validators-compact/core.js";
import { operationValidators } from "../../generated/validators-compact/by-operation.js";
import { operationValidators as compiledOperationValidators } from "../../generated/validators/by-operation.js";
import type { GeneratedValidator } from "../../src/validation/generated-support.js";
import type { ValidationIssue } from "../../src/validation/issue.js";
import { readGoldenFixture } from "../support/golden-fixture.js";
import { KEYWORD_SCHEMA } from "../support/keyword-schema.js";
import { junk, mutate, SchemaArbitraries } from "../support/schema-arbitrary.js";
import { webIrDiffSample, webIrSample } from "../support/web-ir-sample.js";
import { PROFILE, replay, SCENARIO, SURFACES } from "../support/experience-samples.js";
import { Glass, type OperationName } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";

// The two modules must be interchangeable (the browser build swaps one for the other).
const asCompact: typeof compact = compiled;
const asCompiled: typeof compiled = compact;
void asCompact;
void asCompiled;

const registry = new SchemaRegistry(fileURLToPath(new URL("../../schema/", import.meta.url)));
const catalog = loadCatalog(registry);

/** The documents an operation's payload carries, as the compiled back end names them. */
const compiledDocuments = (operation: string) => compiledOperationValidators(operation)?.documents;

/** One validator under both back ends, and the schema it checks. */
interface Pair {
  label: string;
  compiled: GeneratedValidator;
  compact: GeneratedValidator;
  location: SchemaLocation;
}

type NamedExport = Exclude<keyof typeof compiled, "payloadValidators" | "resultValidators">;

/** The named validators and their schemas, as the generated index documents each export. */
const indexText = readFileSync(new URL("../../generated/validators-compact/index.ts", import.meta.url), "utf8");
const named: Pair[] = [
  ...indexText.matchAll(
    /\/\*\* Validates a value against ([^#\s]+)#(\S*?)(?: \(strict\))?\. \*\/\nexport const (\w+)/g,
  ),
].map(([, file, pointer, name]) => ({
  label: name!,
  compiled: compiled[name as NamedExport],
  compact: compact[name as NamedExport],
  location: { file: file!, pointer: pointer! },
}));
const payloads: Pair[] = catalog.operations.map((op) => ({
  label: `payload of ${op.operation}`,
  compiled: compiled.payloadValidators[op.operation]!,
  compact: compact.payloadValidators[op.operation]!,
  location: op.payload,
}));
const results: Pair[] = catalog.operations.flatMap((op) =>
  op.result === undefined
    ? []
    : [
        {
          label: `result of ${op.operation}`,
          compiled: compiled.resultValidators[op.operation]!,
          compact: compact.resultValidators[op.operation]!,
          location: op.result,
        },
      ],
);
/**
 * The programs a browser bundle splits the catalog into: the client's named validators (core.ts),
 * and each operation's payload, result and documents in a module of its own, loaded through
 * by-operation.ts as a page does on the operation's first call.
 */
const core: Pair[] = Object.entries(compactCore).map(([name, validator]) => {
  const whole = named.find((pair) => pair.label === name)!;
  return { ...whole, label: `${name} (core program)`, compact: validator };
});
const perOperation: Pair[] = [];
for (const op of catalog.operations) {
  const own = await operationValidators(op.operation)!;
  perOperation.push({
    ...payloads.find((pair) => pair.label === `payload of ${op.operation}`)!,
    label: `payload of ${op.operation} (own program)`,
    compact: own.payload,
  });
  const result = results.find((pair) => pair.label === `result of ${op.operation}`);
  if (result !== undefined)
    perOperation.push({ ...result, label: `result of ${op.operation} (own program)`, compact: own.result! });
  for (const [field, validator] of Object.entries(own.documents ?? {})) {
    const document = named.find(
      (pair) =>
        pair.compact === compiledDocuments(op.operation)?.[field] ||
        pair.compiled === compiledDocuments(op.operation)?.[field],
    )!;
    perOperation.push({ ...document, label: `${field} of ${op.operation} (own program)`, compact: validator });
  }
}
const pairs = [...named, ...payloads, ...results, ...core, ...perOperation];
/** The split programs' validators of each validator of the whole program: compared on whatever it is compared on. */
const twins = new Map<Pair, Pair[]>();
for (const twin of [...core, ...perOperation]) {
  const whole = [...named, ...payloads, ...results].find(
    (pair) => pair.compiled === twin.compiled && pair.location === twin.location,
  )!;
  twins.set(whole, [...(twins.get(whole) ?? []), twin]);
}
const byLabel = new Map(pairs.map((pair) => [pair.label, pair]));

/** What a validator did: its verdict and issues, or what it threw. */
type Outcome = { verdict: boolean; issues?: ValidationIssue[] } | { threw: string };

function outcome(validator: GeneratedValidator, value: unknown, path: string, collect: boolean): Outcome {
  const issues: ValidationIssue[] = [];
  try {
    const verdict = validator(value, path, collect ? issues : null);
    return collect ? { verdict, issues } : { verdict };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : inspect(error) };
  }
}

/** Verdicts seen per validator (valid, invalid), to show both sides were exercised. */
const seen = new Map<string, { valid: number; invalid: number }>();
let comparisons = 0;

/** Runs both back ends on a value (from the root and from a base path, both modes); throws on any difference. */
function compare(pair: Pair, value: unknown): boolean {
  let valid = false;
  for (const path of ["", "base.at[2]"]) {
    for (const collect of [false, true]) {
      const expected = outcome(pair.compiled, value, path, collect);
      const actual = outcome(pair.compact, value, path, collect);
      comparisons++;
      if (!isDeepStrictEqual(actual, expected)) {
        throw new Error(
          `${pair.label} (path ${JSON.stringify(path)}, ${collect ? "collecting issues" : "verdict only"}) differs on ${inspect(value, { depth: 4, breakLength: Infinity }).slice(0, 600)}\n` +
            `compiled: ${inspect(expected, { depth: 4 })}\ncompact:  ${inspect(actual, { depth: 4 })}`,
        );
      }
      if (!collect && path === "") valid = "verdict" in expected && expected.verdict;
    }
  }
  const tally = seen.get(pair.label) ?? { valid: 0, invalid: 0 };
  tally[valid ? "valid" : "invalid"]++;
  seen.set(pair.label, tally);
  for (const twin of twins.get(pair) ?? []) compare(twin, value);
  return true;
}

/** Every value inside a value (itself included). */
function nested(value: unknown, into: unknown[] = []): unknown[] {
  into.push(value);
  if (value !== null && typeof value === "object") for (const item of Object.values(value)) nested(item, into);
  return into;
}

/** Distinct values (by JSON) inside a list of documents. */
function distinctNested(documents: unknown[]): unknown[] {
  const byJson = new Map<string, unknown>();
  for (const value of documents.flatMap((document) => nested(document))) byJson.set(JSON.stringify(value), value);
  return [...byJson.values()];
}

const fixture = readGoldenFixture();
const referenceDir =
  process.env.GLASS_REFERENCE_DIR ?? fileURLToPath(new URL("../../../shared/reference/glass/", import.meta.url));
const referenceFiles = existsSync(referenceDir)
  ? readdirSync(referenceDir).filter((file) => file.endsWith(".json"))
  : [];

describe("the compact validators", () => {
  it("export exactly what the compiled ones export, as different functions", () => {
    expect(Object.keys(compact).sort()).toEqual(Object.keys(compiled).sort());
    expect(Object.keys(compact.payloadValidators)).toEqual(Object.keys(compiled.payloadValidators));
    expect(Object.keys(compact.resultValidators)).toEqual(Object.keys(compiled.resultValidators));
    expect(named.map((pair) => pair.label).sort()).toEqual(
      Object.keys(compiled)
        .filter((name) => name.startsWith("validate"))
        .sort(),
    );
    for (const pair of pairs) {
      expect(typeof pair.compact, pair.label).toBe("function");
      expect(pair.compact, pair.label).not.toBe(pair.compiled);
    }
  });

  it("agree on every value of the golden fixture, for every validator", () => {
    const values = distinctNested([fixture]);
    for (const value of values) for (const pair of pairs) compare(pair, value);
    for (const request of fixture.requests) {
      compare(byLabel.get(`payload of ${String(request.operation)}`)!, request.payload);
      compare(byLabel.get("validateGlassRequest")!, request);
    }
    for (const response of [...fixture.responses, ...(fixture.invalidResponses ?? [])]) {
      for (const label of ["validateGlassResponse", "validateGlassResponseStrict"])
        compare(byLabel.get(label)!, response);
      const operation = fixture.requests.find((request) => request.requestId === response.requestId)?.operation;
      const resultPair = byLabel.get(`result of ${String(operation)}`);
      if (resultPair !== undefined && "result" in response) compare(resultPair, response.result);
    }
  });

  it("agree on the mock's answers to the experience, memory and page-bound operations, and on their payloads", async () => {
    const mock = createMockGlass();
    const glass = await Glass.connect(mock.transport());
    const calls: [OperationName, unknown][] = [
      ["browser.extractWebIr", {}],
      ["browser.preflightNavigation", { url: "https://shop.example/orders" }],
      [
        "browser.resolveIntentWithKnowledge",
        { schemaVersion: 1, intent: "Sign in", action: "click", resolutionPolicy: { mode: "bestCandidate" } },
      ],
      ["browser.workspaceStatus", {}],
      ["browser.workspaceInspect", {}],
      ["browser.replayInspect", { scenario: SCENARIO, replay: replay() }],
      ["browser.replayAttach", { scenario: SCENARIO, replay: replay() }],
      ["browser.replayDiff", { scenario: SCENARIO, before: replay("a"), after: replay("b", 3) }],
      ["browser.surfaceInspect", { surfaces: SURFACES }],
      ["browser.surfaceInspect", { surfaces: SURFACES, coverageOnly: true }],
      ["browser.backendStatus", { profile: PROFILE }],
      ["browser.backendTest", { profile: PROFILE }],
      ["browser.memoryStatus", {}],
      ["browser.memoryExport", {}],
      ["browser.memoryPrune", {}],
    ];
    for (const [operation, payload] of calls) {
      compare(byLabel.get(`payload of ${operation}`)!, payload);
      const result = await glass.requestUntyped(operation, payload as never).catch(() => undefined);
      if (result !== undefined) compare(byLabel.get(`result of ${operation}`)!, result);
    }
    await glass.close();
  });

  it.skipIf(referenceFiles.length === 0)(
    `agree on every value of the upstream reference data (${referenceDir})`,
    () => {
      const documents = referenceFiles.map(
        (file) => JSON.parse(readFileSync(`${referenceDir}/${file}`, "utf8")) as unknown,
      );
      for (const value of distinctNested(documents)) for (const pair of pairs) compare(pair, value);
    },
  );

  it("agree on large Web IR documents, at, under and over the 256 KiB bound, and broken ones", () => {
    const document = byLabel.get("validateWebIrDocument")!;
    const sizes = [2_000, 60_000, 200_000, 261_500, 262_000, 262_144, 262_400, 263_000, 300_000];
    for (const size of sizes) {
      const ir = webIrSample(size);
      const bytes = new TextEncoder().encode(JSON.stringify(ir)).length;
      compare(document, ir);
      compare(byLabel.get("payload of webIr.validate")!, { ir });
      compare(byLabel.get("payload of webIr.inspect")!, { ir });
      compare(byLabel.get("payload of task.compile")!, {
        task: {
          schemaVersion: 1,
          task: "form.inspect",
          scope: { regionName: "form 3" },
          limits: { maxActions: 1, timeoutMs: 1000, maxItems: 1 },
          risk: "readOnly",
        },
        ir,
      });
      // Broken: a second page, a relationship to nowhere, a repeated id, a bad field at the end.
      const broken = structuredClone(ir) as unknown as Record<string, any>;
      broken.entities[1].kind = "page";
      broken.relationships[0].to = "nowhere";
      broken.entities.push({ ...broken.entities[2] });
      broken.limits.truncated = "no";
      compare(document, broken);
      compare(byLabel.get("payload of webIr.diff")!, { before: ir, after: broken });
      expect(bytes).toBeGreaterThan(0);
    }
    for (const size of [10_000, 262_000, 400_000]) {
      const pair = webIrDiffSample(size);
      compare(byLabel.get("payload of webIr.diff")!, pair);
      compare(byLabel.get("payload of webIr.continuity")!, { ...pair, entityId: "page" });
      compare(byLabel.get("payload of webIr.diff")!, { before: pair.after, after: pair.before });
    }
  });

  it("agree on schema-guided fuzz, for every validator (seeded)", () => {
    const arbitraries = new SchemaArbitraries(registry);
    for (const [i, pair] of pairs.entries()) {
      fc.assert(
        fc.property(arbitraries.for(registry.at(pair.location)), (value) => compare(pair, value)),
        { seed: 20_240_601 + i, numRuns: 150 },
      );
    }
  });

  it("agree on mutations of valid values (seeded)", () => {
    const valid: [Pair, unknown][] = [
      ...fixture.requests.flatMap((request): [Pair, unknown][] => [
        [byLabel.get("validateGlassRequest")!, request],
        [byLabel.get(`payload of ${String(request.operation)}`)!, request.payload],
      ]),
      ...fixture.responses.flatMap((response): [Pair, unknown][] => [
        [byLabel.get("validateGlassResponse")!, response],
        [byLabel.get("validateGlassResponseStrict")!, response],
      ]),
      [byLabel.get("validateWebIrDocument")!, webIrSample(3_000)],
      [byLabel.get("payload of webIr.diff")!, webIrDiffSample(4_000)],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        junk,
        ([pair, value], choice, replacement) => compare(pair, mutate(value, choice, replacement)),
      ),
      { seed: 7_2024, numRuns: 4_000 },
    );
  });

  it("agree on junk, for every validator (seeded)", () => {
    fc.assert(
      fc.property(junk, (value) => pairs.every((pair) => compare(pair, value))),
      { seed: 31_337, numRuns: 300 },
    );
  });

  it("agree where the verdict so far gates a check (a byte limit after a failed field, rules)", () => {
    const big = { blob: "x".repeat(20_000) };
    const response = (error: Record<string, unknown>) => ({ protocolVersion: 1, requestId: "r", ok: false, error });
    for (const value of [
      response({ code: "", message: "m", details: big }),
      response({ code: "c", message: "m", details: big }),
      response({ code: "c", message: "m", details: big, retry: 3 }),
      response({ code: "c", message: "", details: big, phase: "nowhere" }),
      {
        protocolVersion: 1,
        requestId: " ",
        operation: "browser.click",
        payload: {},
        sessionId: "a",
        mutationLease: { sessionId: "b", token: "t" },
      },
      {
        protocolVersion: 1,
        requestId: "r",
        operation: "browser.click",
        payload: {},
        sessionId: "a",
        mutationLease: { sessionId: "b", token: "t" },
      },
    ]) {
      for (const label of ["validateGlassResponse", "validateGlassResponseStrict", "validateGlassRequest"])
        compare(byLabel.get(label)!, value);
    }
  });

  it("agree on values that throw while being read (getters, proxies)", () => {
    const boom = (): never => {
      throw new Error("read exploded");
    };
    const hostile: unknown[] = [
      Object.defineProperty({ protocolVersion: 1, requestId: "r" }, "operation", { get: boom, enumerable: true }),
      {
        protocolVersion: 1,
        requestId: "r",
        operation: "browser.click",
        payload: Object.defineProperty({}, "target", { get: boom, enumerable: true }),
      },
      new Proxy({}, { ownKeys: boom }),
      new Proxy({ protocolVersion: 1 }, { get: boom }),
      new Proxy({}, { getPrototypeOf: boom }),
      Object.defineProperty({}, "constructor", { get: boom }),
      Object.defineProperty([], "length", { value: 0 }),
    ];
    for (const value of hostile) for (const pair of pairs) compare(pair, value);
  });

  it("were compared often, on valid and invalid values of every validator", () => {
    expect(comparisons).toBeGreaterThan(100_000);
    for (const pair of pairs) {
      const tally = seen.get(pair.label)!;
      expect(tally.invalid, pair.label).toBeGreaterThan(0);
    }
    // Most validators saw valid values too (the fuzz is guided by their schema).
    const withValid = pairs.filter((pair) => seen.get(pair.label)!.valid > 0).length;
    expect(withValid / pairs.length).toBeGreaterThan(0.9);
  });
});

/** The validators of {@link KEYWORD_SCHEMA}, compiled by both back ends into a scratch folder. */
describe("the compact validators, on a schema that uses every keyword the generator supports", () => {
  const ROOT = fileURLToPath(new URL("../..", import.meta.url));
  const FILE = "keywords.schema.json";
  const dir = mkdtempSync(join(tmpdir(), "glass-compact-"));
  const keywordRegistry = new SchemaRegistry(join(dir, "schema"));
  const defs = Object.keys(KEYWORD_SCHEMA.$defs);
  const keywordPairs: Pair[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    mkdirSync(join(dir, "schema"));
    writeFileSync(join(dir, "schema", FILE), JSON.stringify(KEYWORD_SCHEMA));
    const entries: NamedEntry[] = defs.flatMap((def): NamedEntry[] => [
      { name: `validateKw_${def}`, location: { file: FILE, pointer: `/$defs/${def}` } },
      { name: `validateKw_${def}Strict`, location: { file: FILE, pointer: `/$defs/${def}` }, mode: "strict" },
    ]);
    const noOperations: Catalog = { groups: [], operations: [], leaseExemptTools: [] };
    const files = [
      ...emitValidators(keywordRegistry, noOperations, entries),
      ...emitCompactValidators(keywordRegistry, noOperations, entries),
    ];
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, "generated", path)), { recursive: true });
      // The generated modules import the run-time helpers relatively (../../src/...): point them at ours.
      writeFileSync(join(dir, "generated", path), text.replace(/from "(?:\.\.\/)+src\//g, `from "${ROOT}src/`));
    }
    type Module = Record<string, GeneratedValidator>;
    const compiledKw = (await import(join(dir, "generated/validators/index.ts"))) as Module;
    const compactKw = (await import(join(dir, "generated/validators-compact/index.ts"))) as Module;
    for (const entry of entries) {
      keywordPairs.push({
        label: entry.name,
        compiled: compiledKw[entry.name]!,
        compact: compactKw[entry.name]!,
        location: entry.location,
      });
    }
  });

  it("compiles every definition with both back ends", () => {
    expect(keywordPairs).toHaveLength(defs.length * 2);
    for (const pair of keywordPairs) {
      expect(typeof pair.compiled, pair.label).toBe("function");
      expect(typeof pair.compact, pair.label).toBe("function");
    }
  });

  it("agree on the values each keyword is subtle about", () => {
    const nullProto = (fields: Record<string, unknown>): unknown =>
      Object.assign(Object.create(null) as object, fields);
    const own = (fields: Record<string, unknown>, name: string, value: unknown): unknown =>
      Object.defineProperty({ ...fields }, name, { value, enumerable: true, writable: true, configurable: true });
    const values: unknown[] = [
      { a: "ab", "b c": true, constructor: 1 },
      own({ a: "abc", "b c": true }, "constructor", 1),
      own({ a: "abc", "b c": true, constructor: 2 }, "toString", () => 1),
      nullProto({ a: "abc", "b c": true, constructor: 1 }),
      nullProto({ a: "abc", "b c": true, constructor: 1, hasOwnProperty: 1, missingAndUnlisted: 0 }),
      { a: "abc", "b c": false, constructor: 1, "0": 0, anyOk: undefined, nothing: 1, details: { k: "x".repeat(30) } },
      { a: "abc", "b c": false, constructor: 1, details: { k: "x" }, extra: 1, more: 2, evenMore: 3 },
      { a: () => 1, b: "x".repeat(10), u: "y" },
      { a: () => 1, b: "x".repeat(4), u: "y" },
      { u: undefined, b: "x".repeat(9) },
      { u: undefined, b: "x".repeat(3) },
      { u: Symbol("s"), n: { u: undefined, a: undefined } },
      nullProto({ u: 1, b: "x".repeat(5) }),
      { a: () => 1, b: "x".repeat(8) },
      { a: () => 1, b: "x".repeat(12) },
      [{ a: () => 1, u: 1 }, { u: undefined }],
      { v: "x" },
      { v: "x".repeat(3) },
      { v: "x".repeat(6) },
      { a: "x", extra: "y".repeat(12) },
      { a: "x".repeat(12), extra: 1 },
      { v: "x".repeat(40) },
      own({ v: "x" }, "constructor", [1, 2]),
      nullProto({ v: "x" }),
      [() => 1, undefined, Symbol("s"), 1],
      [() => 1, undefined, Symbol("s"), 12345678],
      { first: "x", sizedInline: [1, 2, 3, 4, 5, 6] },
      { first: 1, sizedInline: [1, 2, 3, 4, 5, 6] },
      { sizedInline: [1, 2, 3, 4, 5, 6], last: "x" },
      { first: "x", deeper: { inner: "long text" } },
      { deeper: { inner: "long text" } },
      { first: "x", pair: { sessionId: "a", mutationLease: { sessionId: "b" } } },
      { first: 1, pair: { sessionId: "a", mutationLease: { sessionId: "b" } } },
      { sessionId: "a", mutationLease: { sessionId: "b" }, n: 1.5 },
      { sessionId: "a", mutationLease: { sessionId: "b" } },
      { inner: { v: "x" }, ref: { leaf: 1 }, list: [{ leaf: 2 }, {}], either: { leaf: 3 } },
      { a: "x".repeat(70) },
      { a: "ab", b: [1, 2, 3], c: "é" },
      { a: "", b: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], c: "ü" },
      { a: 1, nested: { b: 2, x: 1 }, open: { y: 1 }, anyOfObj: { c: 1, z: 2 }, untyped: { d: 1, e: 2 }, extra: true },
      { kind: "a" },
      { kind: "b", b: "x" },
      { child: { child: { v: "x" } }, v: 1 },
      { ab: 1, "a b": 2, x: -1, toolong: 1 },
      [1, 1],
      [1, "a", "b", "c", "d"],
      [{ a: 1 }, { a: 1 }],
      [[1], [1]],
      ["x", 3, 6, 9],
      "",
      "a",
      "ab",
      "abcdef",
      "éé",
      "😀😀",
      "€€€",
      "\ud800\ud800",
      "123",
      "12",
      "1 2",
      "a b",
      "\u0085",
      "\u00a0x",
      0,
      -0,
      1,
      2,
      2.5,
      3,
      4.5,
      6,
      7,
      99,
      100,
      1e21,
      -1.5,
      -2,
      0.1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      true,
      false,
      undefined,
      [],
      {},
      () => 1,
      new Date(0),
      new Map(),
      nullProto({}),
      "a long constant value that is longer than sixty four characters, so gotValue shortens it!",
    ];
    for (const value of values) for (const pair of keywordPairs) compare(pair, value);
  });

  it("agree on schema-guided fuzz of every definition, lenient and strict (seeded)", () => {
    const arbitraries = new SchemaArbitraries(keywordRegistry);
    for (const [i, pair] of keywordPairs.entries()) {
      fc.assert(
        fc.property(arbitraries.for(keywordRegistry.at(pair.location)), (value) => compare(pair, value)),
        { seed: 4_000 + i, numRuns: 300 },
      );
    }
  });

  it("agree on junk, for every definition (seeded)", () => {
    fc.assert(
      fc.property(junk, (value) => keywordPairs.every((pair) => compare(pair, value))),
      { seed: 99, numRuns: 300 },
    );
  });
});
