import {
  payloadValidators,
  resultValidators,
  validateGlassRequest,
  validateGlassResponse,
  validateGlassResponseStrict,
} from "../../generated/validators/index.js";
import type { OperationName, PayloadOf, ResultOf } from "../../generated/operation-map.js";
import type { GeneratedValidator } from "../validation/generated-support.js";
import type { ValidationIssue, ValidationResult } from "../validation/issue.js";
import { pathPastDepth } from "../validation/json-depth.js";
import { checkJson, ownProperty, type JsonValue } from "../validation/json-value.js";
import type { GlassRequest, GlassResponse } from "./envelope-types.js";

// Checking envelopes and payloads against the catalog's generated validators: the request and
// response envelopes (§1), an operation's payload and result, and the runner underneath them that
// never throws, whatever the value.

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
export function validateResponse(
  value: unknown,
  options: ValidateResponseOptions = {},
): ValidationResult<GlassResponse> {
  return runValidator<GlassResponse>(
    options.strict === true ? validateGlassResponseStrict : validateGlassResponse,
    value,
  );
}

/** The validator of a value the protocol gives no shape: it only needs to be JSON. */
export const anyJson: GeneratedValidator = (x, p, out) => checkJson(x, p, out);

/**
 * Checks an operation's payload against the catalog: its schema, and for the browser-free
 * operations the Web IR v1 and Task v1 rules. Issues inside a document are reported the way the
 * daemon reports them (`{path: "inputs", reason: "form.fill requires at least one bounded input"}`).
 * An operation outside the catalog only needs a JSON payload. Never throws.
 */
export function validatePayload<Op extends string>(operation: Op, payload: unknown): ValidationResult<PayloadOf<Op>> {
  return runValidator<PayloadOf<Op>>(ownProperty(payloadValidators, operation) ?? anyJson, payload);
}

/**
 * Checks an operation's result against the catalog's result schema (any JSON where the protocol
 * gives no shape). Never throws.
 */
export function validateResult<Op extends string>(
  operation: Op,
  result: unknown,
): ValidationResult<Op extends OperationName ? ResultOf<Op> : JsonValue> {
  return runValidator(ownProperty(resultValidators, operation) ?? anyJson, result);
}

/** Drops repeated issues (two documents of one payload can break the same rule at the same path). */
function distinct(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Runs a generated validator (or anything with its signature, such as `checkJson`) the cheap way
 * first, verdict only, and again, collecting issues under `path`, only when the value is invalid.
 * Returns `undefined` for a valid value, otherwise the issues (which a validator may leave empty).
 * Never throws: a value that cannot even be read (a throwing getter, a proxy, nesting deep enough
 * to exhaust the stack) gets one issue saying so.
 */
export function issuesOf(validator: GeneratedValidator, value: unknown, path = ""): ValidationIssue[] | undefined {
  try {
    if (validator(value, path, null)) return undefined;
    const issues: ValidationIssue[] = [];
    validator(value, path, issues);
    return issues;
  } catch (error) {
    return [{ path: thrownAt(error, value, path), reason: describeThrown(error) }];
  }
}

/**
 * Runs a generated validator the cheap way first (verdict only) and again, collecting issues,
 * only when the value is invalid. Never throws: a value that cannot even be read (a throwing
 * getter, a proxy, nesting deep enough to exhaust the stack) becomes an issue.
 */
export function runValidator<T>(validator: GeneratedValidator, value: unknown): ValidationResult<T> {
  const issues = issuesOf(validator, value);
  if (issues === undefined) return { ok: true, value: value as T };
  if (issues.length === 0) issues.push({ path: "", reason: "is invalid" });
  return { ok: false, issues: distinct(issues) };
}

/**
 * Where a validator gave up: for a value nested past the bound, the place it is too deep (found
 * without recursion). Must not throw in turn (the thrown value may be a hostile proxy).
 */
function thrownAt(error: unknown, value: unknown, path: string): string {
  try {
    return error instanceof RangeError ? (pathPastDepth(value, path) ?? path) : path;
  } catch {
    return path;
  }
}

/**
 * Why a value could not be validated, from whatever a getter or proxy trap threw. Describing it must
 * not throw in turn (a thrown null-prototype object, a throwing `message` getter or `toString`).
 */
function describeThrown(error: unknown): string {
  try {
    if (error instanceof RangeError) return "is nested too deeply to validate (or refers back to itself)";
    const text = error instanceof Error ? error.message : String(error);
    return `could not be read: ${typeof text === "string" ? text : "it threw a value that cannot be described"}`;
  } catch {
    return "could not be read: it threw a value that cannot be described";
  }
}
