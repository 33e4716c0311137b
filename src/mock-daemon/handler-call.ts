import type { OperationName } from "../../generated/operation-map.js";
import type { GlassErrorObject, GlassResponse } from "../envelope/envelope-types.js";
import { responseEnvelope } from "../envelope/create-request.js";
import { validateResult } from "../envelope/validate.js";
import { LeaseErrorCode } from "../errors/error-codes.js";
import { JsonRpcErrorCode } from "../mcp/json-rpc.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { describeOperation } from "../operations/catalog.js";
import type { ValidationIssue } from "../validation/issue.js";
import { checkJson, isJsonObject } from "../validation/json-value.js";
import { isMockError, type MockCallContext, type MockError, type MockHandler, type MockHandlers } from "./handlers.js";
import { rpcError } from "./json-rpc-replies.js";
import type { ToolCall } from "./read-tool-call.js";
import { BROWSER_TOOL_FAILED, toMcpToolResult, toolFailure } from "./to-mcp-tool-result.js";
import type { McpToolResult } from "../mcp/json-rpc.js";
import type { RecordedOutcome } from "./daemon-record.js";
import type { RpcError } from "./json-rpc-replies.js";

/**
 * How the mock daemon answers a `tools/call`: a tool result (with the outcome recorded for it), or
 * a JSON-RPC error.
 */
export type ToolAnswer =
  | { readonly result: McpToolResult; readonly outcome: RecordedOutcome }
  | { readonly error: RpcError };

/** The code of a call whose handler returned a result that breaks the operation's result schema. */
export const INVALID_RESULT_CODE = "mock.invalidResult";

/** The code of a call whose handler threw something other than a {@link MockError}. */
export const HANDLER_FAILED_CODE = "mock.handlerFailed";

/** The code a handler gives {@link mockError} for the daemon's opaque `browser tool failed`. */
const TOOL_FAILED_CODE = "tool.failed";

/** Lease codes after which a new lease can be acquired (§2); the others are not retryable. */
const RETRYABLE_LEASE_CODES: ReadonlySet<string> = new Set([
  LeaseErrorCode.LeaseHeld,
  LeaseErrorCode.LeaseExpired,
  LeaseErrorCode.LeaseNotFound,
]);
const LEASE_CODES: ReadonlySet<string> = new Set(Object.values(LeaseErrorCode));

/** The policy refusals of the daemon's browser tools, sent as `{kind, message}` (§2). */
const POLICY_KINDS: ReadonlySet<string> = new Set(["denied", "confirmation_required", "invalid_configuration"]);

/** How many issues of an invalid result `details` lists. */
const MAX_LISTED_ISSUES = 20;

/**
 * Checks what was given as handlers (they may come from plain JavaScript or a module loaded at run
 * time): an object whose keys are catalog operations and whose values are functions. Throws a
 * TypeError naming the first bad entry.
 */
export function checkHandlers(handlers: unknown): MockHandlers {
  if (!isJsonObject(handlers)) {
    throw new TypeError(
      `handlers must be an object of functions by operation name (e.g. { "browser.observe": (payload) => … }), not ${describe(handlers)}`,
    );
  }
  for (const [operation, handler] of Object.entries(handlers)) {
    if (describeOperation(operation) === undefined) {
      throw new TypeError(
        `handlers: ${JSON.stringify(operation)} is not an operation of the catalog (handlers are keyed by operation name, e.g. "browser.observe")`,
      );
    }
    if (typeof handler !== "function")
      throw new TypeError(`handlers: the handler for ${operation} must be a function, not ${describe(handler)}`);
  }
  return handlers as MockHandlers;
}

/** The handler of `operation`, if there is one. */
export function handlerFor(
  handlers: MockHandlers | undefined,
  operation: string,
): MockHandler<OperationName> | undefined {
  if (handlers === undefined || !Object.hasOwn(handlers, operation)) return undefined;
  return handlers[operation as OperationName] as MockHandler<OperationName> | undefined;
}

/**
 * Runs a handler on an accepted call and answers as the daemon would: its result (checked against
 * the operation's result schema: one that breaks it is refused as `mock.invalidResult`, naming
 * the operation and the path), the failure a {@link MockError} stands for, or `mock.handlerFailed`
 * when it throws anything else. The handler gets its own copy of the payload.
 */
