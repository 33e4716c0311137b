/**
 * `glass-sdk mock-daemon --fixture FILE` (and `loadFixture(FILE)`) pointed at a file that is not a
 * golden fixture: a password file, a credentials file in JSON, a device, a huge file. The error
 * says what is wrong and where a valid fixture is, and quotes nothing of the file.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { GlassError } from "glass-sdk";
import { loadFixture } from "../../../src/testing/load-fixture.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SECRET = "SeCrEt-c2VjcmV0LXRva2Vu";
const dir = mkdtempSync(join(tmpdir(), "glass-hostile-fixture-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a file in the test's directory and returns its path. */
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Runs `glass-sdk mock-daemon --fixture <path>` to completion (at most 20 s). */
function runCli(path: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mock-daemon", "--fixture", path], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Everything a caller of loadFixture may print of its error: message, JSON, util.inspect (with causes). */
async function loadError(path: string): Promise<{ error: GlassError; shown: string }> {
  const error = await loadFixture(path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GlassError);
  const glassError = error as GlassError;
  expect(glassError.code).toBe("fixture.invalid");
  return {
    error: glassError,
    shown: [glassError.message, JSON.stringify(glassError.toJSON()), inspect(glassError, { depth: 8 })].join("\n"),
  };
}

const WHERE_TO_FIND_ONE = /fixtures\/protocol-golden-v1\.json/;

/** Files that are not golden fixtures, each with the secret in it and what the error must say. */
const NOT_FIXTURES: [string, () => string, RegExp][] = [
  [
    "a password file (not JSON)",
    () => file("passwd", `root:x:0:0:${SECRET}:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n`),
    /is not JSON/,
  ],
  [
    "a file that is almost JSON",
    () => file("almost.json", `{"schemaVersion": 1, "requests": [], "responses": [], "note": "${SECRET}",}`),
    /is not JSON/,
  ],
  [
    "a credentials file in JSON",
    () => file("config.json", JSON.stringify({ auths: { "registry.example": { auth: SECRET } } })),
    /is not a golden fixture/,
  ],
  [
    "JSON with a schemaVersion that is a secret",
    () => file("version.json", JSON.stringify({ schemaVersion: SECRET, requests: [], responses: [] })),
    /is not a golden fixture: schemaVersion must be 1 \(got a string\)/,
  ],
  ["JSON that is a string", () => file("string.json", JSON.stringify(SECRET)), /is not a golden fixture/],
  [
    "JSON whose requests are not a list",
    () => file("requests.json", JSON.stringify({ schemaVersion: 1, requests: { token: SECRET }, responses: [] })),
    /is not a golden fixture/,
  ],
];

describe("a file that is not a golden fixture: the error says what is wrong and where to find a valid one, and quotes nothing of the file", () => {
  /*
   * Repro: `glass-sdk mock-daemon --fixture /etc/passwd` printed `the fixture /etc/passwd is not
   * JSON: Unexpected token 'r', "root:x:0:0"... is not valid JSON` — the file's first bytes (and
   * the JSON parser's error, quoting them, stayed attached as the error's cause).
   */
  for (const [what, make, says] of NOT_FIXTURES) {
    it(`${what}: the CLI exits 1 with one line quoting none of it; loadFixture's error (message, JSON, inspect) neither`, async () => {
      const path = make();
      const { code, stdout, stderr } = await runCli(path);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).not.toContain(SECRET);
      expect(stderr.split("\n")).toHaveLength(2);
      expect(stderr).toMatch(says);
      expect(stderr).toMatch(WHERE_TO_FIND_ONE);
      const { shown } = await loadError(path);
      expect(shown).not.toContain(SECRET);
      expect(shown).toMatch(says);
    });
  }

  it.skipIf(!existsSync("/etc/passwd"))("/etc/passwd itself: no byte of it in the CLI's error", async () => {
    const { code, stderr } = await runCli("/etc/passwd");
    expect(code).toBe(1);
    const firstLine = readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
    for (const field of firstLine.split(":").filter((part) => part.length >= 2)) expect(stderr).not.toContain(field);
    expect(stderr).toMatch(/is not JSON/);
  });
});

describe("a file the fixture loader must not read whole", () => {
  /*
   * Repro: `--fixture /dev/zero` read the device until memory ran out; a file of several hundred
   * MiB was read whole before anything was checked.
   */
  it.skipIf(!existsSync("/dev/zero"))("a device (/dev/zero): refused at once as not a regular file", async () => {
    const { code, stderr } = await runCli("/dev/zero");
    expect(code).toBe(1);
    expect(stderr).toMatch(/\/dev\/zero is not a regular file/);
    expect(stderr).toMatch(WHERE_TO_FIND_ONE);
  });

  it("a directory: refused as not a regular file", async () => {
    const path = join(dir, "a-directory");
    mkdirSync(path);
    const { error } = await loadError(path);
    expect(error.message).toMatch(/is not a regular file/);
  });

  it("a file over the size limit (sparse, 300 MiB): refused by its size, without reading it", async () => {
    const path = file("huge.json", "");
    truncateSync(path, 300 * 1024 * 1024);
    const { error } = await loadError(path);
    expect(error.message).toMatch(/is 300 MiB; a golden fixture is at most 256 MiB/);
  });
});
