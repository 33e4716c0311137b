/**
 * glass-sdk/testing: test without a daemon — a mock daemon driven by typed handlers
 * (`createMockGlass`), the replay engine that answers requests from a golden
 * fixture (the same one the mock daemon uses), an in-memory transport to it, and a recorder that
 * turns real traffic into a fixture.
 *
 * Platform-free except `loadFixture`, `goldenFixture` and `saveFixture`, which import `node:fs` when called. It
 * needs no optional dependency: the MSW handlers are `glass-sdk/testing/msw` (they need `msw`
 * 2.x), the mock daemon on stdio or a Unix socket is `glass-sdk/testing/node`.
 *
 * @module glass-sdk/testing
 */
export { createReplayEngine, type ReplayEngine, type ReplayEngineOptions } from "../mock-daemon/replay-engine.js";
export type { ReplayMatchOptions } from "../mock-daemon/replay-match.js";
export { parseFixture, type GoldenFixture } from "../mock-daemon/golden-fixture.js";
export { loadFixture } from "./load-fixture.js";
export { goldenFixture } from "./golden-fixture-file.js";
export { saveFixture } from "./save-fixture.js";
export { canonicalJson } from "../mock-daemon/canonical-json.js";
export { toMcpToolResult, type ToMcpToolResultOptions } from "../mock-daemon/to-mcp-tool-result.js";
export { readToolCall, MCP_ONLY_ARGUMENTS, type ToolCall } from "../mock-daemon/read-tool-call.js";
export { createMockGlass, type MockGlass, type MockGlassOptions } from "./mock-glass.js";
export {
  mockError,
  MockError,
  type MockErrorInit,
  type MockHandler,
  type MockHandlers,
  type MockCallContext,
  type MockClientAnswer,
  type MockDaemonClient,
} from "../mock-daemon/handlers.js";
export { inMemoryTransport, type InMemoryTransport, type InMemoryTransportOptions } from "./in-memory-transport.js";
export type { ReplayDaemonOptions } from "./replay-daemon.js";
export type { SimulatedOrder, SimulatedSiteOptions } from "../mock-daemon/site/index.js";
export { recordingTransport, type RecordingTransport, type RecordingTransportOptions } from "./recording-transport.js";
export { REDACTED } from "./redact-secrets.js";
export { parseFaults, type MockDaemonFaults } from "../mock-daemon/faults.js";
export { DEFAULT_LIMITS, type MockDaemonLimits } from "../mock-daemon/limits.js";
export type { MockDaemonMode, MockManifestOptions } from "../mock-daemon/manifest.js";
export type { LeaseGrant } from "../mock-daemon/leases.js";
export type { RecordedCall, RecordedClientAnswer, RecordedOutcome } from "../mock-daemon/daemon-record.js";
// Types the kit's own signatures use (a recorded outcome's error, mockError's retry advice), named here too.
export type { GlassErrorObject } from "../envelope/envelope-types.js";
export type { GlassRetryClassification } from "../../generated/types/index.js";
