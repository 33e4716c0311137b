/**
 * The bridge's options: what `startBridge` takes, its defaults (the safe ones), how they are
 * checked and filled in, and the addresses a bridge listening on a given host is reachable at.
 */
import { isIPv6 } from "node:net";
import { networkInterfaces } from "node:os";
import { FrameLimits } from "../framing/frame-limits.js";
import {
  BRIDGE_PATH,
  buildAllowedHosts,
  generateBridgeToken,
  isLoopbackHost,
  isWildcardHost,
  normalizeOrigin,
  TOKEN_SUBPROTOCOL_PREFIX,
  tokenSyntaxProblem,
  urlHost,
  type AllowedHosts,
} from "./security.js";

/** The daemon's Unix socket as the upstream: each client session opens its own connection to it. */
export interface BridgeSocketUpstream {
  /** The socket path, e.g. `defaultSocketPath()` (`~/.local/share/glass/glass.sock` on Linux). */
  socket: string;
}

/** A daemon command as the upstream: each client session starts its own process (`glass --mcp`). */
export interface BridgeCommandUpstream {
  /** The executable, e.g. `glass` (found on PATH) or a full path. */
  command: string;
  /** Its arguments, e.g. `["--mcp"]`; default none. */
  args?: readonly string[];
  /** Its working directory; default this process's. */
  cwd?: string;
  /** Variables added to this process's environment for the daemon. */
  env?: Readonly<Record<string, string>>;
}

/** Where the bridge's client sessions reach the Glass daemon. */
export type BridgeUpstream = BridgeSocketUpstream | BridgeCommandUpstream;

/**
 * Options of {@link startBridge}. Only `upstream` is required; every default is the safe one
 * (loopback only, a fresh random token, no browser origin allowed).
 */
export interface BridgeOptions {
  /** The daemon every client session connects to (one daemon connection or process per session). */
  upstream: BridgeUpstream;
  /** The TCP port; `0` (the default) picks any free port. The CLI defaults to 8787. */
  port?: number;
  /**
   * The address to listen on; default `127.0.0.1`. Anything but a loopback address (`127.x.x.x`,
   * `::1`, `localhost`) needs `allowRemote`.
   */
  host?: string;
  /** Allows a non-loopback `host`. The token is still required on every request. Default false. */
  allowRemote?: boolean;
  /**
   * The secret every client must present; default 32 random bytes, base64url. A given token must
   * be 16..512 characters of `A-Z a-z 0-9 . _ ~ -` (so it fits an `Authorization: Bearer` header, a
   * WebSocket subprotocol and a URL query unchanged).
   */
  token?: string;
  /**
   * Browser origins allowed to use the bridge, e.g. `["http://localhost:5173"]`; default none.
   * A request with an `Origin` header not listed is refused (403); requests without `Origin`
   * (non-browser clients) are not affected. Opaque origins (`null`) are never allowed.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names accepted in the `Host` header beyond `localhost`, `127.0.0.1` and `[::1]` (which
   * must carry the bridge's port). `name` matches `name` and `name:<port>`; `name:port` matches
   * exactly. Other Host headers are refused (403): the DNS-rebinding defence.
   */
  allowedHosts?: readonly string[];
  /** Client sessions (HTTP and WebSocket together) at once; default 4, like the daemon socket. */
  maxClients?: number;
  /**
   * Open TCP connections at once; default 256. When all are taken, a newcomer evicts the oldest one
   * that has not presented the token (see docs/browser-and-bridge.md, "The bridge and its security model").
   */
  maxConnections?: number;
  /** A new connection that sends no byte for this many ms is closed; default 3000. */
  firstByteTimeoutMs?: number;
  /** A client session with no traffic and no request in flight for this long is closed; default 5 minutes. */
  idleTimeoutMs?: number;
  /**
   * At the `maxClients` cap, a new session may end one idle (no traffic, nothing in flight) this
   * many ms, else it gets 503; default 30 000. A value at or above `idleTimeoutMs` turns eviction
   * off. See docs/browser-and-bridge.md, "Sessions at the cap".
   */
  evictIdleAfterMs?: number;
  /** A request's headers must arrive within this many ms of its first byte (else 408 and close); default 10 000. */
  headersTimeoutMs?: number;
  /** A whole request (headers and body) must arrive within this many ms (else 408 and close); default 10 000. */
  requestTimeoutMs?: number;
  /** The largest HTTP request body; default 4 MiB (the daemon's request limit). Larger ones get 413. */
  maxBodyBytes?: number;
  /** The largest WebSocket message; default 4 MiB. A larger one closes the connection with 1009. */
  maxMessageBytes?: number;
  /**
   * Backpressure per client session: bytes waiting for a WebSocket client (or for its daemon) past
   * which its messages are not read until they drain to half, and an HTTP request is answered
   * -32000; default 4 MiB. See docs/browser-and-bridge.md, "The bridge and its security model".
   */
  maxBufferedBytes?: number;
  /** Where log lines go (one per session start and end, one per refusal); default stderr. The token is redacted from every line. */
  log?: (line: string) => void;
}

