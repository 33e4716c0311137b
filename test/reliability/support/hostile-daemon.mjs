// A hostile stand-in for the Glass daemon, for the hostile-transport tests. It answers `initialize`
// like a Glass daemon (a manifest, so the client takes it for one), and the client's connect-time
// `tools/list` like one too (listing --tools, comma-separated, default `click`: the tools the tests
// call), then misbehaves as --behaviour says. Over stdio by default; with --socket PATH it listens
// on that Unix socket instead and prints "listening" on stdout once it does. Plain JavaScript, no
// dependencies: run it with `node`.
//
// Behaviours:
//   lying-length   before its first answer after the handshake (initialize, then tools/list),
//                  writes `Content-Length: <--length>` (default 2^40) and an empty line, then
//                  answers every request properly: a reader that believes the header skips every
//                  later answer; with --heartbeat-ms N it also writes a notification line every
//                  N ms from then on (bytes keep coming)
//   deaf           after `notifications/initialized`, never reads again (the client's writes pile
//                  up); a client that reads the tool list next (Glass.connect) is never answered,
//                  so its users do the handshake by hand, without tools/list

import { createServer } from "node:net";

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const behaviour = option("--behaviour") ?? "lying-length";
const socketPath = option("--socket");
const lyingLength = Number(option("--length") ?? 2 ** 40);
const heartbeatMs = option("--heartbeat-ms") === undefined ? undefined : Number(option("--heartbeat-ms"));
const tools = (option("--tools") ?? "click").split(",").filter((name) => name !== "");

const MANIFEST = {
  protocolVersion: 1,
  glassVersion: "0.0.0-hostile",
  schemas: {},
  capabilities: {},
  constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
};

/** Serves one connection: `input` the bytes from the client, `output` where answers go. */
function serve(input, output) {
  let buffer = Buffer.alloc(0);
  let lied = false;
  const write = (message) => output.write(`${JSON.stringify(message)}\n`);
  input.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let lineFeed = buffer.indexOf(10); lineFeed !== -1; lineFeed = buffer.indexOf(10)) {
      const line = buffer.subarray(0, lineFeed).toString("utf8");
      buffer = buffer.subarray(lineFeed + 1);
      if (line.trim() !== "") handle(JSON.parse(line));
    }
  });

  function handle(message) {
    if (message.method === "initialize") {
      write({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "hostile", version: "1" },
          glass: MANIFEST,
        },
      });
      return;
    }
    if (message.method === "tools/list" && message.id !== undefined && !lied) {
      // Part of the handshake: the lie comes after it, on the first call.
      write({
        jsonrpc: "2.0",
        id: message.id,
        result: { tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })) },
      });
      return;
    }
    if (message.method === "notifications/initialized") {
      if (behaviour === "deaf") {
        input.pause();
        setInterval(() => {}, 60_000); // a paused stdin no longer keeps the process alive
      }
      return;
    }
    if (message.id === undefined) return;
    if (behaviour === "lying-length" && !lied) {
      lied = true;
      output.write(`Content-Length: ${lyingLength}\r\n\r\n`);
      if (heartbeatMs !== undefined) {
        const heartbeat = setInterval(
          () => write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "debug", data: "alive" } }),
          heartbeatMs,
        );
        heartbeat.unref();
        output.on("close", () => clearInterval(heartbeat));
      }
    }
    const result =
      message.method === "tools/call"
        ? { content: [{ type: "text", text: "browser tool failed" }], isError: true }
        : {};
    write({ jsonrpc: "2.0", id: message.id, result });
  }
}

if (socketPath === undefined) {
  serve(process.stdin, process.stdout);
  process.stdin.on("end", () => process.exit(0));
} else {
  const server = createServer((socket) => {
    socket.on("error", () => {});
    serve(socket, socket);
  });
  server.listen(socketPath, () => process.stdout.write("listening\n"));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
