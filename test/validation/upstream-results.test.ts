import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { validateResult } from "glass-sdk";
import { RESULT_SAMPLES } from "../support/result-samples.js";

/**
 * Our result schemas against upstream Glass data, read from outside the project (it is not ours to
 * copy in): its samples must pass our validators, except where the published data disagrees with
 * what the daemon emits (those disagreements are asserted exactly), and our own samples must pass
 * upstream's schemas where those describe the daemon. Point GLASS_REFERENCE_DIR at the data; by
 * default the shared reference folder next to the checkout is used.
 */
const referenceDir =
  process.env.GLASS_REFERENCE_DIR ?? fileURLToPath(new URL("../../../shared/reference/glass/", import.meta.url));
const files = existsSync(referenceDir) ? readdirSync(referenceDir) : [];
const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`${referenceDir}/${file}`, "utf8")) as Record<string, unknown>;
const named = (pattern: RegExp): string[] => files.filter((file) => pattern.test(file));

const additive = named(/^semantic-additive-v1\..*\.json$/);
const extraction = named(/^task-extraction-conformance-v1\..*\.json$/);
const schemas = named(/^(semantic-observation|intent-resolution|knowledge)-v1\.schema\..*\.json$/);

const detailAvailability = { resultId: "mcp_1764754000123_9", detailsAvailable: true, detailsTruncated: false };
const sampleOf = (label: string) => RESULT_SAMPLES.find((s) => s.label === label)!.result as Record<string, unknown>;

describe.skipIf(additive.length === 0)(`upstream semantic-additive samples (${referenceDir})`, () => {
  it.each(additive)(
    "%s is a browser.observe result, except that it lacks limits.omittedStructuredRecords, which the daemon always emits",
    (file) => {
      const observation = read(file);
      expect(validateResult("browser.observe", observation)).toEqual({
        ok: false,
        issues: [{ path: "limits.omittedStructuredRecords", reason: "is required" }],
      });
      const limits = observation.limits as Record<string, unknown>;
      const completed = { ...observation, limits: { ...limits, omittedStructuredRecords: 0 } };
      // Its unknown top-level field (how the format grows) is accepted.
      expect(completed).toHaveProperty("futureField");
      expect(validateResult("browser.observe", completed)).toEqual({ ok: true, value: completed });
    },
  );
});

describe.skipIf(extraction.length === 0)(`upstream task-extraction samples (${referenceDir})`, () => {
  it.each(extraction)(
    "%s: its extraction result lacks sourceRevision, which the daemon's type always has; the rest is an extractStructured result",
    (file) => {
      const result = read(file).extractionResult as Record<string, unknown>;
      expect(validateResult("browser.extractStructured", { ...result, detailAvailability })).toEqual({
        ok: false,
        issues: [{ path: "sourceRevision", reason: "is required" }],
      });
      const continuation = result.continuation as { sourceRevision: number };
      const completed = { ...result, sourceRevision: continuation.sourceRevision, detailAvailability };
      expect(validateResult("browser.extractStructured", completed).ok).toBe(true);
      // `provenance` holds a source ("semantic:region-results") where the daemon puts field paths:
      // both are strings, so the schema cannot tell them apart.
      expect(result.provenance).toEqual(["semantic:region-results"]);
      // Without the projection, it is not what extractStructured answers.
      expect(validateResult("browser.extractStructured", { ...result, sourceRevision: 7 })).toMatchObject({
        ok: false,
        issues: [{ path: "detailAvailability" }],
      });
    },
  );

  it.each(extraction)(
    "%s: the same extraction inside a task.execute result of its collection.extract request",
    (file) => {
      const sample = read(file);
      const request = sample.taskExecute as { payload: { task: { task: string }; expectedRevision: number } };
      const executed = {
        task: request.payload.task.task,
        status: "succeeded",
        phase: "extraction",
        mutationPossible: false,
        sourceRevision: request.payload.expectedRevision,
        currentRevision: request.payload.expectedRevision,
        steps: [{ ordinal: 0, operation: "extractCollection", status: "succeeded" }],
        retry: { classification: "safeImmediate", recommendedOperation: "inspect_page" },
        extraction: sample.extractionResult,
        detailAvailability,
      };
      expect(validateResult("task.execute", executed)).toEqual({
        ok: false,
        issues: [{ path: "extraction.sourceRevision", reason: "is required" }],
      });
      const extracted = {
        ...(sample.extractionResult as Record<string, unknown>),
        sourceRevision: request.payload.expectedRevision,
      };
      expect(validateResult("task.execute", { ...executed, extraction: extracted }).ok).toBe(true);
      // Its extraction error carries retry advice our envelope knows.
      expect((sample.extractionError as { retry: unknown }).retry).toEqual({
        classification: "safeAfterReobserve",
        recommendedOperation: "inspect_page",
      });
    },
  );
});

describe.skipIf(schemas.length === 0)(`our samples against upstream's published schemas (${referenceDir})`, () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const ids = new Map<string, string>();
  for (const file of schemas) {
    const schema = read(file);
    const id = `https://upstream.test/${file}`;
    ajv.addSchema({ ...schema, $id: id });
    ids.set(file, id);
  }
  const validator = (pattern: RegExp, pointer: string) =>
    [...ids]
      .filter(([file]) => pattern.test(file))
      .map(([file, id]) => [file, ajv.compile({ $ref: `${id}#${pointer}` })] as const);
  const withoutProjection = ({ detailAvailability: _projection, ...rest }: Record<string, unknown>) => rest;

  it("resolveIntent: our sample is an upstream intent-resolution result (the one exact published schema)", () => {
    const checks = validator(/^intent-resolution/, "/$defs/result");
    expect(checks.length).toBeGreaterThan(0);
    for (const [file, validate] of checks)
      expect(
        validate(withoutProjection(sampleOf("unique high-confidence candidate"))),
        `${file}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
  });

  it("findTarget: our candidates are upstream intent-resolution candidates", () => {
    for (const [file, validate] of validator(/^intent-resolution/, "/$defs/candidate")) {
      for (const candidate of sampleOf("ambiguous intent").candidates as unknown[])
        expect(validate(candidate), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("knowledgeList and knowledgeShow: our samples are upstream knowledge snapshots and records (both published versions)", () => {
    const records = validator(/^knowledge/, "/$defs/record");
    const snapshots = validator(/^knowledge/, "/$defs/snapshot");
    expect(records.length).toBeGreaterThan(0);
    for (const [file, validate] of records)
      expect(validate(sampleOf("a verified page family")), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    for (const [file, validate] of snapshots)
      expect(validate(sampleOf("one record")), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it("observe: our summary-level observation differs from the older published schema only by limits.omittedStructuredRecords", () => {
    for (const [file, validate] of validator(/^semantic-observation/, "")) {
      expect(validate(sampleOf("semantic observation, summary level")), file).toBe(false);
      expect(validate.errors?.map((error) => [error.instancePath, error.keyword, error.params])).toEqual([
        ["/limits", "additionalProperties", { additionalProperty: "omittedStructuredRecords" }],
      ]);
    }
  });
});
