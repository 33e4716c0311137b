import { FrameLimits } from "../framing/frame-limits.js";

/** The defaults of {@link BridgeOptions}: loopback only, the daemon's own limits. */
export const BRIDGE_DEFAULTS = {
  /** The address the bridge listens on. */
  host: "127.0.0.1",
  /** The port of the `glass-sdk bridge` command (the function defaults to 0, any free port). */
  cliPort: 8787,
  /** Client sessions at once: the daemon socket's own client limit. */
  maxClients: 4,
  /** Open TCP connections at once; when full, a newcomer evicts the oldest connection that has not shown the token. */
  maxConnections: 256,
  /** A new connection must send its first byte within 3 s, or it is closed. */
  firstByteTimeoutMs: 3000,
  /** Idle client sessions are closed after five minutes. */
  idleTimeoutMs: 5 * 60 * 1000,
  /** Headers of a request must arrive within 10 s. */
  headersTimeoutMs: 10_000,
  /** A whole request must arrive within 10 s (the daemon's own frame timeout). */
  requestTimeoutMs: FrameLimits.frameBodyTimeoutMs,
  /** The daemon's request body limit (4 MiB). */
  maxBodyBytes: FrameLimits.maxRequestBodyBytes,
  /** WebSocket messages, same limit. */
  maxMessageBytes: FrameLimits.maxRequestBodyBytes,
  /**
   * Bytes waiting to be sent to one WebSocket client (or to be written to its daemon connection)
   * above which the bridge stops reading that client's messages, until they drain to half (4 MiB).
   * Past this plus one largest answer (32 MiB), the socket is closed with 1008.
   */
  maxBufferedBytes: 4 * 1024 * 1024,
  /** The one path the bridge serves. */
  path: "/mcp",
  /** The WebSocket subprotocol MCP clients ask for. */
  subprotocol: "mcp",
  /** The prefix of the WebSocket subprotocol entry that carries the token (`glass-bearer.<token>`). */
  tokenSubprotocolPrefix: "glass-bearer.",
} as const;
