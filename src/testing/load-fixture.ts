import { GlassError } from "../errors/glass-error.js";
import {
  fixtureInvalid,
  fixtureShapeProblem,
  parseFixture,
  type GoldenFixture,
} from "../mock-daemon/golden-fixture.js";

/** The largest fixture file read (a file, not a device; bigger ones are refused before reading). */
const MAX_FIXTURE_BYTES = 256 * 1024 * 1024;

/** The file name of the package's golden fixture. */
const GOLDEN_FIXTURE_NAME = "protocol-golden-v1.json";

/** Where a valid fixture is, for the errors about a file that is not one. */
const WHERE_TO_FIND_ONE =
  "a golden fixture is JSON like fixtures/protocol-golden-v1.json of the glass-sdk package (goldenFixture(), the mock daemon's default), or one recorded with recordingTransport and saveFixture";

/**
 * Reads a golden fixture file and checks it ({@link parseFixture}). Node only: the file is read
 * through a dynamic `import("node:fs/promises")`, so importing `glass-sdk/testing` in a browser
 * never loads it (use `parseFixture` on JSON you fetched or bundled there). Throws a
 * {@link GlassError} with code `fixture.invalid` that names the file when it cannot be read, is
 * not a regular file, is over 256 MiB, is not JSON, is not a golden fixture, or is an invalid one.
 * The error quotes nothing of a file that is not a fixture (it may be any file: a password file, a
 * credentials file); it says what is wrong and where a valid fixture is.
 *
 * @example
 * ```ts
 * import { loadFixture } from "glass-sdk/testing";
 *
 * const fixture = await loadFixture(new URL("./fixtures/checkout.json", import.meta.url));
 * // A relative path is read from the working directory; the package's own fixture is goldenFixture().
 * ```
 */
export async function loadFixture(path: string | URL): Promise<GoldenFixture> {
  const name = typeof path === "string" ? path : path.href;
  const text = await readFixtureText(path, name);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text; only where it failed is kept.
    const position = error instanceof Error ? /\bat position (\d+)/.exec(error.message)?.[1] : undefined;
    throw fixtureInvalid(
      `the fixture ${name} is not JSON: ${position === undefined ? "" : `it does not parse at character ${position}; `}${WHERE_TO_FIND_ONE}`,
    );
  }
  const problem = fixtureShapeProblem(json);
  if (problem !== undefined)
    throw fixtureInvalid(`the fixture ${name} is not a golden fixture: ${problem}; ${WHERE_TO_FIND_ONE}`);
  try {
    return parseFixture(json);
  } catch (error) {
    if (error instanceof GlassError) throw fixtureInvalid(`${name}: ${error.rawMessage}`, error);
    throw error;
  }
}

/** The file's text, once it is known to be a regular file of at most {@link MAX_FIXTURE_BYTES}. */
async function readFixtureText(path: string | URL, name: string): Promise<string> {
  const { readFile, stat } = await import("node:fs/promises");
  let size: number;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw fixtureInvalid(`the fixture ${name} is not a regular file; ${WHERE_TO_FIND_ONE}`);
    size = stats.size;
  } catch (error) {
    if (error instanceof GlassError) throw error;
    throw await cannotRead(path, name, error);
  }
  if (size > MAX_FIXTURE_BYTES) {
    throw fixtureInvalid(
      `the fixture ${name} is ${Math.round(size / (1024 * 1024))} MiB; a golden fixture is at most ${MAX_FIXTURE_BYTES / (1024 * 1024)} MiB`,
    );
  }
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw await cannotRead(path, name, error);
  }
}

async function cannotRead(path: string | URL, name: string, error: unknown): Promise<GlassError> {
  const code = (error as { code?: unknown }).code;
  let message = `cannot read the fixture ${name}: ${typeof code === "string" ? code : "the file could not be read"}`;
  if (code === "ENOENT") {
    const { isAbsolute, resolve } = await import("node:path");
    const relative = typeof path === "string" && !isAbsolute(path);
    if (relative) message += ` (a relative path is read from the working directory: ${resolve(path)})`;
    if (relative || name.endsWith(GOLDEN_FIXTURE_NAME))
      message += `; the package's own golden fixture is goldenFixture() of glass-sdk/testing`;
  }
  return fixtureInvalid(message, error);
}
