import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket as WsWebSocket, WebSocketServer, type WebSocket as ServerSocket } from "ws";
import { Glass } from "../../src/client/glass.js";
import { createRequest } from "../../src/envelope/create-request.js";
import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../../src/errors/error-classes.js";
import { GlassError } from "../../src/errors/glass-error.js";
import type { JsonRpcMessage } from "../../src/mcp/json-rpc.js";
import type { TransportHandlers } from "../../src/transport/transport.js";
import { webSocketTransport, type WebSocketConstructor } from "../../src/transport/websocket-transport.js";
import { startBridgeHarness, type BridgeHarness } from "../support/bridge-harness.js";

const TOKEN = "Zm9vYmFy-base64url_token~1";

interface DaemonOptions {
  /** How the server picks the subprotocol; default: `mcp` when the right token came along, else none. */
  handleProtocols?: (protocols: Set<string>) => string | false;
  /** Refuses the upgrade with this HTTP status (before any subprotocol is chosen). */
  refuseWith?: number;
  /** Speaks raw frames instead of MCP. */
  raw?: (socket: ServerSocket) => void;
}

/** A `ws` WebSocketServer on 127.0.0.1 that speaks MCP through the official McpServer (one per connection). */
class WebSocketDaemon {
  readonly offeredProtocols: string[][] = [];
  readonly toolCalls: string[] = [];
  connections = 0;
  url = "";
  readonly #server: WebSocketServer;

  constructor(options: DaemonOptions = {}) {
    const handleProtocols =
      options.handleProtocols ??
      ((protocols: Set<string>) => (protocols.has("mcp") && protocols.has(`glass-bearer.${TOKEN}`) ? "mcp" : false));
    this.#server = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      handleProtocols: (protocols, request: IncomingMessage) => {
        this.offeredProtocols.push(
          String(request.headers["sec-websocket-protocol"])
            .split(",")
            .map((entry) => entry.trim()),
        );
        return handleProtocols(protocols);
      },
      ...(options.refuseWith === undefined
        ? {}
        : {
            verifyClient: (_info: unknown, done: (ok: boolean, status?: number) => void) =>
              done(false, options.refuseWith),
          }),
    });
    this.#server.on("connection", (socket) => {
      this.connections += 1;
      if (options.raw !== undefined) options.raw(socket);
      else this.#speakMcp(socket);
    });
  }

  async listen(): Promise<this> {
    if (this.#server.address() === null) await new Promise<void>((resolve) => this.#server.once("listening", resolve));
    this.url = `ws://127.0.0.1:${(this.#server.address() as AddressInfo).port}/mcp`;
    return this;
  }

  /** Closes every client connection from the daemon's side. */
  dropClients(code: number, reason: string): void {
    for (const socket of this.#server.clients) socket.close(code, reason);
  }

  async close(): Promise<void> {
    for (const socket of this.#server.clients) socket.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #speakMcp(socket: ServerSocket): void {
    const [bridge, serverSide] = InMemoryTransport.createLinkedPair();
    const server = this.#mcpServer();
    bridge.onmessage = (message) => socket.send(JSON.stringify(message));
    const ready = server.connect(serverSide).then(() => bridge.start());
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      void ready.then(() => bridge.send(JSON.parse(String(data)) as JSONRPCMessage));
    });
    socket.on("close", () => void server.close());
  }

  #mcpServer(): McpServer {
    const server = new McpServer({ name: "ws-reference", version: "1.0.0" });
    const text = (value: unknown): { content: { type: "text"; text: string }[] } => ({
      content: [{ type: "text", text: JSON.stringify(value) }],
    });
    const never = (name: string) => () => {
      this.toolCalls.push(name);
      return new Promise<never>(() => undefined);
    };
    server.registerTool("project.inspect", { description: "read-only" }, () => {
      this.toolCalls.push("project.inspect");
      return text({ status: "ready" });
    });
    server.registerTool("touch", { description: "mutating" }, () => {
      this.toolCalls.push("touch");
      return text({ touched: true });
    });
    server.registerTool("workspaceInspect", { description: "read-only, never answers" }, never("workspaceInspect"));
    server.registerTool("hang", { description: "mutating, never answers" }, never("hang"));
    return server;
  }
}

