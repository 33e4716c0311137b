// A tiny stand-in for the Glass daemon, for transport tests: run it with `node echo-peer.mjs`.
// It reads MCP frames on stdin (newline-delimited or Content-Length, decoded here independently of
// the SDK's reader) and answers every request in the request's framing with
// `{jsonrpc, id, result: {framing, bytes, params, pid}}`, so a test can see how its message went out.
//
// Methods with an effect:
//   stderr  {text}           writes text to stderr, then answers
//   exit    {code, stderr?, signal?}  writes stderr (if any) and exits with the code (or kills itself
//                            with the signal), without answering
//   raw     {text}           writes text to stdout as it is (a bad frame, a partial one), no answer
//   initialize               answered like any request, plus the MCP protocolVersion asked for and a
//                            serverInfo; with --glass also a `glass` manifest, so a client takes the
//                            peer for a Glass daemon
//   tools/call               answered as an MCP tool result whose text is the JSON of {framing, bytes}
// Flags:
//   --glass                  identifies itself as a Glass daemon in its answer to initialize
//   --ignore-eof             keeps running after stdin ends, and ignores SIGTERM (only SIGKILL stops it)
//   --stderr-at-start TEXT   writes TEXT to stderr at once

const args = process.argv.slice(2);
const ignoreEof = args.includes("--ignore-eof");
const glass = args.includes("--glass");
const startIndex = args.indexOf("--stderr-at-start");
if (startIndex !== -1) process.stderr.write(args[startIndex + 1] ?? "");
if (ignoreEof) {
  process.on("SIGTERM", () => {});
  setInterval(() => {}, 1000);
}

/** The capability manifest the peer shows with --glass (§3: what a Glass daemon's initialize result carries). */
const GLASS_MANIFEST = {
  protocolVersion: 1,
  glassVersion: "0.0.0-echo",
  schemas: {},
  capabilities: {},
  constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
};

let buffer = Buffer.alloc(0);

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const frame = takeFrame();
    if (frame === undefined) break;
    handle(frame);
  }
});
process.stdin.on("end", () => {
  if (!ignoreEof) process.exit(0);
});

function takeFrame() {
  if (buffer.length === 0) return undefined;
  if (buffer.subarray(0, 15).toString("latin1").toLowerCase() === "content-length:") {
    const headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd === -1) return undefined;
    const length = Number(buffer.subarray(15, headerEnd).toString("latin1").trim());
    const start = headerEnd + 4;
    if (buffer.length < start + length) return undefined;
    const body = buffer.subarray(start, start + length);
    buffer = buffer.subarray(start + length);
    return { framing: "content-length", body };
  }
  const lineFeed = buffer.indexOf(10);
  if (lineFeed === -1) return undefined;
  const body = buffer.subarray(0, lineFeed);
  buffer = buffer.subarray(lineFeed + 1);
  return { framing: "newline", body };
}

function handle({ framing, body }) {
  const message = JSON.parse(body.toString("utf8"));
  const params = message.params ?? {};
  if (message.method === "exit") {
    // Writes to pipes are synchronous on Linux and macOS, so nothing is lost by exiting at once.
    if (params.stderr) process.stderr.write(params.stderr);
    if (params.signal) process.kill(process.pid, params.signal);
    process.exit(params.code ?? 0);
  }
  if (message.method === "raw") {
    process.stdout.write(params.text);
    return;
  }
  if (message.method === "stderr") process.stderr.write(params.text);
  if (message.id === undefined) return;
  const result = resultFor(message, framing, body.length);
  const json = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
  const out = Buffer.from(json, "utf8");
  if (framing === "newline") process.stdout.write(Buffer.concat([out, Buffer.from("\n")]));
  else process.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${out.length}\r\n\r\n`), out]));
}

/** What the peer answers: how the request arrived, shaped for the method. */
function resultFor(message, framing, bytes) {
  const params = message.params ?? {};
  if (message.method === "tools/call") return { content: [{ type: "text", text: JSON.stringify({ framing, bytes }) }] };
  const result = { framing, bytes, params, pid: process.pid };
  if (message.method === "initialize") {
    result.protocolVersion = params.protocolVersion;
    result.serverInfo = { name: "echo-peer", version: "1.0.0" };
    if (glass) result.glass = GLASS_MANIFEST;
  }
  return result;
}
