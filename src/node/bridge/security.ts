/**
 * The bridge's security checks: what every request and WebSocket upgrade must pass before it
 * reaches a daemon (the `Host` names this bridge, the `Origin` is allowed, the path is `/mcp`, the
 * token matches), the CORS answers for allowed pages, and the cap on open TCP connections. A
 * refusal says why, with its HTTP status, and never holds the token.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv4, isIPv6, type Socket } from "node:net";
import { createRedactor, quoteUntrusted } from "../../errors/redact.js";

/** The one path the bridge serves (`BRIDGE_DEFAULTS.path`). */
export const BRIDGE_PATH = "/mcp";

/** The prefix of the WebSocket subprotocol entry that carries the token, `glass-bearer.<token>` (`BRIDGE_DEFAULTS.tokenSubprotocolPrefix`). */
export const TOKEN_SUBPROTOCOL_PREFIX = "glass-bearer.";

/**
 * Why the bridge turns a request or WebSocket upgrade away: the HTTP status, and a reason that
 * goes both to the client (in a JSON-RPC error body) and to the log. A reason never holds the token.
 */
export interface Refusal {
  /** 400, 401, 403, 404, 405, 406, 413, 415, 502 or 503. */
  readonly status: number;
  /** The JSON-RPC error code of the body (-32000 unless a more precise one applies). */
  readonly rpcCode: number;
  /** What was wrong, in words. */
  readonly reason: string;
  /** Extra response headers (`WWW-Authenticate`, `Allow`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON-RPC error's `data`, when the refusal has facts a program can use (the supported versions). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** A refusal with the generic server-error code -32000. */
export function refusal(status: number, reason: string, headers?: Readonly<Record<string, string>>): Refusal {
  return headers === undefined ? { status, rpcCode: -32000, reason } : { status, rpcCode: -32000, reason, headers };
}

/** The JSON-RPC error body of a refusal (`id` null: it answers no particular request). */
export function refusalBody(refused: Refusal): string {
  const error =
    refused.data === undefined
      ? { code: refused.rpcCode, message: refused.reason }
      : { code: refused.rpcCode, message: refused.reason, data: refused.data };
  return JSON.stringify({ jsonrpc: "2.0", id: null, error });
}

/** The host names that always mean this machine, as they appear in a `Host` header (without a port). */
const LOOPBACK_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** A host without IPv6 brackets, lower-cased: `[::1]` → `::1`. */
function bare(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}

/**
 * True for an address that only this machine can reach: `localhost`, any `127.x.x.x`, `::1` (in
 * any spelling) and IPv4-mapped `::ffff:127.x.x.x`.
 */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  if (name === "localhost") return true;
  if (isIPv4(name)) return name.startsWith("127.");
  if (!isIPv6(name)) return false;
  const canonical = new URL(`http://[${name}]/`).hostname; // [::1], [::ffff:7f00:1]
  if (canonical === "[::1]") return true;
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(canonical);
  return mapped !== null && Number.parseInt(mapped[1]!, 16) >> 8 === 127;
}

/** True for the any-address (`0.0.0.0`, `::`): listening there accepts every interface. */
export function isWildcardHost(host: string): boolean {
  const name = bare(host);
  return name === "0.0.0.0" || (isIPv6(name) && new URL(`http://[${name}]/`).hostname === "[::]");
}

/**
 * The host as it goes into a URL and a `Host` header: IPv6 in brackets, and for a wildcard the
 * loopback address of its family (a client on this machine reaches the bridge there).
 */
export function urlHost(host: string): string {
  const name = bare(host);
  if (isWildcardHost(name)) return isIPv6(name) ? "[::1]" : "127.0.0.1";
  return isIPv6(name) ? `[${name}]` : name;
}

