import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a user's project gets it: `npm pack` of the built package (dist/ must be built,
 * as `npm test` does first), unpacked into a fresh project's node_modules/glass-sdk — exactly the
 * files npm would install, and nothing of this repository. (`npm install` of the tarball would need
 * the registry for its dependencies, `ws` and `ky`; the project links the ones this repository has
 * instead.) Scripts run there
 * with the project as working directory.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "glass-installed-"));
  const packed = join(project, "packed");
  mkdirSync(packed);
  execFileSync("npm", ["pack", "--pack-destination", packed, "--silent"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(packed).find((name) => name.endsWith(".tgz"))!;
  const modules = join(project, "node_modules");
  mkdirSync(modules);
  execFileSync("tar", ["-xzf", join(packed, tarball), "-C", modules]);
  renameSync(join(modules, "package"), join(modules, "glass-sdk"));
  for (const dependency of ["ws", "ky"]) symlinkSync(join(ROOT, "node_modules", dependency), join(modules, dependency), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs a script in the user's project and returns what it printed as JSON. */
function runInProject(file: string, source: string): Record<string, unknown> {
  writeFileSync(join(project, file), source);
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" })) as Record<string, unknown>;
}

describe("the golden fixture in a user's project", () => {
  it("is goldenFixture() of glass-sdk/testing, and a replay engine and the client answer from it", () => {
    const out = runInProject(
      "replay.mjs",
      `
import { Glass } from "glass-sdk";
import { createReplayEngine, goldenFixture, inMemoryTransport } from "glass-sdk/testing";

const fixture = await goldenFixture();
const engine = createReplayEngine(fixture, { match: { ignore: ["expectedRevision"] } });
const click = engine.answer({ protocolVersion: 1, requestId: "mine-1", operation: "browser.click", payload: { target: "ref=r11:e4", expectedRevision: 40 } });
const miss = engine.answer({ protocolVersion: 1, requestId: "mine-2", operation: "browser.click", payload: { target: "ref=r12:e4" } });
const glass = await Glass.connect(inMemoryTransport(fixture));
const page = await glass.browser.observe({ level: "summary" });
await glass.close();
console.log(JSON.stringify({ requests: fixture.requests.length, click, miss: miss.error.message, revision: page.revision }));
`,
    );
    expect(out.requests).toBe(16);
    expect(out.click).toMatchObject({ requestId: "mine-1", ok: false, error: { code: "staleRevision" } });
    expect(out.miss).toContain('It differs at /target: sent "ref=r12:e4", recorded "ref=r11:e4"');
    expect(out.revision).toBe(12);
  });

  it("resolves by package name through the ./fixtures/* export, as a bundler would import it", () => {
    const out = runInProject(
      "exports.mjs",
      `
import { createRequire } from "node:module";
import { parseFixture } from "glass-sdk/testing";
import golden from "glass-sdk/fixtures/protocol-golden-v1.json" with { type: "json" };

const path = createRequire(import.meta.url).resolve("glass-sdk/fixtures/protocol-golden-v1.json");
console.log(JSON.stringify({ requests: parseFixture(golden).requests.length, path }));
`,
    );
    expect(out).toEqual({ requests: 16, path: join(project, "node_modules", "glass-sdk", "fixtures", "protocol-golden-v1.json") });
  });

  it("is found from CommonJS too", () => {
    const out = runInProject(
      "replay.cjs",
      `
const { goldenFixture } = require("glass-sdk/testing");
goldenFixture().then((fixture) => console.log(JSON.stringify({ requests: fixture.requests.length })));
`,
    );
    expect(out).toEqual({ requests: 16 });
  });

  it("is not what loadFixture reads from a relative path: that is the project's directory, and the error says where to look", () => {
    const out = runInProject(
      "relative.mjs",
      `
import { loadFixture } from "glass-sdk/testing";

const error = await loadFixture("fixtures/protocol-golden-v1.json").catch((caught) => caught);
console.log(JSON.stringify({ code: error.code, message: error.rawMessage }));
`,
    );
    expect(out.code).toBe("fixture.invalid");
    expect(out.message).toBe(
      `cannot read the fixture fixtures/protocol-golden-v1.json: ENOENT (a relative path is read from the working directory: ${join(project, "fixtures", "protocol-golden-v1.json")}); the package's own golden fixture is goldenFixture() of glass-sdk/testing`,
    );
  });
});
