/**
 * httpTransport resuming a call's SSE answer stream (MCP 2025-11-25, Streamable HTTP,
 * "Resumability and Redelivery"; SEP-1699 polling), against a node:http server on 127.0.0.1 that
 * closes or cuts a tools/call's stream after a priming event and answers on the GET that resumes
 * it: the GET waits the stream's `retry`, carries `Last-Event-ID` and the session's headers, the
 * request is POSTed once, and resumption ends with a clear error when it cannot go on. Waits are
 * checked by order and by the server's own timestamps as lower bounds only.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { ScriptedHttpServer, sseEvent as event } from "./support/scripted-http-server.js";
import ky from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { DeadlineExceededError, Glass, } from "glass-sdk";
import { httpTransport, type HttpTransportOptions } from "../../src/transport/http-transport.js";
import { reconnectWaitMs, SseResumeLimits } from "../../src/transport/sse-resume.js";
import { clickPayload } from "../reliability/support/fault-rig.js";
import { failure } from "../support/glass-failure.js";
import { setTimeout as sleep } from "node:timers/promises";

const TOKEN = "t0ken-for-the-resume-tests";
const SESSION = "s-resume";

/** One request as the server saw it. */
interface Seen {
  /** `GET`, `DELETE`, or the JSON-RPC method POSTed (`tools/call click` for a tool call). */
  what: string;
  /** When it arrived (the server's clock, ms). */
  at: number;
  headers: IncomingHttpHeaders;
}

/** A JSON-RPC request as the server reads it. */
interface Posted {
  id?: string | number;
  method?: string;
  params?: { name?: string; protocolVersion?: string };
}

/**
 * What the server does with a tools/call POST (`post`) and with each GET (`get`, given how many
 * GETs came so far, this one included, and the request id of the last tools/call POSTed).
 */
interface Script {
  post(res: ServerResponse, request: Posted, server: ResumingServer): void;
  get?(res: ServerResponse, nth: number, callId: string | number | undefined, server: ResumingServer): void;
}

/** The answer of a tool call, as the tool's JSON text. */
const toolAnswer = (id: string | number | undefined, value: unknown) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: JSON.stringify(value) }] } });

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "mcp-session-id": SESSION };

class ResumingServer extends ScriptedHttpServer<Seen> {
  /** When the server ended each tools/call stream it closed (its clock, ms). */
  readonly streamClosedAt: number[] = [];
  #callId: string | number | undefined;

  constructor(readonly script: Script) {
    super();
  }

  protected handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const at = Date.now();
    const { script } = this;
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"no token"}}');
    if (req.method === "GET" || req.method === "DELETE") {
      this.seen.push({ what: req.method, at, headers: req.headers });
      if (req.method === "DELETE" || script.get === undefined) return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      return script.get(res, this.count("GET"), this.#callId, this);
    }
    const message = JSON.parse(body.toString("utf8")) as Posted;
    const what = message.method === "tools/call" ? `tools/call ${message.params?.name}` : String(message.method);
    this.seen.push({ what, at, headers: req.headers });
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === "initialize") {
      const result = { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "resuming", version: "1" } };
      return void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": SESSION }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (message.method === "tools/list") {
      // The client's connect-time tool list: the tools these tests call.
      const result = { tools: ["observe", "click"].map((name) => ({ name, inputSchema: { type: "object" } })) };
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (message.method !== "tools/call") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
    this.#callId = message.id;
    script.post(res, message, this);
  }

  /** Ends a tools/call stream gracefully and notes when. */
  closeStream(res: ServerResponse): void {
    this.streamClosedAt.push(Date.now());
    res.end();
  }
}