/** The Host header names the bridge accepts, split by whether any port or only the bridge's port goes. */
export interface AllowedHosts {
  /** Names that must carry the bridge's port (or none, when the port is 80). */
  readonly namesOnBridgePort: ReadonlySet<string>;
  /** Names that match with the bridge's port or without a port (from `allowedHosts`). */
  readonly namesPortOptional: ReadonlySet<string>;
  /** Exact `name:port` pairs (from `allowedHosts`). */
  readonly exact: ReadonlySet<string>;
}

/**
 * Builds the accepted Host names: the loopback names, the address the bridge listens on (when it
 * is a specific address), and the configured `allowedHosts` (`name` or `name:port`).
 */
export function buildAllowedHosts(allowedHosts: readonly string[], listenHost: string | undefined): AllowedHosts {
  const namesOnBridgePort = new Set(LOOPBACK_HOST_NAMES);
  if (listenHost !== undefined) namesOnBridgePort.add(listenHost.toLowerCase());
  const namesPortOptional = new Set<string>();
  const exact = new Set<string>();
  for (const entry of allowedHosts) {
    const { name, port } = splitHost(entry.trim().toLowerCase());
    if (port === undefined) namesPortOptional.add(name);
    else exact.add(`${name}:${port}`);
  }
  return { namesOnBridgePort, namesPortOptional, exact };
}

/**
 * Whether a request's `Host` header names this bridge: a loopback name with the bridge's port, or
 * an allowed host. A missing Host is refused. This defeats DNS rebinding: a page on
 * `evil.example` whose name was re-pointed at 127.0.0.1 still sends `Host: evil.example`.
 */
function hostAllowed(host: string | undefined, bridgePort: number, allowed: AllowedHosts): boolean {
  if (host === undefined || host === "") return false;
  const { name, port } = splitHost(host.trim().toLowerCase());
  if (name === "") return false;
  if (port !== undefined && !/^[0-9]{1,5}$/.test(port)) return false;
  const portNumber = port === undefined ? 80 : Number(port);
  if (allowed.namesOnBridgePort.has(name) && portNumber === bridgePort) return true;
  if (allowed.namesPortOptional.has(name) && (port === undefined || portNumber === bridgePort)) return true;
  return port !== undefined && allowed.exact.has(`${name}:${port}`);
}

