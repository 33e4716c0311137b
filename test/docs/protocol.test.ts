import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const PROTOCOL_DOC = join(ROOT, "docs", "protocol.md");
const CITING_FOLDERS = ["src", "codegen", "schema", "test", "bench", "examples", "docs"];

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|json|md)$/.test(name) ? [path] : [];
  });
}

/** Every "§N" or "§N.M" a file mentions. */
function citedSections(text: string): string[] {
  return [...text.matchAll(/§\s?(\d+(?:\.\d+)?)/g)].map((match) => match[1] as string);
}

describe("docs/protocol.md, the page the sources cite as §N", () => {
  const headings = new Set(
    [...readFileSync(PROTOCOL_DOC, "utf8").matchAll(/^#{2,3} §(\d+(?:\.\d+)?) /gm)].map((match) => match[1]),
  );

  it("has a heading for sections 1 to 7 and the session's subsections", () => {
    for (const section of ["1", "2", "3", "3.1", "3.2", "3.3", "3.4", "3.5", "4", "5", "6", "7"]) {
      expect(headings.has(section), `§${section}`).toBe(true);
    }
  });

  it("has every section a comment, a schema, a test name or a doc cites", () => {
    const missing: string[] = [];
    for (const folder of CITING_FOLDERS) {
      for (const file of filesUnder(join(ROOT, folder))) {
        for (const section of citedSections(readFileSync(file, "utf8"))) {
          if (!headings.has(section)) missing.push(`${relative(ROOT, file)} cites §${section}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
