import { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
import type { BridgeOptions, BridgeUpstream } from "./bridge-options.js";
import { generateBridgeToken, tokenSyntaxProblem } from "./bridge-token.js";
import { buildAllowedHosts, type AllowedHosts } from "./host-check.js";
import { isLoopbackHost, isWildcardHost, urlHost } from "./loopback.js";
import { normalizeOrigin } from "./origin-check.js";

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
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`startBridge: port must be an integer 0..65535, not ${String(port)}`);

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
      throw new RangeError(`startBridge: ${JSON.stringify(name)} is not a host name (give name or name:port, e.g. "glass.internal:8787")`);
    }
  }
  const listenName = urlHost(host);
  const allowedHosts = buildAllowedHosts(options.allowedHosts ?? [], isWildcardHost(host) ? undefined : listenName);

  const headersTimeoutMs = positive("headersTimeoutMs", options.headersTimeoutMs ?? BRIDGE_DEFAULTS.headersTimeoutMs);
  const requestTimeoutMs = positive("requestTimeoutMs", options.requestTimeoutMs ?? Math.max(BRIDGE_DEFAULTS.requestTimeoutMs, headersTimeoutMs));
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(`startBridge: headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`);
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
    firstByteTimeoutMs: positive("firstByteTimeoutMs", options.firstByteTimeoutMs ?? BRIDGE_DEFAULTS.firstByteTimeoutMs),
    idleTimeoutMs: positive("idleTimeoutMs", options.idleTimeoutMs ?? BRIDGE_DEFAULTS.idleTimeoutMs),
    headersTimeoutMs,
    requestTimeoutMs,
    maxBodyBytes: positive("maxBodyBytes", options.maxBodyBytes ?? BRIDGE_DEFAULTS.maxBodyBytes),
    maxMessageBytes: positive("maxMessageBytes", options.maxMessageBytes ?? BRIDGE_DEFAULTS.maxMessageBytes),
    maxBufferedBytes: positive("maxBufferedBytes", options.maxBufferedBytes ?? BRIDGE_DEFAULTS.maxBufferedBytes),
    log: options.log ?? ((line) => process.stderr.write(`glass-sdk bridge: ${line}\n`)),
  };
}

function checkUpstream(upstream: BridgeUpstream | undefined): BridgeUpstream {
  if (upstream !== undefined && "socket" in upstream && typeof upstream.socket === "string" && upstream.socket !== "") return upstream;
  if (upstream !== undefined && "command" in upstream && typeof upstream.command === "string" && upstream.command !== "") return upstream;
  throw new TypeError('startBridge: upstream must be { socket: "/path/to/glass.sock" } or { command: "glass", args: ["--mcp"] }');
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`startBridge: ${name} must be a positive integer, not ${String(value)}`);
  return value;
}
