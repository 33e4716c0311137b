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
   * A page's share of ours when it imports what the MCP SDK bundle holds (`Glass` and
   * `httpTransport`): esbuild bundling that from our bundle, built now. Informational: the targets
   * are checked on the whole bundle.
   */
  glassHttpPage: BundleSize;
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

/** Minified ESM for browsers, as tsup's browser build makes ours. */
const BROWSER = { bundle: true, platform: "browser", format: "esm", minify: true, target: "es2022", write: false, metafile: true, logLevel: "silent", absWorkingDir: ROOT } as const;

/**
 * Bundle sizes (minified, and gzip level 9 via node:zlib): ours as built, and the MCP SDK's client
 * (an entry exporting `Client` and `StreamableHTTPClientTransport`) bundled by esbuild in this run
 * with the same settings; and the part of ours a page connecting over HTTP ships. Where the bytes go: ours from its source map, theirs from esbuild's metafile.
 */
export async function measureBundles(): Promise<BundleResult> {
  const mcp = await build({
    ...BROWSER,
    stdin: {
      contents: 'export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n',
      resolveDir: ROOT,
      loader: "js",
    },
  });
  const page = await build({
    ...BROWSER,
    external: ["ws"],
    stdin: { contents: `export { Glass, httpTransport } from ${JSON.stringify(DIST.browserBundle)};\n`, resolveDir: ROOT, loader: "js" },
  });
  const ours = new Map<string, number>();
  for (const [source, bytes] of bytesBySource(DIST.browserBundle, `${DIST.browserBundle}.map`)) {
    const area = glassArea(source.replace(/^(\.\.\/)+/, ""));
    ours.set(area, (ours.get(area) ?? 0) + bytes);
  }
  return {
    glass: sizes(readFileSync(DIST.browserBundle)),
    glassHttpPage: sizes(page.outputFiles[0]!.contents),
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
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) totals.set(area(input), (totals.get(area(input)) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, bytes]) => ({ area: name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
