import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package as a user's project gets it: `npm pack` of the built package (dist/ must be built,
 * as `npm test` does first; packed with `--ignore-scripts`, so that `prepare` does not rebuild the
 * dist/ other suites are reading), then `npm install <tarball>` in a fresh project — exactly the
 * files npm would install, their dependencies from npm's cache (offline), nothing of this
 * repository.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What `npm install` needs to stay offline and quiet: the dependencies come from npm's cache. */
export const NPM_INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

/** A fresh project with a package.json of its own (an ES module project), in a temporary directory. */
export function newProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  return dir;
}

/**
 * Packs the built package and installs the tarball in `project`, together with `alongside`
 * (package specs such as `msw@2.15.0`, e.g. an optional peer dependency the project uses).
 */
export function installPackedPackage(project: string, alongside: readonly string[] = []): void {
  const packed = join(project, "packed");
  mkdirSync(packed);
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", packed, "--silent"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarball = readdirSync(packed).find((name) => name.endsWith(".tgz"))!;
  execFileSync("npm", [...NPM_INSTALL, join(packed, tarball), ...alongside], {
    cwd: project,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 60_000,
  });
}
