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
   * Open TCP connections at once; default 256. When all are taken, a new connection evicts the
   * oldest one that has not yet presented the token (so idle or unauthenticated sockets cannot keep
   * clients out); connections that have presented it are never evicted, and when every one has, the
   * newcomer is closed at once.
   */
  maxConnections?: number;
  /** A new connection that sends no byte for this many ms is closed; default 3000. */
  firstByteTimeoutMs?: number;
  /** A client session with no traffic and no request in flight for this long is closed; default 5 minutes. */
  idleTimeoutMs?: number;
  /** A request's headers must arrive within this many ms of its first byte (else 408 and close); default 10 000. */
  headersTimeoutMs?: number;
  /** A whole request (headers and body) must arrive within this many ms (else 408 and close); default 10 000. */
  requestTimeoutMs?: number;
  /** The largest HTTP request body; default 4 MiB (the daemon's request limit). Larger ones get 413. */
  maxBodyBytes?: number;
  /** The largest WebSocket message; default 4 MiB. A larger one closes the connection with 1009. */
  maxMessageBytes?: number;
  /**
   * Backpressure, per WebSocket client: once more than this many bytes wait to be sent to it (it
   * reads slower than it asks) or to be written to its daemon connection (the daemon reads slower),
   * the bridge stops reading the client's messages until they drain to half. Answers to requests
   * already forwarded still go out; if what waits for the client passes this plus 32 MiB (one
   * largest answer), its socket is closed with 1008. An HTTP session's request is answered -32000
   * instead while its daemon connection has this much unwritten. Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /** Where log lines go (one per session start and end, one per refusal); default stderr. The token is redacted from every line. */
  log?: (line: string) => void;
}
