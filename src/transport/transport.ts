import type { GlassError } from "../errors/glass-error.js";
import type { JsonRpcMessage } from "../mcp/json-rpc.js";

/** What a transport tells its owner (the MCP session). */
export interface TransportHandlers {
  /** A message arrived from the daemon. */
  onMessage(message: JsonRpcMessage): void;
  /**
   * The connection ended (the daemon exited, the socket closed, a fatal framing error). Called at
   * most once; `error` says why when it was not a close the owner asked for.
   */
  onClose(error?: GlassError): void;
  /** A message could not be decoded, but the connection goes on (the bad frame was skipped). */
  onError?(error: GlassError): void;
  /**
   * The transport started a new daemon session on its own (HTTP, after the old session expired):
   * whatever belonged to the old session — a mutation lease — is gone.
   */
  onReset?(): void;
  /**
   * Something the transport did or learned on its own, outside any call, that is worth a line in
   * the client's log (`connection` events): no call fails because of it. HTTP reports a standalone
   * server stream (`serverStream`) the server refused or that was given up.
   */
  onNotice?(detail: string): void;
}

/**
 * A way to exchange JSON-RPC messages with a Glass daemon (stdio, Unix socket, HTTP, WebSocket, or
 * in memory). The client owns the transport: it calls `start` once, `send` for each message, and
 * `close` at the end.
 */
export interface GlassTransport {
  /** A short name for messages and defaults: `stdio`, `socket`, `http`, `websocket`, `memory`. */
  readonly kind: string;
  /**
   * How many requests the peer accepts in flight on this connection (the daemon allows 8 on stdio,
   * 4 per client on the socket). The client queues above it instead of provoking -32000.
   */
  readonly maxInFlight: number;
  /** Opens the connection. Rejects with a GlassError (`transport.unavailable`) that says how to fix it. */
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Sends one message. Resolves once it has been handed to the operating system (so the caller
   * knows the daemon may act on it); rejects with a GlassError if it could not be written.
   */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the connection gracefully; resolves when it is closed. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Bytes given to `send` that the peer has not taken yet, when the transport can tell: the frames
   * a stdio or socket transport has not written to the stream, a WebSocket's `bufferedAmount`, the
   * bodies of HTTP POSTs whose status has not come. Outbound only: answers being read are never
   * counted (each is bounded by the protocol's 32 MiB per message on its own). The client reads it
   * to notice a peer that stopped reading (see the SDK's bound on queued answers).
   */
  readonly bufferedBytes?: number;
  /**
   * Returns `text` with the transport's own secrets (its bearer token, credentials in its URL)
   * replaced by `[redacted]`. The client runs every error message, error details and log event
   * that may quote a peer's text through it, so a token a server echoes never reaches them. A
   * transport that holds no secret has none (stdio and socket).
   */
  redact?(text: string): string;
}

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
