import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateResult } from "glass-sdk";
import { ajvFromSchemas } from "../support/ajv-from-schema.js";
import { RESULT_SAMPLES, SAMPLED_OPERATIONS, type ResultSample, type SamplePath } from "../support/result-samples.js";

/** The read operations whose results the catalog types from what the daemon emits. */
const TYPED_READ_OPERATIONS = [
  "browser.screenshot",
  "browser.observe",
  "browser.observeBootstrap",
  "browser.observeDelta",
  "browser.observeKnowledge",
  "browser.getDOM",
  "browser.getText",
  "browser.inspectPage",
  "browser.extractStructured",
  "browser.verify",
  "browser.preflight",
  "browser.diagnostics",
  "browser.resolveIntent",
  "browser.findTarget",
  "browser.recoverRun",
  "browser.sessionSnapshot",
  "browser.knowledgeList",
  "browser.knowledgeShow",
  "browser.knowledgeStats",
  "browser.listTargets",
  "browser.listFrames",
  "browser.cookies",
  "browser.localStorage",
  "browser.sessionStorage",
  "task.execute",
];

/** A deep copy of `value` with the value at `path` replaced (or removed when `replacement` is `REMOVE`). */
const REMOVE = Symbol("remove");
function changed(value: unknown, path: SamplePath, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement === REMOVE) delete holder[last];
  else holder[last] = replacement;
  return copy;
}

/** The object at `path` of `value`. */
function at(value: unknown, path: SamplePath): Record<string, unknown> {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value) as Record<
    string,
    unknown
  >;
}

const label = (s: ResultSample) => `${s.operation}: ${s.label}`;
const cases = RESULT_SAMPLES.map((s) => [label(s), s] as const);

describe("result schemas of the read operations", () => {
  it("cover all 25 operations that used to be untyped, with at least one sample each", () => {
    expect([...SAMPLED_OPERATIONS].sort()).toEqual([...TYPED_READ_OPERATIONS].sort());
    for (const operation of TYPED_READ_OPERATIONS) {
      expect(validateResult(operation, "not an object").ok, operation).toBe(false);
    }
  });

  it.each(cases)("%s: a realistic result is accepted as it is", (_label, s) => {
    expect(validateResult(s.operation, s.result)).toEqual({ ok: true, value: s.result });
  });

  it.each(cases)(
    "%s: unknown fields are accepted at the top level and in nested objects (results are open)",
    (_label, s) => {
      const extra = { introducedBy: "a newer daemon" };
      expect(validateResult(s.operation, { ...s.result, futureField: extra }).ok).toBe(true);
      if (s.nested.length > 0) {
        const nested = changed(s.result, s.nested, { ...at(s.result, s.nested), futureField: extra });
        expect(validateResult(s.operation, nested).ok).toBe(true);
      }
    },
  );

  it.each(cases)("%s: a wrong type or a missing key is refused at its path", (_label, s) => {
    const broken = changed(s.result, s.broken.path, "value" in s.broken ? s.broken.value : REMOVE);
    const checked = validateResult(s.operation, broken);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.issues.map((issue) => issue.path)).toEqual([s.broken.issuePath]);
  });

  it("reads getText as {text}, never as parsed JSON", () => {
    expect(validateResult("browser.getText", { text: '{"looks":"like json"}' }).ok).toBe(true);
    expect(validateResult("browser.getText", { text: 42 })).toMatchObject({ ok: false, issues: [{ path: "text" }] });
  });

  it("types the array results as {result: [...]}: a bare array is not what the client hands back", () => {
    const cookies = RESULT_SAMPLES.find((s) => s.operation === "browser.cookies")!.result as { result: unknown[] };
    expect(validateResult("browser.cookies", { result: cookies.result }).ok).toBe(true);
    expect(validateResult("browser.cookies", { result: [] }).ok).toBe(true);
    expect(validateResult("browser.cookies", cookies.result).ok).toBe(false);
    expect(validateResult("browser.cookies", {}).ok).toBe(false);
  });

  it("requires detailAvailability where the daemon always projects, and accepts it where only the native runtime does", () => {
    const sampleOf = (operation: string) =>
      RESULT_SAMPLES.find((s) => s.operation === operation)!.result as Record<string, unknown>;
    for (const operation of [
      "browser.extractStructured",
      "browser.findTarget",
      "browser.inspectPage",
      "browser.observeBootstrap",
      "task.execute",
    ]) {
      const { detailAvailability: _projection, ...rest } = sampleOf(operation);
      expect(validateResult(operation, rest), operation).toMatchObject({
        ok: false,
        issues: [{ path: "detailAvailability" }],
      });
    }
    const projection = {
      detailAvailability: { resultId: "mcp_1764754000123_8", detailsAvailable: true, detailsTruncated: true },
    };
    for (const operation of [
      "browser.cookies",
      "browser.listTargets",
      "browser.listFrames",
      "browser.verify",
      "browser.preflight",
      "browser.diagnostics",
      "browser.observeDelta",
      "browser.resolveIntent",
      "browser.getDOM",
      "browser.localStorage",
    ]) {
      expect(validateResult(operation, { ...sampleOf(operation), ...projection }).ok, operation).toBe(true);
      expect(
        validateResult(operation, { ...sampleOf(operation), detailAvailability: { resultId: "x" } }).ok,
        operation,
      ).toBe(false);
    }
  });

  it("tells the two forms of observe apart by `level`: a page context never has one", () => {
    const pageContext = RESULT_SAMPLES.find((s) => s.label.startsWith("page context"))!.result;
    expect(validateResult("browser.observe", { ...pageContext, level: "summary" }).ok).toBe(false);
    const semantic = RESULT_SAMPLES.find((s) => s.label === "semantic observation, summary level")!.result as Record<
      string,
      unknown
    >;
    const { level: _level, ...withoutLevel } = semantic;
    expect(validateResult("browser.observe", withoutLevel).ok).toBe(false);
  });
});

