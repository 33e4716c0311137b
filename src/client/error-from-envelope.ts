import type { GlassErrorObject } from "../envelope/envelope-types.js";
import {
  BadFrameError,
  CancelledError,
  DeadlineExceededError,
  LeaseError,
  NotInitializedError,
  OverloadedError,
  TransportClosedError,
  TransportUnavailableError,
} from "../errors/error-classes.js";
import { LeaseErrorCode } from "../errors/error-codes.js";
import { GlassError, type GlassErrorInit } from "../errors/glass-error.js";

const LEASE_CODES = new Set<string>([...Object.values(LeaseErrorCode), "leaseRequired"]);

/**
 * Turns the error object of a Glass response into the GlassError a typed call throws: the
 * subclass that fits its code (OverloadedError, LeaseError, DeadlineExceededError, ...), carrying
 * every field of the object, the operation and the request id.
 */
export function errorFromEnvelope(
  error: GlassErrorObject,
  operation: string | undefined,
  requestId: string | undefined,
  cause?: unknown,
): GlassError {
  const init: GlassErrorInit = {
    code: error.code,
    message: error.message,
    ...(operation === undefined ? {} : { operation }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(error.phase === undefined ? {} : { phase: error.phase }),
    ...(error.mutationPossible === undefined ? {} : { mutationPossible: error.mutationPossible }),
    ...(error.retry === undefined
      ? {}
      : {
          retry: { classification: error.retry.classification, recommendedOperation: error.retry.recommendedOperation },
        }),
    ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(cause === undefined ? {} : { cause }),
  };
  if (LEASE_CODES.has(error.code)) return new LeaseError(init);
  switch (error.code) {
    case "overloaded":
      return new OverloadedError(init);
    case "notInitialized":
      return new NotInitializedError(init);
    case "cancelled":
      return new CancelledError(init);
    case "deadlineExceeded":
      return new DeadlineExceededError(init);
    case "transport.closed":
      return new TransportClosedError(init);
    case "transport.unavailable":
      return new TransportUnavailableError(init);
    case "transport.badFrame":
      return new BadFrameError(init);
    default:
      return new GlassError(init);
  }
}
