import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { DEFAULT_RETRY_ADVICE } from "../errors/glass-error.js";
import { isJsonObject } from "../validation/json-value.js";
import { truncateUtf8 } from "./utf8-truncate.js";

const POLICY_KINDS = new Set(["denied", "confirmation_required", "invalid_configuration"]);

/**
 * Lifts the text of an MCP tool failure (`isError: true`, §2) to a Glass error object:
 *
 * - browser-free validation failures `{kind: taskValidation | taskCompilation, path, reason}` →
 *   `task.invalid`, and `{kind: webIrValidation, ...}` → `webIr.invalid`, in the canonical shape
 *   (phase preflight, nothing mutated, retry after re-observing, the failure as `details`);
 * - a typed Glass error (`{code, message, ...}`) as it is;
 * - a policy refusal (`{kind: denied | confirmation_required | invalid_configuration}`) →
 *   `policy.<kind>`, nothing mutated;
 * - any other JSON or plain text → `tool.failed` with the text as message and details. Whether the
 *   action took effect is then unknown, so `mutationPossible` is true for a mutating operation.
 */
export function liftToolError(text: string, mutating: boolean): GlassErrorObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isJsonObject(parsed)) {
    const { kind, code, message, reason } = parsed;
    if ((kind === "taskValidation" || kind === "taskCompilation" || kind === "webIrValidation") && typeof reason === "string") {
      const task = kind !== "webIrValidation";
      return {
        code: task ? "task.invalid" : "webIr.invalid",
        phase: "preflight",
        message: truncateUtf8(task ? reason || "task validation failed" : "Web IR validation failed", 512),
        mutationPossible: false,
        retry: { ...DEFAULT_RETRY_ADVICE },
        details: parsed,
      };
    }
    if (typeof code === "string" && code !== "" && typeof message === "string" && message !== "") return parsed as unknown as GlassErrorObject;
    if (typeof kind === "string" && POLICY_KINDS.has(kind)) {
      const words = typeof message === "string" && message !== "" ? message : typeof reason === "string" && reason !== "" ? reason : `refused by policy (${kind})`;
      return {
        code: `policy.${kind}`,
        phase: "preflight",
        message: truncateUtf8(words, 512),
        mutationPossible: false,
        retry: { classification: kind === "confirmation_required" ? "requiresUserDecision" : "notRetryable", recommendedOperation: "inspect_page" },
        details: parsed,
      };
    }
  }
  const words = typeof parsed === "object" && parsed !== null && typeof (parsed as { message?: unknown }).message === "string" ? (parsed as { message: string }).message : text;
  return {
    code: "tool.failed",
    phase: mutating ? "dispatch" : "preflight",
    message: truncateUtf8(words.trim() || "the tool failed without saying why", 512),
    mutationPossible: mutating,
    retry: mutating ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" } : { ...DEFAULT_RETRY_ADVICE },
    details: parsed !== undefined ? parsed : { text: truncateUtf8(text, 8192) },
  };
}
