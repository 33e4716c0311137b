import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The golden-fixture file format: requests, the responses recorded for them, invalid responses. */
export interface GoldenFixture {
  schemaVersion: 1;
  requests: Record<string, unknown>[];
  responses: Record<string, unknown>[];
  invalidResponses?: Record<string, unknown>[];
}

/** Path of our golden fixture. */
export const GOLDEN_FIXTURE_PATH = fileURLToPath(new URL("../../fixtures/protocol-golden-v1.json", import.meta.url));

/**
 * The mock daemon's command-line options that replay our golden fixture with the simulated site
 * under it (`--fixture … --site`): the tests that send the fixture's requests to the CLI use them,
 * since without a fixture the mock serves the site alone.
 */
export const GOLDEN_CLI_ARGS: readonly string[] = ["--fixture", GOLDEN_FIXTURE_PATH, "--site"];

/** Reads and parses a golden fixture (ours by default). */
export function readGoldenFixture(path = GOLDEN_FIXTURE_PATH): GoldenFixture {
  return JSON.parse(readFileSync(path, "utf8")) as GoldenFixture;
}
