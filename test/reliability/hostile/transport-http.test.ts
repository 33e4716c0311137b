/**
 * A hostile HTTP server (on 127.0.0.1) against `httpTransport`: answers larger than the protocol's
 * 32 MiB per message. The transport read any answer whole — a JSON body, an SSE event, an SSE line
 * that never ends, an error page — while stdio and the socket cap frames at 32 MiB. Now every read
 * is counted as it streams: past the bound the transport stops reading, cancels the body, and the
 * one call fails with `response.tooLarge` (saying which bound and what to do; `mutationPossible`
 * for a mutation), while the session goes on. The server counts what it managed to write before
 * the client hung up: that, not a clock, proves the client stopped reading.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Glass } from "glass-sdk";
import { httpTransport } from "../../../src/transport/http-transport.js";
import { TransportLimits } from "../../../src/transport/transport.js";
import { createSseParser, SseTooLargeError } from "../../../src/transport/sse-parser.js";
import { clickPayload } from "../support/fault-rig.js";
import { growth } from "../support/growth.js";
import { failure } from "../../support/glass-failure.js";

const MIB = 1024 * 1024;
const LIMIT = TransportLimits.maxMessageBytes;
/** What an answer over the bound costs the server before the client hangs up: the bound, plus what sockets and fetch buffer. */
const WRITTEN_AT_MOST = LIMIT + 16 * MIB;
/** How much a hostile answer offers: half again the bound (the old transport read it all). */
const OFFERED = 48 * MIB;

const MANIFEST = {
  protocolVersion: 1,
  glassVersion: "0.0.0-hostile",
  schemas: {},
  capabilities: {},
  constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
};

/** How the server answers the next `ping` or `tools/call`. */
type Hostility =
  | "jsonBody" // a JSON answer whose body goes on past the bound (no Content-Length)
  | "declaredLength" // a JSON answer declaring a 1 GiB Content-Length
  | "sseEvent" // an SSE event of many data lines, together past the bound
  | "sseLine" // an SSE line that never ends
  | "errorBody" // HTTP 500 with an endless error page
  | "hugeHeader" // a 1 MiB response header
  | "serverRequests"; // an SSE stream of 300 requests to the client before the answer; the POSTs of their answers are never answered

/** What one hostile answer cost the server. */
interface Served {
  hostility: Hostility;
  /** Bytes the server wrote (their write completed) before the answer ended or the client hung up. */
  written: number;
  /** Whether the client closed the connection before the server had written everything. */
  cutOff: boolean;
}

class HostileServer {
  readonly served: Served[] = [];
  /** POSTs of the client's answers to the server's requests, held without a status. */
  readonly heldAnswers: ServerResponse[] = [];
  next: Hostility | undefined;
  url = "";
  readonly #http: Server;

  constructor() {
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}/mcp`;
    return this;
  }

  async close(): Promise<void> {
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "DELETE") return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      id?: number | string;
      method?: string;
      params?: { protocolVersion?: string };
    };
    if (message.method === undefined) return void this.heldAnswers.push(res); // an answer to one of the server's requests
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === "initialize") {
      const result = {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "hostile", version: "1" },
        glass: MANIFEST,
      };
      res
        .writeHead(200, { "content-type": "application/json", "mcp-session-id": "hostile-session" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      return;
    }
    const hostility = this.next;
    this.next = undefined;
    const answer = JSON.stringify({
      jsonrpc: "2.0",
      id: message.id,
      result: message.method === "tools/call" ? { content: [{ type: "text", text: "{}" }] } : {},
    });
    if (hostility === undefined) return void res.writeHead(200, { "content-type": "application/json" }).end(answer);
    const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"pad":"`;
    const spaces = Buffer.alloc(MIB, 0x20);
    let served: Served;
    switch (hostility) {
      case "jsonBody":
        res.writeHead(200, { "content-type": "application/json" });
        served = await pump(res, hostility, [Buffer.from(prefix)], spaces, OFFERED, Buffer.from('"}}'));
        break;
      case "declaredLength":
        res.writeHead(200, { "content-type": "application/json", "content-length": String(1024 * MIB) });
        served = await pump(res, hostility, [Buffer.from(prefix)], spaces, OFFERED, undefined);
        break;
      case "sseEvent": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const line = Buffer.concat([Buffer.from("data: "), Buffer.alloc(MIB - 7, 0x20), Buffer.from("\n")]);
        served = await pump(
          res,
          hostility,
          [Buffer.from(`data: ${prefix}\n`)],
          line,
          OFFERED,
          Buffer.from(`data: "}}\n\n`),
        );
        break;
      }
      case "sseLine":
        res.writeHead(200, { "content-type": "text/event-stream" });
        served = await pump(res, hostility, [Buffer.from(`data: ${prefix}`)], spaces, OFFERED, Buffer.from(`"}}\n\n`));
        break;
      case "errorBody":
        res.writeHead(500, { "content-type": "text/plain" });
        served = await pump(res, hostility, [Buffer.from("Internal Server Error: ")], spaces, OFFERED, undefined);
        break;
      case "serverRequests": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (let index = 0; index < 300; index++)
          res.write(
            `data: {"jsonrpc":"2.0","id":"glass-server-${index}","method":"elicitation/create","params":{}}\n\n`,
          );
        res.end(`data: ${answer}\n\n`);
        served = { hostility, written: 0, cutOff: false };
        break;
      }
      case "hugeHeader":
        res.writeHead(200, { "content-type": "application/json", "x-padding": "x".repeat(MIB) }).end(answer);
        served = { hostility, written: MIB, cutOff: false };
        break;
    }
    this.served.push(served);
  }
}

