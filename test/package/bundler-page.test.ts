import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A page a user bundles for the browser from `import { Glass, httpTransport } from "glass-sdk"`
 * gets the package's `browser` build (compact validators) through the export conditions, so it
 * ships no more than the same page built on the prebuilt browser file (+10 %). Sizes are bytes of
 * esbuild's minified output, gzipped: deterministic for one build of the package.
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

/** Bundles `source` as a user would for the browser; returns its minified and gzipped sizes and what went in. */
async function bundle(name: string, source: string): Promise<{ minified: number; gzip: number; inputs: string[] }> {
  const entry = join(project, `${name}.js`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    // Only Node without a global WebSocket loads `ws`; a page never does.
    external: ["ws"],
    logLevel: "silent",
  });
  const output = result.outputFiles[0]!.contents;
  return {
    minified: output.byteLength,
    gzip: gzipSync(output, { level: 9 }).byteLength,
    inputs: Object.keys(result.metafile.inputs),
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
      it(`with ${transport}, ships at most 10 % more than the same page on the prebuilt file`, async () => {
        const bundled = await bundle(`bundled-${transport}`, page("glass-sdk", transport, url));
        const prebuilt = await bundle(`prebuilt-${transport}`, page(PREBUILT, transport, url));
        expect(
          bundled.gzip,
          `bundled ${bundled.minified} B minified / ${bundled.gzip} B gzip; prebuilt ${prebuilt.minified} / ${prebuilt.gzip}`,
        ).toBeLessThanOrEqual(prebuilt.gzip * 1.1);
        expect(bundled.minified).toBeLessThanOrEqual(prebuilt.minified * 1.1);
      });
    }
  },
);
