import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { Glass } from "../../src/client/glass.js";
import type { GlassClientOptions } from "../../src/client/options.js";
import { createRequest } from "../../src/envelope/create-request.js";
import { OverloadedError, TransportClosedError, TransportUnavailableError } from "../../src/errors/error-classes.js";
import type { GlassError } from "../../src/errors/glass-error.js";
import type { JsonRpcMessage, JsonRpcRequest } from "../../src/mcp/json-rpc.js";
import { httpTransport } from "../../src/transport/http-transport.js";
import type { GlassTransport, TransportHandlers } from "../../src/transport/transport.js";

const TOKEN = "s3cr3t-token_from-the-startup-line";

/** What the official server's tools did. */
interface ToolCounts {
  readOnly: number;
  touch: number;
}

/** A canned HTTP answer a test puts in front of the official server. */
interface CannedAnswer {
  status: number;
  body: string;
  contentType?: string;
}

interface OfficialServerOptions {
  /** `enableJsonResponse` of the official transport: JSON answers instead of SSE streams. */
  json: boolean;
  /** When set, requests without `Authorization: Bearer <token>` get 401 (what the bridge does). */
  token?: string;
  /** Answers a POST instead of the official server when it returns something. */
  intercept?: (body: unknown) => CannedAnswer | undefined;
}

/** The official MCP SDK's Streamable HTTP server (session mode) on 127.0.0.1, with a few tools. */
class OfficialServer {
  readonly counts: ToolCounts = { readOnly: 0, touch: 0 };
  readonly sessions = new Map<string, StreamableHTTPServerTransport>();
  readonly #servers = new Set<McpServer>();
  readonly #http: Server;
  readonly #options: OfficialServerOptions;
  url = "";

