import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GlassError } from "glass-sdk";
import { loadFixture } from "../../src/testing/load-fixture.js";
import { goldenFixture as packageGoldenFixture } from "../../src/testing/golden-fixture-file.js";
import { saveFixture } from "../../src/testing/save-fixture.js";
import type { GoldenFixture } from "../../src/mock-daemon/golden-fixture.js";
import { goldenFixture } from "../support/fixture-outcomes.js";
import { GOLDEN_FIXTURE_PATH } from "../support/golden-fixture.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glass-fixture-files-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadError(path: string): Promise<GlassError> {
  const error = await loadFixture(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(GlassError);
  expect((error as GlassError).code).toBe("fixture.invalid");
  return error as GlassError;
}

describe("loadFixture(path)", () => {
  it("reads and checks our golden fixture, from a path or a file URL", async () => {
    expect(await loadFixture(GOLDEN_FIXTURE_PATH)).toEqual(goldenFixture);
    expect(await loadFixture(new URL("../../fixtures/protocol-golden-v1.json", import.meta.url))).toEqual(
      goldenFixture,
    );
  });

  it("names the file that cannot be read", async () => {
    const path = join(dir, "missing.json");
    expect((await loadError(path)).rawMessage).toBe(`cannot read the fixture ${path}: ENOENT`);
  });

  it("reads a relative path from the working directory, and says so and where the package's fixture is when it is missing", async () => {
    const error = await loadError("fixtures/no-such-fixture.json");
    expect(error.rawMessage).toBe(
      `cannot read the fixture fixtures/no-such-fixture.json: ENOENT (a relative path is read from the working directory: ${join(process.cwd(), "fixtures/no-such-fixture.json")}); the package's own golden fixture is goldenFixture() of glass-sdk/testing`,
    );
    expect(await loadFixture("fixtures/protocol-golden-v1.json")).toEqual(goldenFixture);
  });

  it("names the file that is not JSON", async () => {
    const path = join(dir, "garbage.json");
    await writeFile(path, "{ nope");
    expect((await loadError(path)).rawMessage).toMatch(new RegExp(`^the fixture ${path} is not JSON: `));
  });

  it("names the file and the bad entry of an invalid fixture", async () => {
    const path = join(dir, "invalid.json");
    await writeFile(
      path,
      JSON.stringify({ ...goldenFixture, responses: [{ ...goldenFixture.responses[0], requestId: "nobody-asked" }] }),
    );
    expect((await loadError(path)).rawMessage).toMatch(
      new RegExp(`^${path}: .*responses\\[0\\] \\(requestId "nobody-asked"\\) answers no recorded request`),
    );
  });
});

describe("goldenFixture()", () => {
  it("reads the package's own fixture wherever the working directory is, a fresh copy each time", async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const first = await packageGoldenFixture();
      expect(first).toEqual(goldenFixture);
      first.requests.length = 0;
      expect(await packageGoldenFixture()).toEqual(goldenFixture);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("saveFixture(path, fixture)", () => {
  it("writes indented JSON with a final newline, creating directories, that loads back equal", async () => {
    const path = join(dir, "a", "b", "saved.json");
    await saveFixture(path, goldenFixture);
    expect(await loadFixture(path)).toEqual(goldenFixture);
  });

  it("refuses an invalid fixture and writes nothing", async () => {
    const path = join(dir, "never.json");
    const broken = { ...goldenFixture, schemaVersion: 2 } as unknown as GoldenFixture;
    await expect(saveFixture(path, broken)).rejects.toMatchObject({ code: "fixture.invalid" });
    expect(existsSync(path)).toBe(false);
  });
});
