import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { DEFAULT_RETRY_ADVICE } from "../errors/glass-error.js";
import { isJsonObject } from "../validation/json-value.js";
import { utf8Length } from "../validation/byte-length.js";
import { pathPastDepth, TOO_DEEP_REASON } from "../validation/json-depth.js";
import { responseInvalid } from "./answer-check.js";
import { boundedDetails, MAX_DETAILS_BYTES } from "./bounded-details.js";
import { truncateUtf8 } from "./utf8-truncate.js";
import { boundedDaemonMessage } from "./daemon-message.js";

/**
 * The whole text of a tool failure the daemon reports without its reason (§2): missing, ill-typed
 * or unknown arguments, an unknown tool, a bad `responseMode`, a structural decode error, and any
 * failure of its own that has no typed form (an observation past its time budget).
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
 * - another typed browser error carrying a `kind`, a string `code` and a `message`
 *   (`{kind: "transport", code: "cdp.disconnected", message, data}`, ...) → its code and message,
 *   the whole object as `details`;
 * - the daemon's own browser errors without a code (the revision guard `{kind: "stale_revision"}`,
 *   targeting `{kind: not_found | ambiguous | stale_reference | not_actionable}`, a wait timeout, a
 *   failed verification, a DevTools transport failure) → `staleRevision`, `target.*`,
 *   `wait.timeout`, `verification.failed`, `browser.transport`;
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
  if (deep !== undefined)
    return responseInvalid(`the ${call.tool} tool`, [{ path: deep, reason: TOO_DEEP_REASON }], call.mutating);
  if (isJsonObject(parsed)) {
    const typed = liftTypedFailure(parsed, call, extraContent);
    if (typed !== undefined) return typed;
  }
  if (text.trim() === OPAQUE_TOOL_FAILURE) return opaqueFailure(call, extraContent);
  const said = isJsonObject(parsed) && typeof parsed.message === "string" ? parsed.message : text;
  const hint = DIALOG_NOT_NEGOTIATED.test(said) ? `: ${DIALOG_HINT}` : "";
  return {
    code: "tool.failed",
    phase: call.mutating ? "dispatch" : "preflight",
    message: boundedDaemonMessage((said.trim() || "the tool failed without saying why") + hint),
    mutationPossible: call.mutating,
    retry: call.mutating
      ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }
      : { ...DEFAULT_RETRY_ADVICE },
    details: withExtra(parsed !== undefined ? parsed : { text: truncateUtf8(text, 8192) }, extraContent),
  };
}

/** The daemon's failure of a call whose page opened a dialog the client was not asked about (no form elicitation negotiated). */
const DIALOG_NOT_NEGOTIATED = /did not negotiate form elicitation/;

/** What to do about it. */
const DIALOG_HINT = "give Glass.connect an onDialog handler to answer the page's dialogs (see docs/calls.md, Dialogs)";

