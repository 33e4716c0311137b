import { payloadValidators, resultValidators } from "../../generated/validators/index.js";
import type { OperationName, ResultOf } from "../../generated/operation-map.js";
import type { ValidationResult } from "../validation/issue.js";
import { checkJson, ownProperty, type JsonValue } from "../validation/json-value.js";
import type { PayloadOf } from "../../generated/operation-map.js";
import { runValidator } from "./run-validator.js";

const anyJson = (x: unknown, p: string, out: Parameters<typeof checkJson>[2]): boolean => checkJson(x, p, out);

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
