import type { GoldenFixture } from "../mock-daemon/golden-fixture.js";
import { fixtureInvalid } from "../mock-daemon/golden-fixture.js";
import { loadFixture } from "./load-fixture.js";

/** The package's golden fixture, relative to the package's directory. */
const GOLDEN_FIXTURE_FILE = "fixtures/protocol-golden-v1.json";
const PACKAGE_NAME = "glass-sdk";

let fixtureUrl: Promise<URL> | undefined;

/**
 * The golden fixture that ships in the glass-sdk package (`fixtures/protocol-golden-v1.json`, the
 * mock daemon's default), read and checked. The file is found next to the installed package, not
 * from the working directory, so it works from any project. Node only (it reads the file through a
 * dynamic `import("node:fs/promises")`); in a browser test, import the JSON through the package's
 * `glass-sdk/fixtures/*` export with your bundler and pass it to `parseFixture`. Each call returns
 * a fresh copy.
 *
 * @example
 * ```ts
 * import { createReplayEngine, goldenFixture } from "glass-sdk/testing";
 *
 * const engine = createReplayEngine(await goldenFixture());
 * ```
 */
export async function goldenFixture(): Promise<GoldenFixture> {
  fixtureUrl ??= findGoldenFixture();
  return loadFixture(await fixtureUrl);
}

/** Walks up from this module to the directory whose `package.json` is named glass-sdk. */
async function findGoldenFixture(): Promise<URL> {
  const { readFile } = await import("node:fs/promises");
  let dir = new URL("./", import.meta.url);
  for (;;) {
    const name = await readFile(new URL("package.json", dir), "utf8").then(packageName, () => undefined);
    if (name === PACKAGE_NAME) return new URL(GOLDEN_FIXTURE_FILE, dir);
    const parent = new URL("../", dir);
    if (parent.href === dir.href) {
      fixtureUrl = undefined;
      throw fixtureInvalid(
        `cannot find the ${PACKAGE_NAME} package above ${import.meta.url}, so not its golden fixture`,
      );
    }
    dir = parent;
  }
}

function packageName(manifest: string): unknown {
  try {
    return (JSON.parse(manifest) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