const servers: ResumingServer[] = [];
const clients: Glass[] = [];
afterEach(async () => {
  for (const glass of clients.splice(0)) await glass.close();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(script: Script): Promise<ResumingServer> {
  const server = await new ResumingServer(script).listen();
  servers.push(server);
  return server;
}

/** A client over httpTransport with the token; the client's own retries are off. */
async function connect(server: ResumingServer, options: Omit<HttpTransportOptions, "url"> = {}): Promise<Glass> {
  const glass = await Glass.connect(httpTransport({ url: server.url, token: TOKEN, ...options }), { negotiation: false, retry: false, validate: { responses: false } });
  clients.push(glass);
  return glass;
}

/** A tools/call answered with a priming event (`p-1`, `retry`), then the stream is closed without the answer. */
const primeAndClose =
  (retry: number | undefined): Script["post"] =>
  (res, _request, server) => {
    res.writeHead(200, SSE_HEADERS);
    res.write(event({ id: "p-1", retry }));
    setTimeout(() => server.closeStream(res), 20);
  };

/** Each GET is answered with a priming event and then the call's answer on an SSE stream left open. */
const answerOnGet: Script["get"] = (res, nth, callId) => {
  res.writeHead(200, SSE_HEADERS);
  res.write(event({ id: `g-${nth}` }));
  res.write(event({ id: `g-${nth}-answer`, data: toolAnswer(callId, { resumed: nth }) }));
};

describe("httpTransport resumes a call's SSE stream that the server closed after an event id", () => {
  it.each([
    { kind: "a read", what: "tools/call observe", call: (glass: Glass) => glass.browser.observe({}, { deadlineMs: 10_000 }) },
    { kind: "a mutation", what: "tools/call click", call: (glass: Glass) => glass.browser.click(clickPayload, { deadlineMs: 10_000 }) },
  ])("$kind is answered on the GET that resumes it: POSTed once, the GET after the stream's retry time with Last-Event-ID and the session's headers", async ({ what, call }) => {
    const server = await serve({ post: primeAndClose(200), get: answerOnGet });
    const hooked: string[] = [];
    const instance = ky.create({ hooks: { beforeRequest: [(request) => void hooked.push(request.method)] } });
    const glass = await connect(server, { ky: instance });

    expect(await call(glass)).toEqual({ resumed: 1 });
    expect(server.seen.map((seen) => seen.what)).toEqual(["initialize", "notifications/initialized", "tools/list", what, "GET"]);
    const [get] = server.of("GET");
    expect(get!.headers).toMatchObject({
      "last-event-id": "p-1",
      accept: "text/event-stream",
      "mcp-session-id": SESSION,
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${TOKEN}`,
    });
    // The wait began when the stream closed: a lower bound only (a loaded machine can only make it longer).
    expect(get!.at - server.streamClosedAt[0]!).toBeGreaterThanOrEqual(190);
    // The caller's ky hooks see the GET like every other request.
    expect(hooked).toEqual(["POST", "POST", "POST", "POST", "GET"]);
    await sleep(100);
    expect(server.count(what)).toBe(1);
    expect(server.count("GET")).toBe(1);
  });

  it("a resumed stream that closes again with a newer id is resumed from that id, after the retry time it set", async () => {
    const server = await serve({
      post: primeAndClose(150),
      get: (res, nth, callId, self) => {
        res.writeHead(200, SSE_HEADERS);
        if (nth === 1) {
          res.write(event({ id: "p-2", retry: 250 }));
          setTimeout(() => self.closeStream(res), 20);
          return;
        }
        res.write(event({ id: "p-3", data: toolAnswer(callId, { resumed: nth }) }));
      },
    });
    const glass = await connect(server);

    expect(await glass.browser.observe({}, { deadlineMs: 10_000 })).toEqual({ resumed: 2 });
    const gets = server.of("GET");
    expect(gets.map((get) => get.headers["last-event-id"])).toEqual(["p-1", "p-2"]);
    expect(gets[0]!.at - server.streamClosedAt[0]!).toBeGreaterThanOrEqual(140);
    expect(gets[1]!.at - server.streamClosedAt[1]!).toBeGreaterThanOrEqual(240);
    expect(server.count("tools/call observe")).toBe(1);
  });

  it("a stream cut off inside an event resumes from the last event it finished, and the messages before the answer are delivered", async () => {
    const server = await serve({
      post: (res, request) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(event({ id: "p-1", retry: 100 }));
        res.write(event({ id: "p-2", data: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: request.id, progress: 1 } } }));
        // The answer's event is cut off after its id: the connection drops.
        res.write(`id: p-3\ndata: {"jsonrpc":"2.0","id":`);
        setTimeout(() => res.destroy(), 20);
      },
      get: answerOnGet,
    });
    const glass = await connect(server);

    expect(await glass.browser.observe({}, { deadlineMs: 10_000 })).toEqual({ resumed: 1 });
    expect(server.of("GET").map((get) => get.headers["last-event-id"])).toEqual(["p-2"]);
    expect(server.count("tools/call observe")).toBe(1);
  });

  it("waits 1 s when the stream sent no retry field, and bounds what retry may ask for", async () => {
    const server = await serve({ post: primeAndClose(undefined), get: answerOnGet });
    const glass = await connect(server);

    expect(await glass.browser.observe({}, { deadlineMs: 10_000 })).toEqual({ resumed: 1 });
    expect(server.of("GET")[0]!.at - server.streamClosedAt[0]!).toBeGreaterThanOrEqual(950);

    // `retry: 99…9` (400 digits) reads as Infinity.
    expect([reconnectWaitMs(undefined), reconnectWaitMs(0), reconnectWaitMs(500), reconnectWaitMs(10 ** 12), reconnectWaitMs(Number("9".repeat(400)))]).toEqual([
      SseResumeLimits.defaultWaitMs,
      SseResumeLimits.minWaitMs,
      500,
      SseResumeLimits.maxWaitMs,
      SseResumeLimits.maxWaitMs,
    ]);
  });
});

describe("httpTransport when a stream cannot be resumed", () => {
  it("without an event id, a stream closed before the answer fails the call as before: no GET, a mutation may have happened", async () => {
    const server = await serve({
      post: (res, _request, self) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(event({ retry: 100, data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } } }));
        setTimeout(() => self.closeStream(res), 20);
      },
      get: answerOnGet,
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "mcp.internalError", mutationPossible: true, phase: "dispatch" });
    expect(error.rawMessage).toMatch(/ended before the daemon answered \(the daemon sent no answer\); the request may have been carried out/);
    await sleep(300);
    expect(server.count("GET")).toBe(0);
    expect(server.count("tools/call click")).toBe(1);
  });

  it.each([
    { status: 405, meaning: /resumed with GET once, the last from event "p-1": the GET was answered HTTP 405 \(the server offers no stream to resume\): refused with 405\)/ },
    { status: 404, meaning: /resumed with GET once, the last from event "p-1": the GET was answered HTTP 404 \(the session has expired, and the answer with it\): refused with 404\)/ },
  ])("a GET answered $status ends the call with a clear error; the mutation is not POSTed again", async ({ status, meaning }) => {
    const server = await serve({
      post: primeAndClose(100),
      get: (res) => void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: `refused with ${status}` } })),
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "mcp.internalError", mutationPossible: true, phase: "dispatch", details: { data: { httpStatus: status, lastEventId: "p-1", reconnects: 1 } } });
    expect(error.rawMessage).toMatch(meaning);
    expect(error.rawMessage).toMatch(/the request may have been carried out/);
    expect(server.count("GET")).toBe(1);
    expect(server.count("tools/call click")).toBe(1);
    // The session goes on for the next call.
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });

  it("a GET refused with 401 ends the transport with the token's error, which the call fails with", async () => {
    const server = await serve({
      post: primeAndClose(100),
      get: (res) => void res.writeHead(401, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"token revoked"}}'),
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "transport.unavailable", details: { status: 401 } });
    expect(error.rawMessage).toMatch(/HTTP 401: token revoked: the token was refused/);
    // The transport is over: later calls fail with the same error, without a request.
    expect(await failure(glass.ping({ deadlineMs: 5_000 }))).toMatchObject({ code: "transport.unavailable", details: { status: 401 } });
    expect(server.count("ping")).toBe(0);
    expect(server.count("GET")).toBe(1);
  });

  it("gives up after three reconnections in a row that bring no new event (each GET refused with 503)", async () => {
    const server = await serve({ post: primeAndClose(100), get: (res) => void res.writeHead(503, { "content-type": "text/plain" }).end("busy") });
    const glass = await connect(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "mcp.internalError", mutationPossible: false, details: { data: { lastEventId: "p-1", reconnects: SseResumeLimits.maxIdleReconnects } } });
    expect(error.rawMessage).toMatch(/resumed with GET 3 times, the last from event "p-1": the GET was answered HTTP 503: busy; 3 reconnections in a row brought no new event/);
    expect(server.count("GET")).toBe(SseResumeLimits.maxIdleReconnects);
    expect(server.of("GET").map((get) => get.headers["last-event-id"])).toEqual(["p-1", "p-1", "p-1"]);
  });

  it("a server that asks for retry: 0 and closes every stream with a new id cannot make the client poll faster than every 100 ms", async () => {
    const server = await serve({
      post: primeAndClose(0),
      get: (res, nth, _callId, self) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(event({ id: `poll-${nth}`, retry: 0 }));
        self.closeStream(res);
      },
    });
    const glass = await connect(server);

    // Every GET brings a new id, so only the deadline ends the polling.
    expect(await failure(glass.browser.observe({}, { deadlineMs: 1_000 }))).toBeInstanceOf(DeadlineExceededError);
    await sleep(300);
    const gets = server.of("GET");
    expect(gets.length).toBeGreaterThanOrEqual(2);
    expect(gets.length).toBeLessThanOrEqual(1_000 / SseResumeLimits.minWaitMs + 1);
    for (const [index, get] of gets.entries()) expect(get.at - server.streamClosedAt[index]!).toBeGreaterThanOrEqual(SseResumeLimits.minWaitMs - 5);
    expect(gets.at(-1)!.headers["last-event-id"]).toBe(`poll-${gets.length - 1}`);
  });

  it("the call's deadline passing while it waits to reconnect fails it with DeadlineExceeded, and no GET follows", async () => {
    const server = await serve({ post: primeAndClose(1_500), get: answerOnGet });
    const glass = await connect(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 400 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({ code: "deadlineExceeded", mutationPossible: true });
    await expect.poll(() => server.count("notifications/cancelled")).toBe(1);
    await sleep(1_700); // past the retry time
    expect(server.count("GET")).toBe(0);
    expect(server.count("tools/call click")).toBe(1);
  });

  it("a cancel while the GET's stream is open closes it", async () => {
    const open: ServerResponse[] = [];
    const server = await serve({
      post: primeAndClose(100),
      get: (res) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(event({ id: "g-1" }));
        open.push(res);
      },
    });
    const glass = await connect(server);
    const controller = new AbortController();

    const call = failure(glass.browser.observe({}, { deadlineMs: 10_000, signal: controller.signal }));
    await expect.poll(() => open.length).toBe(1);
    controller.abort();
    expect(await call).toMatchObject({ code: "cancelled" });
    await expect.poll(() => open[0]!.destroyed || open[0]!.writableEnded || open[0]!.closed).toBe(true);
    expect(server.count("GET")).toBe(1);
  });
});
