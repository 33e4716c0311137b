/**
 * The release checks that are not a script of their own: the published package stays under its
 * size limits, and CHANGELOG.md has a dated entry for the version in package.json. `npm run
 * release:check` runs them after the build, the package checks and the API reports; the package's
 * tests (test/package/package-size.test.ts) hold the same limits.
 *
 *   npx tsx scripts/release-check.ts   (dist/ built first: it packs dist/ as it is)
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The most the published package may weigh, in bytes (1 MB = 1,000,000 bytes, as npm counts). */
export const PACKAGE_SIZE_LIMITS = {
  /** The tarball npm publishes (`npm pack`). */
  packedBytes: 1_000_000,
  /** Its files, unpacked: what an install puts in node_modules/glass-sdk. */
  unpackedBytes: 4_000_000,
} as const;

/** What `npm pack` would publish. */
export interface PackedPackage {
  /** Bytes of the tarball. */
  packedBytes: number;
  /** Bytes of its files, unpacked. */
  unpackedBytes: number;
  /** Each file, by its path in the package, largest first. */
  files: { path: string; bytes: number }[];
}

/**
 * What `npm pack` would publish from the package's folder as it is: `--dry-run` writes no tarball,
 * and `--ignore-scripts` keeps `prepare` from building dist/ again, so dist/ must be built.
 */
export function packDryRun(root: string = ROOT): PackedPackage {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [pack] = JSON.parse(out) as { size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
  if (pack === undefined) throw new Error(`npm pack --dry-run --json printed no package: ${out}`);
  return {
    packedBytes: pack.size,
    unpackedBytes: pack.unpackedSize,
    files: pack.files.map(({ path, size }) => ({ path, bytes: size })).sort((a, b) => b.bytes - a.bytes),
  };
}

/** What is over PACKAGE_SIZE_LIMITS, one sentence each; empty when the package is within them. */
export function sizeProblems(pack: PackedPackage): string[] {
  const problems: string[] = [];
  if (pack.packedBytes >= PACKAGE_SIZE_LIMITS.packedBytes)
    problems.push(
      `the tarball is ${megabytes(pack.packedBytes)}, over the limit of ${megabytes(PACKAGE_SIZE_LIMITS.packedBytes)}`,
    );
  if (pack.unpackedBytes >= PACKAGE_SIZE_LIMITS.unpackedBytes)
    problems.push(
      `the files are ${megabytes(pack.unpackedBytes)} unpacked, over the limit of ${megabytes(PACKAGE_SIZE_LIMITS.unpackedBytes)}`,
    );
  return problems;
}

/** A CHANGELOG.md entry for one version: its heading's date and the text under it. */
export interface ChangelogEntry {
  /** The release date, `YYYY-MM-DD`. */
  date: string;
  /** The text between the entry's heading and the next `## ` heading, trimmed. */
  body: string;
}

/**
 * The entry of `changelog` (CHANGELOG.md's text) for `version`: the section under the heading
 * `## [<version>] - <YYYY-MM-DD>`, as Keep a Changelog writes it; undefined without one.
 */
export function changelogEntry(changelog: string, version: string): ChangelogEntry | undefined {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const heading = new RegExp(`^## \\[${escaped}\\] - (\\d{4}-\\d{2}-\\d{2})[ \\t]*$`, "m").exec(changelog);
  if (heading === null) return undefined;
  const rest = changelog.slice(heading.index + heading[0].length);
  const next = rest.search(/^## /m);
  return { date: heading[1]!, body: (next === -1 ? rest : rest.slice(0, next)).trim() };
}

/** What is missing from CHANGELOG.md for `version`, one sentence each; empty when its entry is there. */
export function changelogProblems(changelog: string, version: string): string[] {
  const entry = changelogEntry(changelog, version);
  if (entry === undefined)
    return [`CHANGELOG.md has no entry for ${version} (a heading "## [${version}] - YYYY-MM-DD")`];
  if (entry.body === "") return [`CHANGELOG.md's entry for ${version} is empty`];
  return [];
}

/** The version in the package's package.json. */
export function packageVersion(root: string = ROOT): string {
  return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const version = packageVersion();
  const pack = packDryRun();
  console.log(
    `glass-sdk ${version}: ${megabytes(pack.packedBytes)} packed, ${megabytes(pack.unpackedBytes)} unpacked, ${pack.files.length} files; the largest:`,
  );
  for (const { path, bytes } of pack.files.slice(0, 5))
    console.log(`  ${(bytes / 1000).toFixed(1).padStart(8)} kB  ${path}`);
  const problems = [
    ...sizeProblems(pack),
    ...changelogProblems(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"), version),
  ];
  for (const problem of problems) console.error(`release check: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`release check: the package is within its size limits and CHANGELOG.md has an entry for ${version}`);
}
