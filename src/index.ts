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
export type { ValidationIssue, ValidationResult } from "./validation/issue.js";
export type { JsonObject, JsonValue } from "./validation/json-value.js";
export { operations, leaseExemptTools } from "../generated/operations.js";
export type { OperationDescriptor, LeaseRequirement, LeaseCondition } from "./operations/descriptor.js";
export type { OperationMap, OperationName, PayloadOf, ResultOf } from "../generated/operation-map.js";
export type { GlassOperationNamespaces } from "../generated/methods.js";
export type * from "../generated/types/glass-protocol-v1.js";
export type * from "../generated/types/glass-capabilities-v1.js";
export type * from "../generated/types/web-ir-v1.js";
export type * from "../generated/types/task-v1.js";
