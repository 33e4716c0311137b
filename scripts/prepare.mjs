// The package's `prepare` script: builds dist/ with `npm run build`.
//
// npm runs `prepare` after `npm install` in this repository (dependencies installed), for
// `npm pack` and `npm publish`, for an install from a git URL (npm installs the dependencies,
// devDependencies included, first) and for an install from a folder (`npm install ../glass-sdk`).
// For a folder, npm installs nothing inside it: since npm 9 it links the folder into the project
// as it is. In a fresh clone, then, neither the build tools (tsup) nor the package's own
// dependencies (ky, ws) are there. So when the folder has no node_modules/ at all, this script
// first runs `npm ci` in it (dependencies and devDependencies, from package-lock.json), then
// builds. It installs nothing into a node_modules/ that exists but lacks the build tools (say
// `npm install --omit=dev` here): it says what to run instead.
//
// Plain Node.js (no TypeScript): it runs before anything is installed.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Runs npm (the npm running this script, if it is npm) in the package's folder; false if it failed. */
function npm(args) {
  const execPath = process.env.npm_execpath;
  const [command, commandArgs] =
    execPath !== undefined && /^npm-cli\.c?js$/.test(basename(execPath))
      ? [process.execPath, [execPath, ...args]]
      : ["npm", args];
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: "inherit",
    shell: command === "npm" && process.platform === "win32",
  });
  return result.status === 0;
}

function fail(message) {
  process.stderr.write(`glass-sdk: ${message}\n`);
  process.exit(1);
}

if (!existsSync(join(root, "node_modules", "tsup", "package.json"))) {
  if (existsSync(join(root, "node_modules"))) {
    fail(
      `cannot build dist/: the build tools (devDependencies) are not installed in ${root}. ` +
        `Run \`npm install --include=dev\` there (it builds dist/), then install glass-sdk again.`,
    );
  }
  process.stderr.write(
    `glass-sdk: ${root} has no node_modules/ (a fresh clone): installing its dependencies with \`npm ci\` to build dist/\n`,
  );
  // Explicit flags: npm passes its own settings on to this script (an `--omit=dev` or a `-g` of
  // the install that runs it), and those must not apply here. --ignore-scripts: this `npm ci`
  // must not run this script again; the build follows.
  if (!npm(["ci", "--include=dev", "--global=false", "--ignore-scripts", "--no-audit", "--no-fund"])) {
    fail(
      `\`npm ci\` failed in ${root}. Run \`npm install\` there yourself (it builds dist/), then install glass-sdk again.`,
    );
  }
}

if (!npm(["run", "build"])) fail(`the build failed in ${root} (\`npm run build\`).`);
