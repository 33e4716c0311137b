// @ts-check
/**
 * One cold-start sample of `npm run bench`, in a fresh `node` process (plain node, no tsx, so
 * nothing but the package is loaded): bench/sections/cold-start.ts runs it once per mode and
 * sample. Prints one JSON line of milliseconds.
 *
 *   client DAEMON SOCKET   await import("glass-sdk") then "glass-sdk/node" (the built package, by its
 *                          name); Glass.connect(stdioTransport(DAEMON)), which spawns the fast mock
 *                          daemon, and the first call; then Glass.connect(socketTransport(SOCKET)) to
 *                          the running daemon (the handshake without a spawn)
 *   spawn-daemon DAEMON    spawn the daemon and write initialize at once: time to its first answer (no SDK)
 *   import-mcp             import the MCP SDK's Client and StreamableHTTPClientTransport, for comparison
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const [mode, daemonJson, socketPath] = process.argv.slice(2);

/** @param {Record<string, number>} figures */
function print(figures) {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

if (mode === "client") {
  const t0 = performance.now();
  const { Glass } = await import("glass-sdk");
  const t1 = performance.now();
  const { socketTransport, stdioTransport } = await import("glass-sdk/node");
  const t2 = performance.now();
  const glass = await Glass.connect(stdioTransport(JSON.parse(String(daemonJson))));
  const t3 = performance.now();
  await glass.browser.observe({ level: "summary" });
  const t4 = performance.now();
  await glass.close();
  const t5 = performance.now();
  const shared = await Glass.connect(socketTransport({ path: String(socketPath) }));
  const t6 = performance.now();
  await shared.close();
  print({
    importMs: t1 - t0,
    importNodeMs: t2 - t1,
    connectStdioMs: t3 - t2,
    firstCallMs: t4 - t3,
    connectSocketMs: t6 - t5,
  });
} else if (mode === "spawn-daemon") {
  const { command, args } = JSON.parse(String(daemonJson));
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "cold-start", version: "1" } },
  };
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const t1 = performance.now();
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  print({ spawnToAnswerMs: t1 - t0 });
} else if (mode === "import-mcp") {
  const t0 = performance.now();
  await import("@modelcontextprotocol/sdk/client/index.js");
  await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  print({ importMs: performance.now() - t0 });
} else {
  throw new Error(`unknown mode ${mode}`);
}
