import { anyJson, runValidator } from "../envelope/validate.js";
import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { liftToolError } from "../mcp/lift-tool-error.js";
import { toolFor } from "../operations/catalog.js";
import { describeIssues, isStructuralIssue } from "../validation/issue.js";
import { isJsonObject } from "../validation/json-value.js";
import type { OperationValidators } from "../validation/operation-validators.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";

/**
 * The kind of validation failure the daemon reports for a browser-free operation's payload, so a
 * local preflight failure reads exactly like the daemon's (§2): Web IR operations report
 * `webIrValidation`; task.compile reports `taskCompilation` for its task and `webIrValidation` for its
 * IR; the other task operations report `taskValidation`.
 */
function failureKind(
  operation: string,
  payload: unknown,
  documents: OperationValidators["documents"],
): "taskValidation" | "taskCompilation" | "webIrValidation" | undefined {
  if (operation.startsWith("webIr.")) return "webIrValidation";
  if (operation === "task.compile") {
    // Only the verdicts matter: a valid task compiled against an invalid IR is the IR's failure.
    const task = documents?.task;
    const ir = documents?.ir;
    return isJsonObject(payload) &&
      task !== undefined &&
      ir !== undefined &&
      task(payload.task, "", null) &&
      !ir(payload.ir, "", null)
      ? "webIrValidation"
      : "taskCompilation";
  }
  if (operation.startsWith("task.")) return "taskValidation";
  return undefined;
}

/**
 * Checks a payload before it is sent. Returns the error to answer with instead of sending it, or
 * `undefined` when it may go. Browser-free operations fail the way the daemon fails them
 * (`task.invalid` / `webIr.invalid` carrying `{kind, path, reason}` of the first issue; the
 * message is the daemon's, or, for a structural issue the daemon would not explain, names the
 * path: `limits: is required`); other
 * operations fail with `payload.invalid` listing every issue. A `null` given for an optional field is
 * refused like any other wrong type, with a hint to leave the field out: the daemon refuses null
 * for optional strings (opaquely) and takes it as absent only for optional integers, so the one
 * safe way to say "absent" is to omit the field.
 */
export function preflightPayload(
  operation: string,
  payload: unknown,
  validators: OperationValidators | undefined,
): GlassErrorObject | undefined {
  const checked = runValidator(validators?.payload ?? anyJson, payload);
  if (checked.ok) return undefined;
  const kind = failureKind(operation, payload, validators?.documents);
  const [first] = checked.issues;
  if (kind !== undefined && first !== undefined) {
    const lifted = liftToolError(JSON.stringify({ kind, path: first.path, reason: first.reason }), {
      tool: toolFor(operation),
      mutating: false,
    });
    // A semantic rule's failure reads exactly as the daemon's. A structural one (which the daemon
    // reports without a reason) says where in its message too: "limits: is required", not "is required".
    if (!isStructuralIssue(first)) return lifted;
    const where = describeIssues([first], kind === "webIrValidation" ? "ir" : "task");
    return {
      ...lifted,
      message: truncateUtf8(kind === "webIrValidation" ? `${lifted.message}: ${where}` : where, 512),
    };
  }
  const hint = checked.issues.some((issue) => issue.reason.endsWith("(got null)"))
    ? "; leave an absent optional field out rather than sending null"
    : "";
  const summary = describeIssues(checked.issues.slice(0, 3), "payload");
  return {
    code: "payload.invalid",
    message: truncateUtf8(
      `the payload does not match ${operation}: ${summary}${checked.issues.length > 3 ? ` (and ${checked.issues.length - 3} more)` : ""}${hint}`,
      512,
    ),
    phase: "preflight",
    mutationPossible: false,
    retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
    details: { kind: "payloadValidation", issues: checked.issues.slice(0, 50) },
  };
}
