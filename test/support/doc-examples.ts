import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The code examples of the documentation, as the docs tests find them: the fenced blocks of
 * README.md and of the pages in docs/, and the fenced blocks in the TSDoc comments of src/.
 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Fence languages that are TypeScript (in TSDoc an untagged fence counts too). */
export const TYPESCRIPT = new Set(["ts", "typescript"]);

/** One fenced code block. */
export interface CodeBlock {
  /** `README.md:41`: the file and line of the opening fence. */
  name: string;
  /** The file it is written in, relative to the repository's root. */
  file: string;
  language: string;
  /** The line (1-based) of the block's first code line. */
  firstLine: number;
  code: string;
  /**
   * The marker comment on the line before the fence, if any: `<!-- example: compile-only (reason) -->`
   * gives `compile-only (reason)`.
   */
  marker?: string;
}

/** A marker comment before a fence: `<!-- example: … -->`. */
const MARKER = /^\s*<!--\s*example:\s*(.*?)\s*-->\s*$/;

/** The fenced blocks of a list of lines (`lineNumbers[i]` is the file line of `lines[i]`). */
export function fencedBlocks(file: string, lines: readonly string[], lineNumbers: readonly number[]): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    if (end === -1) throw new Error(`${file}:${lineNumbers[i]}: a code block is not closed`);
    const marker = i > 0 ? MARKER.exec(lines[i - 1]!)?.[1] : undefined;
    blocks.push({
      name: `${file}:${lineNumbers[i]}`,
      file,
      language: open[2]!,
      firstLine: lineNumbers[i]! + 1,
      code: lines
        .slice(i + 1, end)
        .map((line) => line.slice(Math.min(indent, /^\s*/.exec(line)![0].length)))
        .join("\n"),
      ...(marker === undefined ? {} : { marker }),
    });
    i = end;
  }
  return blocks;
}

/** README.md and the pages of docs/, relative to the root. */
export function markdownPages(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** The fenced blocks of README.md and of the pages in docs/, whatever their language. */
export function markdownBlocks(): CodeBlock[] {
  return markdownPages().flatMap((page) => {
    const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
    return fencedBlocks(
      page,
      lines,
      lines.map((_, i) => i + 1),
    );
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
    });
}

/** A TSDoc comment's text lines (without the leading ` * `) and their file line numbers. */
export interface DocComment {
  file: string;
  line: number;
  lines: string[];
  lineNumbers: number[];
}

function docComments(path: string): DocComment[] {
  const file = relative(ROOT, path);
  const text = readFileSync(path, "utf8");
  const comments: DocComment[] = [];
  for (const match of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const line = text.slice(0, match.index).split("\n").length;
    const raw = match[0].split("\n");
    comments.push({
      file,
      line,
      lines: raw.map((l) =>
        l
          .replace(/^\s*\/\*\*\s?/, "")
          .replace(/\s*\*\/$/, "")
          .replace(/^\s*\* ?/, ""),
      ),
      lineNumbers: raw.map((_, i) => line + i),
    });
  }
  return comments;
}

/** The TSDoc comments of src/. */
export function sourceDocComments(): DocComment[] {
  return sourceFiles(join(ROOT, "src")).flatMap(docComments);
}

/** The fenced blocks of the TSDoc comments of src/, whatever their language. */
export function tsdocBlocks(comments: readonly DocComment[] = sourceDocComments()): CodeBlock[] {
  return comments.flatMap((comment) => fencedBlocks(comment.file, comment.lines, comment.lineNumbers));
}

/** Whether a block is a TypeScript example: a ```ts block anywhere, or an untagged fence in TSDoc. */
export function isTypeScriptExample(block: CodeBlock): boolean {
  return TYPESCRIPT.has(block.language) || (block.language === "" && block.file.startsWith("src/"));
}

/** Every TypeScript example: those of README.md and docs/, then those of the TSDoc of src/. */
export function typeScriptExamples(): CodeBlock[] {
  return [...markdownBlocks(), ...tsdocBlocks()].filter(isTypeScriptExample);
}
