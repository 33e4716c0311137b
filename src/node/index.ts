/**
 * glass-sdk/node: the Node.js side of glass-sdk — the transports the Glass daemon offers (stdio
 * and its Unix socket), MCP framing, and the mock daemon that replays the golden fixture.
 */
export { stdioTransport, type StdioTransportOptions } from "./stdio-transport.js";
export { socketTransport, type SocketTransportOptions } from "./socket-transport.js";
export { defaultSocketPath, type DefaultSocketPathContext } from "./default-socket-path.js";
export { encodeFrame, type EncodeFrameOptions, type Framing } from "./framing/encode-frame.js";
export { createFrameReader, type DecodedFrame, type FrameReader, type FrameReaderOptions } from "./framing/frame-reader.js";
export { FrameLimits } from "./framing/frame-limits.js";
export { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "./mock-daemon/start-mock-daemon.js";
export { parseFaults, type MockDaemonFaults } from "../testing/daemon/faults.js";
export { DEFAULT_LIMITS, type MockDaemonLimits } from "../testing/daemon/limits.js";
export type { MockDaemonMode, MockManifestOptions } from "../testing/daemon/manifest.js";
export type { LeaseGrant } from "../testing/daemon/leases.js";
export type { RecordedCall, RecordedClientAnswer } from "../testing/daemon/daemon-record.js";
export { loadFixtureFile } from "./mock-daemon/load-fixture-file.js";
export { startBridge, type Bridge } from "./bridge/start-bridge.js";
export type { BridgeOptions, BridgeUpstream, BridgeSocketUpstream, BridgeCommandUpstream } from "./bridge/options.js";
export { BRIDGE_DEFAULTS } from "./bridge/options.js";
