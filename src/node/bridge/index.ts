/**
 * The secure bridge: a Glass daemon (stdio or Unix socket) exposed to browser pages and remote
 * scripts as MCP Streamable HTTP and WebSocket at `/mcp`, behind a token, Host and Origin checks.
 */
export { startBridge, type Bridge } from "./start-bridge.js";
export type { BridgeOptions, BridgeUpstream, BridgeSocketUpstream, BridgeCommandUpstream } from "./bridge-options.js";
export { BRIDGE_DEFAULTS } from "./bridge-defaults.js";