/** A browser-like WebSocket (no write callback, no `on`/`terminate`) over the ws package, to inject as a class. */
class BrowserLikeWebSocket {
  static created = 0;
  readonly #socket: WsWebSocket;

  constructor(url: string, protocols?: string | string[]) {
    BrowserLikeWebSocket.created += 1;
    this.#socket = new WsWebSocket(url, protocols);
  }

  get readyState(): number {
    return this.#socket.readyState;
  }

  get protocol(): string {
    return this.#socket.protocol;
  }

  send(data: string): void {
    this.#socket.send(data);
  }

  close(code?: number, reason?: string): void {
    this.#socket.close(code, reason);
  }

  addEventListener(type: "open" | "message" | "error" | "close", listener: (event: unknown) => void): void {
    this.#socket.addEventListener(type, listener);
  }
}

/** A ws-package-like socket driven by the test: it opens on the next microtask and never completes a closing handshake. */
class ScriptedSocket {
  static last: ScriptedSocket | undefined;
  readyState = 0;
  protocol = "mcp";
  readonly sent: string[] = [];
  closedWith: [number | undefined, string | undefined] | undefined;
  terminated = false;
  readonly #listeners = new Map<string, ((event: unknown) => void)[]>();

  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    ScriptedSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.emit("open", {});
    });
  }

  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  send(data: string, written?: (error?: Error) => void): void {
    this.sent.push(data);
    written?.();
  }

  close(code?: number, reason?: string): void {
    this.closedWith = [code, reason];
    this.readyState = 2;
  }

  on(): void {}

  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

/** Transport handlers that record what arrives. */
class Recorder implements TransportHandlers {
  readonly messages: JsonRpcMessage[] = [];
  readonly errors: GlassError[] = [];
  readonly closes: (GlassError | undefined)[] = [];
  onMessage(message: JsonRpcMessage): void {
    this.messages.push(message);
  }
  onError(error: GlassError): void {
    this.errors.push(error);
  }
  onClose(error?: GlassError): void {
    this.closes.push(error);
  }
}

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const daemons: WebSocketDaemon[] = [];
const clients: Glass[] = [];

async function daemon(options?: DaemonOptions): Promise<WebSocketDaemon> {
  const started = await new WebSocketDaemon(options).listen();
  daemons.push(started);
  return started;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  for (const glass of clients.splice(0)) await glass.close();
  for (const started of daemons.splice(0)) await started.close();
});