/** The defaults of {@link BridgeOptions}: loopback only, the daemon's own limits. */
export const BRIDGE_DEFAULTS = {
  /** The address the bridge listens on. */
  host: "127.0.0.1",
  /** The port of the `glass-sdk bridge` command (the function defaults to 0, any free port). */
  cliPort: 8787,
  /** Client sessions at once: the daemon socket's own client limit. */
  maxClients: 4,
  /** Open TCP connections at once. */
  maxConnections: 256,
  /** A new connection must send its first byte within 3 s, or it is closed. */
  firstByteTimeoutMs: 3000,
  /** Idle client sessions are closed after five minutes. */
  idleTimeoutMs: 5 * 60 * 1000,
  /** At the cap, a new session may evict a session idle (nothing in flight) for at least 30 s. */
  evictIdleAfterMs: 30_000,
  /** Headers of a request must arrive within 10 s. */
  headersTimeoutMs: 10_000,
  /** A whole request must arrive within 10 s (the daemon's own frame timeout). */
  requestTimeoutMs: FrameLimits.frameBodyTimeoutMs,
  /** The daemon's request body limit (4 MiB). */
  maxBodyBytes: FrameLimits.maxRequestBodyBytes,
  /** WebSocket messages, same limit. */
  maxMessageBytes: FrameLimits.maxRequestBodyBytes,
  /** Bytes waiting for one client (or for its daemon) above which its messages are not read. */
  maxBufferedBytes: 4 * 1024 * 1024,
  /** The one path the bridge serves. */
  path: BRIDGE_PATH,
  /** The WebSocket subprotocol MCP clients ask for. */
  subprotocol: "mcp",
  /** The prefix of the WebSocket subprotocol entry that carries the token (`glass-bearer.<token>`). */
  tokenSubprotocolPrefix: TOKEN_SUBPROTOCOL_PREFIX,
} as const;

/** {@link BridgeOptions} checked, with every default filled in. */
export interface ResolvedBridgeOptions {
  /** The daemon each client session connects to. */
  readonly upstream: BridgeUpstream;
  /** The port to listen on (0: any free port). */
  readonly port: number;
  /** The address to listen on, as given. */
  readonly host: string;
  /** The host as it appears in the bridge's URLs (brackets for IPv6, loopback for a wildcard). */
  readonly urlHost: string;
  /** The secret clients present. */
  readonly token: string;
  /** Whether the token was generated (true) or given. */
  readonly tokenGenerated: boolean;
  /** Allowed browser origins, normalized (`scheme://host[:port]`). */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Accepted `Host` header names. */
  readonly allowedHosts: AllowedHosts;
  /** Client sessions at once. */
  readonly maxClients: number;
  /** Open TCP connections at once. */
  readonly maxConnections: number;
  /** A new connection must send its first byte within this many ms. */
  readonly firstByteTimeoutMs: number;
  /** Idle sessions close after this many ms. */
  readonly idleTimeoutMs: number;
  /** At the cap, a session idle this many ms (nothing in flight) may be evicted for a new one. */
  readonly evictIdleAfterMs: number;
  /** Headers must arrive within this many ms. */
  readonly headersTimeoutMs: number;
  /** A whole request must arrive within this many ms. */
  readonly requestTimeoutMs: number;
  /** The largest HTTP body. */
  readonly maxBodyBytes: number;
  /** The largest WebSocket message. */
  readonly maxMessageBytes: number;
  /** Bytes waiting for (or from) one client above which its messages are not read. */
  readonly maxBufferedBytes: number;
  /** The log sink, before redaction. */
  readonly log: (line: string) => void;
}

/**
 * Checks the options and fills in the defaults.
 * @throws RangeError or TypeError with a message that says what to change: a non-loopback host
 * without `allowRemote`, a malformed token, origin or limit.
 */
