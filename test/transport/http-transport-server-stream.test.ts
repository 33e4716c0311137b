/**
 * httpTransport's opt-in standalone GET stream (`serverStream`; MCP 2025-11-25, Streamable HTTP,
 * "Listening for Messages from the Server"), against a node:http server on 127.0.0.1: the GET
 * follows `notifications/initialized` with the session's headers; a request the server pushes on it
 * is answered by POST and its notifications are delivered; a refusal is never retried; a stream
 * that drops is resumed with Last-Event-ID; a session renewal opens a new stream; close() aborts it.
 */
import { spawn } from "node:child_process";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { ScriptedHttpServer, sseEvent as event } from "./support/scripted-http-server.js";
import { fileURLToPath } from "node:url";
import ky from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { Glass, type GlassClientOptions, type GlassLogEvent } from "glass-sdk";
import { httpTransport, type HttpTransportOptions } from "../../src/transport/http-transport.js";
import { SseResumeLimits } from "../../src/transport/sse-resume.js";
import { TransportLimits } from "../../src/transport/transport.js";
import { setTimeout as sleep } from "node:timers/promises";

const TOKEN = "t0ken-for-the-server-stream-tests";

/** One request as the server saw it. */
interface Seen {
  /** `GET`, `DELETE`, the JSON-RPC method POSTed, or `answer <id>` for an answer to the server's request. */
  what: string;
  headers: IncomingHttpHeaders;
  body?: { id?: string | number; method?: string; result?: unknown; params?: { protocolVersion?: string } };
}

/** What the server does with each GET (`nth`: how many came so far, this one included). */
type OnGet = (res: ServerResponse, nth: number, server: StreamServer) => void;

const elicit = (id: string) => ({
  jsonrpc: "2.0",
  id,
  method: "elicitation/create",
  params: { message: "name?", requestedSchema: { type: "object", properties: {} } },
});

class StreamServer extends ScriptedHttpServer<Seen> {
  /** The GET responses the server wrote, in order. */
  readonly streams: ServerResponse[] = [];
  /** The session id the server gives at the next initialize. */
  session = "s-1";
  /** Whether the next POST finds its session expired (404), once. */
  expireNext = false;
  /** Whether a request other than `initialize` is answered only once a GET has come. */
  answerAfterGet = false;
  /** Answers held until a GET comes. */
  readonly #held: (() => void)[] = [];

  constructor(readonly onGet: OnGet) {
    super();
  }

  protected handle(req: IncomingMessage, res: ServerResponse, posted: Buffer): void {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    if (req.method === "GET" || req.method === "DELETE") {
      this.seen.push({ what: req.method, headers: req.headers });
      if (req.method === "DELETE") return void res.writeHead(200).end();
      this.streams.push(res);
      for (const answer of this.#held.splice(0)) answer();
      return this.onGet(res, this.count("GET"), this);
    }
    const body = JSON.parse(posted.toString("utf8")) as NonNullable<Seen["body"]>;
    this.seen.push({ what: body.method ?? `answer ${body.id}`, headers: req.headers, body });
    if (body.method !== "initialize" && this.expireNext) {
      this.expireNext = false;
      this.session = `${this.session}-renewed`;
      return void res.writeHead(404).end();
    }
    if (body.id === undefined || body.method === undefined) return void res.writeHead(202).end();
    const result =
      body.method === "initialize"
        ? {
            protocolVersion: body.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "streaming", version: "1" },
          }
        : { tools: [] };
    const answer = (): void =>
      void res
        .writeHead(200, { "content-type": "application/json", "mcp-session-id": this.session })
        .end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }));
    if (this.answerAfterGet && body.method !== "initialize" && this.count("GET") === 0)
      return void this.#held.push(answer);
    answer();
  }
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

