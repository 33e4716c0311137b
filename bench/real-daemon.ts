/**
 * npm run bench:daemon — the real-daemon section of `npm run bench` on its own: per operation, the
 * latency through glass-sdk and through the official MCP SDK client against glass-browser over
 * stdio, and each client's own CPU per call. Prints a table and writes
 * bench/results/real-daemon.json. Needs the daemon (bash scripts/install-daemon.sh).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RESULTS_DIR } from "./lib/paths.js";
import { measureRealDaemon, realDaemonTable } from "./sections/real-daemon.js";

const quick = process.argv.includes("--quick");
const result = await measureRealDaemon(quick ? 2 : 5, quick ? 2 : 4, (line) =>
  process.stderr.write(`[bench] ${line}\n`),
);
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(
  join(RESULTS_DIR, "real-daemon.json"),
  `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, ...result }, null, 2)}\n`,
);
process.stdout.write(`${realDaemonTable(result)}\n`);
