import { GlassError } from "../errors/glass-error.js";
import { fixtureInvalid, parseFixture, type GoldenFixture } from "./golden-fixture.js";

/**
 * Reads a golden fixture file and checks it ({@link parseFixture}). Node only: the file is read
 * through a dynamic `import("node:fs/promises")`, so importing `glass-sdk/testing` in a browser
 * never loads it (use `parseFixture` on JSON you fetched or bundled there). Throws a
 * {@link GlassError} with code `fixture.invalid` that names the file when it cannot be read, is
 * not JSON, or is not a valid fixture.
 *
 * @example
 * ```ts
 * import { loadFixture } from "glass-sdk/testing";
 *
 * const fixture = await loadFixture(new URL("./fixtures/checkout.json", import.meta.url));
 * ```
 */
export async function loadFixture(path: string | URL): Promise<GoldenFixture> {
  const name = typeof path === "string" ? path : path.href;
  let text: string;
  try {
    const { readFile } = await import("node:fs/promises");
    text = await readFile(path, "utf8");
  } catch (error) {
    throw fixtureInvalid(`cannot read the fixture ${name}: ${(error as { code?: unknown }).code ?? String(error)}`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fixtureInvalid(`the fixture ${name} is not JSON: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  try {
    return parseFixture(json);
  } catch (error) {
    if (error instanceof GlassError) throw fixtureInvalid(`${name}: ${error.rawMessage}`, error);
    throw error;
  }
}