  constructor(options: OfficialServerOptions) {
    this.#options = options;
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}/mcp`;
    return this;
  }

  /** Forgets a session the way a server does when it expires: later requests naming it get 404. */
  async forget(sessionId: string): Promise<void> {
    await this.sessions.get(sessionId)?.close();
    this.sessions.delete(sessionId);
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close();
    for (const server of this.#servers) await server.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.#options.token !== undefined && req.headers.authorization !== `Bearer ${this.#options.token}`) {
      res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": "Bearer" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "wrong token" } }));
      return;
    }
    const body = req.method === "POST" ? await readJson(req) : undefined;
    const canned = body === undefined ? undefined : this.#options.intercept?.(body);
    if (canned !== undefined) {
      res.writeHead(canned.status, { "Content-Type": canned.contentType ?? "application/json" }).end(canned.body);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = this.sessions.get(sessionId);
      if (transport === undefined) {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
        return;
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: this.#options.json,
      onsessioninitialized: (id) => {
        this.sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    const server = this.#mcpServer();
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  #mcpServer(): McpServer {
    const server = new McpServer({ name: "official-reference", version: "1.0.0" });
    this.#servers.add(server);
    const text = (value: unknown): { content: { type: "text"; text: string }[] } => ({
      content: [{ type: "text", text: JSON.stringify(value) }],
    });
    server.registerTool("project.inspect", { description: "read-only: how often it was called" }, (extra) => {
      this.counts.readOnly += 1;
      return text({ calls: this.counts.readOnly, session: extra.sessionId ?? null });
    });
    server.registerTool("touch", { description: "mutating: counts touches" }, () => {
      this.counts.touch += 1;
      return text({ touched: this.counts.touch });
    });
    server.registerTool("slow", { description: "answers after 200 ms" }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return text({ slept: 200 });
    });
    server.registerTool("broken", { description: "always fails" }, () => ({
      isError: true,
      content: [
        {
          type: "text",
          text: JSON.stringify({ code: "staleRevision", message: "the observation revision is no longer current" }),
        },
      ],
    }));
    server.registerTool("askClient", { description: "pings the client before answering" }, async (extra) => {
      await extra.sendRequest({ method: "ping" }, EmptyResultSchema);
      return text({ clientAnswered: true });
    });
    return server;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

/** One HTTP exchange as the client's fetch saw it. */
interface Exchange {
  method: string;
  headers: Headers;
  body: JsonRpcMessage | undefined;
  status?: number;
  contentType?: string | null;
}

/** A fetch that records every request and its status; `failNext` makes the next one fail like a dropped network. */
function recordingFetch(): { fetch: typeof globalThis.fetch; log: Exchange[]; failNext(): void } {
  const log: Exchange[] = [];
  let fail = false;
  const recording = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = request.method === "POST" ? await request.clone().text() : "";
    const entry: Exchange = {
      method: request.method,
      headers: request.headers,
      body: text === "" ? undefined : (JSON.parse(text) as JsonRpcMessage),
    };
    log.push(entry);
    if (fail) {
      fail = false;
      throw new TypeError("fetch failed", { cause: new Error("ECONNRESET") });
    }
    const response = await fetch(request);
    entry.status = response.status;
    entry.contentType = response.headers.get("content-type");
    return response;
  };
  return { fetch: recording, log, failNext: () => void (fail = true) };
}

const methodOf = (exchange: Exchange): string | undefined =>
  exchange.body !== undefined && "method" in exchange.body ? exchange.body.method : undefined;
const toolOf = (exchange: Exchange): unknown =>
  exchange.body !== undefined && "params" in exchange.body ? exchange.body.params?.name : undefined;

/** Transport handlers that record what arrives. */
class Recorder implements TransportHandlers {
  readonly messages: JsonRpcMessage[] = [];
  readonly closes: (GlassError | undefined)[] = [];
  readonly errors: GlassError[] = [];
  onMessage(message: JsonRpcMessage): void {
    this.messages.push(message);
  }
  onClose(error?: GlassError): void {
    this.closes.push(error);
  }
  onError(error: GlassError): void {
    this.errors.push(error);
  }
  async answer(id: string | number): Promise<JsonRpcMessage> {
    await until(() => this.messages.some((m) => "id" in m && m.id === id && !("method" in m)));
    return this.messages.find((m) => "id" in m && m.id === id && !("method" in m))!;
  }
}

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const INITIALIZE: JsonRpcRequest = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

/** Starts a transport and performs the MCP handshake by hand (to see the transport's own behaviour). */
async function handshakeByHand(transport: GlassTransport, recorder: Recorder): Promise<void> {
  await transport.start(recorder);
  await transport.send(INITIALIZE);
  await recorder.answer(0);
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

const servers: OfficialServer[] = [];
const clients: Glass[] = [];

async function officialServer(options: OfficialServerOptions): Promise<OfficialServer> {
  const server = await new OfficialServer(options).listen();
  servers.push(server);
  return server;
}

async function connect(
  url: string,
  extra: { fetch?: typeof globalThis.fetch; token?: string } = {},
  options: GlassClientOptions = {},
): Promise<Glass> {
  const glass = await Glass.connect(httpTransport({ url, ...extra }), {
    negotiation: false,
    serverRequestHandlers: { ping: () => ({}) },
    ...options,
  });
  clients.push(glass);
  return glass;
}

afterEach(async () => {
  for (const glass of clients.splice(0)) await glass.close();
  for (const server of servers.splice(0)) await server.close();
});

describe("httpTransport against the official MCP Streamable HTTP server", () => {
  it.each([
    { mode: "SSE streams", json: false, contentType: "text/event-stream" },
    { mode: "JSON answers", json: true, contentType: "application/json" },
  ])("lists tools, calls them, pings and reads typed tool errors ($mode)", async ({ json, contentType }) => {
    const server = await officialServer({ json });
    const recording = recordingFetch();
    const glass = await connect(server.url, { fetch: recording.fetch });

    const tools = await glass.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["askClient", "broken", "project.inspect", "slow", "touch"]);
    expect(await glass.requestUntyped("project.inspect", {})).toMatchObject({ calls: 1 });
    const envelope = await glass.send(createRequest("browser.slow", {}));
    expect(envelope).toMatchObject({ ok: true, result: { slept: 200 } });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
    await expect(glass.requestUntyped("browser.broken", {})).rejects.toMatchObject({
      code: "staleRevision",
      message: expect.stringContaining("no longer current"),
    });

    const answered = recording.log.filter((exchange) => exchange.status === 200 && methodOf(exchange) !== undefined);
    expect(answered.length).toBeGreaterThanOrEqual(6);
    for (const exchange of answered) expect(exchange.contentType).toContain(contentType);
  });

  it("delivers the daemon's own requests that arrive on an SSE stream before the answer, and answers them", async () => {
    const server = await officialServer({ json: false });
    const recording = recordingFetch();
    const glass = await connect(server.url, { fetch: recording.fetch });

    expect(await glass.requestUntyped("browser.askClient", {})).toEqual({ clientAnswered: true });
    const reply = recording.log.find((exchange) => exchange.body !== undefined && "result" in exchange.body);
    expect(reply).toMatchObject({ method: "POST", status: 202, body: { result: {} } });
  });

  it("sends the session id and negotiated protocol version after initialize (never before), the token, and DELETEs the session on close", async () => {
    const server = await officialServer({ json: false, token: TOKEN });
    const recording = recordingFetch();
    const glass = await Glass.connect(
      httpTransport({ url: server.url, token: TOKEN, fetch: recording.fetch, headers: { "X-Trace": "t-1" } }),
      { negotiation: false },
    );
    await glass.requestUntyped("project.inspect", {});
    const [sessionId] = [...server.sessions.keys()];
    expect(sessionId).toBeDefined();
    await glass.close();

    const [initialize, ...later] = recording.log;
    expect(methodOf(initialize!)).toBe("initialize");
    expect(initialize!.headers.get("Mcp-Session-Id")).toBeNull();
    expect(initialize!.headers.get("MCP-Protocol-Version")).toBeNull();
    for (const exchange of recording.log) {
      expect(exchange.headers.get("Authorization")).toBe(`Bearer ${TOKEN}`);
      expect(exchange.headers.get("X-Trace")).toBe("t-1");
    }
    expect(initialize!.headers.get("Content-Type")).toBe("application/json");
    expect(initialize!.headers.get("Accept")).toBe("application/json, text/event-stream");
    expect(later.map((exchange) => (exchange.method === "DELETE" ? "DELETE" : methodOf(exchange)))).toEqual([
      "notifications/initialized",
      "tools/list",
      "tools/call",
      "DELETE",
    ]);
    for (const exchange of later) {
      expect(exchange.headers.get("Mcp-Session-Id")).toBe(sessionId);
      expect(exchange.headers.get("MCP-Protocol-Version")).toBe("2025-11-25");
    }
    expect(later.at(-1)).toMatchObject({ method: "DELETE", status: 200 });
    expect(server.sessions.size).toBe(0);
  });

  it("re-initializes once when the session expired and repeats a read-only call in the new session", async () => {
    const server = await officialServer({ json: false });
    const recording = recordingFetch();
    const glass = await connect(server.url, { fetch: recording.fetch });
    await glass.requestUntyped("project.inspect", {});
    const [first] = [...server.sessions.keys()];
    await server.forget(first!);

    const result = await glass.requestUntyped("project.inspect", {});
    const [second] = [...server.sessions.keys()];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(result).toEqual({ calls: 2, session: second });
    expect(await glass.listTools()).toHaveLength(5);

    const afterExpiry = recording.log.slice(recording.log.findIndex((exchange) => exchange.status === 404));
    expect(
      afterExpiry.map((exchange) => [methodOf(exchange), exchange.status, exchange.headers.get("Mcp-Session-Id")]),
    ).toEqual([
      ["tools/call", 404, first],
      ["initialize", 200, null],
      ["notifications/initialized", 202, second],
      ["tools/call", 200, second],
      ["tools/list", 200, second],
    ]);
  });

  it("never sends a mutating call again after the session expired: it fails with sessionExpired", async () => {
    const server = await officialServer({ json: true });
    const recording = recordingFetch();
    const glass = await connect(server.url, { fetch: recording.fetch });
    await server.forget([...server.sessions.keys()][0]!);

    const envelope = await glass.send(createRequest("browser.touch", {}));
    expect(envelope).toMatchObject({ ok: false, error: { code: "transport.closed", mutationPossible: false } });
    expect(!envelope.ok && envelope.error.message).toMatch(/session .*expired.*NOT sent again/);
    expect(server.counts.touch).toBe(0);
    expect(recording.log.filter((exchange) => toolOf(exchange) === "touch")).toHaveLength(1);
    // The new session is there for the caller's next decision.
    expect(await glass.requestUntyped("browser.touch", {})).toEqual({ touched: 1 });
  });

  it("rejects the mutation itself with a TransportClosedError carrying details.sessionExpired", async () => {
    const server = await officialServer({ json: false });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);
    await server.forget([...server.sessions.keys()][0]!);

    const touch: JsonRpcRequest = {
      jsonrpc: "2.0",
      id: "m-1",
      method: "tools/call",
      params: { name: "touch", arguments: {} },
    };
    const failed = await transport.send(touch).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(TransportClosedError);
    expect(failed).toMatchObject({
      code: "transport.closed",
      details: { sessionExpired: true },
      rawMessage: expect.stringContaining("NOT sent again"),
    });
    expect(server.counts.touch).toBe(0);

    await transport.send({
      jsonrpc: "2.0",
      id: "r-1",
      method: "tools/call",
      params: { name: "project.inspect", arguments: {} },
    });
    expect(await recorder.answer("r-1")).toMatchObject({ result: { content: [{ type: "text" }] } });
    expect(recorder.messages.filter((message) => "id" in message && message.id === 0)).toHaveLength(1); // the replayed initialize's answer is not delivered
    await transport.close();
    expect(recorder.closes).toEqual([undefined]);
  });

  it("refuses a wrong or missing token with a TransportUnavailableError that says where the token comes from, and ends the transport", async () => {
    const server = await officialServer({ json: false, token: TOKEN });
    await expect(
      Glass.connect(httpTransport({ url: server.url, token: "wrong-token" }), { negotiation: false }),
    ).rejects.toMatchObject({
      code: "transport.unavailable",
      message: expect.stringMatching(/HTTP 401: wrong token: the token was refused.*startup line/),
    });

    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    await transport.start(recorder);
    const refused = await transport.send(INITIALIZE).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TransportUnavailableError);
    expect(refused).toMatchObject({
      retry: { classification: "notRetryable" },
      details: { status: 401 },
      rawMessage: expect.stringContaining("no token was sent"),
    });
    expect(recorder.closes).toEqual([refused]);
    await expect(transport.send(INITIALIZE)).rejects.toBeInstanceOf(TransportClosedError);
    await transport.close();
    expect(recorder.closes).toHaveLength(1);

    const glass = await connect(server.url, { token: TOKEN });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
  });

  it("reports an unreachable daemon as TransportUnavailableError, and a dropped request as TransportClosedError without ending the transport", async () => {
    const down = await officialServer({ json: false });
    const downUrl = down.url;
    await down.close();
    servers.splice(servers.indexOf(down), 1);
    await expect(Glass.connect(httpTransport({ url: downUrl }), { negotiation: false })).rejects.toMatchObject({
      code: "transport.unavailable",
      message: expect.stringContaining(`cannot reach the Glass daemon at ${downUrl}`),
    });

    const server = await officialServer({ json: false });
    const recording = recordingFetch();
    const transport = httpTransport({ url: server.url, fetch: recording.fetch });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);
    recording.failNext();
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toMatchObject({
      code: "transport.closed",
      rawMessage: expect.stringContaining("ECONNRESET"),
    });
    await transport.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(await recorder.answer(2)).toMatchObject({ result: {} });
    expect(recorder.closes).toEqual([]);
    await transport.close();
  });

