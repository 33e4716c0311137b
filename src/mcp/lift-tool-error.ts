import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { DEFAULT_RETRY_ADVICE } from "../errors/glass-error.js";
import { isJsonObject } from "../validation/json-value.js";
import { utf8Length } from "../validation/byte-length.js";
import { pathPastDepth, TOO_DEEP_REASON } from "../validation/json-depth.js";
import { responseInvalid } from "./answer-check.js";
import { boundedDetails, MAX_DETAILS_BYTES } from "./bounded-details.js";
import { truncateUtf8 } from "./utf8-truncate.js";

/**
 * The whole text of a tool failure the daemon reports without its reason (§2): missing, ill-typed
 * or unknown arguments, an unknown tool, a bad `responseMode`, a structural decode error.
 */
export const OPAQUE_TOOL_FAILURE = "browser tool failed";

/** The call a tool failure answers: which tool, and whether it may change the page. */
export interface FailedCall {
  /** The MCP tool name, e.g. `click`. */
  tool: string;
  /** Whether the operation mutates (needs a lease): then the action may have happened. */
  mutating: boolean;
}

const POLICY_KINDS = new Set(["denied", "confirmation_required", "invalid_configuration"]);
const DOCUMENT_KINDS = new Set(["taskValidation", "taskCompilation", "webIrValidation"]);

/**
 * Lifts the text of an MCP tool failure (`isError: true`, §2) to a Glass error object:
 *
 * - browser-free validation failures `{kind: taskValidation | taskCompilation, path, reason}` →
 *   `task.invalid`, and `{kind: webIrValidation, ...}` → `webIr.invalid`, in the canonical shape
 *   (phase preflight, nothing mutated, retry after re-observing, the failure as `details`);
 * - a policy refusal (`{kind: denied | confirmation_required | invalid_configuration}`) →
 *   `policy.<kind>`, nothing mutated;
 * - another typed browser error carrying a `kind`, `code` and `message` (target, wait,
 *   verification, `{kind: "transport", code, message, data}`, ...) → its code and message, the
 *   whole object as `details`;
 * - a typed Glass error (`{code, message, ...}`) as it is;
 * - the literal `browser tool failed` → `tool.failed`, opaque and not retryable: the daemon dropped
 *   the reason, so the message names the tool and says what to check;
 * - any other JSON or plain text → `tool.failed` with the text as message.
 *
 * Without a typed error the client cannot tell whether the action ran, so `mutationPossible` is
 * true for a mutating call. Further content items (a failure trace with `includeTrace`) are kept in
 * `details.extraContent`. A failure whose JSON nests past the SDK's depth bound cannot be read: it
 * becomes `response.invalid`. Never throws.
 */
export function liftToolError(text: string, call: FailedCall, extraContent: readonly unknown[] = []): GlassErrorObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const deep = pathPastDepth(parsed, "error text") ?? pathPastDepth(extraContent, "error extraContent");
  if (deep !== undefined) return responseInvalid(`the ${call.tool} tool`, [{ path: deep, reason: TOO_DEEP_REASON }], call.mutating);
  if (isJsonObject(parsed)) {
    const typed = liftTypedFailure(parsed, call, extraContent);
    if (typed !== undefined) return typed;
  }
  if (text.trim() === OPAQUE_TOOL_FAILURE) return opaqueFailure(call, extraContent);
  const said = isJsonObject(parsed) && typeof parsed.message === "string" ? parsed.message : text;
  return {
    code: "tool.failed",
    phase: call.mutating ? "dispatch" : "preflight",
    message: truncateUtf8(said.trim() || "the tool failed without saying why", 512),
    mutationPossible: call.mutating,
    retry: call.mutating ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" } : { ...DEFAULT_RETRY_ADVICE },
    details: withExtra(parsed !== undefined ? parsed : { text: truncateUtf8(text, 8192) }, extraContent),
  };
}

/** The typed failures of §2 (document validation, policy, browser error kinds, Glass error objects), or undefined. */
function liftTypedFailure(parsed: Record<string, unknown>, call: FailedCall, extraContent: readonly unknown[]): GlassErrorObject | undefined {
  const { kind, code, message, reason } = parsed;
  if (typeof kind === "string" && DOCUMENT_KINDS.has(kind) && typeof reason === "string") {
    const task = kind !== "webIrValidation";
    return {
      code: task ? "task.invalid" : "webIr.invalid",
      phase: "preflight",
      message: truncateUtf8(task ? reason || "task validation failed" : "Web IR validation failed", 512),
      mutationPossible: false,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  if (typeof kind === "string" && POLICY_KINDS.has(kind)) {
    const words = typeof message === "string" && message !== "" ? message : typeof reason === "string" && reason !== "" ? reason : `refused by policy (${kind})`;
    return {
      code: `policy.${kind}`,
      phase: "preflight",
      message: truncateUtf8(words, 512),
      mutationPossible: false,
      retry: { classification: kind === "confirmation_required" ? "requiresUserDecision" : "notRetryable", recommendedOperation: "inspect_page" },
      details: withExtra(parsed, extraContent),
    };
  }
  if (typeof code !== "string" || code === "" || typeof message !== "string" || message === "") return undefined;
  if (typeof kind === "string" && parsed.phase === undefined && parsed.mutationPossible === undefined) {
    // A browser error type (target, wait, verification, transport, ...): its own code and message,
    // the whole object as details. It does not say whether the action ran, so for a mutating call
    // it may have.
    return {
      code: truncateUtf8(code, 64),
      phase: call.mutating ? "dispatch" : "preflight",
      message: truncateUtf8(message, 512),
      mutationPossible: call.mutating,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  const error = { ...parsed, code: truncateUtf8(code, 64), message: truncateUtf8(message, 512) } as unknown as GlassErrorObject;
  if (extraContent.length > 0) error.details = withExtra(parsed.details ?? {}, extraContent);
  return error;
}

/** `browser tool failed`: the daemon dropped the reason; say which tool, and what to check. */
function opaqueFailure(call: FailedCall, extraContent: readonly unknown[]): GlassErrorObject {
  const { tool, mutating } = call;
  const message =
    `the daemon's ${tool} tool failed without saying why ("${OPAQUE_TOOL_FAILURE}"), which is how it reports missing, ill-typed or unknown arguments, ` +
    `an unknown tool name and a bad responseMode: check the arguments against the tool's inputSchema (glass.listTools()) and do not send them again unchanged` +
    (mutating ? "; the action may have happened — observe the page before deciding" : "");
  return {
    code: "tool.failed",
    phase: mutating ? "dispatch" : "preflight",
    message: truncateUtf8(message, 512),
    mutationPossible: mutating,
    retry: { classification: "notRetryable", recommendedOperation: mutating ? "inspect_page" : "fix_request" },
    details: withExtra({ kind: "opaqueToolFailure", tool, text: OPAQUE_TOOL_FAILURE }, extraContent),
  };
}

/** Details with the failure's further content items (its trace) under `extraContent`, within the 16 KiB limit. */
function withExtra(details: unknown, extraContent: readonly unknown[]): unknown {
  if (extraContent.length === 0) return boundedDetails(details);
  const base = isJsonObject(details) ? details : { failure: details };
  const room = MAX_DETAILS_BYTES - utf8Length(JSON.stringify(base)) - 32;
  return boundedDetails({ ...base, extraContent: boundedDetails(extraContent, Math.max(0, room)) });
}
