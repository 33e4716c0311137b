import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { build as viteBuild, type Rollup } from "vite";

import { staticImportClosure } from "../../test/support/page-chunks.js";
import { DIST, ROOT } from "../lib/paths.js";
import { bytesBySource } from "../lib/source-map-sizes.js";

type RollupOutput = Rollup.RollupOutput;

/** Sizes of a browser bundle, in bytes. */
export interface BundleSize {
  minifiedBytes: number;
  gzipBytes: number;
}

/**
 * A page split into chunks as a bundler splits it: what it loads before its first call (its entry
 * and every chunk that imports statically; minified bytes and the sum of each file's gzip, as a
 * browser fetches them), and what each operation's first call adds (its validators' chunk and the
 * chunks only it imports, gzip).
 */
export interface PageSize extends BundleSize {
  /** Files loaded before the first call. */
  files: number;
  /** Gzip bytes each operation's first call fetches, by operation. */
  onFirstCall: Record<string, number>;
}

/** Our bundle next to the MCP SDK client's, and where our bytes come from. */
export interface BundleResult {
  /** dist/browser/glass-sdk.browser.min.js, as `npm run build` made it. */
  glass: BundleSize;
  /**
   * A page that connects with `Glass` + `httpTransport` and calls three browser operations
   * (PAGE_OPERATIONS), bundled for the browser by esbuild now, as a user's bundler would: the
   * package resolved by name through its exports' `browser` condition (dist/browser/), code
   * splitting on.
   */
  glassHttpPage: PageSize;
  /** The same page with `webSocketTransport` instead of `httpTransport`. */
  glassWebSocketPage: PageSize;
  /**
   * The same two pages built by Vite (its production build, defaults bar the `browser` condition):
   * what they load before their first call, to show that the split holds with another bundler
   * (Rollup underneath).
   */
  viteHttpPage: BundleSize & { files: number };
  viteWebSocketPage: BundleSize & { files: number };
  /** esbuild bundle of the MCP SDK's Client + StreamableHTTPClientTransport, built now. */
  mcpSdk: BundleSize;
  /** Our minified bytes by source area, read from the bundle's source map. */
  glassComposition: { area: string; bytes: number }[];
  /** The MCP SDK bundle's minified bytes by package. */
  mcpSdkComposition: { area: string; bytes: number }[];
}

