import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The conformance table (README.md in this folder) lists each rule of the protocol with the tests
 * that prove it. This keeps the table and the tests in step.
 */
const folder = new URL("./", import.meta.url);
const table = readFileSync(new URL("README.md", folder), "utf8");
const ruleFiles = readdirSync(folder).filter((name) => /^(mock-daemon|client)-rules-.*\.test\.ts$/.test(name));

/** The titles of the rule tests a file declares (`rule("…", …)`, `it("…", …)` and the like). */
function titlesIn(file: string): string[] {
  const source = readFileSync(new URL(file, folder), "utf8");
  const titles: string[] = [];
  for (const match of source.matchAll(
    /\b(?:rule|it|[a-zA-Z]+Rule)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`$]*`)/g,
  )) {
    titles.push(stringValue(match[1]!));
  }
  return titles;
}

/**
 * The value of a string literal as the formatter writes it: double-quoted, single-quoted (when that
 * needs fewer escapes) or a template without substitutions.
 */
function stringValue(literal: string): string {
  if (literal.startsWith("`")) return literal.slice(1, -1);
  if (literal.startsWith('"')) return JSON.parse(literal) as string;
  const inner = literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"');
  return JSON.parse(`"${inner}"`) as string;
}

/** Every `file` › title cited in the table. */
function citations(): { file: string; title: string }[] {
  const cited: { file: string; title: string }[] = [];
  for (const line of table.split("\n").filter((row) => row.startsWith("| ") && !row.startsWith("| rule"))) {
    const cells = line.split(" | ").slice(1);
    for (const cell of cells) {
      for (const item of cell.replace(/ \|$/, "").split("<br>")) {
        const match = /^`([\w-]+)` › (.+)$/.exec(item.trim());
        if (match !== null) cited.push({ file: `${match[1]}.test.ts`, title: match[2]! });
      }
    }
  }
  return cited;
}

describe("the conformance table", () => {
  it("names only tests that exist, in the file it says", () => {
    const cited = citations();
    expect(cited.length).toBeGreaterThan(100);
    const missing = cited.filter(({ file, title }) => !ruleFiles.includes(file) || !titlesIn(file).includes(title));
    expect(missing).toEqual([]);
  });

  it("lists every rule test of the mock daemon and of the client", () => {
    const cited = new Set(citations().map(({ file, title }) => `${file} › ${title}`));
    expect(ruleFiles.length).toBeGreaterThanOrEqual(7);
    const unlisted = ruleFiles
      .flatMap((file) => titlesIn(file).map((title) => `${file} › ${title}`))
      .filter((entry) => !cited.has(entry));
    expect(unlisted).toEqual([]);
  });
});
