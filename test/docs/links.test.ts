/**
 * Every relative link of the project's Markdown pages leads to a file that exists (and, with an
 * anchor, to a heading of that page or an anchor it sets).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The Markdown pages a reader follows links in. */
const PAGES = [
  "README.md",
  "CHANGELOG.md",
  "examples/README.md",
  "schema/README.md",
  "test/conformance/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page: its headings', and those it sets itself (`<a id="…">`). */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  const headings = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]!));
  const explicit = [...text.matchAll(/<a id="([^"]+)"/g)].map((match) => match[1]!);
  return new Set([...headings, ...explicit]);
}

describe("the documentation's links", () => {
  it.each(PAGES)("%s links only to files that exist, and to headings they have", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith("#")) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const file = join(ROOT, dirname(page), path);
      if (!existsSync(file)) broken.push(`${target} (no ${relative(ROOT, file)})`);
      else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor))
        broken.push(`${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });
});
