/**
 * glass-sdk/testing: test without a daemon — the replay engine that answers requests from a golden
 * fixture (the same one the mock daemon uses), and the pieces to plug it into MCP.
 */
export { createReplayEngine, type ReplayEngine, type ReplayEngineOptions } from "./replay-engine.js";
export { loadFixture, type GoldenFixture } from "./golden-fixture.js";
export { canonicalJson } from "./canonical-json.js";
export { toMcpToolResult } from "./to-mcp-tool-result.js";
export { readToolCall, MCP_ONLY_ARGUMENTS, type ToolCall } from "./read-tool-call.js";
