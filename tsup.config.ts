import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";

const COMPILED_VALIDATORS = fileURLToPath(new URL("./generated/validators/index.js", import.meta.url));
const COMPACT_VALIDATORS = fileURLToPath(new URL("./generated/validators-compact/index.ts", import.meta.url));

/**
 * For the browser builds only (the prebuilt file and what bundlers get): every import of the compiled validators (generated/validators/,
 * fast but large) gets the compact ones instead (generated/validators-compact/: the same exports,
 * the same verdicts and issues, one small interpreter and its program).
 */
const compactValidators: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "compact-validators",
  setup(build) {
    build.onResolve({ filter: /(^|\/)generated\/validators\/index\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === COMPILED_VALIDATORS ? { path: COMPACT_VALIDATORS } : undefined,
    );
  },
};

/** The entry points of the package, built as ESM and as CJS (see below). */
const ENTRIES = {
  index: "src/index.ts",
  protocol: "src/protocol.ts",
  node: "src/node/index.ts",
  testing: "src/testing/index.ts",
  "testing/msw": "src/testing/msw/index.ts",
  "testing/node": "src/testing/node/index.ts",
};

/** What the ESM and the CJS builds of the entry points share. */
const entryBuild: Options = {
  entry: ENTRIES,
  dts: true,
  sourcemap: true,
  splitting: true,
  target: "es2022",
  platform: "neutral",
  external: [/^node:/],
  // The mock daemon finds the package's fixture from import.meta.url, which CJS needs shimmed.
  shims: true,
  treeshake: true,
};

/**
 * Builds of glass-sdk:
 * - every entry point as ESM + CJS + .d.ts, each format built together so its output shares one
 *   copy of the common code: `glass-sdk` and `glass-sdk/protocol` (no `node:` imports anywhere
 *   below them), `glass-sdk/node`, `glass-sdk/testing`, `glass-sdk/testing/msw` (`msw`, a peer
 *   dependency, stays external) and `glass-sdk/testing/node`. The ESM build imports ky (a
 *   dependency); ky is ESM-only, so the CJS build carries its own copy (`require` of ky fails);
 * - `glass-sdk` for the browser: the prebuilt minified file (dist/browser/glass-sdk.browser.min.js)
 *   and the ESM file bundlers resolve through the `browser` condition (dist/browser/index.js), both
 *   with the compact validators;
 * - the `glass-sdk` command line (ESM; its shebang comes from src/cli/main.ts).
 * `npm run build` empties dist/ first (prebuild), since the builds run side by side.
 */
export default defineConfig([
  { ...entryBuild, format: ["esm"] },
  { ...entryBuild, format: ["cjs"], noExternal: ["ky"] },
  {
    // The browser bundle: one minified ESM file of `glass-sdk` with everything it needs (ky
    // included); `ws` is only loaded on Node without a global WebSocket, so it stays an external
    // import. It validates with the compact validators (see compactValidators above).
    entry: { "glass-sdk.browser": "src/index.ts" },
    outDir: "dist/browser",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: true,
    treeshake: true,
    external: ["ws"],
    noExternal: ["ky"],
    // ky's license goes in a file beside the bundle, which the bundle's last comment names.
    esbuildOptions(options) {
      options.legalComments = "linked";
    },
    outExtension: () => ({ js: ".min.js" }),
    esbuildPlugins: [compactValidators],
  },
  {
    // What bundlers get for `import … from "glass-sdk"` when they build for the browser (the
    // `browser` condition of package.json's "." export): the same ESM entry, not minified (the
    // bundler minifies), validating with the compact validators like the prebuilt file above.
    entry: { index: "src/index.ts" },
    outDir: "dist/browser",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    sourcemap: true,
    treeshake: true,
    external: ["ws"],
    esbuildPlugins: [compactValidators],
  },
  {
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    platform: "node",
    external: [/^node:/],
    treeshake: true,
  },
]);
