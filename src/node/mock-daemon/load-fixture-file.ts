import type { GoldenFixture } from "../../testing/golden-fixture.js";
import { loadFixture } from "../../testing/load-fixture.js";

/**
 * Reads and checks a golden fixture file: the same as `loadFixture(path)` of `glass-sdk/testing`.
 * Throws a `GlassError` with code `fixture.invalid` that names the file when it cannot be read,
 * is not a regular file of at most 256 MiB, is not JSON, or is not a valid fixture — quoting
 * nothing of a file that is not a fixture.
 */
export function loadFixtureFile(path: string): Promise<GoldenFixture> {
  return loadFixture(path);
}
