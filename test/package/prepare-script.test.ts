import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The package's `prepare` script (scripts/prepare.mjs) in a folder shaped like a clone of the
 * repository, whose package.json builds by writing a file instead of running tsup and whose
 * lockfile has no dependencies: what the script runs, and in which order, with real npm, in
 * seconds. (A real folder install of a fresh clone, test/package/installed-package.test.ts aside,
 * installs ~450 packages and builds: minutes, so it is not part of `npm test`.)
 */

const PREPARE = fileURLToPath(new URL("../../scripts/prepare.mjs", import.meta.url));
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A folder with the prepare script, a package.json whose build writes dist/built, and its lockfile. */
function clone(): string {
  const dir = mkdtempSync(join(tmpdir(), "glass-prepare-"));
  folders.push(dir);
  mkdirSync(join(dir, "scripts"));
  cpSync(PREPARE, join(dir, "scripts", "prepare.mjs"));
  const build = `node -e "require('node:fs').mkdirSync('dist'); require('node:fs').writeFileSync('dist/built', '')"`;
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "glass-sdk", version: "0.0.0", private: true, scripts: { build } }),
  );
  writeFileSync(
    join(dir, "package-lock.json"),
    JSON.stringify({
      name: "glass-sdk",
      version: "0.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "glass-sdk", version: "0.0.0" } },
    }),
  );
  return dir;
}

/**
 * Runs the prepare script in `dir` as npm runs it for `npm install -g --omit=dev <folder>`: with
 * npm's settings passed on in the environment, which the script's own npm must not follow.
 */
function prepare(dir: string): { status: number | null; stderr: string } {
  const env = {
    ...process.env,
    npm_config_global: "true",
    npm_config_omit: "dev",
    npm_config_loglevel: "error",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
  const result = spawnSync(process.execPath, [join(dir, "scripts", "prepare.mjs")], {
    cwd: dir,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe("the prepare script", () => {
  it("in a clone without node_modules/, installs its dependencies (npm ci) and then builds", () => {
    const dir = clone();
    const { status, stderr } = prepare(dir);
    expect(status, stderr).toBe(0);
    expect(stderr).toContain(
      `glass-sdk: ${dir} has no node_modules/ (a fresh clone): installing its dependencies with \`npm ci\` to build dist/`,
    );
    expect(existsSync(join(dir, "dist", "built"))).toBe(true);
  }, 60_000);

  it("with node_modules/ but no build tools, builds nothing and says what to run", () => {
    const dir = clone();
    mkdirSync(join(dir, "node_modules"));
    const { status, stderr } = prepare(dir);
    expect(status).toBe(1);
    expect(stderr).toBe(
      `glass-sdk: cannot build dist/: the build tools (devDependencies) are not installed in ${dir}. Run \`npm install --include=dev\` there (it builds dist/), then install glass-sdk again.\n`,
    );
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });

  it("with the build tools installed, only builds", () => {
    const dir = clone();
    mkdirSync(join(dir, "node_modules", "tsup"), { recursive: true });
    writeFileSync(
      join(dir, "node_modules", "tsup", "package.json"),
      JSON.stringify({ name: "tsup", version: "0.0.0" }),
    );
    const { status, stderr } = prepare(dir);
    expect(status, stderr).toBe(0);
    expect(stderr).not.toContain("npm ci");
    expect(existsSync(join(dir, "dist", "built"))).toBe(true);
  }, 60_000);
});
