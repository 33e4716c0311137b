// The headers MCP Streamable HTTP (MCP 2025-03-26 to 2025-11-25) adds to HTTP: one home for their
// names, shared by the HTTP transport, the Node bridge and the MSW handlers.

/**
 * The header names of MCP over HTTP, lower-cased (HTTP header names are case-insensitive; Node
 * lower-cases those it receives, `Headers` does for every name).
 */
export const McpHttpHeader = {
  /** `Mcp-Session-Id`: the session the server assigned in its answer to `initialize`; every later request names it. */
  sessionId: "mcp-session-id",
  /** `MCP-Protocol-Version`: the revision `initialize` negotiated, sent with every later request. */
  protocolVersion: "mcp-protocol-version",
  /** `Last-Event-ID`: the last SSE event a client received, sent by the GET that resumes the stream after it. */
  lastEventId: "last-event-id",
} as const;
