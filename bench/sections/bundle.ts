import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { DIST, ROOT } from "../lib/paths.js";
import { bytesBySource } from "../lib/source-map-sizes.js";

/** Sizes of a browser bundle, in bytes. */
export interface BundleSize {
  minifiedBytes: number;
  gzipBytes: number;
}

/** Our bundle next to the MCP SDK client's, and where our bytes come from. */
export interface BundleResult {
  /** dist/browser/glass-sdk.browser.min.js, as `npm run build` made it. */
  glass: BundleSize;
  /**
   * A page importing `{ Glass, httpTransport } from "glass-sdk"`, bundled for the browser by
   * esbuild now, as a user's bundler would: the package resolved by name through its exports'
   * `browser` condition (dist/browser/).
   */
  glassHttpPage: BundleSize;
  /** The same page with `webSocketTransport` instead of `httpTransport`. */
  glassWebSocketPage: BundleSize;
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

/** esbuild's bundle of a page whose whole source is `contents` (resolved from the repository root). */
async function page(contents: string): Promise<BundleSize> {
  const built = await build({ ...BROWSER, stdin: { contents, resolveDir: ROOT, loader: "js" } });
  const inputs = Object.keys(built.metafile.inputs);
  if (!inputs.some((input) => input.startsWith("dist/browser/")))
    throw new Error(
      `the page ${JSON.stringify(contents)} did not resolve glass-sdk to dist/browser/ (inputs: ${inputs.slice(0, 5).join(", ")})`,
    );
  return sizes(built.outputFiles[0]!.contents);
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
    glassHttpPage: await page('export { Glass, httpTransport } from "glass-sdk";\n'),
    glassWebSocketPage: await page('export { Glass, webSocketTransport } from "glass-sdk";\n'),
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