/**
 * Writes `head`, then `filler` until `total` bytes went out, then `tail`, respecting backpressure;
 * stops as soon as the client hangs up. Returns what was written.
 */
async function pump(
  res: ServerResponse,
  hostility: Hostility,
  head: Buffer[],
  filler: Buffer,
  total: number,
  tail: Buffer | undefined,
): Promise<Served> {
  let written = 0;
  let cutOff = false;
  const closed = once(res, "close").then(() => (cutOff = written < total));
  const write = async (chunk: Buffer): Promise<boolean> => {
    if (res.destroyed || res.writableEnded) return false;
    const drained = res.write(chunk, (error) => {
      if (!error) written += chunk.length;
    });
    if (!drained) await Promise.race([once(res, "drain"), closed]);
    return !res.destroyed;
  };
  for (const chunk of head) await write(chunk);
  while (written < total && (await write(filler)));
  if (tail !== undefined && !res.destroyed) await write(tail);
  if (!res.destroyed) res.end();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
  return { hostility, written, cutOff: cutOff || res.destroyed };
}

const servers: HostileServer[] = [];
const clients: Glass[] = [];
afterEach(async () => {
  for (const glass of clients.splice(0)) await glass.close();
  for (const server of servers.splice(0)) await server.close();
});

async function connect(): Promise<{ server: HostileServer; glass: Glass }> {
  const server = await new HostileServer().listen();
  servers.push(server);
  const glass = await Glass.connect(httpTransport({ url: server.url }), { negotiation: false, retry: false });
  clients.push(glass);
  return { server, glass };
}

describe("hostile HTTP server: answers past the 32 MiB bound", () => {
  it.each<[Hostility, RegExp]>([
    [
      "jsonBody",
      /the HTTP answer to ping from http:\/\/127\.0\.0\.1:\d+\/mcp is over the 33554432-byte limit per message \(its JSON body passed 33554432 bytes\); the transport stopped reading it and closed its stream/,
    ],
    [
      "declaredLength",
      /the HTTP answer to ping .* is over the 33554432-byte limit per message \(its Content-Length declared 1073741824 bytes\)/,
    ],
    [
      "sseEvent",
      /the HTTP answer to ping .* is over the 33554432-byte limit per message \(an event of its SSE stream passed 33554432 bytes\)/,
    ],
    [
      "sseLine",
      /the HTTP answer to ping .* is over the 33554432-byte limit per message \(a line of its SSE stream passed \d+ bytes\)/,
    ],
  ])(
    "%s: the call fails with response.tooLarge naming the bound, the server was cut off, and the session goes on",
    async (hostility, said) => {
      const { server, glass } = await connect();
      server.next = hostility;
      const error = await failure(glass.ping({ deadlineMs: 20_000 }));
      expect(error).toMatchObject({
        code: "response.tooLarge",
        mutationPossible: false,
        details: { jsonRpcCode: -32001, data: { maxBytes: LIMIT } },
      });
      expect(error.rawMessage).toMatch(/ask for less/);
      expect(error.rawMessage).toMatch(said);
      await expect.poll(() => server.served.length).toBe(1);
      const [served] = server.served;
      expect(served!.cutOff).toBe(true);
      expect(served!.written).toBeLessThanOrEqual(WRITTEN_AT_MOST);
      expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    },
  );

  it("a mutation whose answer is too large fails with mutationPossible: the action may have run", async () => {
    const { server, glass } = await connect();
    server.next = "jsonBody";
    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 20_000 }));
    expect(error).toMatchObject({ code: "response.tooLarge", mutationPossible: true, operation: "browser.click" });
    expect(error.rawMessage).toMatch(
      /the action ran, but its answer would exceed .* observe the page before deciding \(the HTTP answer to tools\/call click .* is over the 33554432-byte limit per message/,
    );
    await expect.poll(() => server.served[0]?.cutOff).toBe(true);
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });

  it("an endless error page: only its start is read to quote it (transport.http), and the session goes on", async () => {
    const { server, glass } = await connect();
    server.next = "errorBody";
    const error = await failure(glass.ping({ deadlineMs: 20_000 }));
    expect(error).toMatchObject({ code: "transport.http", details: { status: 500 } });
    expect(error.rawMessage).toMatch(/answered HTTP 500 Internal Server Error: Internal Server Error:/);
    await expect.poll(() => server.served.length).toBe(1);
    expect(server.served[0]!.cutOff).toBe(true);
    expect(server.served[0]!.written).toBeLessThanOrEqual(TransportLimits.maxErrorBodyBytes + 16 * MIB);
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });

  it("a 1 MiB response header: fetch refuses it (Node bounds headers at 16 KiB); the one call fails with a GlassError and the session goes on", async () => {
    const { server, glass } = await connect();
    server.next = "hugeHeader";
    const error = await failure(glass.ping({ deadlineMs: 20_000 }));
    expect(error.code).toMatch(/^transport\./);
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });
});

