import { basename, dirname, join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CodeBlock,
  isTypeScriptExample,
  markdownBlocks,
  ROOT,
  sourceDocComments,
  tsdocBlocks,
} from "../support/doc-examples.js";

/**
 * The code examples of the documentation compile: every ```ts block of README.md and docs/ and every code
 * block in the TSDoc comments of src/, each as a module of its own, under the project's strict
 * compiler options, with every entry point of the package (`glass-sdk`, `glass-sdk/protocol`,
 * `glass-sdk/node`, `glass-sdk/testing`, `glass-sdk/testing/msw`, `glass-sdk/testing/node`) resolved
 * to its source. One Program compiles them all; examples-run.test.ts then runs them against the mock daemon.
 */

const ENTRY_POINTS: Record<string, string> = {
  "glass-sdk": "src/index.ts",
  "glass-sdk/protocol": "src/protocol.ts",
  "glass-sdk/node": "src/node/index.ts",
  "glass-sdk/testing": "src/testing/index.ts",
  "glass-sdk/testing/msw": "src/testing/msw/index.ts",
  "glass-sdk/testing/node": "src/testing/node/index.ts",
  "glass-sdk/fixtures/*": "fixtures/*",
};
const comments = sourceDocComments();
const allReadmeBlocks = markdownBlocks();
const examples = [...allReadmeBlocks, ...tsdocBlocks(comments)].filter(isTypeScriptExample);

/**
 * The virtual file of an example, next to the file it is written in (so a TSDoc example of an
 * internal module imports it as `./module.js`): `src/client/__example_glass.ts_42.ts`.
 */
function exampleFile(example: CodeBlock): string {
  const [file, line] = example.name.split(":") as [string, string];
  return join(ROOT, dirname(file), `__example_${basename(file)}_${line}.ts`);
}

/** Compiles every example in one Program; returns each example's diagnostics as `file:line: message`. */
function compileExamples(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error("cannot read tsconfig.json");
  const options: ts.CompilerOptions = {
    ...config.options,
    strict: true,
    noEmit: true,
    paths: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([specifier, path]) => [specifier, [join(ROOT, path)]])),
  };
  const sources = new Map(examples.map((example) => [exampleFile(example), `${example.code}\nexport {};\n`]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (path) => sources.has(path) || fileExists.call(host, path);
  host.readFile = (path) => sources.get(path) ?? readFile.call(host, path);
  host.getSourceFile = (path, languageVersion, onError, shouldCreate) => {
    const source = sources.get(path);
    return source === undefined
      ? getSourceFile.call(host, path, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(path, source, languageVersion, true);
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  if (global.length > 0) throw new Error(ts.formatDiagnostics(global, host));
  const results = new Map<string, string[]>();
  for (const example of examples) {
    const file = program.getSourceFile(exampleFile(example));
    if (file === undefined) throw new Error(`${example.name}: not compiled`);
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    results.set(
      example.name,
      diagnostics.map((diagnostic) => {
        const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const where = `${example.name.replace(/:\d+$/, "")}:${example.firstLine + line}`;
        return `${where}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
      }),
    );
  }
  return results;
}

describe("documentation examples", () => {
  let diagnostics: Map<string, string[]>;
  beforeAll(() => {
    diagnostics = compileExamples();
  }, 120_000);

  it("finds the README's TypeScript blocks and the TSDoc examples of src/, the Glass class's included", () => {
    expect(
      examples.filter((example) => /^(?:README\.md|docs\/[^:]+\.md):/.test(example.name)).length,
    ).toBeGreaterThanOrEqual(20);
    expect(examples.some((example) => example.name.startsWith("src/client/glass.ts:"))).toBe(true);
    expect(exampleFile(examples.find((example) => example.name.startsWith("src/client/glass.ts:"))!)).toMatch(
      /src\/client\/__example_glass\.ts_\d+\.ts$/,
    );
  });

  it("names the language of every README code block", () => {
    expect(allReadmeBlocks.filter((block) => block.language === "").map((block) => block.name)).toEqual([]);
  });

  it("writes every TSDoc @example of src/ as a fenced code block", () => {
    const bare = comments
      .filter((comment) =>
        comment.lines.some(
          (line, i) =>
            /^@example\b/.test(line) &&
            !/^\s*```/.test(comment.lines.slice(i + 1).find((next) => next.trim() !== "") ?? ""),
        ),
      )
      .map((comment) => `${comment.file}:${comment.line}`);
    expect(bare).toEqual([]);
  });

  it.each(examples.map((example) => [example.name] as const))("%s compiles under strict", (name) => {
    expect(diagnostics.get(name)).toEqual([]);
  });
});