describe("webSocketTransport", () => {
  it("runs Glass over the ws package when there is no global WebSocket, offering mcp and glass-bearer.<token>", async () => {
    vi.stubGlobal("WebSocket", undefined);
    const server = await daemon();
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), { negotiation: false });
    clients.push(glass);

    expect(server.offeredProtocols).toEqual([["mcp", `glass-bearer.${TOKEN}`]]);
    expect((await glass.listTools()).map((tool) => tool.name)).toContain("project.inspect");
    expect(await glass.requestUntyped("project.inspect", {})).toEqual({ status: "ready" });
    expect(await glass.send(createRequest("browser.touch", {}))).toMatchObject({ ok: true, result: { touched: true } });
    expect(await glass.ping()).toBeGreaterThanOrEqual(0);
  });

  it("uses an injected WebSocket class (a browser-like one without write callbacks)", async () => {
    const server = await daemon();
    const before = BrowserLikeWebSocket.created;
    const transport = webSocketTransport({
      url: server.url,
      token: TOKEN,
      WebSocket: BrowserLikeWebSocket satisfies WebSocketConstructor,
    });
    const glass = await Glass.connect(transport, { negotiation: false });
    clients.push(glass);

    expect(BrowserLikeWebSocket.created).toBe(before + 1);
    expect(await glass.requestUntyped("project.inspect", {})).toEqual({ status: "ready" });
    expect(transport).toMatchObject({ kind: "websocket", maxInFlight: 4 });
  });

  it("rejects pending calls with TransportClosedError when the socket closes; mutationPossible only for a written mutating call", async () => {
    const server = await daemon();
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), {
      negotiation: false,
      maxInFlight: 2,
    });
    clients.push(glass);

    const writtenMutation = glass.requestUntyped("browser.hang", {}).catch((error: unknown) => error);
    const writtenRead = glass.requestUntyped("browser.workspaceInspect", {}).catch((error: unknown) => error);
    const queuedMutation = glass.requestUntyped("browser.hang", {}).catch((error: unknown) => error); // above maxInFlight: never written
    await until(() => server.toolCalls.length === 2);
    server.dropClients(4000, "daemon restarting");

    const [mutation, read, queued] = await Promise.all([writtenMutation, writtenRead, queuedMutation]);
    expect(mutation).toBeInstanceOf(TransportClosedError);
    expect(mutation).toMatchObject({
      mutationPossible: true,
      phase: "dispatch",
      message: expect.stringMatching(/code 4000: daemon restarting.*may have happened/),
    });
    expect(read).toBeInstanceOf(TransportClosedError);
    expect(read).toMatchObject({ mutationPossible: false });
    expect(queued).toBeInstanceOf(TransportClosedError);
    expect(queued).toMatchObject({ mutationPossible: false, phase: "preflight" });
    expect(server.toolCalls).toEqual(["hang", "workspaceInspect"]);
  });

  it("never reconnects or sends anything again after the socket closed", async () => {
    const server = await daemon();
    const transport = webSocketTransport({ url: server.url, token: TOKEN });
    const recorder = new Recorder();
    await transport.start(recorder);
    server.dropClients(1001, "going away");
    await until(() => recorder.closes.length === 1);

    expect(recorder.closes[0]).toBeInstanceOf(TransportClosedError);
    expect(recorder.closes[0]).toMatchObject({ details: { closeCode: 1001, closeReason: "going away" } });
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toBeInstanceOf(
      TransportClosedError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toBe(1);
    await transport.close();
    expect(recorder.closes).toHaveLength(1);
  });

  it("reports non-text and non-JSON-RPC frames as BadFrameError and reads on", async () => {
    const server = await daemon({
      handleProtocols: () => "mcp",
      raw: (socket) => {
        socket.send(Buffer.from([1, 2, 3]), { binary: true });
        socket.send("this is not JSON");
        socket.send("[1, 2]");
        socket.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } }));
      },
    });
    const transport = webSocketTransport({ url: server.url });
    const recorder = new Recorder();
    await transport.start(recorder);
    await until(() => recorder.messages.length === 1);

    expect(recorder.errors).toHaveLength(3);
    for (const error of recorder.errors) expect(error).toBeInstanceOf(BadFrameError);
    expect(recorder.errors.map((error) => error.rawMessage)).toEqual([
      expect.stringContaining("binary frame"),
      expect.stringContaining("not valid JSON"),
      expect.stringContaining("not a JSON-RPC 2.0 message"),
    ]);
    expect(recorder.messages).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info" } }]);
    await transport.close();
    expect(recorder.closes).toEqual([undefined]);
  });

  it("accepts a token with dots, as the bridge does", () => {
    expect(() => webSocketTransport({ url: "ws://127.0.0.1:1/mcp", token: "dotted.token-0123456789" })).not.toThrow();
  });

  it("refuses a token that cannot travel as a subprotocol, at construction, naming the allowed characters", () => {
    for (const token of ["", "has space", "slash/token", "ünïcode", "a,b"]) {
      let thrown: unknown;
      try {
        webSocketTransport({ url: "ws://127.0.0.1:1/mcp", token });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, token).toBeInstanceOf(GlassError);
      expect((thrown as GlassError).rawMessage).toContain("letters, digits, '.', '-', '_' and '~'");
      expect((thrown as GlassError).rawMessage).not.toContain(token === "" ? "\u0000" : token);
    }
  });

  it("fails start() with TransportUnavailableError when the server refuses the subprotocol (a wrong token)", async () => {
    const server = await daemon();
    const connecting = Glass.connect(webSocketTransport({ url: server.url, token: "wrong-token" }), {
      negotiation: false,
    });
    await expect(connecting).rejects.toBeInstanceOf(TransportUnavailableError);
    await expect(connecting).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`${server.url}.*refused the mcp subprotocol or the token`)),
    });
  });

  it("fails start() when the server selects another subprotocol than mcp, or refuses the upgrade with 401", async () => {
    const echoing = await daemon({
      handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith("glass-bearer.")) ?? false,
    });
    const transport = webSocketTransport({ url: echoing.url, token: TOKEN });
    const refused = await transport.start(new Recorder()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TransportUnavailableError);
    expect((refused as GlassError).rawMessage).toMatch(
      /did not select the mcp subprotocol \(it selected "glass-bearer\.…"\)/,
    );
    expect((refused as GlassError).rawMessage).not.toContain(TOKEN);

    const unauthorized = await daemon({ refuseWith: 401 });
    const failed = await webSocketTransport({ url: unauthorized.url, token: TOKEN })
      .start(new Recorder())
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TransportUnavailableError);
    expect((failed as GlassError).rawMessage).toMatch(/401.*refused the token.*startup line/);
  });

  it("close() before start(), or while connecting, makes start() fail with TransportClosedError; send() before start() is refused", async () => {
    const never = webSocketTransport({ url: "ws://127.0.0.1:1/mcp", WebSocket: ScriptedSocket });
    await expect(never.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toMatchObject({
      code: "transport.closed",
      rawMessage: expect.stringContaining("is not open: call start() first"),
    });
    await never.close();
    await expect(never.start(new Recorder())).rejects.toMatchObject({
      code: "transport.closed",
      rawMessage: "the transport was closed before it started",
    });

    const server = await daemon();
    const connecting = webSocketTransport({ url: server.url, token: TOKEN });
    const recorder = new Recorder();
    const started = connecting.start(recorder).catch((error: unknown) => error);
    await connecting.close();
    expect(await started).toBeInstanceOf(TransportClosedError);
    expect(await started).toMatchObject({ rawMessage: "the transport was closed before it opened" });
    await expect(connecting.start(recorder)).rejects.toMatchObject({ code: "transport.closed" });
    expect(recorder.closes).toEqual([]);
  });

  it("drops the connection when the closing handshake does not finish within 2 s, and reports a close the owner asked for without an error", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const transport = webSocketTransport({ url: "ws://glass.test/mcp", WebSocket: ScriptedSocket });
      const recorder = new Recorder();
      await transport.start(recorder);
      const socket = ScriptedSocket.last!;
      await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(socket.sent).toEqual(['{"jsonrpc":"2.0","method":"notifications/initialized"}']);
      let closed = false;
      const closing = transport.close().then(() => (closed = true));
      await vi.advanceTimersByTimeAsync(1999);
      expect([closed, socket.closedWith, socket.terminated]).toEqual([
        false,
        [1000, "the client closed the connection"],
        false,
      ]);
      await vi.advanceTimersByTimeAsync(1);
      await closing;
      expect(socket.terminated).toBe(true);
      expect(recorder.closes).toEqual([undefined]);
      await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toBeInstanceOf(
        TransportClosedError,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("fails start() with TransportUnavailableError naming the URL when nothing listens", async () => {
    const server = await daemon();
    const url = server.url;
    await server.close();
    daemons.splice(daemons.indexOf(server), 1);
    await expect(webSocketTransport({ url }).start(new Recorder())).rejects.toMatchObject({
      code: "transport.unavailable",
      message: expect.stringContaining(`cannot open a WebSocket to ${url}`),
    });
  });

  it("bufferedBytes is what waits in the socket for a peer that stopped reading, and 0 once it reads again", async () => {
    let paused: { pause(): void; resume(): void } | undefined;
    const server = await daemon({
      handleProtocols: () => "mcp",
      raw: (socket) => {
        paused = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
        paused.pause(); // stops reading the TCP stream
      },
    });
    const transport = webSocketTransport({ url: server.url });
    await transport.start(new Recorder());
    expect(transport.bufferedBytes).toBe(0);
    const MIB = 1024 * 1024;
    // 8 MiB of notifications: more than the kernel's socket buffers take, so some wait in the socket.
    const sends = Array.from({ length: 8 }, () =>
      transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: "z".repeat(MIB) } }),
    );
    await until(() => (transport.bufferedBytes ?? 0) > 0);
    expect(transport.bufferedBytes).toBeLessThanOrEqual(8 * MIB + 8 * 128);
    paused!.resume();
    await Promise.all(sends);
    await until(() => transport.bufferedBytes === 0);
    await transport.close();
    expect(transport.bufferedBytes).toBe(0);
  });

  it("redact scrubs its token (as written and as the glass-bearer subprotocol) and the URL's ?token=, and leaves other text alone", () => {
    const transport = webSocketTransport({ url: "ws://127.0.0.1:1/mcp?token=Qu3ry-T0ken-ws", token: TOKEN });
    const scrubbed = transport.redact!(
      `server said: bad ${TOKEN}; Sec-WebSocket-Protocol: mcp, glass-bearer.${TOKEN}; query Qu3ry-T0ken-ws`,
    );
    expect(scrubbed).not.toContain(TOKEN);
    expect(scrubbed).not.toContain("Qu3ry-T0ken-ws");
    expect(scrubbed).toContain("glass-bearer.[redacted]");
    expect(transport.redact!("clicked the button at ws://127.0.0.1:1/page")).toBe(
      "clicked the button at ws://127.0.0.1:1/page",
    );
  });

  it("a token a server echoes in a call's error never reaches the Glass error", async () => {
    const server = await daemon({
      raw: (socket) => {
        socket.on("message", (data) => {
          const message = JSON.parse(String(data)) as {
            id?: string | number;
            method: string;
            params?: { protocolVersion?: string };
          };
          if (message.id === undefined) return;
          if (message.method === "initialize") {
            socket.send(
              JSON.stringify({
                jsonrpc: "2.0",
                id: message.id,
                result: {
                  protocolVersion: message.params?.protocolVersion,
                  capabilities: {},
                  serverInfo: { name: "echo", version: "0" },
                },
              }),
            );
            return;
          }
          if (message.method === "tools/list") {
            // The client's connect-time tool list: the tool the test calls. Its call is what echoes the token.
            socket.send(
              JSON.stringify({
                jsonrpc: "2.0",
                id: message.id,
                result: { tools: [{ name: "observe", inputSchema: { type: "object" } }] },
              }),
            );
            return;
          }
          socket.send(
            JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              error: { code: -32603, message: `token ${TOKEN} is not welcome`, data: { token: TOKEN } },
            }),
          );
        });
      },
    });
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), { negotiation: false });
    clients.push(glass);
    const error = (await glass.browser.observe({}).catch((caught: unknown) => caught)) as GlassError;
    expect(error).toBeInstanceOf(GlassError);
    const shown = JSON.stringify({ message: error.message, json: error.toJSON() });
    expect(shown).not.toContain(TOKEN);
    expect(shown).toContain("[redacted]");
  });
});