  it("delivers a JSON-RPC error body of a failed POST as the request's answer, rejects send() with the status otherwise, and a gateway error as unavailable", async () => {
    const server = await officialServer({
      json: false,
      intercept: (body) => {
        const name = (body as { params?: { name?: unknown } }).params?.name;
        if (name === "rpcFailure")
          return {
            status: 500,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: null,
              error: { code: -32603, message: "the bridge lost the daemon" },
            }),
          };
        if (name === "htmlFailure")
          return { status: 500, body: "<html><body>Internal Server Error</body></html>", contentType: "text/html" };
        if (name === "gatewayFailure")
          return {
            status: 502,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: null,
              error: { code: -32603, message: "the daemon is unreachable" },
            }),
          };
        return undefined;
      },
    });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);

    await transport.send({
      jsonrpc: "2.0",
      id: "a",
      method: "tools/call",
      params: { name: "rpcFailure", arguments: {} },
    });
    expect(await recorder.answer("a")).toEqual({
      jsonrpc: "2.0",
      id: "a",
      error: { code: -32603, message: "the bridge lost the daemon" },
    });
    await expect(
      transport.send({ jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "htmlFailure", arguments: {} } }),
    ).rejects.toMatchObject({
      code: "transport.http",
      details: { status: 500 },
      rawMessage: expect.stringContaining(
        "HTTP 500 Internal Server Error: <html><body>Internal Server Error</body></html>",
      ),
    });
    // A gateway error means the daemon behind the bridge is unreachable: nothing was sent to it.
    await expect(
      transport.send({
        jsonrpc: "2.0",
        id: "c",
        method: "tools/call",
        params: { name: "gatewayFailure", arguments: {} },
      }),
    ).rejects.toMatchObject({
      code: "transport.unavailable",
      details: { status: 502 },
      rawMessage: expect.stringContaining("cannot reach the Glass daemon behind it"),
    });
    await transport.close();
  });

  it("closes the answer stream of a call the client cancelled, so its slot and connection are free at once", async () => {
    const server = await officialServer({ json: false });
    const recording = recordingFetch();
    // One slot, and a grace period far beyond the test: only the closed stream can free the slot in time.
    const glass = await connect(server.url, { fetch: recording.fetch }, { maxInFlight: 1, cancelGraceMs: 20_000 });

    await expect(glass.requestUntyped("browser.slow", {}, { deadlineMs: 50 })).rejects.toMatchObject({
      code: "deadlineExceeded",
      mutationPossible: true,
    });
    const started = Date.now();
    expect(await glass.requestUntyped("project.inspect", {}, { deadlineMs: 2000 })).toMatchObject({ calls: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
    const cancel = recording.log.find((exchange) => methodOf(exchange) === "notifications/cancelled");
    expect(cancel).toMatchObject({ status: 202 });
  });

  it("answers a request whose accepted POST ends without its answer with -32603, reports undecodable answers as bad frames, and reads JSON batches", async () => {
    const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } };
    const server = await officialServer({
      json: false,
      intercept: (body) => {
        const { id, params } = body as { id?: unknown; params?: { name?: unknown } };
        if (params?.name === "emptyJson") return { status: 200, body: "" };
        if (params?.name === "badJson") return { status: 200, body: "{oops" };
        if (params?.name === "plainText") return { status: 200, body: "hello", contentType: "text/plain" };
        if (params?.name === "sseNoAnswer")
          return {
            status: 200,
            body: `event: message\ndata: ${JSON.stringify(note)}\n\n`,
            contentType: "text/event-stream",
          };
        if (params?.name === "batch")
          return { status: 200, body: JSON.stringify([note, 7, { jsonrpc: "2.0", id, result: { content: [] } }]) };
        return undefined;
      },
    });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);
    const call = (id: string, name: string) =>
      transport.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
    const unanswered = (id: string, why: string) => ({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32603,
        message: expect.stringMatching(
          new RegExp(
            `answer from ${server.url} ended before the daemon answered \\(.*${why}.*\\); the request may have been carried out`,
          ),
        ),
      },
    });

    await call("e", "emptyJson");
    expect(await recorder.answer("e")).toEqual(unanswered("e", "the daemon sent no answer"));
    await call("j", "badJson");
    expect(await recorder.answer("j")).toEqual(unanswered("j", "the daemon sent no answer"));
    expect(recorder.errors.map((error) => [error.code, error.rawMessage])).toEqual([
      ["transport.badFrame", expect.stringContaining("not valid JSON")],
    ]);
    await call("t", "plainText");
    expect(await recorder.answer("t")).toEqual(unanswered("t", 'content type "text/plain"'));
    await call("s", "sseNoAnswer");
    expect(await recorder.answer("s")).toEqual(unanswered("s", "the daemon sent no answer"));
    expect(recorder.messages.filter((message) => "method" in message)).toEqual([note]);
    await call("b", "batch");
    expect(await recorder.answer("b")).toEqual({ jsonrpc: "2.0", id: "b", result: { content: [] } });
    expect(recorder.messages.filter((message) => "method" in message)).toEqual([note, note]);
    expect(recorder.errors.map((error) => error.rawMessage)).toEqual([
      expect.stringContaining("not valid JSON"),
      expect.stringContaining("not a JSON-RPC 2.0 message"),
    ]);
    expect(recorder.closes).toEqual([]);
    await transport.close();
  });

  it("does not take -32000 in an HTTP 4xx answer for the daemon's overload, fails a 429 as overloaded, and reports a bridge at its client limit (503) as unavailable", async () => {
    const busy = (message: string) =>
      JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { why: "busy" } } });
    const server = await officialServer({
      json: true,
      intercept: (body) => {
        const name = (body as { params?: { name?: unknown } }).params?.name;
        if (name === "conflict") return { status: 409, body: busy("Conflict: the session is busy") };
        if (name === "tooMany") return { status: 429, body: busy("Too many requests") };
        if (name === "full") return { status: 503, body: busy("the bridge serves 8 clients at most") };
        return undefined;
      },
    });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);
    const call = (id: string, name: string) =>
      transport.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

    await call("c", "conflict");
    expect(await recorder.answer("c")).toEqual({
      jsonrpc: "2.0",
      id: "c",
      error: {
        code: -32600,
        message: "Conflict: the session is busy",
        data: { httpStatus: 409, jsonRpcCode: -32000, data: { why: "busy" } },
      },
    });
    // 429 is the HTTP server's own overload: the send fails (for the client's retry, with the server's Retry-After), not an answer.
    const tooMany = await call("m", "tooMany").catch((error: unknown) => error);
    expect(tooMany).toBeInstanceOf(OverloadedError);
    expect(tooMany).toMatchObject({
      code: "overloaded",
      details: { status: 429 },
      rawMessage: expect.stringMatching(/\(HTTP 429\): Too many requests$/),
    });
    const full = await call("f", "full").catch((error: unknown) => error);
    expect(full).toBeInstanceOf(TransportUnavailableError);
    expect(full).toMatchObject({
      details: { status: 503 },
      rawMessage: expect.stringMatching(/HTTP 503\): the bridge serves 8 clients at most; .*--max-clients/),
    });
    expect(recorder.closes).toEqual([]);
    await transport.close();
  });

  it("makes one fetch per message with the protocol's headers over the caller's (whatever their case), and close() aborts what is in flight and DELETEs the session", async () => {
    // What the transport hands to fetch is read as a Request (ky passes one), so the test depends on the request, not on how fetch is called.
    const calls: { request: Request; body: string | undefined }[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const text = request.method === "POST" ? await request.text() : undefined;
      calls.push({ request, body: text });
      const body = text === undefined ? undefined : (JSON.parse(text) as { id?: number; method?: string });
      if (body === undefined) return new Response(null, { status: 200 });
      if (body.method === "initialize")
        return Response.json(
          { jsonrpc: "2.0", id: body.id, result: { protocolVersion: "2025-06-18" } },
          { headers: { "Mcp-Session-Id": "s-1" } },
        );
      if (body.id === undefined) return new Response(null, { status: 202 });
      if (body.method !== "hang") return Response.json({ jsonrpc: "2.0", id: body.id, result: {} });
      return new Promise<Response>((_resolve, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    };
    const transport = httpTransport({
      url: "http://glass.test/mcp",
      token: TOKEN,
      fetch,
      headers: { "content-type": "text/plain", ACCEPT: "*/*", "X-Trace": "t-1" },
    });
    const recorder = new Recorder();
    await handshakeByHand(transport, recorder);
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(await recorder.answer(1)).toMatchObject({ result: {} });

    expect(calls.map(({ request }) => request.method)).toEqual(["POST", "POST", "POST"]);
    for (const { request, body } of calls) {
      expect(request.url).toBe("http://glass.test/mcp");
      expect(typeof body).toBe("string");
      const { headers } = request;
      expect([
        headers.get("content-type"),
        headers.get("accept"),
        headers.get("authorization"),
        headers.get("x-trace"),
      ]).toEqual(["application/json", "application/json, text/event-stream", `Bearer ${TOKEN}`, "t-1"]);
    }
    expect(calls[0]!.request.headers.get("mcp-session-id")).toBeNull();
    expect(calls[2]!.request.headers.get("mcp-session-id")).toBe("s-1");
    expect(calls[2]!.request.headers.get("mcp-protocol-version")).toBe("2025-06-18");

    const hanging = transport.send({ jsonrpc: "2.0", id: 2, method: "hang" }).catch((error: unknown) => error);
    await until(() => calls.length === 4);
    await transport.close();
    expect(await hanging).toMatchObject({
      code: "transport.closed",
      rawMessage: expect.stringContaining("closed before the daemon answered"),
    });
    expect(calls[3]!.request.signal.aborted).toBe(true);
    expect(calls.at(-1)!.request.method).toBe("DELETE");
    expect(calls.at(-1)!.request.headers.get("mcp-session-id")).toBe("s-1");
    expect(recorder.closes).toEqual([undefined]);
  });

  it("has the defaults the client relies on", () => {
    const transport = httpTransport({ url: "http://127.0.0.1:1/mcp" });
    expect(transport.kind).toBe("http");
    expect(transport.maxInFlight).toBe(4);
    expect(httpTransport({ url: "http://127.0.0.1:1/mcp", maxInFlight: 2 }).maxInFlight).toBe(2);
    expect(() => httpTransport({ url: "http://127.0.0.1:1/mcp", token: "two words" })).toThrow(/bearer token/);
  });
});

