/**
 * glass-sdk: a typed client SDK for the Glass browser-automation protocol.
 *
 * This entry point is browser-safe (no `node:` imports). Node transports live in `glass-sdk/node`.
 */
export { createRequest, type CreateRequestOptions } from "./envelope/create-request.js";
export { newRequestId } from "./envelope/request-id.js";
export { validateRequest, validateResponse, type ValidateResponseOptions } from "./envelope/validate-envelope.js";
export { validatePayload, validateResult } from "./envelope/validate-payload.js";
export type {
  GlassErrorObject,
  GlassErrorResponse,
  GlassMutationLease,
  GlassRequest,
  GlassResponse,
  GlassSuccessResponse,
  PayloadFor,
} from "./envelope/envelope-types.js";
export { GlassError, type GlassErrorInit } from "./errors/glass-error.js";
export {
  BadFrameError,
  CancelledError,
  DeadlineExceededError,
  LeaseError,
  NotInitializedError,
  OverloadedError,
  TransportClosedError,
  TransportUnavailableError,
} from "./errors/error-classes.js";
export { GlassErrorCode, LeaseErrorCode } from "./errors/error-codes.js";
export { Glass, type McpToolDescription } from "./client/glass.js";
export type { CallOptions, GlassClientOptions, GlassLogEvent, NegotiationOptions, RetryOptions } from "./client/options.js";
export { Lease } from "./client/lease.js";
export type { WithLeaseOptions } from "./client/lease-keeper.js";
export { toMcpRequest } from "./mcp/to-mcp-request.js";
export { fromMcpResponse } from "./mcp/from-mcp-response.js";
export { liftToolError } from "./mcp/lift-tool-error.js";
export { jsonRpcErrorToGlass } from "./mcp/json-rpc-error-to-glass.js";
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
  type McpToolResult,
} from "./mcp/json-rpc.js";
export type { ServerRequestHandler } from "./mcp/mcp-session.js";
export type { GlassTransport, TransportHandlers } from "./transport/transport.js";
export { httpTransport, type HttpTransportOptions } from "./transport/http-transport.js";
export {
  webSocketTransport,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransportOptions,
} from "./transport/websocket-transport.js";
export { requiresLease, toolFor, operationFor, isRetrySafe, describeOperation } from "./operations/lease-requirement.js";
export type { ValidationIssue, ValidationResult } from "./validation/issue.js";
export type { JsonObject, JsonValue } from "./validation/json-value.js";
export { operations, leaseExemptTools } from "../generated/operations.js";
export type { OperationDescriptor, LeaseRequirement, LeaseCondition } from "./operations/descriptor.js";
export type { OperationMap, OperationName, PayloadOf, ResultOf } from "../generated/operation-map.js";
export type { GlassOperationNamespaces } from "../generated/methods.js";
// Every named type of the schemas, flat: envelope, capabilities, Web IR, Task, and each operation's
// payload and result (`BrowserObservePayload`, `WebIrDiffResult`, …) with their titled parts.
export type * from "../generated/types/index.js";