/** The `ws` package's WebSocket sending this Origin, as a page's would (`ws` sends none unless told). */
function wsWithOrigin(origin: string): WebSocketConstructor {
  return class extends WsWebSocket {
    constructor(url: string, protocols?: string | string[], options?: ConstructorParameters<typeof WsWebSocket>[2]) {
      super(url, protocols, { ...options, origin });
    }
  } as unknown as WebSocketConstructor;
}

/**
 * A WebSocket that fails as a browser's does: it sends the page's Origin, and when the upgrade is
 * refused it reports an `error` event with no message and a close with code 1006 and no reason
 * (browsers hide the HTTP answer from the page).
 */
function browserShapedWebSocket(origin: string): WebSocketConstructor {
  return class {
    readonly #socket: WsWebSocket;
    constructor(url: string, protocols?: string | string[]) {
      this.#socket = new WsWebSocket(url, protocols, { origin });
      this.#socket.on("error", () => undefined);
    }
    get readyState(): number {
      return this.#socket.readyState;
    }
    get protocol(): string {
      return this.#socket.protocol;
    }
    send(data: string): void {
      this.#socket.send(data);
    }
    close(code?: number, reason?: string): void {
      this.#socket.close(code, reason);
    }
    addEventListener(type: "open" | "message" | "error" | "close", listener: (event: unknown) => void): void {
      if (type === "error") this.#socket.on("error", () => listener({ type: "error" }));
      else if (type === "close")
        this.#socket.on("close", (code: number) => listener({ type: "close", code, reason: "" }));
      else this.#socket.addEventListener(type, listener);
    }
  };
}

