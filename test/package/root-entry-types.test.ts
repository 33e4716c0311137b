import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * `glass-sdk` lists the schemas' named types one by one (no `export type *`), so a type that a
 * schema change adds to generated/types/index.ts must be added to src/index.ts as well: this test
 * names the ones that are missing.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ROOT_ENTRY = `${ROOT}src/index.ts`;
const GENERATED_TYPES = `${ROOT}generated/types/index.ts`;

/** The names a module exports, as the compiler sees them. */
function exportedNames(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not in the program`);
  const symbol = checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`${file} is not a module`);
  return checker.getExportsOfModule(symbol).map((exported) => exported.name);
}

describe("the root entry point glass-sdk", () => {
  const program = ts.createProgram([ROOT_ENTRY, GENERATED_TYPES], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });

  it("exports every named type of the schemas (generated/types/index.ts) by name", () => {
    const generated = exportedNames(program, GENERATED_TYPES);
    expect(generated.length).toBeGreaterThan(300);
    const root = new Set(exportedNames(program, ROOT_ENTRY));
    expect(generated.filter((name) => !root.has(name))).toEqual([]);
  });

  it("exports at most 25 runtime names", async () => {
    const runtime = Object.keys(await import("glass-sdk"));
    expect(runtime.length).toBeGreaterThan(0);
    expect(runtime.length).toBeLessThanOrEqual(25);
  });
});
