import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { buildSync, transform } from "esbuild";
import { defaultSocketPath } from "glass-sdk/node";
import { startMockDaemon } from "glass-sdk/testing/node";
import type { CodeBlock } from "./doc-examples.js";
import { ROOT } from "./doc-examples.js";

/**
 * Where documentation examples run: a project of their own in a temporary directory that has
 * installed glass-sdk (`node_modules/glass-sdk` is this repository, so `glass-sdk*` imports load the
 * built dist/ through the package's exports, and `npx glass-sdk` runs its CLI), with the
 * repository's other packages beside it (ky, msw, vitest …). Everything an example may reach for as
 * "a real daemon" is the mock daemon there:
 *
 * - `glass --mcp` is an executable on PATH that runs `glass-sdk mock-daemon` over stdio;
 * - the daemon's default socket path (`defaultSocketPath()`, under the example's own HOME and
 *   XDG_DATA_HOME) has a mock daemon of the example's own listening, so `socketTransport()` finds it;
 * - when asked, the bridge (`glass-sdk bridge`) listens at its default address,
 *   http://127.0.0.1:8787/mcp, in front of that socket, with GLASS_BRIDGE_TOKEN set for both.
 *
 * GLASS_SOCKET, GLASS_COMMAND and the other GLASS_* variables of the environment are removed, so a
 * daemon set up for everyday use is never reached; npm runs offline.
 */

/** What examples are compiled for: the oldest Node the package supports (`engines`), import attributes included. */
const TARGET = "node20.19";

/** The bridge's default port (`glass-sdk bridge`), where the examples expect it. */
export const BRIDGE_PORT = 8787;

/** The temporary project the examples run in. */
export interface ExampleProject {
  readonly dir: string;
  /** Removes the project and everything run in it. */
  close(): void;
}

