import { spawn } from "node:child_process";
import { createConnection } from "node:net";
import type { Readable, Writable } from "node:stream";
import { WebSocket } from "ws";
import type { BenchClient, BenchTargets, TransportName } from "./bench-client.js";

/**
 * The raw baselines: the least a client can do on each wire — write the JSON-RPC message, read
 * the answer, `JSON.parse` it, match it by id in one pending map — with the same handshake
 * (initialize + notifications/initialized) and no validation, no mapping, no deadlines. The floor
 * glass-sdk cannot beat. A JSON-RPC error still rejects the call (so a failing run cannot look fast).
 *
 * With `parseContent` (client "raw-parsed", the raw floor of the targets) each call also
 * `JSON.parse`s the tool result's text item (`content[0].text`) and hands back that value, as
 * glass-sdk must; without it (client "raw") the call hands back the MCP result unparsed.
 */

interface RawReply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const INITIALIZE = {
  protocolVersion: "2024-11-05",
  capabilities: {},
  clientInfo: { name: "raw-baseline", version: "1.0.0" },
};
/** The daemon's limit for a JSON line; larger requests go with Content-Length (§5), as glass-sdk sends them. */
const NEWLINE_LIMIT = 8192;
const CONTENT_LENGTH = "Content-Length: ".length;

/** Opens the raw baseline over one transport; with `parseContent`, the raw floor ("raw-parsed"). */
export async function openRawClient(
  transport: TransportName,
  targets: BenchTargets,
  parseContent = false,
): Promise<BenchClient> {
  const finish = parseContent ? contentOf : resultOf;
  switch (transport) {
    case "stdio": {
      const child = spawn(targets.stdioDaemon.command, targets.stdioDaemon.args, { stdio: ["pipe", "pipe", "ignore"] });
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      return streamClient(transport, targets, finish, child.stdout, child.stdin, async () => {
        child.stdin.end();
        await exited;
      });
    }
    case "socket": {
      const socket = createConnection(targets.socketPath);
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      return streamClient(transport, targets, finish, socket, socket, async () => {
        socket.end();
        await closed;
      });
    }
    case "http":
      return httpClient(targets, finish);
    case "websocket":
      return webSocketClient(targets, finish);
  }
}

function toolCall(targets: BenchTargets, key: string): { name: string; arguments: Record<string, unknown> } {
  const op = targets.operations[key]!;
  return { name: op.tool, arguments: op.payload };
}

