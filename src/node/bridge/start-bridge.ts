import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { createRedactingLog } from "./bridge-log.js";
import { createHttpHandler } from "./http.js";
import { BRIDGE_DEFAULTS, networkExposureWarning, resolveBridgeOptions, type BridgeOptions } from "./options.js";
import { ConnectionGuard, isLoopbackHost } from "./security.js";
import { SessionRegistry, type BridgeContext } from "./sessions.js";
import { createUpgradeHandler } from "./websocket.js";

/** A running bridge. */
export interface Bridge {
  /** The MCP Streamable HTTP endpoint, e.g. `http://127.0.0.1:8787/mcp`. */
  readonly url: string;
  /** The WebSocket endpoint, e.g. `ws://127.0.0.1:8787/mcp`. */
  readonly wsUrl: string;
  /** The port it listens on (the one picked when `port` was 0). */
  readonly port: number;
  /** The token clients must present (the generated one unless one was given). A secret: do not log it. */
  readonly token: string;
  /** Client sessions open now (HTTP and WebSocket, including those still connecting to the daemon). */
  sessionCount(): number;
  /** Stops listening, ends every session (pending HTTP requests get an error, WebSockets close with 1001) and closes every daemon connection. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the secure bridge: it exposes a Glass daemon (which speaks MCP only over stdio and its
 * Unix socket) to browser pages and remote scripts as MCP Streamable HTTP (JSON responses) and
 * WebSocket (subprotocol `mcp`), both at `/mcp`. Each client session gets its own daemon
 * connection (or, for a command upstream, its own daemon process).
 *
 * Everything is closed by default: loopback only, a token on every request, no browser origin
 * allowed, and bounded sessions, connections, sizes and times. See docs/browser-and-bridge.md, "The bridge and its
 * security model".
 *
 * Rejects with a RangeError/TypeError for unsafe or malformed options (a non-loopback host without
 * `allowRemote`) and with an Error when the port cannot be bound.
 *
 * @example
 * ```ts
 * import { defaultSocketPath, startBridge } from "glass-sdk/node";
 *
 * const bridge = await startBridge({ upstream: { socket: defaultSocketPath() } });
 * // a client: fetch(bridge.url, { method: "POST", headers: { Authorization: `Bearer ${bridge.token}`, … }, … })
 * await bridge.close();
 * ```
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const resolved = resolveBridgeOptions(options);
  const log = createRedactingLog(resolved.log, [resolved.token]);
  const context: BridgeContext = {
    options: resolved,
    log,
    sessions: new SessionRegistry(resolved.maxClients, resolved.evictIdleAfterMs),
    connections: new ConnectionGuard({
      maxConnections: resolved.maxConnections,
      firstByteTimeoutMs: resolved.firstByteTimeoutMs,
      log,
    }),
    port: 0,
    closing: false,
  };
  const server = createServer({
    headersTimeout: resolved.headersTimeoutMs,
    requestTimeout: resolved.requestTimeoutMs,
    // Node checks both timeouts on this interval (30 s by default): check often enough to honour them.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(resolved.headersTimeoutMs / 4))),
  });
  // A flood of connections is capped by the guard, which evicts unauthenticated ones first.
  server.on("connection", (socket: Socket) => context.connections.admit(socket));
  const webSockets = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: resolved.maxMessageBytes,
    handleProtocols: (protocols) => (protocols.has(BRIDGE_DEFAULTS.subprotocol) ? BRIDGE_DEFAULTS.subprotocol : false),
  });
  server.on("request", createHttpHandler(context));
  server.on("upgrade", createUpgradeHandler(context, webSockets));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => onClientError(context, error, socket));

  await listen(server, resolved.port, resolved.host);
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : resolved.port;
  context.port = port;
  server.on("error", (error) => context.log(`server error: ${error.message}`));
  if (!isLoopbackHost(resolved.host)) log(networkExposureWarning(resolved.host, port));

  let closing: Promise<void> | undefined;
  return {
    url: `http://${resolved.urlHost}:${port}${BRIDGE_DEFAULTS.path}`,
    wsUrl: `ws://${resolved.urlHost}:${port}${BRIDGE_DEFAULTS.path}`,
    port,
    token: resolved.token,
    sessionCount: () => context.sessions.count(),
    close: () => (closing ??= shutDown(context, server, webSockets)),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === "EADDRINUSE"
          ? "the port is already in use; choose another (port / --port, or 0 for any free port)"
          : error.code === "EACCES"
            ? "permission denied (ports below 1024 need privileges)"
            : error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND"
              ? "no such local address"
              : error.message;
      reject(new Error(`startBridge: cannot listen on ${host}:${port}: ${why}`, { cause: error }));
    };
    server.once("error", onError);
    server.listen({ port, host }, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Malformed and too-slow requests: answer 400/431/408, close, and log it (never the request's bytes). */
function onClientError(context: BridgeContext, error: NodeJS.ErrnoException, socket: Duplex): void {
  const peer = (socket as Socket).remoteAddress ?? "unknown";
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  let status: number;
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    status = 408;
    const { headersTimeoutMs, requestTimeoutMs } = context.options;
    context.log(
      `closed a slow request from ${peer}: it was not complete within the time limit (headers ${headersTimeoutMs} ms, request ${requestTimeoutMs} ms) (408)`,
    );
  } else if (error.code === "HPE_HEADER_OVERFLOW") {
    status = 431;
    context.log(`refused a request from ${peer}: its headers are too large (431)`);
  } else {
    status = 400;
    context.log(`refused a malformed HTTP request from ${peer}: ${error.code ?? "parse error"} (400)`);
  }
  const reason =
    status === 408 ? "Request Timeout" : status === 431 ? "Request Header Fields Too Large" : "Bad Request";
  socket.once("finish", () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

async function shutDown(context: BridgeContext, server: Server, webSockets: WebSocketServer): Promise<void> {
  context.closing = true;
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all(context.sessions.all().map((session) => session.close("the bridge is shutting down")));
  await new Promise<void>((resolve) => setImmediate(resolve)); // let the answers to pending requests go out
  server.closeAllConnections();
  webSockets.close();
  await stopped;
}