/** A node:http server on 127.0.0.1 whose every POST is handed to `handle` (which may keep the response open); a DELETE gets 200. */
async function rawServer(
  handle: (body: string, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () =>
      req.method === "POST" ? handle(Buffer.concat(chunks).toString("utf8"), res) : res.writeHead(200).end(),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe("httpTransport: what it holds and what it scrubs", () => {
  it("bufferedBytes counts a POST's body until its status comes, and not an answer being read (a partly read SSE event)", async () => {
    const PART = 1024 * 1024;
    const held: { res?: ServerResponse; body?: string } = {};
    const server = await rawServer((body, res) => {
      const { id, method } = JSON.parse(body) as { id?: unknown; method?: string };
      if (method === "initialize")
        return res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "raw", version: "0" } },
          }),
        );
      if (method === "notifications/initialized") return res.writeHead(202).end();
      // A tools/call: held without a status first, then half an SSE event.
      Object.assign(held, { res, body });
    });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    try {
      await handshakeByHand(transport, recorder);
      expect(transport.bufferedBytes).toBe(0);
      const call: JsonRpcRequest = {
        jsonrpc: "2.0",
        id: "big",
        method: "tools/call",
        params: { name: "observe", arguments: { text: "é".repeat(1000) } },
      };
      const sent = transport.send(call);
      await until(() => held.res !== undefined);
      // The body (2-byte characters counted as bytes) is held until the server gives its status.
      expect(transport.bufferedBytes).toBe(Buffer.byteLength(held.body!));
      held.res!.writeHead(200, { "content-type": "text/event-stream" });
      held.res!.write(`event: message\ndata: ${"x".repeat(PART)}`);
      await sent;
      // The daemon took the body: the event arriving is an answer, not something waiting for the peer.
      expect(transport.bufferedBytes).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(transport.bufferedBytes).toBe(0);
      held.res!.end(`\n\n`);
      await recorder.answer("big");
      expect(transport.bufferedBytes).toBe(0);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it("bufferedBytes does not count JSON answers still arriving: three large answers partly read leave it at 0", async () => {
    const PART = 2 * 1024 * 1024;
    const open: ServerResponse[] = [];
    const server = await rawServer((body, res) => {
      const { id, method } = JSON.parse(body) as { id?: unknown; method?: string };
      if (method === "initialize")
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
      if (method === "notifications/initialized") return res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"text":"${"y".repeat(PART)}`);
      open.push(res);
    });
    const transport = httpTransport({ url: server.url });
    const recorder = new Recorder();
    try {
      await handshakeByHand(transport, recorder);
      const ids = ["j1", "j2", "j3"];
      await Promise.all(
        ids.map((id) =>
          transport.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "observe", arguments: {} } }),
        ),
      );
      await until(() => open.length === ids.length);
      // 6 MiB of answers are being read, none of it for the peer to take.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(transport.bufferedBytes).toBe(0);
      for (const res of open) res.end(`"}}`);
      for (const id of ids) expect(await recorder.answer(id)).toMatchObject({ result: { text: expect.any(String) } });
      expect(transport.bufferedBytes).toBe(0);
    } finally {
      await transport.close();
      await server.close();
    }
  });

  it("redact scrubs the bearer token, the URL's password and ?token= value wherever a server echoes them, and leaves other text alone", () => {
    const transport = httpTransport({
      url: "http://glass:Url-Passw0rd@127.0.0.1:1/mcp?token=Qu3ry-T0ken&x=1",
      token: TOKEN,
    });
    const echoed = `refused ${TOKEN} (${JSON.stringify(JSON.stringify(TOKEN))}), password Url-Passw0rd, query value Qu3ry-T0ken, Authorization: Bearer someone-elses-token-123`;
    const scrubbed = transport.redact!(echoed);
    for (const secret of [TOKEN, "Url-Passw0rd", "Qu3ry-T0ken", "someone-elses-token-123"])
      expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain("[redacted]");
    expect(transport.redact!("the page at http://example.com/a?b=c has 3 buttons")).toBe(
      "the page at http://example.com/a?b=c has 3 buttons",
    );
  });

  it("a token and a ?token= value a server echoes in a call's error never reach the Glass error", async () => {
    const server = await rawServer((body, res) => {
      const { id, method } = JSON.parse(body) as { id?: unknown; method?: string };
      if (method === "initialize")
        return res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "raw", version: "0" } },
          }),
        );
      if (method === "notifications/initialized") return res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          error: { code: -32603, message: `bad credentials ${TOKEN} / Qu3ry-T0ken`, data: { echoed: TOKEN } },
        }),
      );
    });
    const url = `${server.url}?token=Qu3ry-T0ken`;
    const glass = await Glass.connect(httpTransport({ url, token: TOKEN }), { negotiation: false });
    try {
      const error = (await glass.browser.observe({}).catch((caught: unknown) => caught)) as GlassError;
      expect(error).toMatchObject({
        code: expect.any(String) as unknown as string,
        phase: expect.any(String) as unknown as string,
      });
      const shown = JSON.stringify({ message: error.message, json: error.toJSON() });
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain("Qu3ry-T0ken");
      expect(shown).toContain("[redacted]");
    } finally {
      await glass.close();
      await server.close();
    }
  });
});
