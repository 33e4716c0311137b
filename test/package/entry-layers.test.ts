import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * What each built entry point loads: `glass-sdk/node` none of the replay, fixture or mock-daemon
 * code, and `glass-sdk/testing` nothing of `msw` (only `glass-sdk/testing/msw` needs it). Node does
 * not tree-shake, so what a built entry imports (statically or through `import()`) is what
 * `import("glass-sdk/…")` may load; esbuild's metafile of each build (dist/metafile-esm.json,
 * dist/metafile-cjs.json, not published) names the source files in each file.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DIST = join(ROOT, "dist");
const METAFILES = ["metafile-esm.json", "metafile-cjs.json"];
const run = promisify(execFile);

/** Source files of the replay engine, the fixtures and the mock daemon. */
const REPLAY_OR_FIXTURE = /^src\/(mock-daemon|testing)\//;

/** Every file of dist/ that loading `entry` may load (its relative imports, followed). */
function moduleGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const specifiers = [
      ...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g),
    ].map((m) => m[1]!);
    for (const specifier of specifiers) visit(join(dirname(file), specifier));
  };
  visit(join(DIST, entry));
  return [...seen];
}

/** The inputs of each output file of the ESM and CJS builds, from esbuild's metafiles (paths relative to the repository). */
function builtInputs(): Map<string, string[]> {
  const inputs = new Map<string, string[]>();
  for (const metafile of METAFILES) {
    const { outputs } = JSON.parse(readFileSync(join(DIST, metafile), "utf8")) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    for (const [output, { inputs: of }] of Object.entries(outputs)) inputs.set(output, Object.keys(of));
  }
  return inputs;
}

/** The source files (relative to the repository) bundled into the modules of `entry`'s graph. */
function sourcesOf(entry: string): string[] {
  const inputs = builtInputs();
  return moduleGraph(entry).flatMap((file) => {
    const sources = inputs.get(relative(ROOT, file));
    if (sources === undefined) throw new Error(`no metafile names ${relative(ROOT, file)}`);
    return sources;
  });
}

/** The package names (not relative files) that the modules of `entry`'s graph import. */
function packagesOf(entry: string): string[] {
  return moduleGraph(entry).flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'.][^"']*)["']/g),
    ].map((m) => m[1]!),
  );
}

/**
 * Runs a module in a child Node process in which `msw` (and `msw/…`) cannot be resolved, as when
 * the optional peer dependency is not installed: ESM through a resolve hook, CJS through the
 * resolver `require` uses.
 */
async function runWithoutMsw(format: "esm" | "cjs", code: string): Promise<string> {
  const esmHook = `data:text/javascript,${encodeURIComponent(
    `export async function resolve(specifier, context, next) {
      if (specifier === "msw" || specifier.startsWith("msw/")) {
        throw Object.assign(new Error("Cannot find package 'msw' (not installed)"), { code: "ERR_MODULE_NOT_FOUND" });
      }
      return next(specifier, context);
    }`,
  )}`;
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(esmHook)});`)}`;
  const cjsHook = `const Module = require("node:module");
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request === "msw" || request.startsWith("msw/")) throw Object.assign(new Error("Cannot find module 'msw' (not installed)"), { code: "MODULE_NOT_FOUND" });
      return resolve.call(this, request, ...rest);
    };`;
  const args =
    format === "esm" ? ["--import", register, "--input-type=module", "-e", code] : ["-e", `${cjsHook}\n${code}`];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, timeout: 20_000 });
  return stdout.trim();
}

const built = [
  "index.js",
  "node.js",
  "node.cjs",
  "testing.js",
  "testing.cjs",
  "testing/msw.js",
  "testing/node.js",
  ...METAFILES,
].every((file) => existsSync(join(DIST, file)));

describe.skipIf(!built)("the built entry points load only their own layer (run `npm run build` first)", () => {
  it("glass-sdk/node (ESM and CJS) loads no replay, fixture or mock-daemon code", () => {
    for (const entry of ["node.js", "node.cjs"]) {
      const sources = sourcesOf(entry);
      expect(sources).toContain("src/node/stdio-transport.ts");
      expect(sources.filter((source) => REPLAY_OR_FIXTURE.test(source))).toEqual([]);
    }
  });

  it("glass-sdk/testing/node does load the mock daemon (the check above can see it)", () => {
    const sources = sourcesOf("testing/node.js");
    expect(sources).toContain("src/mock-daemon/replay-engine.ts");
    expect(sources).toContain("src/testing/node/start-mock-daemon.ts");
  });

  it("glass-sdk and glass-sdk/protocol load nothing of src/node, src/testing or the mock daemon", () => {
    for (const entry of ["index.js", "index.cjs", "protocol.js", "protocol.cjs"]) {
      expect(sourcesOf(entry).filter((source) => /^src\/(node|testing|mock-daemon)\//.test(source))).toEqual([]);
    }
  });

  it("only glass-sdk/testing/msw imports msw", () => {
    for (const entry of [
      "index.js",
      "protocol.js",
      "node.js",
      "testing.js",
      "testing.cjs",
      "testing/node.js",
      "testing/node.cjs",
    ]) {
      expect(packagesOf(entry).filter((name) => name === "msw" || name.startsWith("msw/"))).toEqual([]);
    }
    expect(packagesOf("testing/msw.js")).toContain("msw");
  });

  it("glass-sdk/testing loads and replays without msw installed, while glass-sdk/testing/msw needs it", async () => {
    const url = (file: string): string => JSON.stringify(pathToFileURL(join(DIST, file)).href);
    const esm = await runWithoutMsw(
      "esm",
      `const { Glass } = await import(${url("index.js")});
       const { inMemoryTransport, loadFixture } = await import(${url("testing.js")});
       const glass = await Glass.connect(inMemoryTransport(await loadFixture("fixtures/protocol-golden-v1.json")));
       const tools = await glass.listTools();
       await glass.close();
       let msw;
       try { await import(${url("testing/msw.js")}); msw = "loaded"; } catch (error) { msw = error.code; }
       console.log(JSON.stringify({ tools: tools.length > 0, msw }));`,
    );
    expect(JSON.parse(esm)).toEqual({ tools: true, msw: "ERR_MODULE_NOT_FOUND" });

    const cjs = await runWithoutMsw(
      "cjs",
      `const testing = require(${JSON.stringify(join(DIST, "testing.cjs"))});
       let msw;
       try { require(${JSON.stringify(join(DIST, "testing/msw.cjs"))}); msw = "loaded"; } catch (error) { msw = error.code; }
       console.log(JSON.stringify({ inMemoryTransport: typeof testing.inMemoryTransport, msw }));`,
    );
    expect(JSON.parse(cjs)).toEqual({ inMemoryTransport: "function", msw: "MODULE_NOT_FOUND" });
  });
});