describe("webSocketTransport refused for its Origin", () => {
  let harness: BridgeHarness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it("on Node (ws), where the upgrade's answer is visible, says the bridge refused the Origin (403), quoting it, and how to allow it", async () => {
    harness = await startBridgeHarness({ allowedOrigins: ["http://localhost:5173"] });
    const { bridge, daemon, logs } = harness;
    const transport = webSocketTransport({
      url: bridge.wsUrl,
      token: bridge.token,
      WebSocket: wsWithOrigin("http://localhost:5174"),
    });
    const error = (await transport.start(new Recorder()).catch((caught: unknown) => caught)) as GlassError;
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error.rawMessage).toBe(
      `cannot open a WebSocket to ${bridge.wsUrl}: the server refused the upgrade with HTTP 403: Origin "http://localhost:5174" is not allowed: ` +
        "to let its pages in, start the bridge with --allow-origin http://localhost:5174 (allowedOrigins in startBridge()); " +
        "the bridge does not allow this client's Origin: start it with --allow-origin <origin> (or allowedOrigins in startBridge())",
    );
    expect(error.details).toMatchObject({ status: 403, closeCode: 1006 });
    expect(JSON.stringify(error.toJSON())).not.toContain(bridge.token);
    expect(daemon.clientCount()).toBe(0);
    expect(
      logs.some(
        (line) =>
          line.includes("refused WebSocket /mcp") && line.includes('Origin "http://localhost:5174" is not allowed'),
      ),
    ).toBe(true);

    // The same client from the allowed origin gets in.
    const allowed = webSocketTransport({
      url: bridge.wsUrl,
      token: bridge.token,
      WebSocket: wsWithOrigin("http://localhost:5173"),
    });
    await allowed.start(new Recorder());
    await allowed.close();
  });

  it("in a browser (close 1006, no reason), says the origin may be refused and names the page's origin in the flag that allows it, claiming no cause", async () => {
    harness = await startBridgeHarness({ allowedOrigins: ["http://localhost:5173"] });
    const { bridge } = harness;
    vi.stubGlobal("location", { origin: "http://localhost:5174" });
    const transport = webSocketTransport({
      url: bridge.wsUrl,
      token: bridge.token,
      WebSocket: browserShapedWebSocket("http://localhost:5174"),
    });
    const error = (await transport.start(new Recorder()).catch((caught: unknown) => caught)) as GlassError;
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error.rawMessage).toBe(
      `cannot open a WebSocket to ${bridge.wsUrl}: it closed with code 1006; the browser gives no reason (it hides the server's answer to a refused upgrade). ` +
        "Check that the bridge runs at this URL and that the token is the one from its startup line; the bridge also refuses pages from an origin it was not " +
        "told to allow: start it with --allow-origin http://localhost:5174 (or allowedOrigins in startBridge()). The bridge logs the reason for every refusal",
    );
    expect(error.details).toEqual({ closeCode: 1006 });

    vi.unstubAllGlobals(); // no page (a worker without location, or Node): the flag is left for the reader to fill in
    const withoutPage = webSocketTransport({
      url: bridge.wsUrl,
      token: bridge.token,
      WebSocket: browserShapedWebSocket("http://localhost:5174"),
    });
    await expect(withoutPage.start(new Recorder())).rejects.toMatchObject({
      rawMessage: expect.stringContaining("--allow-origin <this page's origin>"),
    });
  });

  it("a 403 without a reason names both causes a bridge has for it; a refusal body is quoted bounded and without the token", async () => {
    const forbidden = await daemon({ refuseWith: 403 });
    await expect(webSocketTransport({ url: forbidden.url, token: TOKEN }).start(new Recorder())).rejects.toMatchObject({
      rawMessage: expect.stringMatching(
        /HTTP 403; a bridge answers 403 for an Origin it does not allow \(start it with --allow-origin <origin>.*or a host name that is not its own \(--allow-host\)/,
      ),
    });

    const echoing = createServer();
    echoing.on("upgrade", (request: IncomingMessage, socket) => {
      const padding = request.url === "/long" ? "x".repeat(10_000) : "";
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: `no entry; you sent ${String(request.headers["sec-websocket-protocol"])}${padding}`,
        },
      });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", resolve));
    try {
      const base = `ws://127.0.0.1:${(echoing.address() as AddressInfo).port}`;
      const error = (await webSocketTransport({ url: `${base}/mcp`, token: TOKEN })
        .start(new Recorder())
        .catch((caught: unknown) => caught)) as GlassError;
      expect(error).toBeInstanceOf(TransportUnavailableError);
      expect(error.rawMessage).toMatch(
        /the server refused the upgrade with HTTP 403: no entry; you sent mcp,glass-bearer\.\[redacted\]; a bridge answers 403/,
      );
      expect(error.rawMessage).not.toContain(TOKEN);
      // A body over the 4 KiB read for a reason is not quoted, only the status is.
      const long = (await webSocketTransport({ url: `${base}/long`, token: TOKEN })
        .start(new Recorder())
        .catch((caught: unknown) => caught)) as GlassError;
      expect(long.rawMessage).toMatch(/the server refused the upgrade with HTTP 403; a bridge answers 403/);
    } finally {
      await new Promise<void>((resolve) => echoing.close(() => resolve()));
    }
  });
});