/** Splits `name:port`, `[v6]:port`, `name` or `[v6]`; IPv6 names keep their brackets. */
function splitHost(host: string): { name: string; port: string | undefined } {
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close === -1) return { name: "", port: undefined };
    const rest = host.slice(close + 1);
    return {
      name: host.slice(0, close + 1),
      port: rest.startsWith(":") ? rest.slice(1) : rest === "" ? undefined : "invalid",
    };
  }
  const colon = host.lastIndexOf(":");
  if (colon === -1) return { name: host, port: undefined };
  if (host.indexOf(":") !== colon) return { name: `[${host}]`, port: undefined }; // a bare IPv6 address
  return { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/**
 * The canonical form of an origin (`scheme://host[:port]`, lower-case, default port dropped), or
 * `undefined` for something that is not one: opaque origins (`null`), or a URL with a path, query
 * or fragment.
 */
export function normalizeOrigin(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (
    url.host === "" ||
    (url.pathname !== "" && url.pathname !== "/") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    return undefined;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
  // URL.origin is "null" for other schemes (chrome-extension://, moz-extension://): keep scheme and host.
  return `${url.protocol}//${url.host}`;
}

/**
 * Whether a request's `Origin` header is acceptable: absent (not a browser page), or one of the
 * allowed origins. `Origin: null` (sandboxed frames, `file:` pages) and anything unparsable are
 * refused, since any page can produce them.
 */
function originAllowed(origin: string | undefined, allowedOrigins: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowedOrigins.has(normalized);
}

/** The request headers a browser page may send (the token, the session and MCP's own headers). */
const ALLOWED_REQUEST_HEADERS =
  "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id";

/**
 * CORS response headers for a request from an allowed browser origin; nothing for requests without
 * `Origin` or from any other origin (the browser then hides the answer from the page). The origin
 * is echoed, never `*`; no cookies are involved, so credentials are not allowed. The session id
 * header is exposed so pages can read it.
 */
export function corsHeaders(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = req.headers.origin;
  if (origin === undefined || !originAllowed(origin, allowedOrigins)) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "mcp-session-id",
    Vary: "Origin",
  };
}

/**
 * The headers of a CORS preflight answer (OPTIONS) for an allowed origin: the methods and headers
 * the bridge takes, cached for ten minutes, and Chrome's Private Network Access opt-in (a public
 * page may reach this loopback bridge only because its origin was allowed).
 */
export function preflightHeaders(req: IncomingMessage, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const headers: Record<string, string> = {
    ...corsHeaders(req, allowedOrigins),
    "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": ALLOWED_REQUEST_HEADERS,
    "Access-Control-Max-Age": "600",
  };
  if (req.headers["access-control-request-private-network"] === "true")
    headers["Access-Control-Allow-Private-Network"] = "true";
  return headers;
}

/** What a token given to the bridge must look like: URL-, header- and subprotocol-safe characters. */
const TOKEN_SYNTAX = /^[A-Za-z0-9._~-]{16,512}$/;

/** A fresh bridge token: 32 random bytes (256 bits), base64url (43 characters). */
export function generateBridgeToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Why a token given to the bridge is unusable, or `undefined` when it is fine. It must be 16..512
 * characters of `A-Z a-z 0-9 . _ ~ -`, so that it travels unchanged as `Authorization: Bearer`, as
 * the WebSocket subprotocol `glass-bearer.<token>` and in a `?token=` query.
 */
export function tokenSyntaxProblem(token: string): string | undefined {
  if (TOKEN_SYNTAX.test(token)) return undefined;
  if (token.length < 16) return "the token is too short: use at least 16 characters (or let the bridge generate one)";
  if (token.length > 512) return "the token is too long: use at most 512 characters";
  return "the token may only contain the characters A-Z a-z 0-9 . _ ~ - (so it fits a header, a WebSocket subprotocol and a URL)";
}

/**
 * Compares a presented token with the bridge's in constant time: both are hashed (SHA-256) first,
 * so neither their contents nor their lengths show in the timing.
 */
function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** The tokens a request presents, and what was wrong with an Authorization header that held none. */
export interface PresentedTokens {
  tokens: string[];
  /** Set when an Authorization header is present but is not a Bearer token. */
  malformed?: string;
}

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="glass-sdk bridge"' } as const;

/** Reads `Authorization: Bearer <token>`. */
function bearerTokens(req: IncomingMessage): PresentedTokens {
  const header = req.headers.authorization;
  if (header === undefined) return { tokens: [] };
  const match = /^bearer[ \t]+([^ \t]+)[ \t]*$/i.exec(header);
  return match === null
    ? { tokens: [], malformed: "the Authorization header is not a Bearer token" }
    : { tokens: [match[1]!] };
}

/**
 * The tokens an HTTP request presents: only `Authorization: Bearer`. A `?token=` query is not
 * accepted on plain HTTP requests (headers stay out of logs and histories; URLs do not).
 */
export function httpRequestTokens(req: IncomingMessage): PresentedTokens {
  return bearerTokens(req);
}

/**
 * The tokens a WebSocket upgrade presents: `Authorization: Bearer` (non-browser clients), a
 * `glass-bearer.<token>` entry in `Sec-WebSocket-Protocol` (browsers, which cannot set headers), or
 * a `?token=` query (clients that can do neither; less private: URLs end up in histories and proxy
 * logs).
 */
export function webSocketTokens(req: IncomingMessage): PresentedTokens {
  const presented = bearerTokens(req);
  for (const entry of subprotocols(req)) {
    if (entry.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) presented.tokens.push(entry.slice(TOKEN_SUBPROTOCOL_PREFIX.length));
  }
  const query = new URL(req.url ?? "/", "http://bridge.invalid").searchParams.getAll("token");
  presented.tokens.push(...query);
  return presented;
}

/** The entries of the `Sec-WebSocket-Protocol` header(s), trimmed. */
export function subprotocols(req: IncomingMessage): string[] {
  const header = req.headers["sec-websocket-protocol"];
  if (header === undefined) return [];
  return header
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * Checks the presented tokens against the bridge's: there must be at least one, and every one
 * presented must match (in constant time). Refuses with 401 otherwise.
 */
export function checkToken(
  presented: PresentedTokens,
  expected: string,
  channel: "http" | "websocket",
): Refusal | undefined {
  if (presented.tokens.length === 0) {
    const how =
      channel === "http"
        ? "send the token in an Authorization header with the Bearer scheme (a token query parameter is accepted only on WebSocket upgrades)"
        : "send the token in an Authorization header with the Bearer scheme, as a subprotocol made of glass-bearer, a dot and the token (next to mcp), or as a token query parameter";
    return refusal(401, `${presented.malformed ?? "missing token"}: ${how}`, CHALLENGE);
  }
  let allMatch = true;
  for (const token of presented.tokens) allMatch = tokenMatches(token, expected) && allMatch;
  return allMatch ? undefined : refusal(401, "wrong token", CHALLENGE);
}

/** The path of a request URL, without its query (which may hold a token) or fragment. */
export function requestPath(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** What {@link admitRequest} checks a request against (the resolved bridge options). */
export interface AdmissionRules {
  /** Accepted `Host` header names. */
  readonly allowedHosts: AllowedHosts;
  /** Allowed browser origins, normalized. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** The bridge's token: scrubbed from a header before it is quoted (and cut) in a refusal. */
  readonly token: string;
}

/**
 * The checks every request and upgrade passes before the token is even looked at, in this order:
 * the `Host` header names this bridge (403, DNS rebinding), the `Origin` is absent or allowed
 * (403), the path is `/mcp` (404).
 */
export function admitRequest(req: IncomingMessage, options: AdmissionRules, bridgePort: number): Refusal | undefined {
  if (!hostAllowed(req.headers.host, bridgePort, options.allowedHosts)) {
    return refusal(
      403,
      `Host "${quoteHeader(req.headers.host ?? "", 256, options.token)}" is not this bridge (only loopback names with its port, or --allow-host names)`,
    );
  }
  const origin = req.headers.origin;
  if (!originAllowed(origin, options.allowedOrigins)) return refusal(403, originRefusal(origin ?? "", options.token));
  if (requestPath(req) !== BRIDGE_PATH) return refusal(404, `not found: the bridge serves only ${BRIDGE_PATH}`);
  return undefined;
}

/**
 * Why an `Origin` is refused, and how to let its pages in: the bridge's `--allow-origin` flag (or
 * `allowedOrigins`) with the origin as it would be written there. Browsers hide this answer from
 * the page (a fetch fails as a network error, a WebSocket closes with 1006), so the transports'
 * own errors say it too, and the log line has it.
 */
function originRefusal(origin: string, token: string): string {
  const normalized = normalizeOrigin(origin);
  const how =
    normalized === undefined
      ? "an opaque or malformed origin (a sandboxed frame, a file: page) cannot be allowed; serve the page from an http(s) origin and allow that one"
      : `to let its pages in, start the bridge with --allow-origin ${normalized} (allowedOrigins in startBridge())`;
  return `Origin "${quoteHeader(origin, 256, token)}" is not allowed: ${how}`;
}

/**
 * A request header's value as a refusal quotes it (the caller writes the double quotes): the bridge's token (and
 * credentials carried the usual ways) scrubbed first, then escaped as inside a JSON string (quotes,
 * backslashes and C0 controls) and the remaining controls written out, then cut to `maxBytes` (see
 * `quoteUntrusted`) — so no part of the token a client put in a header reaches the log, and the
 * value cannot forge a log line.
 */
export function quoteHeader(value: string, maxBytes: number, token: string): string {
  const escaped = JSON.stringify(createRedactor([token])(value)).slice(1, -1);
  return quoteUntrusted(escaped, maxBytes);
}

/** One open connection as the guard sees it. */
interface Connection {
  /** Whether a request on it presented the right token (it is then never evicted). */
  authenticated: boolean;
  /** Closes it if its first byte has not come in time. */
  firstByteTimer: ReturnType<typeof setTimeout> | undefined;
}

/** What the guard needs from the bridge. */
export interface ConnectionGuardOptions {
  /** Open connections at once. */
  readonly maxConnections: number;
  /** A new connection must send its first byte within this many ms. */
  readonly firstByteTimeoutMs: number;
  /** Writes one log line. */
  readonly log: (line: string) => void;
}

/**
 * The bridge's open TCP connections and the cap on them. Any local process can open connections,
 * so the cap must not let idle or unauthenticated ones keep clients out: a new connection that
 * finds every place taken evicts the oldest connection that has not presented the token, and a
 * connection that sends nothing within `firstByteTimeoutMs` is closed. Connections that presented
 * the token are never evicted; when every place is held by one, the newcomer is closed at once.
 */
export class ConnectionGuard {
  readonly #options: ConnectionGuardOptions;
  /** Open connections, oldest first (a `Map` keeps insertion order). */
  readonly #open = new Map<Socket, Connection>();

  constructor(options: ConnectionGuardOptions) {
    this.#options = options;
  }

  /** Connections open now. */
  get size(): number {
    return this.#open.size;
  }

  /** Takes a new connection (the server's `connection` event), making room for it if needed. */
  admit(socket: Socket): void {
    const connection: Connection = { authenticated: false, firstByteTimer: undefined };
    this.#open.set(socket, connection);
    socket.once("close", () => this.#forget(socket));
    connection.firstByteTimer = setTimeout(() => {
      connection.firstByteTimer = undefined;
      if (socket.bytesRead > 0 || socket.destroyed) return;
      this.#options.log(
        `closed a connection from ${peerOf(socket)}: no byte within ${this.#options.firstByteTimeoutMs} ms (408)`,
      );
      this.#drop(socket, "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }, this.#options.firstByteTimeoutMs);
    connection.firstByteTimer.unref?.();
    if (this.#open.size > this.#options.maxConnections) this.#makeRoomFor(socket);
  }

  /** Records that a request on this connection presented the right token: it is never evicted. */
  authenticated(socket: Socket): void {
    const connection = this.#open.get(socket);
    if (connection === undefined) return;
    connection.authenticated = true;
    clearTimeout(connection.firstByteTimer);
    connection.firstByteTimer = undefined;
  }

  #makeRoomFor(newcomer: Socket): void {
    const max = this.#options.maxConnections;
    for (const [socket, connection] of this.#open) {
      if (socket === newcomer || connection.authenticated) continue;
      this.#options.log(
        `evicted a connection from ${peerOf(socket)} that had not presented the token, to admit a new one (maxConnections ${max})`,
      );
      this.#drop(socket);
      return;
    }
    this.#options.log(
      `refused a connection from ${peerOf(newcomer)}: all ${max} connections have presented the token (maxConnections)`,
    );
    this.#drop(newcomer);
  }

  /** Closes a connection (after writing `last`, when given) and stops counting it at once. */
  #drop(socket: Socket, last?: string): void {
    this.#forget(socket);
    if (last === undefined || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.once("finish", () => socket.destroy());
    socket.end(last);
  }

  #forget(socket: Socket): void {
    const connection = this.#open.get(socket);
    if (connection === undefined) return;
    clearTimeout(connection.firstByteTimer);
    this.#open.delete(socket);
  }
}

function peerOf(socket: Socket): string {
  return socket.remoteAddress ?? "unknown";
}
