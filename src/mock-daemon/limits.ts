import type { MockDaemonMode } from "./manifest.js";

/** The limits a mock daemon enforces; the defaults are the real daemon's (§5). */
export interface MockDaemonLimits {
  /**
   * Requests active at once on one stdio session (default 8); over it → -32000 at once, and a
   * notification over it is dropped. initialize, the lease methods and cancels take no slot.
   */
  maxActivePerSession: number;
  /** Socket clients connected at once (default 4); the next one is closed without a reply. */
  maxClients: number;
  /** Requests in flight on the socket, all clients together (default 16). */
  maxInFlightTotal: number;
  /** Requests in flight for one socket client (default 4). */
  maxInFlightPerClient: number;
  /**
   * Bytes of a newline-delimited request with its `\n` and the blank lines before it (default 8 KiB);
   * larger requests must use Content-Length. Over it, the connection is closed without a reply.
   */
  maxNewlineRequestBytes: number;
  /** Bytes of a Content-Length header (default 8 KiB). */
  maxHeaderBytes: number;
  /** Bytes of a Content-Length body (default 4 MiB). */
  maxContentLengthBytes: number;
  /** Bytes of one answer's JSON (default 32 MiB); a larger answer becomes a -32001 error for its id. */
  maxResponseBytes: number;
  /** How long a frame may take to arrive after its first byte (default 10 s); then the connection is closed without a reply. */
  frameTimeoutMs: number;
}

/** The real daemon's limits. */
export const DEFAULT_LIMITS: Readonly<MockDaemonLimits> = Object.freeze({
  maxActivePerSession: 8,
  maxClients: 4,
  maxInFlightTotal: 16,
  maxInFlightPerClient: 4,
  maxNewlineRequestBytes: 8 * 1024,
  maxHeaderBytes: 8 * 1024,
  maxContentLengthBytes: 4 * 1024 * 1024,
  maxResponseBytes: 32 * 1024 * 1024,
  frameTimeoutMs: 10_000,
});

/** The default limits with some changed (tests use smaller ones). */
export function resolveLimits(overrides: Partial<MockDaemonLimits> = {}): MockDaemonLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(overrides) as [keyof MockDaemonLimits, number | undefined][]) {
    if (value !== undefined) limits[name] = value;
  }
  return limits;
}

/**
 * Why one more request cannot start (the message of a -32000 answer), or `undefined` when it can:
 * `connectionActive` requests are in flight on this connection, `totalActive` on the whole daemon.
 */
export function overloadReason(
  mode: MockDaemonMode,
  limits: MockDaemonLimits,
  connectionActive: number,
  totalActive: number,
): string | undefined {
  if (mode === "stdio") {
    return connectionActive >= limits.maxActivePerSession
      ? `overloaded: ${limits.maxActivePerSession} requests are already active on this session; retry later`
      : undefined;
  }
  if (connectionActive >= limits.maxInFlightPerClient) {
    return `overloaded: ${limits.maxInFlightPerClient} requests are already in flight for this client; retry later`;
  }
  if (totalActive >= limits.maxInFlightTotal) {
    return `overloaded: ${limits.maxInFlightTotal} requests are already in flight on the daemon; retry later`;
  }
  return undefined;
}
