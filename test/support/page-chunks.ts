import type { Metafile } from "esbuild";

/**
 * A bundle's output file and every file it imports statically, transitively, by esbuild's metafile:
 * what a browser fetches before the file runs (files it imports with `import()` come later).
 */
export function staticImportClosure(outputs: Metafile["outputs"], start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of outputs[file]!.imports)
      if (imported.kind === "import-statement") pending.push(imported.path);
  }
  return seen;
}
