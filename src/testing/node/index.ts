/**
 * glass-sdk/testing/node: the mock daemon — a Node process-side server that answers MCP over stdio
 * or a Unix socket from a golden fixture, as the Glass daemon would. Its options (faults, limits,
 * fixtures) are the platform-free ones of `glass-sdk/testing`.
 *
 * @module glass-sdk/testing/node
 */
export { startMockDaemon, type MockDaemon, type MockDaemonOptions } from "./start-mock-daemon.js";
export type { ReadableByteStream, WritableByteStream } from "./byte-streams.js";
