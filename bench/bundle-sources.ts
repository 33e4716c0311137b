/**
 * Where a browser page's gzip bytes go: the three builds the targets name (as `npm run bench`
 * measures them, bench/sections/bundle.ts), then, for each page built from src/ with the browser
 * build's settings (the compact validators swapped in, as tsup.config.ts does), the modules that
 * cost the most gzip bytes — what the page loses in gzip without each module's output (leave one
 * out) — next to their minified bytes, and what the page would weigh with no validation at all
 * (every validator stubbed to accept: the floor that code other than validation sets). Run
 * `npm run build` first, then `npx tsx bench/bundle-sources.ts [TOP]` (default 25).
 */
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { ROOT } from "./lib/paths.js";
import { forEachOwnedStretch, type SourceMap } from "./lib/source-map-sizes.js";
import { measureBundles } from "./sections/bundle.js";

const COMPILED_VALIDATORS = resolve(ROOT, "generated/validators/index.js");
const COMPACT_VALIDATORS = resolve(ROOT, "generated/validators-compact/index.ts");
const gzipBytes = (text: string): number => gzipSync(text, { level: 9 }).length;

/** tsup.config.ts's swap of the compiled validators for the compact ones, for builds from src/. */
const compactValidators: Plugin = {
  name: "compact-validators",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /(^|\/)generated\/validators\/index\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === COMPILED_VALIDATORS ? { path: COMPACT_VALIDATORS } : undefined,
    );
  },
};

/** For the floor: the validators swapped for ones that accept everything, with the same exports. */
const noValidators: Plugin = {
  name: "no-validators",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /(^|\/)generated\/validators\/index\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === COMPILED_VALIDATORS
        ? { path: "stub", namespace: "no-validators" }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: "no-validators" }, async () => {
      const names = Object.keys(await import(COMPILED_VALIDATORS));
      return {
        loader: "js",
        contents: names
          .map((name) => `export const ${name} = ${name.endsWith("Validators") ? "{}" : "() => true"};`)
          .join("\n"),
      };
    });
  },
};

/** A page exporting `imports` from src/, built with the browser build's settings. */
function buildPage(imports: string, validators: Plugin) {
  return build({
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    target: "es2022",
    write: false,
    logLevel: "error",
    absWorkingDir: ROOT,
    external: ["ws"],
    plugins: [validators],
    sourcemap: "external",
    outfile: resolve(ROOT, "page.js"),
    stdin: { contents: `export { ${imports} } from "./src/index.ts";\n`, resolveDir: ROOT, loader: "ts" },
  });
}

/** The modules of a page built from src/ that cost the most gzip bytes (leave one out), and the page without validation. */
async function sourceRanking(imports: string, top: number): Promise<void> {
  const result = await buildPage(imports, compactValidators);
  const text = result.outputFiles.find((file) => file.path.endsWith(".js"))!.text;
  const map = JSON.parse(result.outputFiles.find((file) => file.path.endsWith(".map"))!.text) as SourceMap;
  const stretches = new Map<string, [number, number][]>();
  forEachOwnedStretch(text, map, (source, start, end) => {
    if (end > start) stretches.set(source, [...(stretches.get(source) ?? []), [start, end]]);
  });
  const total = gzipBytes(text);
  const floor = (await buildPage(imports, noValidators)).outputFiles.find((file) => file.path.endsWith(".js"))!.text;
  console.log(
    `\n${imports}, from src/: ${text.length} B minified, ${total} B gzip; without validation (every validator stubbed to accept): ${floor.length} B minified, ${gzipBytes(floor)} B gzip`,
  );
  const rows = [...stretches].map(([source, owned]) => {
    let kept = "";
    let from = 0;
    for (const [start, end] of owned) {
      kept += text.slice(from, start);
      from = end;
    }
    kept += text.slice(from);
    const name = source.replace(/^(\.\.\/)+/, "").replace(/^.*?\/(src|generated|node_modules)\//, "$1/");
    return { name, bytes: text.length - kept.length, gzip: total - gzipBytes(kept) };
  });
  console.log("  gzip B   min B  module");
  for (const row of rows.sort((a, b) => b.gzip - a.gzip).slice(0, top))
    console.log(`${String(row.gzip).padStart(8)}${String(row.bytes).padStart(8)}  ${row.name}`);
}

const bundles = await measureBundles();
console.log(
  "build (gzip -9 bytes): prebuilt",
  bundles.glass.gzipBytes,
  "· page Glass+httpTransport",
  bundles.glassHttpPage.gzipBytes,
  "· page Glass+webSocketTransport",
  bundles.glassWebSocketPage.gzipBytes,
  "· MCP SDK client",
  bundles.mcpSdk.gzipBytes,
);
const top = Number(process.argv[2] ?? 25) || 25;
for (const imports of ["Glass, httpTransport", "Glass, webSocketTransport"]) await sourceRanking(imports, top);
