/**
 * httpTransport resuming a call's SSE answer stream (MCP 2025-11-25, Streamable HTTP,
 * "Resumability and Redelivery"; SEP-1699 polling), against a node:http server on 127.0.0.1 that
 * closes or cuts a tools/call's stream after a priming event and answers on the GET that resumes
 * it: the GET waits the stream's `retry`, carries `Last-Event-ID` and the session's headers, the
 * request is POSTed once, and resumption ends with a clear error when it cannot go on. And that a
 * settled call leaves nothing behind: no GET once it settled (whatever the server does with the
 * cancel), and no stream held open past its answer (the server counts its open streams), for fixed
 * cases and generated mixes of server behaviours. Waits are checked by order and by the server's
 * own timestamps as lower bounds only.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { ScriptedHttpServer, sseEvent as event } from "./support/scripted-http-server.js";
import fc from "fast-check";
import ky from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { DeadlineExceededError, Glass } from "glass-sdk";
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
  /** What the server does with a notification's POST (`notifications/cancelled` …); default 202. */
  notification?(res: ServerResponse, method: string | undefined): void;
}

/** The answer of a tool call, as the tool's JSON text. */
const toolAnswer = (id: string | number | undefined, value: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text: JSON.stringify(value) }] },
});

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
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return void res
        .writeHead(401, { "content-type": "application/json" })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"no token"}}');
    if (req.method === "GET" || req.method === "DELETE") {
      this.seen.push({ what: req.method, at, headers: req.headers });
      if (req.method === "DELETE" || script.get === undefined)
        return void res.writeHead(req.method === "DELETE" ? 200 : 405).end();
      return script.get(res, this.count("GET"), this.#callId, this);
    }
    const message = JSON.parse(body.toString("utf8")) as Posted;
    const what = message.method === "tools/call" ? `tools/call ${message.params?.name}` : String(message.method);
    this.seen.push({ what, at, headers: req.headers });
    if (message.id === undefined)
      return void (script.notification === undefined
        ? res.writeHead(202).end()
        : script.notification(res, message.method));
    if (message.method === "initialize") {
      const result = {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "resuming", version: "1" },
      };
      return void res
        .writeHead(200, { "content-type": "application/json", "mcp-session-id": SESSION })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (message.method === "tools/list") {
      // The client's connect-time tool list: the tools these tests call.
      const result = { tools: ["observe", "click"].map((name) => ({ name, inputSchema: { type: "object" } })) };
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    }
    if (message.method !== "tools/call")
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }));
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
  const glass = await Glass.connect(httpTransport({ url: server.url, token: TOKEN, ...options }), {
    negotiation: false,
    retry: false,
    validate: { responses: false },
  });
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
    {
      kind: "a read",
      what: "tools/call observe",
      call: (glass: Glass) => glass.browser.observe({}, { deadlineMs: 10_000 }),
    },
    {
      kind: "a mutation",
      what: "tools/call click",
      call: (glass: Glass) => glass.browser.click(clickPayload, { deadlineMs: 10_000 }),
    },
  ])(
    "$kind is answered on the GET that resumes it: POSTed once, the GET after the stream's retry time with Last-Event-ID and the session's headers",
    async ({ what, call }) => {
      const server = await serve({ post: primeAndClose(200), get: answerOnGet });
      const hooked: string[] = [];
      const instance = ky.create({ hooks: { beforeRequest: [(request) => void hooked.push(request.method)] } });
      const glass = await connect(server, { ky: instance });

      expect(await call(glass)).toEqual({ resumed: 1 });
      expect(server.seen.map((seen) => seen.what)).toEqual([
        "initialize",
        "notifications/initialized",
        "tools/list",
        what,
        "GET",
      ]);
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
    },
  );

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
        res.write(
          event({
            id: "p-2",
            data: {
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: request.id, progress: 1 },
            },
          }),
        );
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
    expect([
      reconnectWaitMs(undefined),
      reconnectWaitMs(0),
      reconnectWaitMs(500),
      reconnectWaitMs(10 ** 12),
      reconnectWaitMs(Number("9".repeat(400))),
    ]).toEqual([
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
        res.write(
          event({
            retry: 100,
            data: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
          }),
        );
        setTimeout(() => self.closeStream(res), 20);
      },
      get: answerOnGet,
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "mcp.internalError", mutationPossible: true, phase: "dispatch" });
    expect(error.rawMessage).toMatch(
      /ended before the daemon answered \(the daemon sent no answer\); the request may have been carried out/,
    );
    await sleep(300);
    expect(server.count("GET")).toBe(0);
    expect(server.count("tools/call click")).toBe(1);
  });

  it.each([
    {
      status: 405,
      meaning:
        /resumed with GET once, the last from event "p-1": the GET was answered HTTP 405 \(the server offers no stream to resume\): refused with 405\)/,
    },
    {
      status: 404,
      meaning:
        /resumed with GET once, the last from event "p-1": the GET was answered HTTP 404 \(the session has expired, and the answer with it\): refused with 404\)/,
    },
  ])(
    "a GET answered $status ends the call with a clear error; the mutation is not POSTed again",
    async ({ status, meaning }) => {
      const server = await serve({
        post: primeAndClose(100),
        get: (res) =>
          void res
            .writeHead(status, { "content-type": "application/json" })
            .end(
              JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: `refused with ${status}` } }),
            ),
      });
      const glass = await connect(server);

      const error = await failure(glass.browser.click(clickPayload, { deadlineMs: 10_000 }));
      expect(error).toMatchObject({
        code: "mcp.internalError",
        mutationPossible: true,
        phase: "dispatch",
        details: { data: { httpStatus: status, lastEventId: "p-1", reconnects: 1 } },
      });
      expect(error.rawMessage).toMatch(meaning);
      expect(error.rawMessage).toMatch(/the request may have been carried out/);
      expect(server.count("GET")).toBe(1);
      expect(server.count("tools/call click")).toBe(1);
      // The session goes on for the next call.
      expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
    },
  );

  it("a GET refused with 401 ends the transport with the token's error, which the call fails with", async () => {
    const server = await serve({
      post: primeAndClose(100),
      get: (res) =>
        void res
          .writeHead(401, { "content-type": "application/json" })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"token revoked"}}'),
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({ code: "transport.unavailable", details: { status: 401 } });
    expect(error.rawMessage).toMatch(/HTTP 401: token revoked: the token was refused/);
    // The transport is over: later calls fail with the same error, without a request.
    expect(await failure(glass.ping({ deadlineMs: 5_000 }))).toMatchObject({
      code: "transport.unavailable",
      details: { status: 401 },
    });
    expect(server.count("ping")).toBe(0);
    expect(server.count("GET")).toBe(1);
  });

  it("gives up after three reconnections in a row that bring no new event (each GET refused with 503)", async () => {
    const server = await serve({
      post: primeAndClose(100),
      get: (res) => void res.writeHead(503, { "content-type": "text/plain" }).end("busy"),
    });
    const glass = await connect(server);

    const error = await failure(glass.browser.observe({}, { deadlineMs: 10_000 }));
    expect(error).toMatchObject({
      code: "mcp.internalError",
      mutationPossible: false,
      details: { data: { lastEventId: "p-1", reconnects: SseResumeLimits.maxIdleReconnects } },
    });
    expect(error.rawMessage).toMatch(
      /resumed with GET 3 times, the last from event "p-1": the GET was answered HTTP 503: busy; 3 reconnections in a row brought no new event/,
    );
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
    for (const [index, get] of gets.entries())
      expect(get.at - server.streamClosedAt[index]!).toBeGreaterThanOrEqual(SseResumeLimits.minWaitMs - 5);
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

/** The call streams (POSTs' and GETs') the server still has open, their connection not closed: counted as they open and close. */
class OpenStreams {
  readonly #open = new Set<ServerResponse>();

  /** Counts `res` as open until its connection closes (the client released it, or the server ended it). */
  track(res: ServerResponse): ServerResponse {
    this.#open.add(res);
    res.on("close", () => this.#open.delete(res));
    return res;
  }

  get size(): number {
    return this.#open.size;
  }
}

/** The requests that belong to calls (their POSTs and the GETs that resume them): none may come once every call settled. */
const callRequests = (server: ResumingServer): number =>
  server.seen.filter((seen) => seen.what === "GET" || seen.what.startsWith("tools/call")).length;

/** What the server does with `notifications/cancelled`: accepts it (and does nothing), refuses it with 500, or never answers its POST. */
type CancelBehaviour = "accepted" | "refused" | "held";
const onCancel =
  (behaviour: CancelBehaviour): Script["notification"] =>
  (res, method) => {
    if (method !== "notifications/cancelled" || behaviour === "accepted") return void res.writeHead(202).end();
    if (behaviour === "refused") return void res.writeHead(500, { "content-type": "text/plain" }).end("cancel refused");
    // held: no status, ever (the server closes it at the end of the test)
  };

describe("httpTransport holds nothing open for a settled call", () => {
  it.each([
    { cancel: "refused" as const, get: "polls" },
    { cancel: "held" as const, get: "polls" },
    { cancel: "accepted" as const, get: "polls" },
    { cancel: "refused" as const, get: "holds" },
    { cancel: "held" as const, get: "holds" },
  ])(
    "four resumed calls past their deadline, the cancel $cancel, each GET $get: no GET once they settled, and no stream left open",
    async ({ cancel, get }) => {
      const streams = new OpenStreams();
      let nth = 0;
      const server = await serve({
        post: (res) => {
          streams.track(res).writeHead(200, SSE_HEADERS);
          res.write(event({ id: `p-${++nth}`, retry: 100 }));
          res.end(); // closed at once after the priming event: the client resumes with GET
        },
        get: (res, count, _callId, self) => {
          streams.track(res).writeHead(200, SSE_HEADERS);
          // A new id each time, so the client never gives up on its own: only the call's end stops it.
          res.write(event({ id: `g-${count}`, retry: 100 }));
          if (get === "polls") self.closeStream(res); // else held open, never answered
        },
        notification: onCancel(cancel),
      });
      const glass = await connect(server);

      const calls = Array.from({ length: 4 }, () => failure(glass.browser.observe({}, { deadlineMs: 600 })));
      for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(DeadlineExceededError);
      await expect.poll(() => server.count("notifications/cancelled")).toBe(4);
      await sleep(100); // a GET sent just before the call settled may still be on its way
      const settled = callRequests(server);
      await expect.poll(() => streams.size).toBe(0);
      await sleep(600); // six retry times: a resumption still polling would have sent GETs
      expect(callRequests(server)).toBe(settled);
      expect(server.count("tools/call observe")).toBe(4);
    },
  );

  it("a cancel before the POST's status aborts the POST: the stream that comes later is not read or resumed", async () => {
    const streams = new OpenStreams();
    const server = await serve({
      post: (res) => {
        // The status comes after the call's deadline, with a stream to resume.
        setTimeout(() => {
          if (res.destroyed) return;
          streams.track(res).writeHead(200, SSE_HEADERS);
          res.write(event({ id: "p-1", retry: 100 }));
          res.end();
        }, 500);
      },
      get: (res, count) => {
        streams.track(res).writeHead(200, SSE_HEADERS);
        res.write(event({ id: `g-${count}`, retry: 100 }));
      },
      notification: onCancel("refused"),
    });
    const glass = await connect(server);

    expect(await failure(glass.browser.observe({}, { deadlineMs: 200 }))).toBeInstanceOf(DeadlineExceededError);
    await sleep(900);
    expect(server.count("GET")).toBe(0);
    expect(streams.size).toBe(0);
    expect(await glass.ping({ deadlineMs: 5_000 })).toBeGreaterThanOrEqual(0);
  });

  it("a server that never ends a call's SSE stream: each stream is released once its answer came (24 calls, none left open)", async () => {
    const streams = new OpenStreams();
    const server = await serve({
      post: (res, request) => {
        streams.track(res).writeHead(200, SSE_HEADERS);
        res.write(event({ id: `a-${request.id}`, data: toolAnswer(request.id, { answered: request.id }) }));
        // never ended
      },
    });
    const glass = await connect(server);

    for (let call = 0; call < 24; call++)
      expect(await glass.browser.observe({}, { deadlineMs: 5_000 })).toMatchObject({ answered: expect.anything() });
    await expect.poll(() => streams.size).toBe(0);
    expect(server.count("tools/call observe")).toBe(24);
    expect(server.count("GET")).toBe(0);
  });

  it("a resumption GET that stays open after the answer it carried is released too", async () => {
    const streams = new OpenStreams();
    const server = await serve({
      post: (res, _request, self) => {
        streams.track(res).writeHead(200, SSE_HEADERS);
        res.write(event({ id: "p-1", retry: 100 }));
        self.closeStream(res);
      },
      get: (res, nth, callId, self) => void answerOnGet(streams.track(res), nth, callId, self),
    });
    const glass = await connect(server);

    for (let call = 0; call < 3; call++)
      expect(await glass.browser.observe({}, { deadlineMs: 5_000 })).toEqual({ resumed: call + 1 });
    await expect.poll(() => streams.size).toBe(0);
  });

  /** What the server does with a call's POST, and with each GET that resumes one. */
  const postKinds = ["answers and holds the stream", "primes and closes", "primes and holds, never answering"] as const;
  const getKinds = ["polls with a new id", "holds with a new id", "refuses with 500", "answers and holds"] as const;

  it("generated: for any mix of server behaviours, once every call settled no request of a call follows and no stream stays open", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...postKinds), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...getKinds),
        fc.constantFrom<CancelBehaviour>("accepted", "refused", "held"),
        async (posts, getKind, cancel) => {
          const streams = new OpenStreams();
          /** The request id of each call, by the index its priming id carries. */
          const calls: (string | number | undefined)[] = [];
          const server = await new ResumingServer({
            post: (res, request, self) => {
              const index = calls.push(request.id) - 1;
              const kind = posts[index % posts.length]!;
              streams.track(res).writeHead(200, SSE_HEADERS);
              if (kind === "answers and holds the stream")
                return void res.write(event({ id: `c${index}.a`, data: toolAnswer(request.id, { index }) }));
              res.write(event({ id: `c${index}`, retry: 100 }));
              if (kind === "primes and closes") self.closeStream(res);
            },
            get: (res, count, _callId, self) => {
              const from = String(res.req.headers["last-event-id"] ?? "");
              const index = Number(from.slice(1).split(".")[0]);
              if (getKind === "refuses with 500")
                return void res.writeHead(500, { "content-type": "text/plain" }).end("no");
              streams.track(res).writeHead(200, SSE_HEADERS);
              if (getKind === "answers and holds")
                return void res.write(event({ id: `c${index}.${count}`, data: toolAnswer(calls[index], { index }) }));
              res.write(event({ id: `c${index}.${count}`, retry: 100 }));
              if (getKind === "polls with a new id") self.closeStream(res);
            },
            notification: onCancel(cancel),
          }).listen();
          const glass = await Glass.connect(httpTransport({ url: server.url, token: TOKEN }), {
            negotiation: false,
            retry: false,
            validate: { responses: false },
          });
          try {
            await Promise.allSettled(posts.map(() => glass.browser.observe({}, { deadlineMs: 500 })));
            await sleep(100); // a GET sent just before its call settled may still be on its way
            const settled = callRequests(server);
            await expect.poll(() => streams.size).toBe(0);
            await sleep(400); // four retry times
            expect(callRequests(server)).toBe(settled);
            expect(streams.size).toBe(0);
          } finally {
            await glass.close();
            await server.close();
          }
        },
      ),
      { seed: 20261205, numRuns: 8, endOnFailure: true },
    );
  });
});
