/**
 * A vitest reporter that ends the run with one line per reliability area (the test files under
 * test/reliability/, grouped by folder):
 *
 *   reliability: properties — 9 tests, 9 passed (22,700 generated cases)
 *
 * Areas by folder: `properties/` (property tests), `faults/`, `load/`, `bridge-hardening/`,
 * `secrets/` and `hostile/` (a hostile daemon, client, page or local process); any other folder is
 * its own area, named after it, and a file directly in test/reliability/ is its own area, named
 * after the file. The generated-case count is the sum of what the area's tests recorded in
 * `task.meta` (see generated-cases.ts): tests run in workers, and `task.meta` is what reaches the
 * reporter. Only areas with files in the run get a line.
 */
import { relative, sep } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { GENERATED_CASES_META_KEY } from "./generated-cases.js";

const FOLDER = "test/reliability/";

/** Areas in print order, each with the folder of test/reliability/ that holds its files. */
const AREAS: { name: string; folder: string }[] = [
  { name: "properties", folder: "properties" },
  { name: "faults", folder: "faults" },
  { name: "load", folder: "load" },
  { name: "bridge hardening", folder: "bridge-hardening" },
  { name: "secrets", folder: "secrets" },
  { name: "hostile input", folder: "hostile" },
];

/** The area of a test file, given by its path under test/reliability/ (`faults/http.test.ts`). */
export function areaOf(path: string): string {
  const slash = path.indexOf("/");
  if (slash === -1) return path.replace(/\.test\.[cm]?[jt]sx?$/, "");
  const folder = path.slice(0, slash);
  return AREAS.find((area) => area.folder === folder)?.name ?? folder;
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
      const area = areaOf(path.slice(FOLDER.length));
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
