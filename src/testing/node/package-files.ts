import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "glass-sdk";

let root: string | undefined;

/**
 * The directory of the glass-sdk package this module belongs to, found by walking up from this
 * file to the `package.json` named glass-sdk (the same from `src/` and from a build in `dist/`).
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME) return (root = dir);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`cannot find the ${PACKAGE_NAME} package directory above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The package's own golden fixture, `fixtures/protocol-golden-v1.json`. */
export function defaultFixturePath(): string {
  return join(packageRoot(), "fixtures", "protocol-golden-v1.json");
}

/** The package's version, from its `package.json`. */
export function packageVersion(): string {
  const parsed = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: unknown };
  return typeof parsed.version === "string" ? parsed.version : "0.0.0";
}

function readName(path: string): unknown {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
