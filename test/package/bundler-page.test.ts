import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { staticImportClosure } from "../support/page-chunks.js";

/**
 * A page a user bundles for the browser from `import { Glass, httpTransport } from "glass-sdk"`
 * gets the package's `browser` build (compact validators, each operation's in a module the client
 * imports on the operation's first call) through the export conditions. Split into chunks, as
 * bundlers do, it loads less before its first call than the same page built on the prebuilt browser
 * file, and its first `observe` fetches that operation's validators alone. Sizes are bytes of
 * esbuild's minified output, gzipped (each file on its own, as a browser fetches them):
 * deterministic for one build of the package.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PREBUILT = join(ROOT, "dist", "browser", "glass-sdk.browser.min.js");
const BUNDLER_BUILD = join(ROOT, "dist", "browser", "index.js");

const page = (from: string, transport: "httpTransport" | "webSocketTransport", url: string): string => `
import { Glass, ${transport} } from ${JSON.stringify(from)};
const glass = await Glass.connect(${transport}({ url: ${JSON.stringify(url)}, token: "page-token-0123456789" }));
const page = await glass.browser.observe({ level: "summary" });
document.title = String(page.revision);
`;

const project = mkdtempSync(join(tmpdir(), "glass-bundler-page-"));
mkdirSync(join(project, "node_modules"));
symlinkSync(ROOT, join(project, "node_modules", "glass-sdk"), "dir");
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** What a bundled page fetches: before its first call, and on the first call of `browser.observe`. */
interface PageFetches {
  /** Minified and gzip bytes of the entry and every file it imports statically. */
  initial: { minified: number; gzip: number };
  /** Gzip bytes of the files the first `observe` adds (its validators). */
  firstObserve: number;
  inputs: string[];
  /** The text of the files loaded before the first call. */
  initialText: string;
  /** The text of the files the first call of `operation` adds. */
  firstCallText(operation: string): string;
}

/** Bundles `source` as a user would for the browser (chunks split, or in one file); what the page fetches. */
async function bundle(name: string, source: string, splitting = true): Promise<PageFetches> {
  const entry = join(project, `${name}.js`);
  writeFileSync(entry, source);
  const result = await build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    splitting,
    outdir: join(project, `out-${name}`),
    write: false,
    metafile: true,
    // Only Node without a global WebSocket loads `ws`; a page never does.
    external: ["ws"],
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const sizeOf = new Map(
    result.outputFiles.map((file) => [
      relative(project, file.path),
      { minified: file.contents.byteLength, gzip: gzipSync(file.contents, { level: 9 }).byteLength },
    ]),
  );
  const closure = (start: string): Set<string> => staticImportClosure(outputs, start);
  // The page's own entry: each chunk loaded by import() is an entry point of the metafile too.
  const entryFile = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === `${name}.js`);
  if (entryFile === undefined) throw new Error(`esbuild's output has no entry for ${name}.js`);
  const initial = closure(entryFile);
  const observeChunk = Object.keys(outputs).find((file) => /\/browser\.observe-[^/]*\.js$/.test(file));
  const firstObserve =
    observeChunk === undefined
      ? 0
      : [...closure(observeChunk)]
          .filter((file) => !initial.has(file))
          .reduce((sum, file) => sum + sizeOf.get(file)!.gzip, 0);
  const sum = (key: "minified" | "gzip") => [...initial].reduce((total, file) => total + sizeOf.get(file)![key], 0);
  const textOf = new Map(result.outputFiles.map((file) => [relative(project, file.path), file.text]));
  const texts = (files: Iterable<string>) => [...files].map((file) => textOf.get(file)!).join("\n");
  return {
    initial: { minified: sum("minified"), gzip: sum("gzip") },
    firstObserve,
    inputs: Object.keys(result.metafile.inputs),
    initialText: texts(initial),
    firstCallText: (operation) => {
      const chunk = Object.keys(outputs).find((file) => file.includes(`/${operation}-`));
      if (chunk === undefined) throw new Error(`no chunk for the validators of ${operation}`);
      return texts([...closure(chunk)].filter((file) => !initial.has(file)));
    },
  };
}

describe.skipIf(!existsSync(PREBUILT) || !existsSync(BUNDLER_BUILD))(
  "a page bundled from glass-sdk for the browser (run `npm run build` first)",
  () => {
    it("resolves glass-sdk to the browser build, whose validators are the compact ones", async () => {
      const { inputs } = await bundle("resolves", page("glass-sdk", "httpTransport", "http://127.0.0.1:8787/mcp"));
      expect(inputs.some((input) => input.endsWith("dist/browser/index.js"))).toBe(true);
      expect(inputs.filter((input) => /dist\/(index|chunk-[^/]*)\.js$/.test(input))).toEqual([]);
    });

    for (const transport of ["httpTransport", "webSocketTransport"] as const) {
      const url = transport === "httpTransport" ? "http://127.0.0.1:8787/mcp" : "ws://127.0.0.1:8787/mcp";
      it(`with ${transport}, loads less before its first call than the same page on the prebuilt file, and its first observe fetches that operation's validators alone`, async () => {
        const bundled = await bundle(`bundled-${transport}`, page("glass-sdk", transport, url));
        const prebuilt = await bundle(`prebuilt-${transport}`, page(PREBUILT, transport, url));
        const sizes = `bundled ${bundled.initial.minified} B minified / ${bundled.initial.gzip} B gzip before the first call; prebuilt ${prebuilt.initial.minified} / ${prebuilt.initial.gzip}`;
        expect(bundled.initial.gzip, sizes).toBeLessThan(prebuilt.initial.gzip);
        expect(bundled.initial.minified, sizes).toBeLessThan(prebuilt.initial.minified);
        expect(bundled.firstObserve).toBeGreaterThan(0);
        expect(bundled.firstObserve).toBeLessThan(3_000);
        expect(prebuilt.firstObserve).toBe(0);
      });

      it(`with ${transport}, loads the Web IR and task rules only with the first call of an operation that checks them`, async () => {
        // esbuild, splitting a page, loads up front every module that the entry and a chunk both
        // reach, used or not; the page's entry reaches the rules through validatePayload.
        const bundled = await bundle(`rules-${transport}`, page("glass-sdk", transport, url));
        const webIrRule = "Glass Web IR must contain exactly one page entity";
        const taskRule = "form.submit requires at least one bounded postcondition";
        expect(bundled.initialText).not.toContain(webIrRule);
        expect(bundled.initialText).not.toContain(taskRule);
        expect(bundled.firstCallText("webIr.validate")).toContain(webIrRule);
        expect(bundled.firstCallText("task.validate")).toContain(taskRule);
        expect(bundled.firstCallText("browser.observe")).not.toContain(webIrRule);
      });

      it(`with ${transport}, in one file (no chunks), ships at most 25 % more than the same page on the prebuilt file`, async () => {
        // Without splitting, a bundler inlines every operation's validators, each with its own copy
        // of the schemas it shares with others.
        const bundled = await bundle(`one-file-${transport}`, page("glass-sdk", transport, url), false);
        const prebuilt = await bundle(`one-file-prebuilt-${transport}`, page(PREBUILT, transport, url), false);
        expect(
          bundled.initial.gzip,
          `${bundled.initial.gzip} B gzip; prebuilt ${prebuilt.initial.gzip}`,
        ).toBeLessThanOrEqual(prebuilt.initial.gzip * 1.25);
      });
    }
  },
);
