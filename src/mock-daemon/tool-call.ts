import { leaseExemptTools } from "../../generated/operations.js";
import type { GlassCapabilityManifest } from "../../generated/types/glass-capabilities-v1.js";
import { operationValidators } from "../../generated/validators/by-operation.js";
import { preflightPayload } from "../client/preflight.js";
import type { GlassResponse } from "../envelope/envelope-types.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { validatePayload } from "../envelope/validate.js";
import { describeOperation } from "../operations/catalog.js";
import { isStructuralIssue } from "../validation/issue.js";
import { responseEnvelope } from "../envelope/create-request.js";
import type { ToolCall } from "./read-tool-call.js";
import { answerWith, browserToolFailed, handlerFor, runHandler, type ToolAnswer } from "./handler-call.js";
import type { MockCallContext, MockHandlers } from "./handlers.js";
import { UNMATCHED_CODE, withoutHandler } from "./unmatched-response.js";
import type { ReplayEngine } from "./replay-engine.js";
import { capabilityStatus, isEnabledStatus } from "./manifest.js";

/** The values `responseMode` may take when it is a string (§7). */
const RESPONSE_MODES: ReadonlySet<string> = new Set(["minimal", "normal", "diagnostic"]);

/** The arguments of an intent request (resolveIntent, findTarget, executeIntent). */
const INTENT_KEYS = [
  "schemaVersion",
  "intent",
  "action",
  "scope",
  "constraints",
  "resolutionPolicy",
  "expectedRevision",
];

/** The knowledge lookup options resolveIntentWithKnowledge takes besides an intent request. */
const KNOWLEDGE_LOOKUP_KEYS = ["profileScope", "profileKey", "locale", "tenantKey", "browserFamily", "browserVersion"];

/** Keys that are never part of a strict tool's arguments. */
const LEASE_AND_META_KEYS = ["leaseToken", "sessionId", "mutationLease", "_meta"];

/**
 * The tools that decode their arguments strictly (§4): after `removed` keys are taken out, a key
 * outside `allowed` (or, where the daemon's full list is not known, one of `forbidden`) fails the
 * call with `browser tool failed`.
 */
const STRICT_TOOLS: ReadonlyMap<
  string,
  { removed?: readonly string[]; allowed?: readonly string[]; forbidden?: readonly string[] }
> = new Map([
  ["preflightNavigation", { allowed: ["url"] }],
  ["resolveIntent", { allowed: INTENT_KEYS }],
  ["executeIntent", { removed: ["candidateId", "value", "leaseToken"], allowed: INTENT_KEYS }],
  [
    "actAndVerify",
    { removed: ["responseMode", "leaseToken", "timeoutMs", "predicate"], forbidden: LEASE_AND_META_KEYS },
  ],
  ["findTarget", { forbidden: LEASE_AND_META_KEYS }],
  ["resolveIntentWithKnowledge", { removed: KNOWLEDGE_LOOKUP_KEYS, allowed: INTENT_KEYS }],
]);

const UNKNOWN_FIELD_REASON = /\(unknown field\)/;
const NUMBER_REASON = /^must be an? (?:integer|number)\b/;

/** What {@link answerToolCall} reads from the daemon. */
export interface ToolCallContext {
  readonly manifest: GlassCapabilityManifest;
  readonly engine: ReplayEngine;
  /** The handlers (see {@link MockHandlers}), if any. */
  readonly handlers?: MockHandlers | undefined;
  /** The handlers under the fixture (the simulated site), if any. */
  readonly fallbackHandlers?: MockHandlers | undefined;
}

/**
 * The answer to an accepted `tools/call`, deciding as the daemon does (§2, §4, §7). `browser tool
 * failed` (an `isError` result, the reason dropped) for a string `responseMode` other than
 * minimal, normal or diagnostic, an argument a strict tool does not take, a catalog payload the
 * daemon could not decode, and an unknown tool (one outside the catalog and the read-only list
 * that nothing answers); `capability.unavailable` for a tool whose capability the daemon switched
 * off; a browser-free document the daemon would refuse as `{kind, path, reason}`. Otherwise, the
 * operation's handler answers (a promise: handlers may be async; `handlerContext` makes what it
 * is given besides the payload); without one, the fixture's exact match (before the payload
 * checks, as the recording was), then the fallback handler (the simulated site), then
 * `mock.unmatched` — saying there is no handler for the operation when handlers are in use.
 */
