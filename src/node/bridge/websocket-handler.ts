import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocketServer } from "ws";
import { GlassError } from "../../errors/glass-error.js";
import { admitRequest, requestPath } from "./admission.js";
import { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
import type { BridgeContext } from "./bridge-context.js";
import { refusal, refusalBody, type Refusal } from "./refusal.js";
import { checkToken, subprotocols, webSocketTokens } from "./request-token.js";
import { WebSocketSession } from "./websocket-session.js";

/**
 * The bridge's WebSocket side, on the HTTP server's `upgrade` event: the same Host, Origin and path
 * checks as HTTP (browsers do not apply CORS to WebSockets, so the Origin check is what keeps other
 * pages out), the token (`Authorization`, a `glass-bearer.<token>` subprotocol entry, or
 * `?token=`), the `mcp` subprotocol (400 without it), the client cap (503), then a daemon
 * connection (502 when it cannot be opened), and only then the upgrade.
 */
export function createUpgradeHandler(context: BridgeContext, server: WebSocketServer): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on("error", () => undefined);
    upgrade(context, server, req, socket, head).catch((error: unknown) => {
      context.log(`internal error on a WebSocket upgrade: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    });
  };
}

async function upgrade(context: BridgeContext, server: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const peer = (socket as { remoteAddress?: string }).remoteAddress ?? "unknown";
  const refuse = (refused: Refusal): void => {
    context.log(`refused WebSocket ${requestPath(req)} from ${peer}: ${refused.reason} (${refused.status})`);
    writeRefusal(socket, refused);
  };

  const admission = admitRequest(req, context.options, context.port);
  if (admission !== undefined) return refuse(admission);
  if (req.method !== "GET") return refuse(refusal(405, "Method not allowed: a WebSocket upgrade is a GET", { Allow: "GET" }));
  const tokenRefusal = checkToken(webSocketTokens(req), context.options.token, "websocket");
  if (tokenRefusal !== undefined) return refuse(tokenRefusal);
  context.connections.authenticated(req.socket);
  if (!subprotocols(req).includes(BRIDGE_DEFAULTS.subprotocol)) {
    return refuse(refusal(400, `Bad Request: the WebSocket subprotocol ${BRIDGE_DEFAULTS.subprotocol} is required`));
  }
  if (context.closing) return refuse(refusal(503, "Service Unavailable: the bridge is shutting down"));
  const slot = context.sessions.reserve();
  if (slot === undefined) {
    const max = context.sessions.maxClients;
    return refuse(refusal(503, `Service Unavailable: the bridge already serves ${max} client session${max === 1 ? "" : "s"} (its limit); retry later`));
  }

  let session: WebSocketSession;
  try {
    session = await WebSocketSession.open(context, slot, peer);
  } catch (error) {
    context.log(`could not open a daemon connection for ${peer}: ${error instanceof GlassError ? error.rawMessage : String(error)}`);
    return refuse(refusal(502, "Bad Gateway: the bridge could not reach the Glass daemon"));
  }
  if (socket.destroyed) {
    await session.close("the client left before the WebSocket upgrade completed");
    return;
  }
  let upgraded = false;
  socket.once("close", () => {
    if (!upgraded) void session.close("the WebSocket upgrade failed");
  });
  server.handleUpgrade(req, socket, head, (ws) => {
    upgraded = true;
    session.attach(ws);
  });
}

/** Answers an upgrade request with an HTTP error and closes the connection. */
function writeRefusal(socket: Duplex, refused: Refusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = refusalBody(refused);
  const headers: Record<string, string> = {
    Connection: "close",
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    ...refused.headers,
  };
  const head = `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ""}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n")}\r\n\r\n`;
  socket.once("finish", () => socket.destroy());
  socket.end(head + body);
}