/**
 * Makes `globalThis.WebSocket` the given class and, when `nodeOwn` is given, makes Node report that
 * class as its own (`http.WebSocket` through `process.getBuiltinModule`), as Node 22 and later do
 * for their global `WebSocket`: so the choice is tested on every Node the suite runs on.
 */
function stubGlobalWebSocket(global: WebSocketConstructor, nodeOwn: unknown): void {
  vi.stubGlobal("WebSocket", global);
  const real = process.getBuiltinModule.bind(process) as (id: string) => unknown;
  vi.spyOn(process, "getBuiltinModule").mockImplementation(((id: string) =>
    id === "http" ? { WebSocket: nodeOwn } : real(id)) as typeof process.getBuiltinModule);
}

describe("webSocketTransport picks its WebSocket class when none is given", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("on Node, prefers the ws package to Node's own global WebSocket, so a refused token still says 401 and the startup line", async () => {
    stubGlobalWebSocket(BrowserLikeWebSocket, BrowserLikeWebSocket);
    const before = BrowserLikeWebSocket.created;
    const unauthorized = await daemon({ refuseWith: 401 });
    const failed = await webSocketTransport({ url: unauthorized.url, token: TOKEN })
      .start(new Recorder())
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TransportUnavailableError);
    expect((failed as GlassError).rawMessage).toMatch(
      /refused the upgrade with HTTP 401.*refused the token.*startup line/,
    );
    expect((failed as GlassError).details).toMatchObject({ status: 401 });
    expect(BrowserLikeWebSocket.created).toBe(before);

    const server = await daemon();
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), { negotiation: false });
    clients.push(glass);
    expect(await glass.requestUntyped("project.inspect", {})).toEqual({ status: "ready" });
    expect(BrowserLikeWebSocket.created).toBe(before);
  });

  it("uses a global WebSocket that replaced Node's own (as MSW's interceptor does), since only that one is intercepted", async () => {
    stubGlobalWebSocket(BrowserLikeWebSocket, class NodeOwnWebSocket {});
    const before = BrowserLikeWebSocket.created;
    const server = await daemon();
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), { negotiation: false });
    clients.push(glass);
    expect(BrowserLikeWebSocket.created).toBe(before + 1);
    expect(await glass.requestUntyped("project.inspect", {})).toEqual({ status: "ready" });
  });

  it("uses the global WebSocket where the runtime names none as its own (a browser)", async () => {
    vi.stubGlobal("WebSocket", BrowserLikeWebSocket);
    vi.spyOn(process, "getBuiltinModule").mockImplementation(
      (() => undefined) as unknown as typeof process.getBuiltinModule,
    );
    const before = BrowserLikeWebSocket.created;
    const server = await daemon();
    const glass = await Glass.connect(webSocketTransport({ url: server.url, token: TOKEN }), { negotiation: false });
    clients.push(glass);
    expect(BrowserLikeWebSocket.created).toBe(before + 1);
  });
});
