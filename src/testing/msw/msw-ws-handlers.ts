import { ws, type WebSocketHandler, type WebSocketHandlerConnection } from "msw";
import { JsonRpcErrorCode } from "../../mcp/json-rpc.js";
import { McpServerSession, type GarbageKind } from "../../mock-daemon/mcp-server-session.js";
import { rpcError, rpcFailure, type DaemonMessage } from "../../mock-daemon/json-rpc-replies.js";
import type { GoldenFixture } from "../../mock-daemon/golden-fixture.js";
import { createReplayDaemonContext, type ReplayDaemonOptions } from "../replay-daemon.js";
import type { ReplayEngine } from "../../mock-daemon/replay-engine.js";

/** Options of {@link createGlassWsHandlers}. */
export interface GlassWsHandlersOptions extends ReplayDaemonOptions {
  /**
   * What answers tool calls of operations without a handler (see `handlers`): a golden fixture, or
   * a replay engine over one (exact matches). Without it, only the handlers answer.
   */
  fixture?: GoldenFixture | ReplayEngine;
  /** The WebSocket endpoint to serve, e.g. `ws://glass.test/mcp` (any MSW path). */
  url: string;
  /**
   * When set, a connection must present the token as the glass-sdk bridge takes it on WebSocket
   * upgrades — the subprotocol `glass-bearer.<token>` or a `?token=` query — or it is closed at
   * once with code 1008.
   */
  token?: string;
}

/** The WebSocket subprotocol MCP clients ask for. */
const SUBPROTOCOL = "mcp";

/** Prefix of the subprotocol entry that carries the token. */
const TOKEN_SUBPROTOCOL_PREFIX = "glass-bearer.";

/** The one framing a WebSocket message has: a whole text frame (the session does not look at it). */
const FRAMING = "newline";

/**
 * The oversized-frame fault over a WebSocket: a text frame a byte over the protocol's 32 MiB
 * response limit (§5), a response to an id no client used padded with spaces (built when sent).
 */
function oversizedTextFrame(): string {
  const json = '{"jsonrpc":"2.0","id":"mock-oversized","result":{"content":[{"type":"text","text":"{}"}]}}';
  return json + " ".repeat(32 * 1024 * 1024 + 1 - json.length);
}

/**
 * Why the handlers cannot work without a global `WebSocket`, and what to do. MSW's `ws.link`
 * intercepts the global one, and answers an upgrade from any other client (the `ws` package, which
 * `webSocketTransport` falls back to) by opening a global one, so without it every connection
 * fails with HTTP 500.
 */
const NO_GLOBAL_WEBSOCKET =
  "createGlassWsHandlers needs the global WebSocket, which MSW intercepts, and this runtime has none " +
  '(without it MSW answers every WebSocket upgrade with HTTP 500, "WebSocket is not defined"). ' +
  "On Node 20 run with NODE_OPTIONS=--experimental-websocket (or give test workers that flag), use Node 22 or later, " +
  "or test over HTTP with createGlassHandlers and httpTransport";

/** The client connection MSW hands a `ws.link` listener. */
type WsClient = WebSocketHandlerConnection["client"];

/**
 * MSW handlers that serve the replay daemon over WebSocket at `url`: each connection is one MCP
 * server session of the mock daemon, one JSON-RPC message per text frame both ways. A frame that is
 * not JSON is answered with -32700 (id null) and the connection goes on; a binary frame likewise.
 * A connection that does not ask for the subprotocol `mcp` is closed with 1002. Closing the
 * connection ends the session (releasing its lease). The connections share one daemon; a crash
 * fault closes them all with 1011. The malformed- and partial-frame faults send a text frame that
 * is not JSON, or half a message.
 *
 * @throws Error when there is no global `WebSocket` for MSW to intercept (Node 20 without
 * `--experimental-websocket`): see docs/testing.md, "Testing without a daemon".
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { Glass, webSocketTransport } from "glass-sdk";
 * import { goldenFixture } from "glass-sdk/testing";
 * import { createGlassWsHandlers } from "glass-sdk/testing/msw";
 *
 * const fixture = await goldenFixture();
 * const server = setupServer(...createGlassWsHandlers({ fixture, url: "ws://glass.test/mcp" }));
 * server.listen();
 * const glass = await Glass.connect(webSocketTransport({ url: "ws://glass.test/mcp" }));
 * ```
 */
export function createGlassWsHandlers(options: GlassWsHandlersOptions): WebSocketHandler[] {
  if (typeof (globalThis as { WebSocket?: unknown }).WebSocket !== "function") throw new Error(NO_GLOBAL_WEBSOCKET);
  const context = createReplayDaemonContext(options.fixture, options);
  const open = new Map<WsClient, McpServerSession>();
  let clients = 0;
  context.crash = () => {
    for (const [client, session] of open) {
      session.close();
      client.close(1011, "the daemon crashed (crashAfterCalls fault)");
    }
    open.clear();
    context.leases?.reset();
    context.record.changed();
  };

  const link = ws.link(options.url);
  const handler = link.addEventListener("connection", ({ client, info }) => {
    const protocols =
      info.protocols === undefined ? [] : typeof info.protocols === "string" ? [info.protocols] : info.protocols;
    if (!protocols.includes(SUBPROTOCOL)) {
      client.close(1002, `the WebSocket subprotocol ${SUBPROTOCOL} is required`);
      return;
    }
    if (options.token !== undefined && !presentsToken(client.url, protocols, options.token)) {
      client.close(1008, "unauthorized: present the token as the subprotocol glass-bearer.<token> or a ?token= query");
      return;
    }
    let silenced = false;
    const send = (text: string): void => {
      if (!silenced && open.has(client)) client.send(text);
    };
    const session = new McpServerSession(context, `ws-${++clients}`, {
      write: (message: DaemonMessage) => send(JSON.stringify(message)),
      writeGarbage: (kind: GarbageKind) => {
        if (kind === "malformedFrame") return send('{"jsonrpc":"2.0","id": this is not JSON}');
        if (kind === "oversizedFrame") return send(oversizedTextFrame());
        send(JSON.stringify({ jsonrpc: "2.0", id: "glass-server-partial", method: "ping" }).slice(0, 20));
        silenced = true;
      },
    });
    open.set(client, session);
    context.record.changed();

    client.addEventListener("message", (event) => {
      if (!open.has(client)) return;
      if (typeof event.data !== "string") {
        return send(
          JSON.stringify(
            rpcFailure(
              null,
              rpcError(JsonRpcErrorCode.ParseError, "parse error: send each JSON-RPC message as a text frame"),
            ),
          ),
        );
      }
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return send(
          JSON.stringify(rpcFailure(null, rpcError(JsonRpcErrorCode.ParseError, "parse error: the frame is not JSON"))),
        );
      }
      session.handle(message, FRAMING);
    });
    client.addEventListener("close", () => {
      if (!open.delete(client)) return;
      session.close();
      context.record.changed();
    });
  });
  return [handler];
}

/** Whether the connection presents `token` (as a `glass-bearer.` subprotocol or a `?token=` query) and no other. */
function presentsToken(url: URL, protocols: readonly string[], token: string): boolean {
  const presented = [
    ...protocols
      .filter((entry) => entry.startsWith(TOKEN_SUBPROTOCOL_PREFIX))
      .map((entry) => entry.slice(TOKEN_SUBPROTOCOL_PREFIX.length)),
    ...url.searchParams.getAll("token"),
  ];
  return presented.length > 0 && presented.every((entry) => entry === token);
}