describe("the SSE parser under a hostile stream", () => {
  const utf8 = new TextEncoder();

  it("holds at most one event: data lines past the bound throw, with the events completed before them", () => {
    const parser = createSseParser({ maxEventBytes: 1024 });
    expect(parser.push('data: {"a":1}\n\n')).toEqual([{ type: "message", data: '{"a":1}', lastEventId: "" }]);
    const line = `data: ${"x".repeat(300)}\n`;
    let thrown: unknown;
    try {
      parser.push(`data: {"b":2}\n\n${line.repeat(4)}\n`);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseTooLargeError);
    expect(thrown).toMatchObject({
      part: "event",
      bytes: 1203,
      maxBytes: 1024,
      completed: [{ type: "message", data: '{"b":2}', lastEventId: "" }],
    });
  });

  it("holds at most one line: a line that never ends throws once it passes the bound, however it is split", () => {
    const parser = createSseParser({ maxEventBytes: 1024 });
    parser.push("data: ");
    for (let index = 0; index < 16; index++) parser.push(utf8.encode("y".repeat(64)));
    parser.push("y".repeat(58)); // 1088 bytes held: the bound (the event's 1024 and 64 for the field name)
    expect(() => parser.push("y")).toThrow(SseTooLargeError);
  });

  it("a comment line past the bound is no exception: it is held like any line", () => {
    const parser = createSseParser({ maxEventBytes: 1024 });
    expect(() => parser.push(`:${" ".repeat(2048)}`)).toThrow(
      /a line of the SSE stream passed 2049 bytes \(at most 1088 are read\)/,
    );
  });

  it("parses a long line split into small chunks in linear time (8x the bytes cost < 24x)", () => {
    const chunks = new Map(
      [256 * 1024, 2 * 1024 * 1024].map((size) => [
        size,
        Array.from({ length: size / 256 }, () => utf8.encode("z".repeat(256))),
      ]),
    );
    const parse = (size: number): number => {
      const parser = createSseParser();
      parser.push("data: ");
      for (const chunk of chunks.get(size)!) parser.push(chunk);
      return parser.push("\n\n")[0]!.data.length;
    };
    expect(parse(256 * 1024)).toBe(256 * 1024);
    expect(growth(parse, 256 * 1024, 2 * 1024 * 1024)).toBeLessThan(24);
  });
});

describe("hostile HTTP server: it never answers the POSTs of the client's answers", () => {
  it("300 requests to the client in an SSE stream: at most 64 answers wait for a status, the rest are dropped (OverloadedError), and the call is answered", async () => {
    const { server, glass } = await connect();
    server.next = "serverRequests";
    expect(await glass.ping({ deadlineMs: 10_000 })).toBeGreaterThanOrEqual(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.heldAnswers.length).toBeGreaterThan(0);
    expect(server.heldAnswers.length).toBeLessThanOrEqual(64);
  });
});