export async function runHandler(
  handler: MockHandler<OperationName>,
  call: ToolCall,
  context: MockCallContext,
): Promise<ToolAnswer> {
  const { operation } = context;
  let result: unknown;
  try {
    result = await handler(structuredClone(call.request.payload) as never, context);
  } catch (error) {
    if (isMockErrorSafely(error)) return mockErrorAnswer(error, call);
    return glassFailure(
      call,
      failure(HANDLER_FAILED_CODE, `handler for ${operation} threw: ${describeThrown(error)}`, { operation }),
    );
  }
  const checked = validateResult(operation, result);
  const found: ValidationIssue[] = checked.ok ? [] : checked.issues;
  // Open objects of a result schema take any extra field: it must still be JSON to go on the wire.
  if (checked.ok) checkJson(result, "", found);
  if (found.length > 0) {
    const [first] = found;
    const issues = found
      .slice(0, MAX_LISTED_ISSUES)
      .map((issue) => ({ path: jsonPointer(issue.path), reason: issue.reason }));
    const where = first === undefined ? "" : ` at ${jsonPointer(first.path)}: ${first.reason}`;
    const more = found.length > 1 ? ` (and ${found.length - 1} more)` : "";
    return glassFailure(
      call,
      failure(INVALID_RESULT_CODE, `handler for ${operation} returned an invalid result${where}${more}`, {
        operation,
        issues,
      }),
    );
  }
  return answerWith(responseEnvelope(call.request, true, structuredClone(result)), call);
}

/** {@link isMockError}, false for a value whose inspection throws (a proxy, say). */
function isMockErrorSafely(value: unknown): value is MockError {
  try {
    return isMockError(value);
  } catch {
    return false;
  }
}

/**
 * What a handler threw, in words, never throwing itself: an Error's message (an empty one, or one
 * whose `message` cannot be read, by its name), a primitive as `String` gives it, an object by its
 * `toString` when it has one that answers with a string, else by its kind (a null-prototype object,
 * an object whose `toString` throws, a revoked proxy).
 */
export function describeThrown(value: unknown): string {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return String(value);
  const isError = attempt(() => value instanceof Error) === true;
  if (isError) {
    const message = attempt(() => (value as Error).message);
    if (typeof message === "string" && message !== "") return message;
    const name = attempt(() => (value as Error).name);
    const called = typeof name === "string" && name !== "" ? name : "Error";
    return typeof message === "string" ? `${called} with an empty message` : `${called} whose message cannot be read`;
  }
  const text = attempt(() => String(value));
  if (typeof text === "string") return text;
  return typeof value === "function"
    ? "a function that cannot be turned into text"
    : "an object that cannot be turned into text (no working toString)";
}

/** What `read` returns, or `undefined` when it throws. */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The answer a thrown {@link MockError} stands for (see its documentation). */
export function mockErrorAnswer(error: MockError, call: ToolCall): ToolAnswer {
  const { code, message, init } = error;
  if (init.daemonText !== undefined) {
    const recorded: GlassErrorObject = {
      code,
      message: truncateUtf8(message, 512),
      phase: init.phase ?? "preflight",
      mutationPossible: init.mutationPossible ?? false,
    };
    if (init.details !== undefined) recorded.details = structuredClone(init.details);
    return { result: toolFailure(init.daemonText, code, call.includeTrace), outcome: { ok: false, error: recorded } };
  }
  if (LEASE_CODES.has(code)) {
    return rpcAnswer(JsonRpcErrorCode.LeaseError, message, {
      code,
      retryable: init.retryable ?? RETRYABLE_LEASE_CODES.has(code),
    });
  }
  if (code === "leaseRequired") return rpcAnswer(JsonRpcErrorCode.LeaseError, message, null);
  if (code === TOOL_FAILED_CODE) return browserToolFailed(call);
  const kind = code.startsWith("policy.") ? code.slice("policy.".length) : undefined;
  if (kind !== undefined && POLICY_KINDS.has(kind)) {
    const refusal = {
      kind,
      message: truncateUtf8(message, 512),
      ...(init.details === undefined ? {} : { details: init.details }),
    };
    return {
      result: toolFailure(JSON.stringify(refusal), code, call.includeTrace),
      outcome: {
        ok: false,
        error: { code, message: refusal.message, phase: "preflight", mutationPossible: false, details: refusal },
      },
    };
  }
  if (code === "staleRevision") {
    const revisions = staleRevisions(message, init.details);
    if (
      revisions !== undefined &&
      init.phase === undefined &&
      init.mutationPossible === undefined &&
      init.retry === undefined &&
      init.retryable === undefined
    ) {
      return staleRevisionAnswer(revisions, call);
    }
  }
  const object: GlassErrorObject = { code, message: truncateUtf8(message, 512) };
  if (code === "staleRevision") {
    // The daemon's stale revision error is {code, message, retryable: true} (§1).
    object.retryable = init.retryable ?? true;
    if (init.phase !== undefined) object.phase = init.phase;
    if (init.mutationPossible !== undefined) object.mutationPossible = init.mutationPossible;
    if (init.retry !== undefined) object.retry = { ...init.retry };
  } else {
    object.phase = init.phase ?? "preflight";
    object.mutationPossible = init.mutationPossible ?? false;
    object.retry = {
      ...(init.retry ?? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }),
    };
    if (init.retryable !== undefined) object.retryable = init.retryable;
  }
  if (init.details !== undefined) object.details = structuredClone(init.details);
  return glassFailure(call, object);
}

