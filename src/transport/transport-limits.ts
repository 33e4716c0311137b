/**
 * The bounds every transport holds to, whatever the peer does (protocol §5: the daemon's answers
 * are at most 32 MiB). Nothing a peer sends is buffered past them: a larger message fails its one
 * call (HTTP) or ends its connection (WebSocket), and a peer that stops reading makes further sends
 * fail instead of piling up in memory.
 */
export const TransportLimits = {
  /** The largest message taken from a peer (32 MiB, counted in UTF-8 bytes): a JSON answer body, an SSE event, a WebSocket message, a frame. */
  maxMessageBytes: 32 * 1024 * 1024,
  /** The most bytes a transport lets wait for a peer that does not read (32 MiB); a send past it fails with `overloaded`. */
  maxQueuedSendBytes: 32 * 1024 * 1024,
  /**
   * The most notifications and answers to the daemon's requests an HTTP transport lets wait for
   * their status (64): the client bounds its own requests (`maxInFlight`), not these, and a server
   * that never answers their POSTs would otherwise have a connection opened for each.
   */
  maxUnansweredPosts: 64,
  /** The most bytes of an HTTP error answer (a 4xx/5xx body) read to quote it (64 KiB). */
  maxErrorBodyBytes: 64 * 1024,
} as const;
