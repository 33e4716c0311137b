/**
 * The three browser builds the performance targets name, measured as users get them, and where
 * their bytes come from:
 *
 * - the prebuilt file dist/browser/glass-sdk.browser.min.js (target ≤ 30 KB gzip, and ≤ 1/3 of the
 *   MCP SDK client bundled by esbuild with the same settings);
 * - a page bundled by esbuild for the browser from `import { Glass, httpTransport } from "glass-sdk"`
 *   (≤ 28 KB gzip) and from `import { Glass, webSocketTransport } from "glass-sdk"` (≤ 22 KB gzip,
 *   no ky), resolving `glass-sdk` by package name through the `browser` condition of its exports
 *   (dist/browser/index.js).
 *
 * Sizes are minified bytes and gzip level 9 (node:zlib), in KB of 1000 bytes. Run `npm run build` first, then
 * `npx tsx scripts/bundle-sizes.ts`; `--sources N` adds, for each page built from src/ with the
 * browser build's settings (the compact validators swapped in, as tsup.config.ts does), the N
 * modules that cost the most gzip bytes: what the page loses in gzip without each module's output
 * (leave one out), next to its minified bytes.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions, type Plugin } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PREBUILT = resolve(ROOT, "dist/browser/glass-sdk.browser.min.js");
const COMPILED_VALIDATORS = resolve(ROOT, "generated/validators/index.js");
const COMPACT_VALIDATORS = resolve(ROOT, "generated/validators-compact/index.ts");

/** A page bundled for the browser, minified, as the targets measure it. The tsconfig's paths (which map `glass-sdk` to src/) are not used: the package resolves by name. */
const PAGE: BuildOptions = { bundle: true, platform: "browser", format: "esm", minify: true, target: "es2022", write: false, logLevel: "error", absWorkingDir: ROOT, tsconfigRaw: "{}" };

const PAGES = [
  { name: "page: Glass + httpTransport", imports: "Glass, httpTransport", limit: 28_000 },
  { name: "page: Glass + webSocketTransport", imports: "Glass, webSocketTransport", limit: 22_000 },
];

const gzipBytes = (bytes: Uint8Array | string): number => gzipSync(bytes, { level: 9 }).length;
/** KB as the targets count them: 1000 bytes. */
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;

/** tsup.config.ts's swap of the compiled validators for the compact ones, for builds from src/. */
const compactValidators: Plugin = {
  name: "compact-validators",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /(^|\/)generated\/validators\/index\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === COMPILED_VALIDATORS ? { path: COMPACT_VALIDATORS } : undefined,
    );
  },
};

async function pageBytes(imports: string): Promise<{ text: string; modules: string[] }> {
  const result = await build({ ...PAGE, metafile: true, stdin: { contents: `export { ${imports} } from "glass-sdk";\n`, resolveDir: ROOT, loader: "js" } });
  const inputs = Object.values(result.metafile!.outputs)[0]!.inputs;
  return { text: result.outputFiles![0]!.text, modules: Object.keys(inputs).filter((input) => inputs[input]!.bytesInOutput > 0) };
}

async function mcpSdkBytes(): Promise<string> {
  const contents = 'export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n';
  const result = await build({ ...PAGE, stdin: { contents, resolveDir: ROOT, loader: "js" } });
  return result.outputFiles![0]!.text;
}

/** The owner (source file) of every character of a minified file, from its source map. */
function owners(text: string, map: { sources: string[]; mappings: string }): string[] {
  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const lines = text.split("\n");
  const owner: string[] = [];
  let source = 0;
  map.mappings.split(";").forEach((segments, line) => {
    const length = (lines[line] ?? "").length + (line < lines.length - 1 ? 1 : 0);
    const row: string[] = new Array(length).fill("(unmapped)");
    let column = 0;
    const starts: [number, string][] = [];
    for (const segment of segments === "" ? [] : segments.split(",")) {
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = DIGITS.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length >= 4) source += fields[1]!;
      starts.push([column, fields.length >= 4 ? map.sources[source]! : "(unmapped)"]);
    }
    starts.forEach(([start, name], i) => row.fill(name, start, starts[i + 1]?.[0] ?? length));
    owner.push(...row);
  });
  return owner;
}

/** The modules of a page built from src/ that cost the most gzip bytes (leave one out). */
async function sourceRanking(imports: string, top: number): Promise<void> {
  const result = await build({
    ...PAGE,
    tsconfigRaw: undefined,
    external: ["ws"],
    plugins: [compactValidators],
    sourcemap: "external",
    outfile: resolve(ROOT, "page.js"),
    stdin: { contents: `export { ${imports} } from "./src/index.ts";\n`, resolveDir: ROOT, loader: "ts" },
  });
  const text = result.outputFiles!.find((file) => file.path.endsWith(".js"))!.text;
  const map = JSON.parse(result.outputFiles!.find((file) => file.path.endsWith(".map"))!.text) as { sources: string[]; mappings: string };
  const owner = owners(text, map);
  const total = gzipBytes(text);
  console.log(`\n${imports}, from src/: ${text.length} B minified, ${total} B gzip`);
  const rows = [...new Set(owner)].map((source) => {
    let kept = "";
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      if (owner[i] === source) bytes++;
      else kept += text[i];
    }
    return { source: source.replace(/^(\.\.\/)+/, "").replace(/^.*?\/(src|generated|node_modules)\//, "$1/"), bytes, gzip: total - gzipBytes(kept) };
  });
  console.log("  gzip B   min B  module");
  for (const row of rows.sort((a, b) => b.gzip - a.gzip).slice(0, top)) console.log(`${String(row.gzip).padStart(8)}${String(row.bytes).padStart(8)}  ${row.source}`);
}

const prebuilt = readFileSync(PREBUILT);
const mcp = await mcpSdkBytes();
const rows = [{ name: "prebuilt glass-sdk.browser.min.js", minified: prebuilt.length, gzip: gzipBytes(prebuilt), limit: Math.min(30_000, Math.floor(gzipBytes(mcp) / 3)), note: "" }];
for (const page of PAGES) {
  const { text, modules } = await pageBytes(page.imports);
  rows.push({ name: page.name, minified: text.length, gzip: gzipBytes(text), limit: page.limit, note: modules.some((m) => m.includes("node_modules/ky/")) ? "ky in it" : "no ky" });
}
console.log(`MCP SDK client (Client + StreamableHTTPClientTransport): ${mcp.length} B minified, ${gzipBytes(mcp)} B gzip (a third: ${kb(gzipBytes(mcp) / 3)})\n`);
console.log("build                              minified  gzip                limit  pass");
for (const row of rows) {
  console.log(`${row.name.padEnd(34)} ${kb(row.minified).padStart(9)} ${kb(row.gzip).padStart(9)} (${row.gzip} B) ${kb(row.limit).padStart(8)}  ${row.gzip <= row.limit ? "yes" : "no"}  ${row.note}`);
}
const sources = process.argv.indexOf("--sources");
if (sources !== -1) {
  const top = Number(process.argv[sources + 1] ?? 25) || 25;
  for (const page of PAGES) await sourceRanking(page.imports, top);
}
