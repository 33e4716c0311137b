/**
 * A hostile WebSocket server (the `ws` package on 127.0.0.1) against `webSocketTransport`.
 *
 * 1. permessage-deflate: the transport's `ws` socket offered it, with a 100 MiB `maxPayload`, so a
 *    few KB on the wire inflated to a message of tens of millions of characters. It now offers no
 *    compression and takes at most 32 MiB per message: a larger one closes the connection before
 *    it is buffered, and the calls fail at once with a TransportClosedError saying so.
 * 2. A WebSocket with no such option (a browser's, stood in for by a wrapper that hides the `ws`
 *    extras): each message's size is checked on arrival, with the same outcome.
 * 3. A server that stops reading: the transport let every send pile up. At most 32 MiB now wait
 *    (`bufferedAmount`); a send past that fails at once with OverloadedError.
 */
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket, WebSocketServer, type WebSocket as ServerSocket } from "ws";
import { Glass, OverloadedError, TransportClosedError, type GlassError } from "glass-sdk";
import type { JsonRpcMessage } from "glass-sdk/protocol";
import { TransportLimits } from "../../../src/transport/transport.js";
import {
  webSocketTransport,
  type WebSocketConstructor,
  type WebSocketLike,
} from "../../../src/transport/websocket-transport.js";

const MIB = 1024 * 1024;
const MANIFEST = {
  protocolVersion: 1,
  glassVersion: "0.0.0-hostile",
  schemas: {},
  capabilities: {},
  constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
};

/** How the server answers `ping` once the handshake (initialize, tools/list) is done. */
type Hostility = "hugeAnswer" | "deaf";

/** A `ws` server that speaks just enough MCP, compresses when the client lets it, and misbehaves as told. */
class HostileWebSocketServer {
  /** The `Sec-WebSocket-Extensions` each client offered ("" when none). */
  readonly offeredExtensions: string[] = [];
  /** Whether each huge answer went out compressed, and how many bytes it was before compression. */
  readonly hugeAnswers: { compressed: boolean; characters: number }[] = [];
  url = "";
  readonly #server: WebSocketServer;

