import { TransportLimits } from "../../transport/transport.js";

/**
 * The size and time limits of the Glass daemon's MCP framing (protocol §5). The frame reader and
 * the transports take their defaults from here; a daemon-side reader uses the tighter request
 * limits.
 */
export const FrameLimits = {
  /** The largest newline-delimited request body the daemon accepts (8 KiB); larger requests need Content-Length. */
  maxNewlineRequestBytes: 8192,
  /** The largest Content-Length header the daemon accepts (8 KiB). */
  maxHeaderBytes: 8192,
  /** The largest Content-Length request body the daemon accepts (4 MiB). */
  maxRequestBodyBytes: 4 * 1024 * 1024,
  /** The largest response the daemon sends (32 MiB): the client-side reader's default frame limit. */
  maxResponseBytes: TransportLimits.maxMessageBytes,
  /** A frame's body must arrive within this many milliseconds of its first byte (10 s). */
  frameBodyTimeoutMs: 10_000,
} as const;