/** A case of a catalog entry's `resultCases`: which payloads it applies to, and the result definition. */
interface ResultCase {
  when: { field: string; present?: true; absent?: true; in?: string[]; orAbsent?: true };
  result: { $ref: string };
}

const SCHEMA_DIR = fileURLToPath(new URL("../../schema/", import.meta.url));
const readJson = (file: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}${file}`, "utf8")) as Record<string, unknown>;
const catalogEntries = (readJson("glass-operations-v1.json").groups as string[]).flatMap((file) =>
  (readJson(file).operations as Record<string, unknown>[]).map((entry) => ({ file, entry })),
);

/** The schema file (relative to schema/) and JSON pointer a `$ref` written in a catalog group file names. */
function refTarget(groupFile: string, ref: string): { file: string; pointer: string } {
  const [refFile, pointer] = ref.split("#") as [string, string];
  return { file: refFile === "" ? groupFile : `operations/${refFile}`, pointer };
}

/** Whether a case applies to a payload: the field present or absent, or its value in the list (or absent, with `orAbsent`). */
function applies({ when }: ResultCase, payload: Record<string, unknown>): boolean {
  const value = payload[when.field];
  if (when.present) return value !== undefined;
  if (when.absent) return value === undefined;
  return value === undefined ? when.orAbsent === true : (when.in ?? []).includes(value as string);
}

describe("resultCases: the result form each payload gets", () => {
  const withCases = catalogEntries.filter(({ entry }) => entry.resultCases !== undefined);

  it("are given for observe, sessionSnapshot and workspaceInspect, each case a $ref to a titled definition, and the result is the anyOf of the same definitions", () => {
    expect(withCases.map(({ entry }) => entry.operation).sort()).toEqual([
      "browser.observe",
      "browser.sessionSnapshot",
      "browser.workspaceInspect",
    ]);
    for (const { file, entry } of withCases) {
      const resultCases = entry.resultCases as ResultCase[];
      for (const c of resultCases) {
        expect(Object.keys(c).sort()).toEqual(["result", "when"]);
        expect(Object.keys(c.result)).toEqual(["$ref"]);
        const { file: targetFile, pointer } = refTarget(file, c.result.$ref);
        const target = pointer
          .split("/")
          .slice(1)
          .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, readJson(targetFile));
        expect(target.title, c.result.$ref).toMatch(/^Browser\w+$/);
      }
      expect((entry.result as { anyOf: { $ref: string }[] }).anyOf.map((branch) => branch.$ref).sort()).toEqual(
        resultCases.map((c) => c.result.$ref).sort(),
      );
    }
  });

  it("send every payload to exactly one case, and the samples match the definition of their case (checked with ajv)", () => {
    const { compile } = ajvFromSchemas();
    for (const { file, entry } of withCases) {
      const resultCases = entry.resultCases as ResultCase[];
      const payloads: Record<string, unknown>[] =
        entry.operation === "browser.observe"
          ? [{}, { level: "summary" }, { level: "raw", region: "region_main" }, { includeScreenshot: true }]
          : [
              {},
              { operation: "list" },
              { operation: "create" },
              { operation: "inspect", from: "a" },
              { operation: "diff", from: "a", to: "b" },
              { operation: "purge" },
            ];
      for (const payload of payloads)
        expect(
          resultCases.filter((c) => applies(c, payload)),
          JSON.stringify(payload),
        ).toHaveLength(1);
      for (const s of RESULT_SAMPLES.filter((candidate) => candidate.operation === entry.operation)) {
        expect(s.payload, label(s)).toBeDefined();
        const chosen = resultCases.find((c) => applies(c, s.payload!))!;
        const validator = (c: ResultCase) => {
          const { file: targetFile, pointer } = refTarget(file, c.result.$ref);
          return compile(targetFile, pointer);
        };
        const validate = validator(chosen);
        expect(validate(s.result), `${label(s)}: ${JSON.stringify(validate.errors)}`).toBe(true);
        for (const other of resultCases.filter((c) => c !== chosen))
          expect(validator(other)(s.result), `${label(s)} also matches ${other.result.$ref}`).toBe(false);
      }
    }
  });
});
