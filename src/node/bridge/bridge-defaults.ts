import { FrameLimits } from "../framing/frame-limits.js";

/** The defaults of {@link BridgeOptions}: loopback only, the daemon's own limits. */
export const BRIDGE_DEFAULTS = {
  /** The address the bridge listens on. */
  host: "127.0.0.1",
  /** The port of the `glass-sdk bridge` command (the function defaults to 0, any free port). */
  cliPort: 8787,
  /** Client sessions at once: the daemon socket's own client limit. */
  maxClients: 4,
  /** Open TCP connections at once (each authenticated or refused by its own request). */
  maxConnections: 256,
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
  /** The one path the bridge serves. */
  path: "/mcp",
  /** The WebSocket subprotocol MCP clients ask for. */
  subprotocol: "mcp",
  /** The prefix of the WebSocket subprotocol entry that carries the token (`glass-bearer.<token>`). */
  tokenSubprotocolPrefix: "glass-bearer.",
} as const;
