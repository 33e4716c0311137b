import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Glass, type GlassTransport, type TransportHandlers } from "glass-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import {
  changelogEntry,
  changelogProblems,
  PACKAGE_SIZE_LIMITS,
  type PackedPackage,
  packageVersion,
  packDryRun,
  sizeProblems,
} from "../../scripts/release-check.js";

/**
 * What a release publishes, held to what `npm run release:check` checks (scripts/release-check.ts,
 * the same limits): the package as `npm pack` would publish it from the dist/ that `npm test`
 * builds first (packed with `--dry-run --ignore-scripts`, so nothing is written and `prepare` does
 * not rebuild the dist/ other suites are reading), and the version it says it is.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
  version: string;
  main: string;
  module: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
};

/** Every file path package.json's `exports` names (each condition's target), with its leading "./". */
function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(exportTargets);
  return [];
}

describe("the published package (npm pack of the built dist/)", () => {
  let pack: PackedPackage;
  let paths: Set<string>;
  beforeAll(() => {
    pack = packDryRun();
    paths = new Set(pack.files.map((file) => file.path));
  }, 60_000);

  const largest = (): string =>
    pack.files
      .slice(0, 5)
      .map(({ path, bytes }) => `${path} ${bytes} B`)
      .join(", ");

  it(`packs to under ${PACKAGE_SIZE_LIMITS.packedBytes / 1e6} MB and unpacks to under ${PACKAGE_SIZE_LIMITS.unpackedBytes / 1e6} MB`, () => {
    expect(paths.has("dist/index.js"), "dist/ is built (npm test builds it first)").toBe(true);
    expect(sizeProblems(pack), `the largest files: ${largest()}`).toEqual([]);
    expect(pack.packedBytes).toBeLessThan(PACKAGE_SIZE_LIMITS.packedBytes);
    expect(pack.unpackedBytes).toBeLessThan(PACKAGE_SIZE_LIMITS.unpackedBytes);
  });

  it("ships dist/, fixtures/ and the package's own files, and no source maps or build metadata", () => {
    const outside = [...paths].filter(
      (path) =>
        !/^(dist|fixtures)\//.test(path) && !["package.json", "README.md", "CHANGELOG.md", "LICENSE"].includes(path),
    );
    expect(outside).toEqual([]);
    expect([...paths].filter((path) => path.endsWith(".map") || /^dist\/metafile-/.test(path))).toEqual([]);
  });

  it("ships every file package.json names (exports, main, module, types, bin) and the fixture the mock daemon reads", () => {
    const named = [
      ...exportTargets(manifest.exports),
      manifest.main,
      manifest.module,
      manifest.types,
      ...Object.values(manifest.bin),
    ].map((target) => target.replace(/^\.\//, ""));
    const missing = named.filter((target) => {
      const [before, after] = target.split("*");
      return after === undefined
        ? !paths.has(target)
        : ![...paths].some((path) => path.startsWith(before!) && path.endsWith(after));
    });
    expect(missing).toEqual([]);
    expect(paths.has("fixtures/protocol-golden-v1.json")).toBe(true);
  });

  it("has one command line, dist/cli.js, which imports the chunks the ESM entry points share", () => {
    const cli = readFileSync(`${ROOT}dist/cli.js`, "utf8");
    expect(cli.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect([...cli.matchAll(/\bfrom\s*["'](\.\/chunk-[^"']+\.js)["']/g)].length).toBeGreaterThan(0);
    expect(pack.files.find((file) => file.path === "dist/cli.js")!.bytes).toBeLessThan(100_000);
  });
});

describe("the release's version", () => {
  const version = packageVersion();

  it("has a dated entry in CHANGELOG.md, under an Unreleased section", () => {
    const changelog = readFileSync(`${ROOT}CHANGELOG.md`, "utf8");
    expect(changelogProblems(changelog, version)).toEqual([]);
    expect(changelogEntry(changelog, version)!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(changelog.indexOf("## [Unreleased]")).toBeGreaterThan(-1);
    expect(changelog.indexOf("## [Unreleased]")).toBeLessThan(changelog.indexOf(`## [${version}]`));
  });

  it("is package-lock.json's too", () => {
    const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, "utf8")) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect([lock.version, lock.packages[""]?.version]).toEqual([version, version]);
  });

  it("is the version the client names itself with (clientInfo) unless given one", async () => {
    let clientInfo: unknown;
    let handlers: TransportHandlers | undefined;
    const transport: GlassTransport = {
      kind: "capture",
      maxInFlight: 1,
      start: async (given) => {
        handlers = given;
      },
      send: async (message) => {
        if ("method" in message && message.method === "initialize") {
          clientInfo = (message.params as { clientInfo?: unknown } | undefined)?.clientInfo;
          handlers?.onClose();
        }
      },
      close: async () => {},
    };
    await Glass.connect(transport).catch(() => undefined);
    expect(clientInfo).toEqual({ name: "glass-sdk", version });
  });
});

describe("changelogEntry", () => {
  const changelog =
    "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-01-02\n\n### Added\n\n- a thing\n\n## [1.1.0] - 2025-12-01\n\n- older\n";

  it("finds a version's dated section and its text up to the next section", () => {
    expect(changelogEntry(changelog, "1.2.0")).toEqual({ date: "2026-01-02", body: "### Added\n\n- a thing" });
    expect(changelogEntry(changelog, "1.1.0")).toEqual({ date: "2025-12-01", body: "- older" });
  });

  it("does not take another version, an undated heading or an empty entry for the version", () => {
    expect(changelogEntry(changelog, "1.2")).toBeUndefined();
    expect(changelogProblems("## [2.0.0]\n\n- no date\n", "2.0.0")).toEqual([
      'CHANGELOG.md has no entry for 2.0.0 (a heading "## [2.0.0] - YYYY-MM-DD")',
    ]);
    expect(changelogProblems("## [2.0.0] - 2026-01-01\n\n## [1.0.0] - 2025-01-01\n", "2.0.0")).toEqual([
      "CHANGELOG.md's entry for 2.0.0 is empty",
    ]);
  });
});
