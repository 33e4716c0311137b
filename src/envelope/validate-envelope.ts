import {
  validateGlassRequest,
  validateGlassResponse,
  validateGlassResponseStrict,
} from "../../generated/validators/index.js";
import type { ValidationResult } from "../validation/issue.js";
import type { GlassRequest, GlassResponse } from "./envelope-types.js";
import { runValidator } from "./run-validator.js";

/** Options of {@link validateResponse}. */
export interface ValidateResponseOptions {
  /**
   * Reject fields the protocol does not define. Off by default: daemons add optional response
   * fields as the protocol evolves, and clients must tolerate them.
   */
  strict?: boolean;
}

/**
 * Checks a value against every rule of the version 1 request envelope (§1): required fields,
 * identifiers (≤ 128 UTF-8 bytes, no whitespace or control characters), the operation name,
 * `deadlineMs` 1..900000, the lease, `sessionId` = `mutationLease.sessionId`, JSON-only values,
 * and no unknown fields. Never throws.
 */
export function validateRequest(value: unknown): ValidationResult<GlassRequest> {
  return runValidator<GlassRequest>(validateGlassRequest, value);
}

/**
 * Checks a value against every rule of the version 1 response envelope (§1): identifiers,
 * `ok` agreeing with exactly one of `result`/`error`, the error object (code ≤ 64 and message ≤ 512
 * UTF-8 bytes, phase, retry advice, details ≤ 16 KiB serialized). Unknown fields are accepted
 * unless `{ strict: true }`. Never throws.
 */
export function validateResponse(value: unknown, options: ValidateResponseOptions = {}): ValidationResult<GlassResponse> {
  return runValidator<GlassResponse>(options.strict === true ? validateGlassResponseStrict : validateGlassResponse, value);
}