  constructor(hostility: Hostility) {
    this.#server = new WebSocketServer({
      host: "127.0.0.1",
      port: 0,
      perMessageDeflate: { threshold: 1024 },
      maxPayload: 256 * MIB,
      handleProtocols: (protocols, request: IncomingMessage) => {
        this.offeredExtensions.push(String(request.headers["sec-websocket-extensions"] ?? ""));
        return protocols.has("mcp") ? "mcp" : false;
      },
    });
    this.#server.on("connection", (socket) => this.#serve(socket, hostility));
  }

  async listen(): Promise<this> {
    if (this.#server.address() === null) await new Promise<void>((resolve) => this.#server.once("listening", resolve));
    this.url = `ws://127.0.0.1:${(this.#server.address() as AddressInfo).port}/mcp`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.#server.clients) socket.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #serve(socket: ServerSocket, hostility: Hostility): void {
    socket.on("error", () => undefined);
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number | string;
        method: string;
        params?: { protocolVersion?: string };
      };
      if (message.method === "notifications/initialized" && hostility === "deaf") {
        (socket as unknown as { _socket: { pause(): void } })._socket.pause(); // stops reading the TCP stream
        return;
      }
      if (message.id === undefined) return;
      if (message.method === "initialize") {
        const result = {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "hostile", version: "1" },
          glass: MANIFEST,
        };
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
        return;
      }
      if (message.method === "tools/list") {
        // Part of the handshake (the client reads it at connect): the tools the tests call, none
        // (they call only ping). The hostility is for the calls after it.
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [] } }));
        return;
      }
      // 40 MiB of spaces inside a valid answer: 40 KB on the wire when compressed.
      const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"pad":"${" ".repeat(40 * MIB)}"}}`;
      this.hugeAnswers.push({ compressed: socket.extensions !== "", characters: answer.length });
      socket.send(answer, () => undefined);
    });
  }
}

/**
 * A WebSocket like a browser's: the constructor takes no options and there is no `maxPayload` (the
 * `ws` socket inside is built with no limit), no `terminate`, no write callback.
 */
class BrowserLikeWebSocket implements WebSocketLike {
  readonly #inner: WsWebSocket;
  constructor(url: string, protocols?: string | string[]) {
    this.#inner = new WsWebSocket(url, protocols, { perMessageDeflate: false, maxPayload: 0 });
  }
  get readyState(): number {
    return this.#inner.readyState;
  }
  get protocol(): string {
    return this.#inner.protocol;
  }
  get bufferedAmount(): number {
    return this.#inner.bufferedAmount;
  }
  send(data: string): void {
    this.#inner.send(data);
  }
  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999))
      throw new Error("InvalidAccessError: a browser sends no other close code");
    this.#inner.close(code, reason);
  }
  addEventListener(type: "open" | "message" | "error" | "close", listener: (event: unknown) => void): void {
    this.#inner.addEventListener(type, listener as never);
  }
}

/** The `ws` package's class, through a subclass that keeps each socket (to read its `bufferedAmount`). */
const opened: WsWebSocket[] = [];
class RecordingWsWebSocket extends WsWebSocket {
  constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
    super(...args);
    opened.push(this);
  }
}

const servers: HostileWebSocketServer[] = [];
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  opened.splice(0);
});

const SOCKETS: [string, WebSocketConstructor][] = [
  ["the ws package", RecordingWsWebSocket as unknown as WebSocketConstructor],
  ["a browser-like WebSocket", BrowserLikeWebSocket],
];

describe("hostile WebSocket server: a message past the 32 MiB bound", () => {
  it("the ws package offers no permessage-deflate, so the server can only send the message as it is", async () => {
    const server = await new HostileWebSocketServer("hugeAnswer").listen();
    servers.push(server);
    const glass = await Glass.connect(
      webSocketTransport({ url: server.url, WebSocket: RecordingWsWebSocket as unknown as WebSocketConstructor }),
      { negotiation: false, retry: false },
    );
    clients.push(glass);
    expect(server.offeredExtensions).toEqual([""]);
  });

  it.each(SOCKETS)(
    "%s: the connection is closed and the call fails at once with a TransportClosedError naming the bound",
    async (_name, WebSocket) => {
      const server = await new HostileWebSocketServer("hugeAnswer").listen();
      servers.push(server);
      const glass = await Glass.connect(webSocketTransport({ url: server.url, WebSocket }), {
        negotiation: false,
        retry: false,
      });
      clients.push(glass);
      const error = (await glass.ping({ deadlineMs: 20_000 }).then(
        () => {
          throw new Error("a 40 MiB answer was accepted");
        },
        (caught: unknown) => caught,
      )) as GlassError;
      expect(error).toBeInstanceOf(TransportClosedError);
      expect(error.rawMessage).toMatch(
        /the WebSocket peer at ws:\/\/127\.0\.0\.1:\d+\/mcp sent a message over the 33554432-byte limit per message.*so the connection was closed; calls in flight may have been carried out\. Ask for less/,
      );
      expect(error.details).toMatchObject({ maxBytes: TransportLimits.maxMessageBytes });
      expect(server.hugeAnswers).toEqual([{ compressed: false, characters: expect.any(Number) }]);
      expect(glass.stats()).toMatchObject({ closed: true, awaitingAnswer: 0 });
    },
  );
});

describe("hostile WebSocket server: it stops reading", () => {
  it.each(SOCKETS)(
    "%s: at most 32 MiB wait in bufferedAmount; every send past that fails at once with OverloadedError",
    async (_name, WebSocket) => {
      const server = await new HostileWebSocketServer("deaf").listen();
      servers.push(server);
      const transport = webSocketTransport({ url: server.url, WebSocket });
      const answers: JsonRpcMessage[] = [];
      await transport.start({ onMessage: (message) => answers.push(message), onClose: () => undefined });
      clients.push(transport);
      await transport.send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      await expect.poll(() => answers.length).toBe(1);
      await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the server stop reading

      const message: JsonRpcMessage = {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { pad: "x".repeat(MIB) },
      };
      const outcomes: unknown[] = [];
      for (let index = 0; index < 64; index++) {
        const slot = outcomes.push("pending") - 1;
        transport.send(message).then(
          () => (outcomes[slot] = "written"),
          (error: unknown) => (outcomes[slot] = error),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = outcomes.filter((outcome): outcome is OverloadedError => outcome instanceof OverloadedError);
      expect(refused.length).toBeGreaterThanOrEqual(20);
      expect(outcomes.filter((outcome) => outcome instanceof Error && !(outcome instanceof OverloadedError))).toEqual(
        [],
      );
      for (const error of refused) {
        expect(error).toMatchObject({
          code: "overloaded",
          mutationPossible: false,
          details: { maxQueuedBytes: TransportLimits.maxQueuedSendBytes },
        });
        expect(error.rawMessage).toMatch(
          /the WebSocket peer at ws:\/\/.* is not reading what it is sent: \d+ bytes already wait .* the message was NOT sent/,
        );
      }
      if (opened.length > 0)
        expect(opened[0]!.bufferedAmount).toBeLessThanOrEqual(TransportLimits.maxQueuedSendBytes + 2 * MIB);
    },
  );
});
