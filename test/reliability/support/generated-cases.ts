/**
 * How a reliability test tells the area summary reporter how many generated cases it ran.
 *
 * Tests run in worker processes and reporters in the main one, so a shared in-memory counter
 * would not reach the reporter. A test's `task.meta` does: vitest serializes it with the test's
 * result. A test adds its count with {@link recordGeneratedCases}; the reporter reads
 * {@link GENERATED_CASES_META_KEY} from `testCase.meta()`.
 */
import fc from "fast-check";

/** The `task.meta` field holding a test's number of generated cases. */
export const GENERATED_CASES_META_KEY = "generatedCases";

/** The part of vitest's test context this module needs. */
export interface TaskWithMeta {
  task: { meta: object };
}

/** Adds `count` generated cases to the running test's total (call it from inside the test). */
export function recordGeneratedCases(context: TaskWithMeta, count: number): void {
  const meta = context.task.meta as Record<string, unknown>;
  const before = meta[GENERATED_CASES_META_KEY];
  meta[GENERATED_CASES_META_KEY] = (typeof before === "number" ? before : 0) + count;
}

/**
 * The base seed of the property tests: `fallback`, or `GLASS_PROPERTY_SEED` to explore another
 * part of the input space (a failure prints the seed and path that replay it).
 */
export function baseSeed(fallback: number): number {
  const text = process.env["GLASS_PROPERTY_SEED"];
  if (text === undefined || text === "") return fallback;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed))
    throw new Error(`GLASS_PROPERTY_SEED must be an integer (got ${JSON.stringify(text)})`);
  return seed;
}

/** Seed and run count of one property check. */
export interface PropertyRun {
  seed: number;
  numRuns: number;
}

/**
 * Checks a property like `fc.assert`, records how many cases ran (passing or not) on the test,
 * and throws fast-check's report (seed, path, counterexample) when it fails. Returns the number of
 * cases run.
 */
export function checkProperty<Ts>(context: TaskWithMeta, property: fc.IProperty<Ts>, run: PropertyRun): number {
  const details = fc.check(property, { seed: run.seed, numRuns: run.numRuns, includeErrorInReport: true });
  recordGeneratedCases(context, details.numRuns);
  if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `property failed (seed ${run.seed})`);
  return details.numRuns;
}