const servers: StreamServer[] = [];
const clients: Glass[] = [];
afterEach(async () => {
  for (const glass of clients.splice(0)) await glass.close();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(onGet: OnGet): Promise<StreamServer> {
  const server = await new StreamServer(onGet).listen();
  servers.push(server);
  return server;
}

async function connect(
  server: StreamServer,
  options: Omit<HttpTransportOptions, "url"> = { serverStream: true },
  glassOptions: GlassClientOptions = {},
): Promise<Glass> {
  const glass = await Glass.connect(httpTransport({ url: server.url, token: TOKEN, ...options }), {
    negotiation: false,
    retry: false,
    validate: { responses: false },
    ...glassOptions,
  });
  clients.push(glass);
  return glass;
}

/** The client's `connection` log lines after the handshake's own, and the options that collect them. */
function connectionLog(): { lines: string[]; options: GlassClientOptions } {
  const lines: string[] = [];
  const collect = (event: GlassLogEvent): void => {
    if (event.type === "connection" && !event.detail.startsWith("initialized:")) lines.push(event.detail);
  };
  return { lines, options: { logger: collect } };
}

/** A GET answered with an SSE stream left open, its first event a priming one. */
const holdOpen: OnGet = (res, nth) => {
  res.writeHead(200, SSE_HEADERS);
  res.write(event({ id: `g-${nth}` }));
};

describe("httpTransport's server stream (serverStream: true)", () => {
  it("a request the server pushes on the GET stream is answered by POST, and its notifications reach the client; the GET carries the session's headers and goes through ky", async () => {
    const server = await serve((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(
        event({
          id: "e-1",
          data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hello" } },
        }),
      );
      res.write(event({ id: "e-2", data: elicit("srv-1") }));
    });
    const hooked: string[] = [];
    const wire: string[] = [];
    const glass = await connect(
      server,
      {
        serverStream: true,
        ky: ky.create({ hooks: { beforeRequest: [(request) => void hooked.push(request.method)] } }),
      },
      {
        serverRequestHandlers: { "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }) },
        logger: (entry) => {
          if (entry.type === "wire") wire.push(entry.detail);
        },
      },
    );

    await expect.poll(() => server.count("answer srv-1")).toBe(1);
    expect(server.of("answer srv-1")[0]!.body!.result).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(wire).toEqual(["notification", "daemon request elicitation/create answered (handler)"]);
    const whats = server.seen.map((seen) => seen.what);
    expect(whats.slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
    // The GET follows notifications/initialized; the client's connect-time tools/list, POSTed at the same time, may reach the server first.
    expect(whats.slice(2, 4).sort()).toEqual(["GET", "tools/list"]);
    const get = server.of("GET")[0]!;
    expect(get.headers).toMatchObject({
      accept: "text/event-stream",
      "mcp-session-id": "s-1",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${TOKEN}`,
    });
    expect(get.headers["last-event-id"]).toBeUndefined();
    expect(hooked).toContain("GET");
    // Calls go on by POST meanwhile.
    expect(await glass.listTools()).toEqual([]);
    expect(server.count("GET")).toBe(1);
  });

  it.each([
    {
      answer: "405",
      reply: (res: ServerResponse) => void res.writeHead(405, { allow: "POST, DELETE" }).end(),
      logged: "refused: the GET was answered HTTP 405 (the server offers no stream to resume)",
    },
    {
      answer: "a JSON body",
      reply: (res: ServerResponse) => void res.writeHead(200, { "content-type": "application/json" }).end("{}"),
      logged: 'refused: the GET was answered with content type "application/json", not an SSE stream',
    },
  ])(
    "a GET answered with $answer is never tried again in the session, calls go on, and the client's log says why",
    async ({ reply, logged }) => {
      const server = await serve(reply);
      const log = connectionLog();
      const glass = await connect(server, { serverStream: true }, log.options);

      await expect.poll(() => server.count("GET")).toBe(1);
      expect(await glass.listTools()).toEqual([]);
      // Longer than the wait before any reconnection (1 s without a retry field).
      await sleep(SseResumeLimits.defaultWaitMs + 300);
      expect(server.count("GET")).toBe(1);
      expect(await glass.listTools()).toEqual([]);
      expect(log.lines).toEqual([
        `the server's standalone SSE stream (serverStream) ended for this session, ${logged}; what the server sends outside a call will not arrive until a new session`,
      ]);
    },
  );

  it("a refusal that quotes the token reaches the client's log with the token redacted", async () => {
    const server = await serve(
      (res) => void res.writeHead(500, { "content-type": "text/plain" }).end(`no stream for Bearer ${TOKEN}`),
    );
    const log = connectionLog();
    await connect(server, { serverStream: true }, log.options);

    await expect.poll(() => log.lines.length).toBe(1);
    expect(log.lines[0]).toContain("refused: the GET was answered HTTP 500: no stream for Bearer [redacted]");
    expect(log.lines.join("\n")).not.toContain(TOKEN);
  });

  it("a logger that throws on the stream's end leaves no unhandled rejection, and calls go on", async () => {
    const server = await serve((res) => void res.writeHead(405).end());
    let reports = 0;
    const logger = (event: GlassLogEvent): void => {
      if (event.type !== "connection" || !event.detail.includes("serverStream")) return;
      reports += 1;
      throw new Error("the logger broke");
    };
    const glass = await connect(server, { serverStream: true }, { logger });

    await expect.poll(() => reports).toBe(1);
    expect(await glass.listTools()).toEqual([]);
  });

  it("a stream that drops after an event id is opened again with Last-Event-ID after its retry time, and what comes there is delivered", async () => {
    const server = await serve((res, nth) => {
      res.writeHead(200, SSE_HEADERS);
      if (nth === 1) {
        res.write(event({ id: "e-7", retry: 100 }));
        setTimeout(() => res.destroy(), 20);
        return;
      }
      res.write(event({ id: "e-8", data: elicit("srv-2") }));
    });
    await connect(
      server,
      { serverStream: true },
      { serverRequestHandlers: { "elicitation/create": () => ({ action: "decline" }) } },
    );

    await expect.poll(() => server.count("answer srv-2")).toBe(1);
    const [first, second] = server.of("GET");
    expect(first!.headers["last-event-id"]).toBeUndefined();
    expect(second!.headers).toMatchObject({ "last-event-id": "e-7", "mcp-session-id": "s-1" });
    expect(server.count("GET")).toBe(2);
  });

  it("a GET refused with 401 ends the transport as a POST's refusal does", async () => {
    // The refusal is held until the client has connected: the GET opens beside the client's
    // connect-time tools/list, and a refusal at once could end the transport before that is answered.
    let refuse: (() => void) | undefined;
    const server = await serve(
      (res) =>
        void (refuse = () =>
          res
            .writeHead(401, { "content-type": "application/json" })
            .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"bad token"}}')),
    );
    const glass = await connect(server);

    await expect.poll(() => server.count("GET")).toBe(1);
    refuse!();
    await expect.poll(() => glass.stats().closed).toBe(true);
    await expect(glass.listTools()).rejects.toMatchObject({ code: "transport.unavailable" });
  });

  it("after a session renewal a new stream is opened on the new session, the old one is closed, and the client's log says the session was renewed", async () => {
    const server = await serve(holdOpen);
    const log = connectionLog();
    const glass = await connect(server, { serverStream: true }, log.options);
    await expect.poll(() => server.count("GET")).toBe(1);

    server.expireNext = true;
    expect(await glass.listTools()).toEqual([]);
    await expect.poll(() => server.count("GET")).toBe(2);
    expect(server.of("GET")[1]!.headers["mcp-session-id"]).toBe("s-1-renewed");
    await expect.poll(() => server.streams[0]!.destroyed || server.streams[0]!.closed).toBe(true);
    expect(server.streams[1]!.closed).toBe(false);
    expect(log.lines).toEqual([
      "the daemon session expired and the transport started a new one (a lease held in the old one is gone)",
    ]);
  });

  it("close() aborts the open GET, and no GET follows", async () => {
    const server = await serve(holdOpen);
    const glass = await connect(server);
    await expect.poll(() => server.count("GET")).toBe(1);
    const stream = server.streams[0]!;
    expect(stream.closed).toBe(false);

    await glass.close();
    await expect.poll(() => stream.closed).toBe(true);
    await sleep(SseResumeLimits.defaultWaitMs + 300);
    expect(server.count("GET")).toBe(1);
  });

  it("a stream that keeps ending without a new event id is given up after three reconnections in a row, and the client's log says so", async () => {
    const server = await serve((res) => void res.writeHead(200, SSE_HEADERS).end("retry: 100\n\n"));
    const log = connectionLog();
    const glass = await connect(server, { serverStream: true }, log.options);

    await expect.poll(() => server.count("GET")).toBe(1 + SseResumeLimits.maxIdleReconnects);
    await sleep(SseResumeLimits.defaultWaitMs + 300);
    expect(server.count("GET")).toBe(1 + SseResumeLimits.maxIdleReconnects);
    expect(await glass.listTools()).toEqual([]);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toContain(
      `ended for this session, given up: its SSE stream ended early and was resumed with GET ${SseResumeLimits.maxIdleReconnects} times`,
    );
    expect(log.lines[0]).toContain("reconnections in a row brought no new event");
  });

  it("an event past the bound per message ends the stream for the session, calls go on, and the client's log says why", async () => {
    const server = await serve((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(event({ id: "e-1", retry: 100 }));
      // One event of 32 MiB + 1 byte of data, in 1 MiB chunks, never finished.
      const chunk = "x".repeat(1024 * 1024);
      res.write("data: ");
      for (let i = 0; i <= TransportLimits.maxMessageBytes / chunk.length; i++) res.write(chunk);
    });
    const log = connectionLog();
    const glass = await connect(server, { serverStream: true }, log.options);

    await expect.poll(() => server.streams[0]?.closed, { timeout: 10_000 }).toBe(true);
    await sleep(SseResumeLimits.defaultWaitMs + 300);
    expect(server.count("GET")).toBe(1);
    expect(await glass.listTools()).toEqual([]);
    expect(log.lines).toHaveLength(1);
    // The unfinished event is one line of data: the line's bound (the event's plus its field name) is what it passed.
    expect(log.lines[0]).toContain(
      `the server's standalone SSE stream (serverStream) ended for this session, failed: what the server sent is over the ${TransportLimits.maxMessageBytes}-byte limit per message (a line of its SSE stream passed`,
    );
  });

  it("a Node process that closes the client exits while the stream was open", async () => {
    const server = await serve(holdOpen);
    server.answerAfterGet = true;
    const script = fileURLToPath(new URL("./support/server-stream-exit.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, server.url, TOKEN], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(killer);

    expect(out).toBe("closed\n");
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.count("GET")).toBe(1);
    expect(server.count("DELETE")).toBe(1);
  }, 20_000);
});

describe("httpTransport without serverStream", () => {
  it.each([
    { options: {}, gets: 0 },
    { options: { serverStream: false }, gets: 0 },
    { options: { serverStream: true }, gets: 1 },
  ])("with $options opens $gets GET streams", async ({ options, gets }) => {
    const server = await serve(holdOpen);
    const glass = await connect(server, options);
    if (gets > 0) await expect.poll(() => server.count("GET")).toBe(gets);
    expect(await glass.listTools()).toEqual([]);
    expect(await glass.listTools()).toEqual([]);
    expect(server.count("GET")).toBe(gets);
  });

  it("rejects a serverStream that is not a boolean", () => {
    expect(() => httpTransport({ url: "http://127.0.0.1:1/mcp", serverStream: "yes" as unknown as boolean })).toThrow(
      /serverStream must be true or false/,
    );
  });
});