export function resolveBridgeOptions(options: BridgeOptions): ResolvedBridgeOptions {
  const upstream = checkUpstream(options.upstream);
  const host = options.host ?? BRIDGE_DEFAULTS.host;
  if (host.trim() === "") throw new TypeError("startBridge: host must not be empty");
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new RangeError(
      `startBridge: refusing to listen on ${host}, which is not a loopback address: the bridge hands browser control to whoever ` +
        "reaches it. Listen on 127.0.0.1 (the default), or pass allowRemote: true (CLI: --allow-remote) if other machines must " +
        "reach it (they still need the token; put TLS in front of it).",
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`startBridge: port must be an integer 0..65535, not ${String(port)}`);

  const tokenGenerated = options.token === undefined;
  const token = options.token ?? generateBridgeToken();
  const tokenProblem = tokenSyntaxProblem(token);
  if (tokenProblem !== undefined) throw new RangeError(`startBridge: ${tokenProblem}`);

  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) {
      throw new RangeError(
        `startBridge: ${JSON.stringify(origin)} is not an origin: give scheme://host[:port] without a path, e.g. "http://localhost:5173"`,
      );
    }
    allowedOrigins.add(normalized);
  }
  for (const name of options.allowedHosts ?? []) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?$/.test(name.trim())) {
      throw new RangeError(
        `startBridge: ${JSON.stringify(name)} is not a host name (give name or name:port, e.g. "glass.internal:8787")`,
      );
    }
  }
  const listenName = urlHost(host);
  const allowedHosts = buildAllowedHosts(options.allowedHosts ?? [], isWildcardHost(host) ? undefined : listenName);

  const headersTimeoutMs = positive("headersTimeoutMs", options.headersTimeoutMs ?? BRIDGE_DEFAULTS.headersTimeoutMs);
  const requestTimeoutMs = positive(
    "requestTimeoutMs",
    options.requestTimeoutMs ?? Math.max(BRIDGE_DEFAULTS.requestTimeoutMs, headersTimeoutMs),
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(
      `startBridge: headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`,
    );
  }
  return {
    upstream,
    port,
    host,
    urlHost: listenName,
    token,
    tokenGenerated,
    allowedOrigins,
    allowedHosts,
    maxClients: positive("maxClients", options.maxClients ?? BRIDGE_DEFAULTS.maxClients),
    maxConnections: positive("maxConnections", options.maxConnections ?? BRIDGE_DEFAULTS.maxConnections),
    firstByteTimeoutMs: positive(
      "firstByteTimeoutMs",
      options.firstByteTimeoutMs ?? BRIDGE_DEFAULTS.firstByteTimeoutMs,
    ),
    idleTimeoutMs: positive("idleTimeoutMs", options.idleTimeoutMs ?? BRIDGE_DEFAULTS.idleTimeoutMs),
    evictIdleAfterMs: positive("evictIdleAfterMs", options.evictIdleAfterMs ?? BRIDGE_DEFAULTS.evictIdleAfterMs),
    headersTimeoutMs,
    requestTimeoutMs,
    maxBodyBytes: positive("maxBodyBytes", options.maxBodyBytes ?? BRIDGE_DEFAULTS.maxBodyBytes),
    maxMessageBytes: positive("maxMessageBytes", options.maxMessageBytes ?? BRIDGE_DEFAULTS.maxMessageBytes),
    maxBufferedBytes: positive("maxBufferedBytes", options.maxBufferedBytes ?? BRIDGE_DEFAULTS.maxBufferedBytes),
    log: options.log ?? ((line) => process.stderr.write(`glass-sdk bridge: ${line}\n`)),
  };
}

function checkUpstream(upstream: BridgeUpstream | undefined): BridgeUpstream {
  if (upstream !== undefined && "socket" in upstream && typeof upstream.socket === "string" && upstream.socket !== "")
    return upstream;
  if (
    upstream !== undefined &&
    "command" in upstream &&
    typeof upstream.command === "string" &&
    upstream.command !== ""
  )
    return upstream;
  throw new TypeError(
    'startBridge: upstream must be { socket: "/path/to/glass.sock" } or { command: "glass", args: ["--mcp"] }',
  );
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`startBridge: ${name} must be a positive integer, not ${String(value)}`);
  return value;
}

/** Where a bridge listens: the address it was given, what that covers, and the URLs it answers at. */
export interface ListeningAddresses {
  /** The address and port as bound, e.g. `0.0.0.0:8787` or `[::]:8787`. */
  readonly bound: string;
  /** What a wildcard covers (`every IPv4 interface`, `every interface`); undefined for one address. */
  readonly scope: string | undefined;
  /** The HTTP URLs of `/mcp` on every address it is reachable at (for a wildcard: each interface's). */
  readonly urls: readonly string[];
}

/**
 * The addresses a bridge listening on `host` and `port` is reachable at: for `0.0.0.0` every IPv4
 * address of this machine's interfaces, for `::` (which Node binds to both families) every IPv4
 * and IPv6 one, otherwise the host itself.
 */
export function listeningAddresses(host: string, port: number): ListeningAddresses {
  const bound = `${inUrl(host)}:${port}`;
  const url = (address: string): string => `http://${inUrl(address)}:${port}${BRIDGE_DEFAULTS.path}`;
  if (!isWildcardHost(host)) return { bound, scope: undefined, urls: [url(host)] };
  const bothFamilies = isIPv6(bare(host));
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === "IPv4" || (bothFamilies && entry.family === "IPv6")) addresses.add(entry.address);
    }
  }
  return { bound, scope: bothFamilies ? "every interface" : "every IPv4 interface", urls: [...addresses].map(url) };
}

/** The warning for a bridge that listens beyond loopback: where it is reachable, and what that means. */
export function networkExposureWarning(host: string, port: number): string {
  const { bound, scope, urls } = listeningAddresses(host, port);
  return (
    `warning: the bridge is reachable from the network: it listens on ${bound}${scope === undefined ? "" : ` (${scope})`}, at ${urls.join(", ")}. ` +
    "Whoever reaches it with the token drives this browser; it speaks plain HTTP, so put TLS in front of it, and name the Host " +
    "remote clients use with --allow-host (allowedHosts)"
  );
}

function bare(host: string): string {
  const trimmed = host.trim();
  return trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
}

/** A host as it goes into a URL: IPv6 in brackets. */
function inUrl(host: string): string {
  const name = bare(host);
  return isIPv6(name) ? `[${name}]` : name;
}
