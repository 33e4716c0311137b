/**
 * The error codes glass-sdk itself produces (daemon codes such as `staleRevision`, `task.invalid`
 * or `webIr.invalid` pass through unchanged). As a type, `GlassErrorCode` is the union of these
 * codes. The SDK's own modules write a code as its string literal rather than reading it from this
 * object, so a browser page that never imports `GlassErrorCode` ships without it.
 */
export const GlassErrorCode = {
  /** The connection to the daemon closed (it exited, the socket dropped, or the client was closed). */
  TransportClosed: "transport.closed",
  /** The daemon could not be reached: a missing binary or socket, or no permission. */
  TransportUnavailable: "transport.unavailable",
  /** An HTTP server answered a status the transport cannot turn into a JSON-RPC answer (`details.status`). */
  HttpError: "transport.http",
  /** A frame from the peer could not be decoded (the reader skipped it). */
  BadFrame: "transport.badFrame",
  /** The call's deadline passed before the daemon answered. */
  DeadlineExceeded: "deadlineExceeded",
  /** The caller aborted the call (AbortSignal), or the daemon reports it cancelled (-32800). */
  Cancelled: "cancelled",
  /** The daemon is at a limit (-32000); retry later. */
  Overloaded: "overloaded",
  /** A request was sent before the session was initialized (-32002). */
  NotInitialized: "notInitialized",
  /** A mutating operation was sent without a mutation lease (-32003 without a lease code). */
  LeaseRequired: "leaseRequired",
  /** The request envelope is invalid (it was not sent). */
  RequestInvalid: "request.invalid",
  /** The payload breaks the operation's schema (it was not sent). */
  PayloadInvalid: "payload.invalid",
  /**
   * An operation's validators could not be loaded (a browser page's chunk for it failed to load);
   * the call was not sent.
   */
  ValidatorsUnavailable: "validators.unavailable",
  /** The response could not be believed: it breaks the envelope or the operation's result schema. */
  ResponseInvalid: "response.invalid",
  /** The daemon's answer would exceed 32 MiB and was dropped (-32001); for a mutating call the action ran. */
  ResponseTooLarge: "response.tooLarge",
  /**
   * A tool failed without a typed error: the daemon's opaque `browser tool failed` (bad or unknown
   * arguments, an unknown tool, a bad responseMode), or a failure given only as text.
   */
  ToolFailed: "tool.failed",
  /** The agreement with the daemon lacks a capability the operation needs (it was not sent). */
  CapabilityUnavailable: "capability.unavailable",
  /** The MCP handshake failed (-32602 on initialize, or an unusable answer). */
  InitializeFailed: "initialize.failed",
  /** A JSON-RPC protocol error the daemon reported (-32700, -32600, -32601, -32602, -32603). */
  ParseError: "mcp.parseError",
  InvalidRequest: "mcp.invalidRequest",
  MethodNotFound: "mcp.methodNotFound",
  InvalidParams: "mcp.invalidParams",
  InternalError: "mcp.internalError",
  /** Something the SDK did not expect went wrong inside it (a thrown value that is not a GlassError). */
  Internal: "internal",
  /** A golden fixture (or a recording loaded as one) breaks the fixture format; `details` names the first bad entry. */
  FixtureInvalid: "fixture.invalid",
} as const;

/** A code glass-sdk itself produces: one of the values of {@link GlassErrorCode}. */
export type GlassErrorCode = (typeof GlassErrorCode)[keyof typeof GlassErrorCode];

/** Lease error codes the daemon sends in `error.data.details.code` of a -32003 error (§2, §4). */
export const LeaseErrorCode = {
  LeaseHeld: "leaseHeld",
  LeaseExpired: "leaseExpired",
  LeaseNotFound: "leaseNotFound",
  LeaseNotOwner: "leaseNotOwner",
  InvalidLease: "invalidLease",
} as const;

/** A lease code the daemon sends: one of the values of {@link LeaseErrorCode}. */
export type LeaseErrorCode = (typeof LeaseErrorCode)[keyof typeof LeaseErrorCode];
