/**
 * The MCP revisions a Glass daemon accepts in `initialize` (§3): every daemon `2024-11-05`, the
 * newest also `2025-11-25`. Any other string, or none, is refused with -32602 and no counter-offer.
 * The mock daemon accepts exactly these, and the bridge takes them (only them) in an
 * `MCP-Protocol-Version` header.
 */
export const DAEMON_MCP_VERSIONS: readonly string[] = ["2024-11-05", "2025-11-25"];
