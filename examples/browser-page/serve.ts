/**
 * Serves the browser-page example: a mock Glass daemon (the simulated shop) on a Unix socket, the
 * bridge in front of it allowing only the page's origin, and the page (index.html and app.ts
 * bundled for the browser) on 127.0.0.1.
 *
 *   npm run build                               the page bundles glass-sdk's build, in dist/
 *   npx tsx examples/browser-page/serve.ts      then open the URL it prints; Ctrl-C stops it
 *
 * The page is bundled as your bundler would bundle it: `glass-sdk` resolves through the package's
 * `exports`, whose `browser` condition names its browser build. `startExample()` starts the same
 * pieces for a test.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { type Bridge, startBridge } from "glass-sdk/node";
import { type MockDaemon, startMockDaemon } from "glass-sdk/testing/node";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Options of {@link startExample}. */
export interface ExampleOptions {
  /** Where the bridge's log lines go (one per session start and end, one per refusal); default stderr. */
  log?: (line: string) => void;
}

/** The example, running: open {@link RunningExample.url} in a browser. */
export interface RunningExample {
  /** The page's address, with the bridge's URL and token in its fragment. It carries the token: share it with no one. */
  readonly url: string;
  /** The page's origin: the one browser origin the bridge lets in. */
  readonly origin: string;
  /** The file `glass-sdk` resolved to when the page was bundled, relative to the repository (`dist/browser/index.js`). */
  readonly glassSdkFile: string;
  /** The bridge between the page and the daemon. */
  readonly bridge: Bridge;
  /** The mock daemon, serving the simulated shop. */
  readonly daemon: MockDaemon;
  /** Stops the bridge, the page server and the daemon, and removes the daemon's socket directory. */
  close(): Promise<void>;
}

/** The page's script, bundled for the browser, and the file `glass-sdk` resolved to. */
export interface PageBundle {
  /**
   * The page's ES modules by URL path (each with an inline source map): `/app.js`, which the page
   * loads, and the chunks it imports, among them the validators of each operation, which glass-sdk
   * loads on the operation's first call.
   */
  readonly files: ReadonlyMap<string, string>;
  /** The file `glass-sdk` resolved to, relative to the repository. */
  readonly glassSdkFile: string;
}

/**
 * Bundles app.ts for the browser with esbuild.
 * @throws Error saying to run `npm run build` when glass-sdk's build cannot be found.
 */
export async function bundlePage(): Promise<PageBundle> {
  const entry = "examples/browser-page/app.ts";
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    sourcemap: "inline",
    // As a production bundler would: code loaded with import() (an operation's validators) goes in
    // chunks of its own, fetched when first needed.
    splitting: true,
    outdir: "page",
    entryNames: "app",
    chunkNames: "chunks/[name]-[hash]",
    write: false,
    metafile: true,
    logLevel: "silent",
    // This repository's tsconfig.json maps `glass-sdk` to src/ for its own scripts and tests; your
    // project has no such mapping. Without it esbuild resolves the name as it would in your project,
    // through package.json's "exports" (here the package refers to itself by name).
    tsconfigRaw: {},
  }).catch((error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot bundle the page: ${why}\nThe page imports glass-sdk's build: run \`npm run build\` first.`,
      { cause: error },
    );
  });
  const outdir = join(ROOT, "page");
  const files = new Map(result.outputFiles.map((file) => [`/${relative(outdir, file.path)}`, file.text]));
  const glassSdkFile = result.metafile.inputs[entry]?.imports.find(
    (imported) => imported.original === "glass-sdk",
  )?.path;
  if (!files.has("/app.js") || glassSdkFile === undefined)
    throw new Error("cannot bundle the page: esbuild produced no bundle, or the page does not import glass-sdk");
  return { files, glassSdkFile };
}

/**
 * Starts the example: bundles the page, starts the mock daemon on a Unix socket in a fresh
 * temporary directory, serves the page on 127.0.0.1 (any free port), and starts the bridge on
 * 127.0.0.1 (any free port) with the daemon's socket upstream and the page's origin as the only
 * allowed origin.
 */
export async function startExample(options: ExampleOptions = {}): Promise<RunningExample> {
  const page = await bundlePage();
  const dir = mkdtempSync(join(tmpdir(), "glass-browser-page-"));
  const socket = join(dir, "glass.sock");
  const started: { daemon?: MockDaemon; server?: Server; bridge?: Bridge } = {};
  const close = async (): Promise<void> => {
    await started.bridge?.close();
    await stopServer(started.server);
    await started.daemon?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const daemon = (started.daemon = await startMockDaemon({ socket }));
    let bridgeUrl: string | undefined;
    const server = (started.server = await servePage(page.files, () => bridgeUrl));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const bridge = (started.bridge = await startBridge({
      upstream: { socket },
      allowedOrigins: [origin],
      ...(options.log ? { log: options.log } : {}),
    }));
    bridgeUrl = bridge.url;
    const fragment = new URLSearchParams({ bridge: bridge.url, token: bridge.token });
    return { url: `${origin}/#${fragment}`, origin, glassSdkFile: page.glassSdkFile, bridge, daemon, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Serves index.html at `/` and the bundle's modules (`/app.js` and its chunks) on 127.0.0.1, with a
 * Content-Security-Policy that allows no eval, no script but the page's own and no connection but
 * to the bridge: glass-sdk needs none.
 */
function servePage(modules: ReadonlyMap<string, string>, bridgeUrl: () => string | undefined): Promise<Server> {
  const html = readFileSync(join(HERE, "index.html"), "utf8");
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://page").pathname;
    if (request.method !== "GET" && request.method !== "HEAD")
      return void response.writeHead(405, { allow: "GET, HEAD" }).end();
    if (path === "/favicon.ico") return void response.writeHead(204).end();
    const script = modules.get(path);
    const body = path === "/" || path === "/index.html" ? html : script;
    if (body === undefined) return void response.writeHead(404).end();
    const bridge = new URL(bridgeUrl() ?? "http://127.0.0.1");
    response.writeHead(200, {
      "content-type": script !== undefined ? "text/javascript; charset=utf-8" : "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src ${bridge.origin} ws://${bridge.host}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

function stopServer(server: Server | undefined): Promise<void> {
  if (server === undefined) return Promise.resolve();
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return stopped;
}

async function main(): Promise<void> {
  const example = await startExample({ log: (line) => process.stderr.write(`bridge: ${line}\n`) });
  console.log("glass-sdk in a web page, through the bridge");
  console.log(`  page:   ${example.origin}, bundled with glass-sdk from ${example.glassSdkFile}`);
  console.log(`  bridge: ${example.bridge.url}, letting in only ${example.origin}`);
  console.log(`  daemon: the mock daemon's simulated shop, on ${example.daemon.socketPath}`);
  console.log("\nOpen this URL (it carries the bridge's token; Ctrl-C stops everything):\n");
  console.log(`  ${example.url}\n`);
  const stop = (): void => {
    example.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
