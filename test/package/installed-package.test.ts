import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPackedPackage, newProject, NPM_INSTALL } from "../support/packed-package.js";

/**
 * The package as a user's project gets it (see installPackedPackage): the packed package installed
 * in a fresh project. Scripts run there with the project as working directory.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let project: string;

beforeAll(() => {
  project = newProject("glass-installed-");
  installPackedPackage(project);
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs a script in the user's project and returns what it printed as JSON. */
function runInProject(file: string, source: string): Record<string, unknown> {
  writeFileSync(join(project, file), source);
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" })) as Record<
    string,
    unknown
  >;
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
    expect(out).toEqual({
      requests: 16,
      path: join(project, "node_modules", "glass-sdk", "fixtures", "protocol-golden-v1.json"),
    });
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

/** The first ```ts block under the README heading `heading` (e.g. "## Usage"), as JavaScript: its types erased, nothing else changed. */
function readmeExample(heading: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README.md has no heading ${heading}`);
  const section = readme.slice(start + heading.length + 2).split(/\n## /)[0]!;
  const block = /```ts\n([\s\S]*?)\n```/.exec(section);
  if (block === null) throw new Error(`README.md has no ts block under ${heading}`);
  return ts.transpileModule(block[1]!, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** Runs a script in the user's project (bounded in time: a hung daemon fails the test) and returns what it printed. */
function runScript(file: string, source: string): string {
  writeFileSync(join(project, file), source);
  return execFileSync(process.execPath, [file], {
    cwd: project,
    encoding: "utf8",
    timeout: 30_000,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

describe("the README's examples in a user's project that installed the packed package", () => {
  it("runs the usage example as written: it starts the package's mock daemon (npx glass-sdk mock-daemon), observes, types with the observed revision and closes", () => {
    expect(runScript("usage.mjs", readmeExample("## Usage"))).toMatch(
      /^typed into Email at revision 1: execution act_\d+\n$/,
    );
  }, 40_000);

  it("runs the testing example as written: a mock with a typed handler, no daemon and no test framework", () => {
    expect(runScript("testing.mjs", readmeExample("## Testing your code"))).toBe("the mock answered browser.getText\n");
  }, 40_000);
});

describe("a folder install (npm install <folder>) of a checkout that was never built", () => {
  let checkout: string | undefined;
  let user: string | undefined;
  afterAll(() => {
    for (const dir of [checkout, user]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("builds dist/ with the package's prepare script, and the project imports glass-sdk and runs its command", () => {
    // The repository's files as a clone has them (tracked, and new files not ignored), without dist/.
    checkout = mkdtempSync(join(tmpdir(), "glass-checkout-"));
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
      cwd: ROOT,
      encoding: "utf8",
    }).split("\0");
    for (const file of files.filter((name) => name !== "" && name !== "node_modules" && existsSync(join(ROOT, name)))) {
      mkdirSync(dirname(join(checkout, file)), { recursive: true });
      cpSync(join(ROOT, file), join(checkout, file));
    }
    symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
    expect(existsSync(join(checkout, "dist"))).toBe(false);

    user = newProject("glass-folder-install-");
    execFileSync("npm", [...NPM_INSTALL, checkout], {
      cwd: user,
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 240_000,
    });
    expect(existsSync(join(checkout, "dist", "index.js"))).toBe(true);

    writeFileSync(
      join(user, "folder.mjs"),
      `
import { Glass } from "glass-sdk";
import { createMockGlass } from "glass-sdk/testing";

const mock = createMockGlass({ handlers: { "browser.getText": () => ({ text: "from a folder install" }) } });
const glass = await Glass.connect(mock.transport());
console.log(JSON.stringify(await glass.browser.getText({})));
await glass.close();
`,
    );
    expect(execFileSync(process.execPath, ["folder.mjs"], { cwd: user, encoding: "utf8", timeout: 30_000 })).toBe(
      '{"text":"from a folder install"}\n',
    );
    expect(
      execFileSync("npx", ["--no-install", "glass-sdk", "--help"], { cwd: user, encoding: "utf8", timeout: 30_000 }),
    ).toContain("Usage: glass-sdk <command>");
  }, 300_000);
});
