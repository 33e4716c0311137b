/**
 * A vitest reporter that ends the run with one line per reliability area (the test files under
 * test/reliability/, grouped by file name):
 *
 *   reliability: properties — 9 tests, 9 passed (22,700 generated cases)
 *
 * Areas by file name: `faults-*`, `load-*`, `bridge-hardening-*`, `secrets-*`, `hostile-*` (a hostile daemon, client, page or local process), and `*-properties`
 * (or `properties-*`) for property tests; any other file is its own area, named after it. The
 * generated-case count is the sum of what the area's tests recorded in `task.meta` (see
 * generated-cases.ts): tests run in workers, and `task.meta` is what reaches the reporter.
 * Only areas with files in the run get a line.
 */
import { basename, relative, sep } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { GENERATED_CASES_META_KEY } from "./generated-cases.js";

const FOLDER = "test/reliability/";

/** Areas in print order, each with the file-name rule that puts a file in it. */
const AREAS: { name: string; matches: (file: string) => boolean }[] = [
  { name: "properties", matches: (file) => file.startsWith("properties-") || file.endsWith("-properties.test.ts") },
  { name: "faults", matches: (file) => file.startsWith("faults-") },
  { name: "load", matches: (file) => file.startsWith("load-") },
  { name: "bridge hardening", matches: (file) => file.startsWith("bridge-hardening-") },
  { name: "secrets", matches: (file) => file.startsWith("secrets-") },
  { name: "hostile input", matches: (file) => file.startsWith("hostile-") },
];

/** The area of a test file under test/reliability/. */
export function areaOf(file: string): string {
  return AREAS.find((area) => area.matches(file))?.name ?? file.replace(/\.test\.[cm]?[jt]sx?$/, "");
}

interface AreaCounts {
  files: number;
  filesNotRun: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  generated: number;
  withGenerated: boolean;
}

const count = (n: number): string => n.toLocaleString("en-US");

/** The summary line of one area. */
export function summaryLine(area: string, counts: AreaCounts): string {
  const parts = [`${count(counts.tests)} test${counts.tests === 1 ? "" : "s"}`, `${count(counts.passed)} passed`];
  if (counts.failed > 0) parts.push(`${count(counts.failed)} failed`);
  if (counts.skipped > 0) parts.push(`${count(counts.skipped)} skipped`);
  if (counts.filesNotRun > 0)
    parts.push(`${count(counts.filesNotRun)} file${counts.filesNotRun === 1 ? "" : "s"} with errors outside tests`);
  const generated = counts.withGenerated ? ` (${count(counts.generated)} generated cases)` : "";
  return `reliability: ${area} — ${parts.join(", ")}${generated}`;
}

export default class AreaSummaryReporter implements Reporter {
  #root = process.cwd();
  #log: (line: string) => void = (line) => process.stdout.write(`${line}\n`);

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#log = (line) => vitest.logger.log(line);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const areas = new Map<string, AreaCounts>();
    for (const module of testModules) {
      const path = relative(this.#root, module.moduleId).split(sep).join("/");
      if (!path.startsWith(FOLDER)) continue;
      const area = areaOf(basename(path));
      const counts = areas.get(area) ?? {
        files: 0,
        filesNotRun: 0,
        tests: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
        generated: 0,
        withGenerated: false,
      };
      areas.set(area, counts);
      counts.files++;
      if (module.errors().length > 0) counts.filesNotRun++;
      for (const test of module.children.allTests()) {
        counts.tests++;
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else if (state === "skipped") counts.skipped++;
        const generated = (test.meta() as Record<string, unknown>)[GENERATED_CASES_META_KEY];
        if (typeof generated === "number") {
          counts.generated += generated;
          counts.withGenerated = true;
        }
      }
    }
    if (areas.size === 0) return;
    const order = (name: string): number => {
      const index = AREAS.findIndex((area) => area.name === name);
      return index === -1 ? AREAS.length : index;
    };
    const names = [...areas.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    this.#log("");
    for (const name of names) this.#log(summaryLine(name, areas.get(name)!));
  }
}
