/**
 * glass-sdk/node: the Node.js side of glass-sdk — the transports the Glass daemon offers (stdio
 * and its Unix socket), MCP framing, and the bridge that lets a browser page reach the daemon. It
 * builds on the core only: importing it loads no replay, fixture or mock-daemon code (the mock
 * daemon is `glass-sdk/testing/node`).
 *
 * @module glass-sdk/node
 */
export { stdioTransport, type StdioTransportOptions } from "./stdio-transport.js";
export { socketTransport, type SocketTransportOptions } from "./socket-transport.js";
export { defaultSocketPath, type DefaultSocketPathContext } from "./default-socket-path.js";
export type { Framing } from "../mcp/json-rpc.js";
export { encodeFrame, type EncodeFrameOptions } from "./framing/encode-frame.js";
export {
  createFrameReader,
  type DecodedFrame,
  type FrameReader,
  type FrameReaderOptions,
} from "./framing/frame-reader.js";
export { FrameLimits } from "./framing/frame-limits.js";
export { startBridge, type Bridge } from "./bridge/start-bridge.js";
export type { BridgeOptions, BridgeUpstream, BridgeSocketUpstream, BridgeCommandUpstream } from "./bridge/options.js";
export { BRIDGE_DEFAULTS } from "./bridge/options.js";
