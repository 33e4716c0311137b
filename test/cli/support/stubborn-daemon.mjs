// A daemon that does not go away by itself, run as `node stubborn-daemon.mjs <pid-file>`: it writes
// its pid to <pid-file>, answers MCP `initialize` (JSON lines on stdin/stdout) and any other request
// with -32601, and ignores the end of stdin, SIGTERM, SIGHUP and SIGINT. Only SIGKILL ends it: what
// a process that starts it must be ready to send.
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

writeFileSync(process.argv[2], String(process.pid));
for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"]) process.on(signal, () => undefined);
setInterval(() => undefined, 60_000);
process.stdout.on("error", () => undefined);

createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message === null || typeof message !== "object" || message.id === undefined) return;
  const answer =
    message.method === "initialize"
      ? {
          result: {
            protocolVersion: message.params?.protocolVersion ?? "2024-11-05",
            capabilities: { tools: {} },
            serverInfo: { name: "stubborn-daemon", version: "1.0.0" },
          },
        }
      : { error: { code: -32601, message: "method not found" } };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, ...answer })}\n`);
});
