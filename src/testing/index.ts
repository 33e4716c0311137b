/**
 * glass-sdk/testing: test without a daemon — the replay engine that answers requests from a golden
 * fixture (the same one the mock daemon uses), an in-memory transport to it, MSW handlers that
 * serve it over HTTP and WebSocket, and a recorder that turns real traffic into a fixture.
 *
 * Browser-safe except `loadFixture` and `saveFixture`, which import `node:fs` when called. The MSW
 * handlers need the optional peer dependency `msw` (2.x).
 */
export { createReplayEngine, type ReplayEngine, type ReplayEngineOptions } from "./replay-engine.js";
export { parseFixture, type GoldenFixture } from "./golden-fixture.js";
export { loadFixture } from "./load-fixture.js";
export { saveFixture } from "./save-fixture.js";
export { canonicalJson } from "./canonical-json.js";
export { toMcpToolResult } from "./to-mcp-tool-result.js";
export { readToolCall, MCP_ONLY_ARGUMENTS, type ToolCall } from "./read-tool-call.js";
export { inMemoryTransport, type InMemoryTransport, type InMemoryTransportOptions } from "./in-memory-transport.js";
export type { ReplayDaemonOptions } from "./replay-daemon.js";
export { createGlassHandlers, type GlassHandlersOptions } from "./msw-http-handlers.js";
export { createGlassWsHandlers, type GlassWsHandlersOptions } from "./msw-ws-handlers.js";
export { recordingTransport, type RecordingTransport, type RecordingTransportOptions } from "./recording-transport.js";
export { REDACTED } from "./redact-secrets.js";
export type { MockDaemonFaults } from "./daemon/faults.js";
export type { MockDaemonLimits } from "./daemon/limits.js";
export type { MockDaemonMode, MockManifestOptions } from "./daemon/manifest.js";
export type { RecordedCall } from "./daemon/daemon-record.js";
