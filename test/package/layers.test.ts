import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The layer rules of .dependency-cruiser.cjs (`npm run lint:deps`), run on small trees laid out
 * like the package: the target layout passes, the old `src/node → src/testing` edges fail, and each
 * layer's forbidden edge is reported by the rule named for it.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DEPCRUISE = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");

type Tree = Record<string, string>;

/** Every layer, each importing what it may: core, mock daemon, testing kit, MSW, Node server, node, cli. */
const LAYOUT: Tree = {
  "src/index.ts": `export { connect } from "./client/connect.js";\nexport { GlassError } from "./errors/glass-error.js";\n`,
  "src/protocol.ts": `export { catalog } from "../generated/catalog.js";\n`,
  "src/errors/glass-error.ts": `export class GlassError extends Error {}\n`,
  // A package only on demand, as the WebSocket transport loads `ws`.
  "src/client/connect.ts": `import { GlassError } from "../errors/glass-error.js";\nexport async function connect(): Promise<unknown> {\n  if (globalThis.WebSocket === undefined) return (await import("ws")).default;\n  throw new GlassError("no");\n}\n`,
  "generated/catalog.ts": `import type { GlassError } from "../src/errors/glass-error.js";\nexport const catalog: GlassError[] = [];\n`,
  "src/mock-daemon/daemon.ts": `import { catalog } from "../../generated/catalog.js";\nimport { GlassError } from "../errors/glass-error.js";\nexport const daemon = { catalog, GlassError };\n`,
  // A `node:` module only through a dynamic import inside the function that needs it, as loadFixture does.
  "src/testing/index.ts": `import { daemon } from "../mock-daemon/daemon.js";\nexport { daemon };\nexport async function loadFixture(path: string): Promise<string> {\n  const { readFile } = await import("node:fs/promises");\n  return readFile(path, "utf8");\n}\n`,
  "src/testing/msw/handlers.ts": `import { http } from "msw";\nimport { daemon } from "../../mock-daemon/daemon.js";\nimport { loadFixture } from "../index.js";\nexport const handlers = { http, daemon, loadFixture };\n`,
  "src/testing/node/server.ts": `import { createServer } from "node:http";\nimport { daemon } from "../../mock-daemon/daemon.js";\nimport { encodeFrame } from "../../node/framing.js";\nimport { loadFixture } from "../index.js";\nexport const server = { createServer, daemon, encodeFrame, loadFixture };\n`,
  "src/node/framing.ts": `import type { Socket } from "node:net";\nimport { GlassError } from "../errors/glass-error.js";\nexport function encodeFrame(socket: Socket): void {\n  if (!socket) throw new GlassError("no socket");\n}\n`,
  "src/cli/main.ts": `import { handlers } from "../testing/msw/handlers.js";\nimport { server } from "../testing/node/server.js";\nimport { encodeFrame } from "../node/framing.js";\nexport const cli = { handlers, server, encodeFrame };\n`,
  "codegen/main.ts": `export const generate = (): void => {};\n`,
};

/** The layout before the mock-daemon core moved: src/node built on the testing kit, and back. */
const OLD_LAYOUT: Tree = {
  ...LAYOUT,
  "src/testing/daemon/mcp-server-session.ts": `import type { FrameEncoding } from "../../node/framing/encode-frame.js";\nexport class McpServerSession {\n  encoding?: FrameEncoding;\n}\n`,
  "src/node/framing/encode-frame.ts": `export type FrameEncoding = "lines" | "headers";\n`,
  "src/node/mock-daemon/start-mock-daemon.ts": `import { McpServerSession } from "../../testing/daemon/mcp-server-session.js";\nexport const start = (): McpServerSession => new McpServerSession();\n`,
};