function resultOf(reply: RawReply): Record<string, unknown> {
  if (reply.error !== undefined) throw new Error(`JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  return reply.result!;
}

/** The tool result's text item parsed: what glass-sdk hands its caller (raw-parsed). */
function contentOf(reply: RawReply): unknown {
  return JSON.parse((resultOf(reply) as { content: { text: string }[] }).content[0]!.text) as unknown;
}

const nameOf = (finish: (reply: RawReply) => unknown): "raw" | "raw-parsed" =>
  finish === contentOf ? "raw-parsed" : "raw";

/** stdio and the socket: JSON lines (Content-Length above 8 KiB), a line/Content-Length splitter, JSON.parse. */
async function streamClient(
  transport: TransportName,
  targets: BenchTargets,
  finish: (reply: RawReply) => unknown,
  readable: Readable,
  writable: Writable,
  end: () => Promise<void>,
): Promise<BenchClient> {
  const pending = new Map<number, (reply: RawReply) => void>();
  let nextId = 1;
  const deliver = (text: string): void => {
    const reply = JSON.parse(text) as RawReply;
    const resolve = pending.get(reply.id!);
    if (resolve === undefined) return;
    pending.delete(reply.id!);
    resolve(reply);
  };
  // A frame that spans chunks waits as a list of chunks, joined once when it is complete (its
  // Content-Length reached, or a newline arrived): never a copy per chunk, which grows quadratically
  // with a large message.
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let expected = 0; // the bytes the partial frame needs in all, when its header has been read; else 0
  readable.on("data", (chunk: Buffer) => {
    let bytes = chunk;
    if (partialBytes > 0) {
      const complete = expected > 0 ? partialBytes + chunk.length >= expected : chunk.includes(0x0a);
      partial.push(chunk);
      partialBytes += chunk.length;
      if (!complete) return;
      bytes = Buffer.concat(partial, partialBytes);
      partial = [];
      partialBytes = 0;
      expected = 0;
    }
    let at = 0;
    while (at < bytes.length) {
      if (bytes[at] === 0x43 /* "C"ontent-Length */) {
        const headerEnd = bytes.indexOf("\r\n\r\n", at);
        if (headerEnd === -1) break;
        const start = headerEnd + 4;
        const end = start + Number(bytes.toString("latin1", at + CONTENT_LENGTH, headerEnd));
        if (bytes.length < end) {
          expected = end - at;
          break;
        }
        deliver(bytes.toString("utf8", start, end));
        at = end;
        continue;
      }
      const lineFeed = bytes.indexOf(0x0a, at);
      if (lineFeed === -1) break;
      if (lineFeed > at) deliver(bytes.toString("utf8", at, lineFeed));
      at = lineFeed + 1;
    }
    if (at < bytes.length) {
      partial = [bytes.subarray(at)];
      partialBytes = bytes.length - at;
    }
  });
  const write = (message: Record<string, unknown>): void => {
    const line = Buffer.from(`${JSON.stringify(message)}\n`, "utf8");
    const bodyBytes = line.length - 1;
    if (bodyBytes <= NEWLINE_LIMIT) {
      writable.write(line);
      return;
    }
    writable.write(`Content-Length: ${bodyBytes}\r\n\r\n`);
    writable.write(line.subarray(0, bodyBytes));
  };
  const request = (method: string, params: unknown): Promise<RawReply> => {
    const id = nextId++;
    const answer = new Promise<RawReply>((resolve) => pending.set(id, resolve));
    write({ jsonrpc: "2.0", id, method, params });
    return answer;
  };
  resultOf(await request("initialize", INITIALIZE));
  write({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    transport,
    client: nameOf(finish),
    call: async (payload) => finish(await request("tools/call", toolCall(targets, payload))),
    close: end,
  };
}

/** HTTP: a plain `fetch` POST per message with the session header; `JSON.parse` of the body. */
async function httpClient(targets: BenchTargets, finish: (reply: RawReply) => unknown): Promise<BenchClient> {
  const { url, token } = targets.bridge;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  let nextId = 1;
  const post = async (message: Record<string, unknown>): Promise<Response> => {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return response;
  };
  const initialized = await post({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: INITIALIZE });
  resultOf(JSON.parse(await initialized.text()) as RawReply);
  headers["Mcp-Session-Id"] = initialized.headers.get("mcp-session-id")!;
  headers["MCP-Protocol-Version"] = INITIALIZE.protocolVersion;
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).text();
  return {
    transport: "http",
    client: nameOf(finish),
    call: async (payload) => {
      const response = await post({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: toolCall(targets, payload),
      });
      return finish(JSON.parse(await response.text()) as RawReply);
    },
    close: async () => {
      await (await fetch(url, { method: "DELETE", headers })).text();
    },
  };
}

/** WebSocket: the `ws` client, one text frame per message, `JSON.parse` per frame. */
async function webSocketClient(targets: BenchTargets, finish: (reply: RawReply) => unknown): Promise<BenchClient> {
  const socket = new WebSocket(targets.bridge.wsUrl, ["mcp"], {
    headers: { Authorization: `Bearer ${targets.bridge.token}` },
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const pending = new Map<number, (reply: RawReply) => void>();
  let nextId = 1;
  socket.on("message", (data: Buffer) => {
    const reply = JSON.parse(data.toString("utf8")) as RawReply;
    const resolve = pending.get(reply.id!);
    if (resolve === undefined) return;
    pending.delete(reply.id!);
    resolve(reply);
  });
  const request = (method: string, params: unknown): Promise<RawReply> => {
    const id = nextId++;
    const answer = new Promise<RawReply>((resolve) => pending.set(id, resolve));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return answer;
  };
  resultOf(await request("initialize", INITIALIZE));
  socket.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    transport: "websocket",
    client: nameOf(finish),
    call: async (payload) => finish(await request("tools/call", toolCall(targets, payload))),
    close: async () => {
      socket.close(1000);
      await closed;
    },
  };
}