function sizes(bytes: Uint8Array): BundleSize {
  return { minifiedBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

/**
 * Minified ESM for browsers, as tsup's browser build makes ours. `tsconfigRaw` keeps esbuild off
 * the repository's tsconfig.json, whose `paths` would map `glass-sdk` to src/: the package is
 * resolved by name, through its `exports`, as in a user's project.
 */
const BROWSER = {
  bundle: true,
  platform: "browser",
  format: "esm",
  minify: true,
  target: "es2022",
  write: false,
  metafile: true,
  logLevel: "silent",
  absWorkingDir: ROOT,
  tsconfigRaw: "{}",
} as const;

/** The operations the measured pages call, as the example page does (examples/browser-page/app.ts). */
export const PAGE_OPERATIONS = ["browser.observe", "browser.findTarget", "browser.type"] as const;

/** A page's source: connect with `transport`, then observe, find the Email field and type into it. */
function pageSource(transport: "httpTransport" | "webSocketTransport"): string {
  return `import { Glass, ${transport} } from "glass-sdk";
const glass = await Glass.connect(${transport}({ url: location.href, token: "token" }));
const observed = await glass.browser.observe({ level: "interactive" });
const found = await glass.browser.findTarget({ schemaVersion: 1, intent: "Email", action: "type", resolutionPolicy: "reportOnly", expectedRevision: observed.revision });
await glass.browser.type({ target: found.candidates[0].reference, text: "ada@example.com", expectedRevision: observed.revision });
`;
}

/** esbuild's bundle of a page whose whole source is `contents` (resolved from the repository root), split into chunks. */
async function page(contents: string): Promise<PageSize> {
  const built = await build({
    ...BROWSER,
    splitting: true,
    outdir: "page",
    stdin: { contents, resolveDir: ROOT, loader: "js" },
  });
  const inputs = Object.keys(built.metafile.inputs);
  if (!inputs.some((input) => input.startsWith("dist/browser/")))
    throw new Error(
      `the page ${JSON.stringify(contents)} did not resolve glass-sdk to dist/browser/ (inputs: ${inputs.slice(0, 5).join(", ")})`,
    );
  const outputs = built.metafile.outputs;
  const files = new Map(built.outputFiles.map((file) => [relative(ROOT, file.path), sizes(file.contents)]));
  const closure = (start: string): Set<string> => staticImportClosure(outputs, start);
  const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === "<stdin>")!;
  const initial = closure(entry);
  const total = (chosen: Iterable<string>, key: keyof BundleSize): number =>
    [...chosen].reduce((sum, file) => sum + files.get(file)![key], 0);
  const onFirstCall: Record<string, number> = {};
  for (const operation of PAGE_OPERATIONS) {
    const chunk = Object.keys(outputs).find((file) => file.startsWith(`page/${operation}-`));
    if (chunk === undefined) throw new Error(`the page has no chunk for the validators of ${operation}`);
    onFirstCall[operation] = total(
      [...closure(chunk)].filter((file) => !initial.has(file)),
      "gzipBytes",
    );
  }
  return {
    minifiedBytes: total(initial, "minifiedBytes"),
    gzipBytes: total(initial, "gzipBytes"),
    files: initial.size,
    onFirstCall,
  };
}

/** Vite's production build of a page whose whole source is `contents`: what it loads before its first call. */
async function vitePage(contents: string): Promise<BundleSize & { files: number }> {
  const dir = mkdtempSync(join(ROOT, "bench/.vite-page-"));
  try {
    writeFileSync(join(dir, "page.js"), contents);
    const built = await viteBuild({
      root: dir,
      configFile: false,
      logLevel: "silent",
      resolve: { conditions: ["browser"] },
      build: { write: false, target: "es2022", modulePreload: false, rollupOptions: { input: join(dir, "page.js") } },
    });
    const output = (Array.isArray(built) ? built[0]! : (built as RollupOutput)).output;
    const chunks = new Map(output.flatMap((file) => (file.type === "chunk" ? [[file.fileName, file] as const] : [])));
    const initial = new Set<string>();
    const visit = (name: string): void => {
      if (initial.has(name)) return;
      initial.add(name);
      for (const imported of chunks.get(name)!.imports) visit(imported);
    };
    visit([...chunks.values()].find((chunk) => chunk.isEntry)!.fileName);
    let minifiedBytes = 0;
    let gzipBytes = 0;
    for (const name of initial) {
      const size = sizes(new TextEncoder().encode(chunks.get(name)!.code));
      minifiedBytes += size.minifiedBytes;
      gzipBytes += size.gzipBytes;
    }
    return { minifiedBytes, gzipBytes, files: initial.size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Bundle sizes (minified, and gzip level 9 via node:zlib): ours as built, and the MCP SDK's client
 * (an entry exporting `Client` and `StreamableHTTPClientTransport`) bundled by esbuild in this run
 * with the same settings; and two pages importing `glass-sdk` by name (Glass with httpTransport,
 * Glass with webSocketTransport). Where the bytes go: ours from its source map, theirs from
 * esbuild's metafile.
 */
export async function measureBundles(): Promise<BundleResult> {
  const mcp = await build({
    ...BROWSER,
    stdin: {
      contents:
        'export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n',
      resolveDir: ROOT,
      loader: "js",
    },
  });
  const ours = new Map<string, number>();
  for (const [source, bytes] of bytesBySource(DIST.browserBundle, `${DIST.browserBundle}.map`)) {
    const area = glassArea(source.replace(/^(\.\.\/)+/, ""));
    ours.set(area, (ours.get(area) ?? 0) + bytes);
  }
  return {
    glass: sizes(readFileSync(DIST.browserBundle)),
    glassHttpPage: await page(pageSource("httpTransport")),
    glassWebSocketPage: await page(pageSource("webSocketTransport")),
    viteHttpPage: await vitePage(pageSource("httpTransport")),
    viteWebSocketPage: await vitePage(pageSource("webSocketTransport")),
    mcpSdk: sizes(mcp.outputFiles[0]!.contents),
    glassComposition: [...ours].map(([area, bytes]) => ({ area, bytes })).sort((a, b) => b.bytes - a.bytes),
    mcpSdkComposition: composition(mcp.metafile, packageArea),
  };
}

/** Our source areas: generated/ and src/ by their first directory (or file), packages by name. */
function glassArea(input: string): string {
  if (input.startsWith("generated/") || input.startsWith("src/")) return input.split("/").slice(0, 2).join("/");
  return packageArea(input);
}

/** The npm package an input belongs to, else its top directory. */
function packageArea(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match === null ? input.split("/")[0]! : match[1]!;
}

function composition(metafile: Metafile, area: (input: string) => string): { area: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      totals.set(area(input), (totals.get(area(input)) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, bytes]) => ({ area: name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