/** One forbidden edge per file, beside the edges of LAYOUT; the rule each must be reported by. */
const FORBIDDEN: { file: string; text: string; rule: string }[] = [
  {
    file: "src/errors/uses-node.ts",
    text: `import { encodeFrame } from "../node/framing.js";\nexport const x = encodeFrame;\n`,
    rule: "core-imports-core",
  },
  {
    file: "src/transport/uses-testing.ts",
    text: `export const x = () => import("../testing/index.js");\n`,
    rule: "core-imports-core",
  },
  { file: "src/client/uses-fs.ts", text: `export const x = () => import("node:fs");\n`, rule: "core-no-node-builtins" },
  {
    file: "generated/uses-path.ts",
    text: `import { join } from "node:path";\nexport const x = join;\n`,
    rule: "core-no-node-builtins",
  },
  {
    file: "src/transport/static-ws.ts",
    text: `import WebSocket from "ws";\nexport const x = WebSocket;\n`,
    rule: "core-packages-on-demand",
  },
  {
    file: "src/mock-daemon/uses-testing.ts",
    text: `import { loadFixture } from "../testing/index.js";\nexport const x = loadFixture;\n`,
    rule: "mock-daemon-imports-core",
  },
  {
    file: "src/mock-daemon/uses-fs.ts",
    text: `export const x = () => import("node:fs");\n`,
    rule: "mock-daemon-imports-core",
  },
  {
    file: "src/testing/uses-node.ts",
    text: `import type { encodeFrame } from "../node/framing.js";\nexport type X = typeof encodeFrame;\n`,
    rule: "testing-kit-platform-free",
  },
  {
    file: "src/testing/uses-server.ts",
    text: `import { server } from "./node/server.js";\nexport const x = server;\n`,
    rule: "testing-kit-platform-free",
  },
  {
    file: "src/testing/static-fs.ts",
    text: `import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n`,
    rule: "testing-kit-node-builtins-on-demand",
  },
  {
    file: "src/testing/uses-msw.ts",
    text: `import { http } from "msw";\nexport const x = http;\n`,
    rule: "msw-only-in-testing-msw",
  },
  {
    file: "src/testing/msw/uses-node.ts",
    text: `import { encodeFrame } from "../../node/framing.js";\nexport const x = encodeFrame;\n`,
    rule: "testing-msw-layers",
  },
  {
    file: "src/testing/node/uses-cli.ts",
    text: `import { cli } from "../../cli/main.js";\nexport const x = cli;\n`,
    rule: "testing-node-not-cli",
  },
  {
    file: "src/node/uses-testing.ts",
    text: `import { loadFixture } from "../testing/index.js";\nexport const x = loadFixture;\n`,
    rule: "node-imports-core",
  },
  {
    file: "src/node/uses-mock-daemon.ts",
    text: `import { daemon } from "../mock-daemon/daemon.js";\nexport const x = daemon;\n`,
    rule: "node-imports-core",
  },
  {
    file: "src/cli/uses-codegen.ts",
    text: `import { generate } from "../../codegen/main.js";\nexport const x = generate;\n`,
    rule: "no-codegen-at-run-time",
  },
  {
    file: "src/operations/missing.ts",
    text: `import { gone } from "./gone.js";\nexport const x = gone;\n`,
    rule: "no-unresolvable",
  },
  {
    file: "src/collections/ping.ts",
    text: `import { pong } from "./pong.js";\nexport const ping = (): string => pong();\n`,
    rule: "no-cycles",
  },
];

/** The other half of the cycle (a type-only import counts): depcruise reports a cycle once, from where it finds it. */
const PONG: Tree = {
  "src/collections/pong.ts": `import type { ping } from "./ping.js";\nexport const pong = (): string => "" as ReturnType<typeof ping>;\n`,
};

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Writes the tree into a scratch project (with the package's node_modules) and returns its folder. */
function project(tree: Tree): string {
  const dir = mkdtempSync(join(tmpdir(), "glass-layers-"));
  scratch.push(dir);
  const tsconfig = {
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true },
  };
  const files: Tree = {
    ...tree,
    "tsconfig.json": JSON.stringify(tsconfig),
    "package.json": JSON.stringify({ type: "module" }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the project's rules over src/ and generated/ of the tree: the violations, sorted. */
async function cruise(tree: Tree): Promise<Violation[]> {
  const cwd = project(tree);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [DEPCRUISE, "--config", CONFIG, "--output-type", "json", "src", "generated"],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        // depcruise exits non-zero when it reports an error-level violation; the JSON is on stdout either way.
        if (out.trim().startsWith("{")) resolve(out);
        else reject(new Error(`depcruise gave no report: ${error?.message ?? ""}\n${err}`));
      },
    );
  });
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations
    .map(({ rule, from, to }) => ({ rule: rule.name, from, to }))
    .sort((a, b) => (`${a.from}: ${a.rule}` < `${b.from}: ${b.rule}` ? -1 : 1));
}

describe("layer rules (npm run lint:deps)", () => {
  it("pass on the layout where each layer imports only what it may", async () => {
    expect(await cruise(LAYOUT)).toEqual([]);
  }, 60_000);

  it("fail on the old layout: src/node importing the testing kit, and the testing kit a type from src/node", async () => {
    expect(await cruise(OLD_LAYOUT)).toEqual([
      {
        rule: "node-imports-core",
        from: "src/node/mock-daemon/start-mock-daemon.ts",
        to: "src/testing/daemon/mcp-server-session.ts",
      },
      {
        rule: "testing-kit-platform-free",
        from: "src/testing/daemon/mcp-server-session.ts",
        to: "src/node/framing/encode-frame.ts",
      },
    ]);
  }, 60_000);

  it("report each forbidden edge by the rule of its layer, and nothing else", async () => {
    const tree: Tree = { ...LAYOUT, ...PONG, ...Object.fromEntries(FORBIDDEN.map(({ file, text }) => [file, text])) };
    const found = (await cruise(tree)).map(({ rule, from }) => `${from}: ${rule}`);
    expect(found).toEqual(FORBIDDEN.map(({ rule, file }) => `${file}: ${rule}`).sort());
  }, 60_000);
});
