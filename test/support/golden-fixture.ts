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

/** Reads and parses a golden fixture (ours by default). */
export function readGoldenFixture(path = GOLDEN_FIXTURE_PATH): GoldenFixture {
  return JSON.parse(readFileSync(path, "utf8")) as GoldenFixture;
}