/** The revisions a stale-revision failure names: from its details, else from the message the simulated site writes. */
function staleRevisions(
  message: string,
  details: unknown,
): { expectedRevision: number; currentRevision: number } | undefined {
  if (
    isJsonObject(details) &&
    Number.isSafeInteger(details.expectedRevision) &&
    Number.isSafeInteger(details.currentRevision)
  ) {
    return { expectedRevision: details.expectedRevision as number, currentRevision: details.currentRevision as number };
  }
  const said = /expected revision (\d+) but the page is at revision (\d+)/.exec(message);
  return said === null ? undefined : { expectedRevision: Number(said[1]), currentRevision: Number(said[2]) };
}

/**
 * The daemon's revision guard refusing a mutation (glass-browser 0.3.14): the `isError` text
 * `{kind: "stale_revision", phase: "preflight", recoveryStrategy: "report", expectedRevision,
 * currentRevision, recovery: "observe"}`, with no code or message; recorded as `staleRevision`.
 */
function staleRevisionAnswer(
  revisions: { expectedRevision: number; currentRevision: number },
  call: ToolCall,
): ToolAnswer {
  const refusal = {
    kind: "stale_revision",
    phase: "preflight",
    recoveryStrategy: "report",
    ...revisions,
    recovery: "observe",
  };
  const message = `expected revision ${revisions.expectedRevision} but the page is at revision ${revisions.currentRevision}; observe again before acting`;
  return {
    result: toolFailure(JSON.stringify(refusal), "staleRevision", call.includeTrace),
    outcome: {
      ok: false,
      error: {
        code: "staleRevision",
        message,
        phase: "preflight",
        mutationPossible: false,
        retryable: true,
        details: refusal,
      },
    },
  };
}

/** The daemon's opaque tool failure, `browser tool failed` (§2), recorded as `tool.failed`. */
export function browserToolFailed(call: ToolCall): ToolAnswer {
  return {
    result: toolFailure(BROWSER_TOOL_FAILED, "browserToolFailed", call.includeTrace),
    outcome: {
      ok: false,
      error: { code: TOOL_FAILED_CODE, message: BROWSER_TOOL_FAILED, phase: "preflight", mutationPossible: false },
    },
  };
}

/** The tool result carrying a Glass response (§2), and the outcome recorded for it. */
export function answerWith(response: GlassResponse, call: ToolCall): ToolAnswer {
  return {
    result: toMcpToolResult(response, { operation: call.request.operation, includeTrace: call.includeTrace }),
    outcome: response.ok ? { ok: true, result: response.result } : { ok: false, error: response.error },
  };
}

function glassFailure(call: ToolCall, error: GlassErrorObject): ToolAnswer {
  return answerWith(responseEnvelope(call.request, false, error), call);
}

function rpcAnswer(code: number, message: string, details: unknown): ToolAnswer {
  return { error: rpcError(code, message, details) };
}

/** A failure of the mock itself (a handler's bug): nothing happened, and sending it again will not help. */
function failure(
  code: string,
  message: string,
  details: { operation: string; issues?: ValidationIssue[] },
): GlassErrorObject {
  return {
    code,
    message: truncateUtf8(message, 512),
    phase: "preflight",
    mutationPossible: false,
    retry: { classification: "notRetryable", recommendedOperation: "fix_handler" },
    details: details as GlassErrorObject["details"],
  };
}

/**
 * An issue path (`entities[3].id`, `inputs["first name"]`, `""` for the value itself) as a JSON
 * pointer (`/entities/3/id`, `/inputs/first name`, `/`).
 */
export function jsonPointer(path: string): string {
  const parts: string[] = [];
  const token = /([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\./gy;
  let match: RegExpExecArray | null = token.exec(path);
  let end = 0;
  while (match !== null) {
    end = token.lastIndex;
    const [, name, index, quoted] = match;
    const part = name ?? index ?? (quoted === undefined ? undefined : (JSON.parse(quoted) as string));
    if (part !== undefined) parts.push(part.replaceAll("~", "~0").replaceAll("/", "~1"));
    match = token.exec(path);
  }
  if (end !== path.length) return path; // not a path this module writes: shown as it is
  return `/${parts.join("/")}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "function" ? "a function" : typeof value;
}