/** The typed failures of §2 (document validation, policy, browser error kinds, Glass error objects), or undefined. */
function liftTypedFailure(
  parsed: Record<string, unknown>,
  call: FailedCall,
  extraContent: readonly unknown[],
): GlassErrorObject | undefined {
  const { kind, code, message, reason } = parsed;
  if (typeof kind === "string" && DOCUMENT_KINDS.has(kind) && typeof reason === "string") {
    const task = kind !== "webIrValidation";
    return {
      code: task ? "task.invalid" : "webIr.invalid",
      phase: "preflight",
      message: boundedDaemonMessage(task ? reason || "task validation failed" : "Web IR validation failed"),
      mutationPossible: false,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  if (typeof kind === "string" && POLICY_KINDS.has(kind)) {
    const words =
      typeof message === "string" && message !== ""
        ? message
        : typeof reason === "string" && reason !== ""
          ? reason
          : `refused by policy (${kind})`;
    return {
      code: `policy.${kind}`,
      phase: "preflight",
      message: boundedDaemonMessage(words),
      mutationPossible: false,
      retry: {
        classification: kind === "confirmation_required" ? "requiresUserDecision" : "notRetryable",
        recommendedOperation: "inspect_page",
      },
      details: withExtra(parsed, extraContent),
    };
  }
  const browser = liftBrowserFailure(parsed, call.mutating, extraContent);
  if (browser !== undefined) return browser;
  if (typeof code !== "string" || code === "" || typeof message !== "string" || message === "") return undefined;
  if (typeof kind === "string" && parsed.phase === undefined && parsed.mutationPossible === undefined) {
    // A browser error type (target, wait, verification, transport, ...): its own code and message,
    // the whole object as details. It does not say whether the action ran, so for a mutating call
    // it may have.
    return {
      code: truncateUtf8(code, 64),
      phase: call.mutating ? "dispatch" : "preflight",
      message: boundedDaemonMessage(message),
      mutationPossible: call.mutating,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  const error = {
    ...parsed,
    code: truncateUtf8(code, 64),
    message: boundedDaemonMessage(message),
  } as unknown as GlassErrorObject;
  if (extraContent.length > 0) error.details = withExtra(parsed.details ?? {}, extraContent);
  return error;
}

/** The targeting failures of the daemon's `TargetError` (`{kind, failureKind, ...}`) and their codes. */
const TARGET_KINDS: Readonly<Record<string, { code: string; words: string }>> = {
  not_found: { code: "target.notFound", words: "no element on the page matches the target" },
  ambiguous: { code: "target.ambiguous", words: "the target matches more than one element" },
  stale_reference: {
    code: "target.staleReference",
    words: "the reference belongs to an older observation of the page",
  },
  not_actionable: {
    code: "target.notActionable",
    words: "the target cannot be acted on (hidden, disabled or covered)",
  },
};

/**
 * The daemon's own browser error types, which carry a snake_case `kind` and no `code` or `message`
 * (glass-browser 0.3): the revision guard `{kind: "stale_revision", expectedRevision,
 * currentRevision, ...}` → `staleRevision`; a targeting error `{kind: not_found | ambiguous |
 * stale_reference | not_actionable, failureKind, ...}` → `target.*`; a wait timeout `{condition,
 * deadline_ms, last_state, reason}` → `wait.timeout`; a failed postcondition `{kind:
 * "verification_failed", phase: "verification", ...}` → `verification.failed`; a DevTools failure
 * `{kind: "transport", code: <number>, message, data}` → `browser.transport`. The revision guard,
 * targeting and waiting fail before any input reaches the page, so nothing happened; a failed
 * postcondition means the action ran, and a DevTools failure may have cut a mutation off midway.
 * The whole object is kept as `details`.
 */
function liftBrowserFailure(
  parsed: Record<string, unknown>,
  mutating: boolean,
  extraContent: readonly unknown[],
): GlassErrorObject | undefined {
  const { kind } = parsed;
  const nothingHappened = (code: string, message: string, extra: Partial<GlassErrorObject> = {}): GlassErrorObject => ({
    code,
    phase: "preflight",
    message: boundedDaemonMessage(message),
    mutationPossible: false,
    retry: { ...DEFAULT_RETRY_ADVICE },
    ...extra,
    details: withExtra(parsed, extraContent),
  });
  if (
    kind === "stale_revision" &&
    typeof parsed.expectedRevision === "number" &&
    typeof parsed.currentRevision === "number"
  ) {
    const message = `expected revision ${parsed.expectedRevision} but the page is at revision ${parsed.currentRevision}; observe again before acting`;
    return nothingHappened("staleRevision", message, { retryable: true });
  }
  if (typeof kind === "string" && Object.hasOwn(TARGET_KINDS, kind) && typeof parsed.failureKind === "string") {
    const { code, words } = TARGET_KINDS[kind] as { code: string; words: string };
    const recovery =
      isJsonObject(parsed.recovery) && typeof parsed.recovery.suggestion === "string"
        ? `; the daemon suggests ${parsed.recovery.suggestion}`
        : "";
    return nothingHappened(code, `${words}${recovery}`);
  }
  if (
    kind === undefined &&
    typeof parsed.condition === "string" &&
    typeof parsed.deadline_ms === "number" &&
    typeof parsed.reason === "string"
  ) {
    const state =
      typeof parsed.last_state === "string" && parsed.last_state !== "" ? ` (last state: ${parsed.last_state})` : "";
    return nothingHappened(
      "wait.timeout",
      `the ${parsed.condition} condition did not hold within ${parsed.deadline_ms} ms${state}`,
    );
  }
  if (
    kind === "transport" &&
    typeof parsed.code === "number" &&
    typeof parsed.message === "string" &&
    parsed.message !== ""
  ) {
    // The daemon lost or overflowed its DevTools connection ({kind: "transport", code: <CDP code>, message, data}).
    return {
      code: "browser.transport",
      phase: mutating ? "dispatch" : "preflight",
      message: boundedDaemonMessage(parsed.message),
      mutationPossible: mutating,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  if (kind === "verification_failed" && parsed.phase === "verification") {
    const reason =
      typeof parsed.reason === "string" && parsed.reason !== ""
        ? parsed.reason
        : "the action's postcondition did not hold";
    return {
      code: "verification.failed",
      phase: "verification",
      message: boundedDaemonMessage(`the action ran but its verification failed: ${reason}`),
      mutationPossible: true,
      retry: { ...DEFAULT_RETRY_ADVICE },
      details: withExtra(parsed, extraContent),
    };
  }
  return undefined;
}

/**
 * `browser tool failed`: the daemon dropped the reason; say which tool, and what to check — or,
 * when the call asked for a trace (`includeTrace`) and the daemon sent one (`{"error": reason}` as
 * a further text item), give its reason, also as `details.trace`.
 */
function opaqueFailure(call: FailedCall, extraContent: readonly unknown[]): GlassErrorObject {
  const { tool, mutating } = call;
  const trace = traceReason(extraContent);
  const mayHaveHappened = mutating ? "; the action may have happened — observe the page before deciding" : "";
  const message =
    trace === undefined
      ? `the daemon's ${tool} tool failed without saying why ("${OPAQUE_TOOL_FAILURE}"), which is how it reports missing, ill-typed or unknown arguments, ` +
        `an unknown tool name, a bad responseMode and its own untyped failures (an observation of a huge page past its time budget): ` +
        `check the arguments against the tool's inputSchema (glass.listTools()) and do not send them again unchanged${mayHaveHappened}`
      : `the daemon's ${tool} tool failed: ${trace}${mayHaveHappened}`;
  return {
    code: "tool.failed",
    phase: mutating ? "dispatch" : "preflight",
    message: boundedDaemonMessage(message),
    mutationPossible: mutating,
    retry: { classification: "notRetryable", recommendedOperation: mutating ? "inspect_page" : "fix_request" },
    details: withExtra(
      { kind: "opaqueToolFailure", tool, text: OPAQUE_TOOL_FAILURE, ...(trace === undefined ? {} : { trace }) },
      extraContent,
    ),
  };
}

/** The reason a failure trace gives: the first further text item that is `{"error": "<reason>"}`. */
function traceReason(extraContent: readonly unknown[]): string | undefined {
  for (const item of extraContent) {
    if (!isJsonObject(item) || item.type !== "text" || typeof item.text !== "string") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(item.text);
    } catch {
      continue;
    }
    if (isJsonObject(parsed) && typeof parsed.error === "string" && parsed.error.trim() !== "")
      return truncateUtf8(parsed.error, 256);
  }
  return undefined;
}

/** Details with the failure's further content items (its trace) under `extraContent`, within the 16 KiB limit. */
function withExtra(details: unknown, extraContent: readonly unknown[]): unknown {
  if (extraContent.length === 0) return boundedDetails(details);
  const base = isJsonObject(details) ? details : { failure: details };
  const room = MAX_DETAILS_BYTES - utf8Length(JSON.stringify(base)) - 32;
  return boundedDetails({ ...base, extraContent: boundedDetails(extraContent, Math.max(0, room)) });
}
