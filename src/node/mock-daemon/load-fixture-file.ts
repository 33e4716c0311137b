import { readFile } from "node:fs/promises";
import { GlassError } from "../../errors/glass-error.js";
import { truncateUtf8 } from "../../mcp/utf8-truncate.js";
import { loadFixture, type GoldenFixture } from "../../testing/golden-fixture.js";

/**
 * Reads and checks a golden fixture file ({@link loadFixture}). Throws a {@link GlassError} with
 * code `fixture.invalid` that names the file when it cannot be read, is not JSON, or is not a
 * valid fixture.
 */
export async function loadFixtureFile(path: string): Promise<GoldenFixture> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw invalid(`cannot read the fixture ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalid(`the fixture ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  try {
    return loadFixture(json);
  } catch (error) {
    if (error instanceof GlassError) throw invalid(`${path}: ${error.rawMessage}`, error);
    throw error;
  }
}

function invalid(message: string, cause: unknown): GlassError {
  return new GlassError({
    code: "fixture.invalid",
    message: truncateUtf8(message, 512),
    retry: { classification: "notRetryable", recommendedOperation: "fix_fixture" },
    cause,
  });
}