export function answerToolCall(
  context: ToolCallContext,
  call: ToolCall,
  handlerContext: () => MockCallContext,
): ToolAnswer | Promise<ToolAnswer> {
  const { request } = call;
  const { responseMode } = call.arguments;
  if ((typeof responseMode === "string" && !RESPONSE_MODES.has(responseMode)) || breaksStrictDecoding(call))
    return browserToolFailed(call);
  const unavailable = capabilityFailure(context.manifest, call);
  if (unavailable !== undefined) return answerWith(unavailable, call);
  const handler = handlerFor(context.handlers, request.operation);
  if (handler === undefined && context.engine.has(request.operation, request.payload))
    return answerWith(context.engine.answer(request), call);
  const refusal = payloadRefusal(call);
  if (refusal === "untyped") return browserToolFailed(call);
  if (refusal !== undefined) return answerWith(refusal, call);
  const answering = handler ?? handlerFor(context.fallbackHandlers, request.operation);
  if (answering !== undefined) return runHandler(answering, call, handlerContext());
  const response = context.engine.answer(request);
  if (response.ok || response.error.code !== UNMATCHED_CODE) return answerWith(response, call);
  if (!knownTool(call)) return browserToolFailed(call);
  const handlersInUse = context.handlers !== undefined || context.fallbackHandlers !== undefined;
  return answerWith(handlersInUse ? withoutHandler(response) : response, call);
}

/** Whether a strict tool (§4) was sent an argument it does not take. */
function breaksStrictDecoding(call: ToolCall): boolean {
  const rules = STRICT_TOOLS.get(call.tool);
  if (rules === undefined) return false;
  for (const key of Object.keys(call.arguments)) {
    if (rules.removed?.includes(key) === true) continue;
    if (rules.allowed !== undefined && !rules.allowed.includes(key)) return true;
    if (rules.forbidden?.includes(key) === true) return true;
  }
  return false;
}

/**
 * How the daemon refuses a catalog payload it cannot take: `"untyped"` (`browser tool failed`) for
 * a browser tool's bad arguments — unknown ones aside, which its parsers skip, and null for an
 * optional number, which counts as absent (§7; a null string is refused) — and for a structural
 * fault in a browser-free tool's documents (unknown field, bad enum value, missing member, wrong
 * type); the typed `task.invalid`/`webIr.invalid` response for a document that decodes but breaks a
 * rule, except in task.execute, which answers that too with `browser tool failed`. `undefined` when the payload is fine, or the operation is outside the catalog.
 */
function payloadRefusal(call: ToolCall): GlassResponse | "untyped" | undefined {
  const { operation, payload } = call.request;
  const known = describeOperation(operation);
  if (known === undefined) return undefined;
  const checked = validatePayload(operation, payload);
  if (checked.ok) return undefined;
  if (known.namespace === "browser") {
    const args = payload as Record<string, unknown>;
    const skipped = (issue: { path: string; reason: string }): boolean =>
      UNKNOWN_FIELD_REASON.test(issue.reason) ||
      (Object.hasOwn(args, issue.path) && args[issue.path] === null && NUMBER_REASON.test(issue.reason));
    return checked.issues.every(skipped) ? undefined : "untyped";
  }
  // executeTask validates its task only to run it: a rule it breaks is an untyped failure too.
  if (checked.issues.some(isStructuralIssue) || operation === "task.execute") return "untyped";
  const error = preflightPayload(operation, payload, operationValidators(operation));
  return error === undefined ? undefined : responseEnvelope(call.request, false, error);
}

/** Whether the daemon knows the tool: a catalog tool, or a read-only tool of §4. */
function knownTool(call: ToolCall): boolean {
  return describeOperation(call.request.operation) !== undefined || leaseExemptTools.has(call.tool);
}

/** The failure of a catalog tool whose capability is not usable on a daemon with this manifest, if it is not. */
export function capabilityFailure(manifest: GlassCapabilityManifest, call: ToolCall): GlassResponse | undefined {
  const capability = describeOperation(call.request.operation)?.capability;
  if (capability === undefined) return undefined;
  const status = capabilityStatus(manifest, capability);
  if (status !== undefined && isEnabledStatus(status)) return undefined;
  return {
    protocolVersion: 1,
    requestId: call.request.requestId,
    ok: false,
    error: {
      code: GlassErrorCode.CapabilityUnavailable,
      message: `${call.tool} needs capability ${capability}, which is ${status ?? "not offered"} on this daemon`,
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "inspect_capabilities" },
    },
  };
}
