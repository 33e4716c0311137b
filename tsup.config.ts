import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";
import { defineConfig, type Options } from "tsup";

const generated = (path: string): string => fileURLToPath(new URL(`./generated/${path}`, import.meta.url));

/**
 * For the browser builds: modules of the compiled validators (generated/validators/: fast but large)
 * swapped for the compact back end (generated/validators-compact/: the same exports, verdicts and
 * issues, one small interpreter and its programs), as `swaps` maps them.
 */
function compactValidators(swaps: Record<string, string>): NonNullable<Options["esbuildPlugins"]>[number] {
  const byPath = new Map(Object.entries(swaps).map(([from, to]) => [generated(from), generated(to)]));
  return {
    name: "compact-validators",
    setup(build) {
      build.onResolve({ filter: /(^|\/)(index|core|by-operation)\.js$/ }, (args) => {
        const swapped = byPath.get(resolve(args.resolveDir, args.path));
        return swapped === undefined ? undefined : { path: swapped };
      });
    },
  };
}

/**
 * For the build bundlers take: the validation rules (src/validation/rules/) that operations' own
 * programs import, as copies of their own. A bundler splitting a page into chunks puts a module that
 * both the page's entry and an operation's chunk reach into a chunk the entry imports; esbuild does
 * so even when the entry uses none of it (with several entry points it ignores `sideEffects`). The
 * entry reaches the rules through the whole-catalog program (`validatePayload`), where they are
 * dropped as unused (the rule modules' top levels are free of side effects: their sets are marked
 * `@__PURE__`); the copies make the operations' chunks the only ones that load them.
 */
const OPERATION_PROGRAMS = generated("validators-compact/operations/");
const RULE_COPY = "operation-rule";
const operationRuleCopies: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "operation-rule-copies",
  setup(build) {
    build.onResolve({ filter: /\/validation\/rules\/[\w-]+\.js$/ }, (args) =>
      args.importer.startsWith(OPERATION_PROGRAMS)
        ? { path: resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts"), namespace: RULE_COPY }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: RULE_COPY }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      loader: "ts",
      resolveDir: dirname(args.path),
    }));
  },
};

/** The whole catalog in one program: for the prebuilt file, which carries every operation's validators. */
const WHOLE_CATALOG = { "validators/index.js": "validators-compact/index.ts" };

/**
 * For the build bundlers take: the client's own validators in a program of their own, and each
 * operation's in a module the client imports on the operation's first call (a chunk of its own), so
 * a page carries the validators of the operations it calls. The whole program stays for what uses
 * the tables (`validatePayload`, `validateResult`).
 */
const BY_OPERATION = {
  ...WHOLE_CATALOG,
  "validators/core.js": "validators-compact/core.ts",
  "validators/by-operation.js": "validators-compact/by-operation.ts",
};

type TsupPlugin = NonNullable<Options["plugins"]>[number];

/** A module of the compiled validators, as esbuild names it above its code in a file it did not minify. */
const VALIDATOR_MODULE = /^\/\/ generated\/validators\//m;

/**
 * For the Node builds (ESM and CJS), applied to each file once it is written: a file holding the
 * compiled validators (generated code: most of the package's bytes) is minified, local names
 * included, though its functions keep their `name` (stack traces still name them); with
 * `everyFile`, every other file loses its whitespace and comments but keeps its names.
 * Comments marked as legal (a bundled dependency's license) stay.
 */
function minifyNodeBuild({ everyFile }: { everyFile: boolean }): TsupPlugin {
  return {
    name: "minify-node-build",
    async buildEnd({ writtenFiles }) {
      const sizes: string[] = [];
      for (const { name } of writtenFiles) {
        if (!/\.c?js$/.test(name)) continue;
        const code = await readFile(name, "utf8");
        const validators = VALIDATOR_MODULE.test(code);
        if (!validators && !everyFile) continue;
        const minified = await transform(code, {
          loader: "js",
          format: name.endsWith(".cjs") ? "cjs" : "esm",
          target: "es2022",
          legalComments: "inline",
          ...(validators ? { minify: true, keepNames: true } : { minifyWhitespace: true, minifySyntax: true }),
        });
        await writeFile(name, minified.code);
        if (validators) sizes.push(`${name}: ${(minified.code.length / 1024).toFixed(2)} KB`);
      }
      const others = everyFile ? "; the other files without whitespace" : "";
      this.logger.info(
        this.format.toUpperCase(),
        `Minified the compiled validators (${sizes.join(", ")})${others}. The sizes listed next are from before.`,
      );
    },
  };
}

/**
 * For the prebuilt browser file: its source map stays in dist/ (the bundle benchmark reads it) but is
 * not published (package.json "files"), so the file does not point to it.
 */
const unlinkSourceMap: TsupPlugin = {
  name: "unlink-source-map",
  async buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!name.endsWith(".js")) continue;
      const code = await readFile(name, "utf8");
      await writeFile(name, code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"));
    }
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

/**
 * What the ESM and the CJS builds of the entry points share. No source maps: the published files
 * are the readable output, bar the minified ones (see minifyNodeBuild). esbuild's metafile
 * (dist/metafile-esm.json, dist/metafile-cjs.json: which sources went into which file) is for the
 * package's own tests and is not published.
 */
const entryBuild: Options = {
  entry: ENTRIES,
  dts: { entry: ENTRIES },
  metafile: true,
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
 *   dependency); ky is ESM-only, so the CJS build carries its own copy (`require` of ky fails).
 *   The files holding the compiled validators are minified in both formats, and the CJS build's
 *   other files lose their whitespace; the ESM build's other files stay as esbuild writes them;
 * - `glass-sdk` for the browser: the prebuilt minified file (dist/browser/glass-sdk.browser.min.js)
 *   and the ESM file bundlers resolve through the `browser` condition (dist/browser/index.js), both
 *   with the compact validators;
 * - the `glass-sdk` command line (dist/cli.js, its shebang from src/cli/main.ts), an entry of the ESM
 *   build, so that it imports the chunks the entry points share instead of carrying its own copy.
 * `npm run build` empties dist/ first (prebuild), since the builds run side by side.
 */
export default defineConfig([
  {
    ...entryBuild,
    entry: { ...ENTRIES, cli: "src/cli/main.ts" },
    format: ["esm"],
    plugins: [minifyNodeBuild({ everyFile: false })],
  },
  { ...entryBuild, format: ["cjs"], noExternal: ["ky"], plugins: [minifyNodeBuild({ everyFile: true })] },
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
    esbuildPlugins: [compactValidators(WHOLE_CATALOG)],
    plugins: [unlinkSourceMap],
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
    treeshake: true,
    external: ["ws"],
    splitting: true,
    esbuildPlugins: [compactValidators(BY_OPERATION), operationRuleCopies],
  },
]);