/** Creates the project; throws when dist/ has not been built (`npm run build`; `npm test` does it first). */
export function createExampleProject(): ExampleProject {
  const cli = join(ROOT, "dist", "cli.js");
  if (!existsSync(cli))
    throw new Error("dist/cli.js is missing: run `npm run build` first (`npm test` builds dist/ before it runs)");
  const dir = mkdtempSync(join(tmpdir(), "glass-doc-examples-"));
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "glass-doc-examples", private: true, type: "module" }, null, 2)}\n`,
  );
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (!name.startsWith(".")) symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  }
  symlinkSync(ROOT, join(modules, "glass-sdk"));
  symlinkSync(cli, join(modules, ".bin", "glass-sdk"));
  // The daemon as the docs start it, `glass --mcp`: here the package's mock daemon over stdio.
  mkdirSync(join(dir, "bin"));
  const glass = join(dir, "bin", "glass");
  writeFileSync(
    glass,
    [
      "#!/bin/sh",
      "# The documentation's `glass --mcp`, played by the mock daemon of glass-sdk.",
      `[ "$*" = "--mcp" ] || { echo "glass: only --mcp is played here, not: $*" >&2; exit 2; }`,
      `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} mock-daemon`,
      "",
    ].join("\n"),
  );
  chmodSync(glass, 0o755);
  mkdirSync(join(dir, "runs"));
  // The runner and its preludes, compiled once (the examples import glass-sdk from node_modules, and so do they).
  buildSync({
    entryPoints: [join(ROOT, "test", "support", "doc-example-runner.ts")],
    outfile: join(dir, "runner.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: TARGET,
    external: ["glass-sdk", "glass-sdk/*"],
    logLevel: "silent",
  });
  return { dir, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One run: examples run one after the other, in one process and one directory. */
export interface ExampleRunUnit {
  /** A short name for the run's directory (the default socket path under it has at most 107 bytes). */
  id: string;
  blocks: readonly CodeBlock[];
  /** Preludes to define first (doc-example-preludes.ts), e.g. `glass:leases`, `token`. */
  preludes: readonly string[];
  /** Run the bridge at 127.0.0.1:8787 in front of the mock daemon's socket. */
  bridge: boolean;
  /** The examples are a vitest test file: run it with `vitest run`. */
  vitest: boolean;
  /** Give Node 20 the global WebSocket (`--experimental-websocket`), as MSW's WebSocket handlers need. */
  webSocketFlag: boolean;
  timeoutMs: number;
}

/** How a run ended. */
export interface ExampleRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment of an example's process, with HOME (and so the default socket path) in `home`. */
function exampleEnv(project: ExampleProject, home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(?:GLASS_|VITEST|VITE_|npm_|DEBUG$|NODE_OPTIONS$|INIT_CWD$|XDG_DATA_HOME$)/.test(name)) env[name] = value;
  }
  return {
    ...env,
    PATH: `${join(project.dir, "bin")}:${process.env.PATH ?? ""}`,
    HOME: home,
    XDG_DATA_HOME: join(home, ".local", "share"),
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...extra,
  };
}

/**
 * TSDoc examples of internal modules import them as `./module.js`: such a module is compiled from
 * its source next to the example, so the import resolves.
 */
function compileRelativeImports(block: CodeBlock, dir: string): void {
  for (const [, specifier] of block.code.matchAll(/from\s+"(\.[^"]*)"/g)) {
    if (!/^\.\/[\w.-]+\.js$/.test(specifier!))
      throw new Error(`${block.name}: only ./module.js imports can be resolved, not ${specifier}`);
    const source = join(ROOT, dirname(block.file), specifier!.replace(/\.js$/, ".ts"));
    if (!existsSync(source)) throw new Error(`${block.name}: ${specifier} is not a file next to ${block.file}`);
    buildSync({
      entryPoints: [source],
      outfile: join(dir, basename(specifier!)),
      bundle: true,
      platform: "node",
      format: "esm",
      target: TARGET,
      logLevel: "silent",
    });
  }
}

/** The bridge runs one at a time: they share the port. */
let bridgeTurn: Promise<void> = Promise.resolve();

/** Starts `glass-sdk bridge` (port 8787, upstream the default socket) and resolves once it listens. */
async function startBridgeProcess(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ stop(): Promise<void>; log(): string }> {
  const child = spawn(process.execPath, [join(ROOT, "dist", "cli.js"), "bridge", "--port", String(BRIDGE_PORT)], {
    cwd,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const listening = new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      if (log.includes("listening on")) resolve();
    });
    void exited.then(() => reject(new Error(`glass-sdk bridge exited before listening:\n${log}`)));
    setTimeout(() => reject(new Error(`glass-sdk bridge did not listen within 10 s:\n${log}`)), 10_000).unref();
  });
  try {
    await listening;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

function runProcess(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<Omit<ExampleRunResult, "ms">> {
  return new Promise((resolve) => {
    let child: ChildProcess | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child?.kill("SIGKILL");
    }, timeoutMs);
    child = execFile(process.execPath, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      clearTimeout(timer);
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, signal: child?.signalCode ?? null, timedOut, stdout, stderr });
    });
  });
}

/**
 * Runs the unit's examples, each file as written, in a directory of their own under the project,
 * with a mock daemon of their own on the default socket path (and the bridge, if asked), and
 * resolves with how the process ended. The unit's directory is removed afterwards.
 */
export async function runExamples(project: ExampleProject, unit: ExampleRunUnit): Promise<ExampleRunResult> {
  const started = Date.now();
  const dir = join(project.dir, "runs", unit.id);
  const home = join(dir, "h");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString("base64url");
  const env = exampleEnv(project, home, {
    ...(unit.preludes.length > 0 ? { GLASS_EXAMPLE_PRELUDES: unit.preludes.join(",") } : {}),
    ...(unit.bridge ? { GLASS_BRIDGE_TOKEN: token } : {}),
  });
  // Each example as written, compiled as tsx would compile it (a vitest file is left to vitest).
  const files = unit.vitest ? ["example.test.ts"] : unit.blocks.map((_, i) => `example-${i + 1}.mjs`);
  // node_modules/glass-sdk is a link: vitest keeps the link's path, so it loads the package as a
  // dependency in node_modules (as from an installed copy) instead of transforming dist/ as sources.
  if (unit.vitest)
    writeFileSync(join(dir, "vitest.config.mjs"), "export default { resolve: { preserveSymlinks: true } };\n");
  for (const [i, block] of unit.blocks.entries()) {
    const code = unit.vitest
      ? block.code
      : (await transform(block.code, { loader: "ts", format: "esm", target: TARGET, sourcefile: block.name })).code;
    writeFileSync(join(dir, files[i]!), `${code}\n`);
    compileRelativeImports(block, dir);
  }
  const node =
    unit.webSocketFlag && Number(process.versions.node.split(".")[0]) < 22 ? ["--experimental-websocket"] : [];
  const args = unit.vitest
    ? [...node, join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root", dir, "--reporter", "dot"]
    : [...node, join(project.dir, "runner.mjs"), ...files];
  if (unit.vitest && node.length > 0) env.NODE_OPTIONS = node.join(" ");

  const socket = defaultSocketPath({ env, homeDir: home });
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
  const daemon = await startMockDaemon({ socket });

  let release = (): void => {};
  let bridge: Awaited<ReturnType<typeof startBridgeProcess>> | undefined;
  try {
    if (unit.bridge) {
      const previous = bridgeTurn;
      bridgeTurn = new Promise((resolve) => (release = resolve));
      await previous;
      bridge = await startBridgeProcess(env, dir);
    }
    const result = await runProcess(args, dir, env, unit.timeoutMs);
    const bridgeLog = bridge === undefined ? "" : `\n--- the bridge's log ---\n${bridge.log()}`;
    return { ...result, stderr: result.stderr + bridgeLog, ms: Date.now() - started };
  } finally {
    await bridge?.stop();
    release();
    await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
