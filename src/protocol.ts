/**
 * glass-sdk/protocol: for authors of libraries and transports built on glass-sdk — the mapping
 * between Glass envelopes and MCP `tools/call` messages, the JSON-RPC 2.0 message types, and the
 * catalog lookups (which tool carries an operation, whether it needs a lease, whether a retry is
 * safe). Browser-safe, like `glass-sdk`.
 *
 * @module glass-sdk/protocol
 */
export { toMcpRequest } from "./mcp/to-mcp-request.js";
export { fromMcpResponse } from "./mcp/from-mcp-response.js";
export { liftToolError, type FailedCall } from "./mcp/lift-tool-error.js";
export { jsonRpcErrorToGlass } from "./mcp/json-rpc-error-to-glass.js";
export { newRequestId } from "./envelope/create-request.js";
export {
  JsonRpcErrorCode,
  type JsonRpcErrorObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  type McpTextContent,
  type McpToolResult,
} from "./mcp/json-rpc.js";
export type { ServerRequestAbortReason, ServerRequestContext, ServerRequestHandler } from "./mcp/mcp-session.js";
export { requiresLease, toolFor, operationFor, isRetrySafe, describeOperation } from "./operations/catalog.js";
export { leaseExemptTools } from "../generated/operations.js";
