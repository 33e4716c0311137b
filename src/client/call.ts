import type { GlassErrorObject, GlassRequest, GlassResponse } from "../envelope/envelope-types.js";
import { responseEnvelope } from "../envelope/create-request.js";
import { issuesOf } from "../envelope/validate.js";
import { operationValidators } from "../../generated/validators/by-operation.js";
import { validateGlassErrorObject } from "../../generated/validators/core.js";
import { answerProblem, boundedIssues, responseInvalid } from "../mcp/answer-check.js";
import { fromMcpResponse } from "../mcp/from-mcp-response.js";
import { jsonRpcErrorToGlass } from "../mcp/json-rpc-error-to-glass.js";
import { READ_ONLY_METHODS, type JsonRpcRequest, type JsonRpcResponse } from "../mcp/json-rpc.js";
import { toMcpRequest } from "../mcp/to-mcp-request.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { describeOperation, isRetrySafe, requiresLease } from "../operations/catalog.js";
import { callOptionArguments, type ResponseModeOption, type TraceOption } from "../operations/response-mode.js";
import {
  CancelledError,
  DeadlineExceededError,
  requestInvalid,
  validatorsUnavailable,
} from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import { describeError } from "../errors/redact.js";
import { describeIssues } from "../validation/issue.js";
import type { GeneratedValidator } from "../validation/generated-support.js";
import type { OperationValidators, OperationValidatorsLookup } from "../validation/operation-validators.js";
import { checkJson, isJsonObject } from "../validation/json-value.js";
import { exchange, failedBeforeSending, type ExchangeContext } from "./exchange.js";
import type { Lease } from "./lease.js";
import type { CallOptions } from "./options.js";
import { preflightPayload } from "./preflight.js";
import type { CallOrder } from "./call-order.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import { retryAfterOf, retrying, type ResolvedRetryPolicy } from "./retry.js";

// One call through the session: a catalog operation, from request envelope to response envelope
// (callEnvelope), or an MCP method that is not a tool (rpcCall). Both go through the exchange and
// the one retry loop (./retry.ts).

/** What an MCP method call (not a tool) needs. */
export interface RpcContext extends ExchangeContext {
  retryPolicy: ResolvedRetryPolicy;
}

/**
 * An operation's validators: at once here and in the prebuilt browser file; a promise in the
 * browser build bundlers take (tsup.config.ts swaps generated/validators/by-operation for the
 * module that loads each operation's chunk on first use).
 */
const validatorsOf: OperationValidatorsLookup = operationValidators;

/** What the client lends one call. */
export interface CallSettings extends RpcContext {
  validatePayloads: boolean;
  validateResponses: boolean;
  /** The lease to attach to mutating calls, when the client holds one. */
  lease: Lease | undefined;
  /** The client's line of calls waiting for validators, which keeps its calls in the order they were made. */
  callOrder: CallOrder;
  /** Whether the session may use a capability (`undefined`: nobody said). */
  capabilityUsable(capability: string): boolean | undefined;
  /** The failure of a call to an operation whose tool the connected daemon does not list, if it does not. */
  unlistedTool?(operation: string): GlassError | undefined;
  /** Told when the daemon says the client's own lease is gone (expired, unknown): drop it. */
  onLeaseRefused?(error: GlassErrorObject, request: GlassRequest): void;
  /**
   * Scrubs a failure before the caller sees it: the secrets the client knows (and `secrets`, those
   * of this call) and credentials in URLs, anywhere in its message and details.
   */
  redact?(error: GlassErrorObject, secrets: readonly string[]): GlassErrorObject;
}

/** Lease errors that mean the lease the client holds is gone on the daemon (not merely misused). */
const DEAD_LEASE = new Set(["leaseExpired", "leaseNotFound"]);

/** The wire form of an error the client raises itself (the `error` of a response envelope). */
function wireError(error: GlassError): GlassErrorObject {
  return error.toJSON() as GlassErrorObject;
}

/** The payload with its own `timeoutMs` lowered to what is left of the call's deadline. */
function clampTimeout(payload: unknown, remainingMs: number): unknown {
  if (!isJsonObject(payload) || typeof payload.timeoutMs !== "number" || payload.timeoutMs <= remainingMs)
    return payload;
  return { ...payload, timeoutMs: Math.max(1, Math.floor(remainingMs)) };
}

/**
 * One call, from request envelope to response envelope: payload preflight, capability check,
 * lease attachment, the tool's own timeout clamped to the deadline, the exchange (with retries of
 * read-only calls on overload or on a failure before the request was written — never of a
 * mutation), then the answer mapped back and checked before it is believed. Always resolves.
 */
export async function callEnvelope(
  settings: CallSettings,
  request: GlassRequest,
  options: CallOptions & ResponseModeOption & TraceOption,
  deadlineMs: number,
): Promise<GlassResponse> {
  const started = Date.now();
  const deadlineAt = started + deadlineMs;
  const { operation, requestId } = request;
  // Every failure goes out through here, scrubbed of the secrets the client knows and this call's own lease token.
  const refuse = (error: GlassErrorObject): GlassResponse => {
    const token = request.mutationLease?.token;
    return responseEnvelope(
      request,
      false,
      settings.redact === undefined ? error : settings.redact(error, typeof token === "string" ? [token] : []),
    );
  };
  if (settings.session.isActive(requestId)) {
    return refuse(
      wireError(requestInvalid(`request id ${requestId} is already in flight; give each request its own id`)),
    );
  }
  const descriptor = describeOperation(operation);
  const checkPayload = settings.validatePayloads && options.validate !== false && descriptor !== undefined;
  let validators: OperationValidators | undefined;
  let found: ReturnType<OperationValidatorsLookup>;
  if (checkPayload || (settings.validateResponses && descriptor !== undefined)) {
    // In the browser build bundlers take, an operation's validators are a chunk loaded on its
    // first call: before anything is sent, so a chunk that cannot be loaded sends nothing. Found at
    // once, they are used at once, unless an earlier call still waits for its own.
    found = validatorsOf(operation);
  }
  if (settings.callOrder.mustWait(found)) {
    // Behind every earlier call still waiting, so calls reach the session in the order they were made.
    const { ready, leave } = settings.callOrder.join(found);
    const waitingFor =
      found instanceof Promise ? `the validators of ${operation}` : "the validators of an earlier call";
    const loaded = await loadWithin(ready, operation, waitingFor, deadlineAt, options.signal);
    leave();
    if (loaded instanceof GlassError) return refuse(wireError(loaded));
    validators = loaded;
  } else validators = found as OperationValidators | undefined;
  if (checkPayload && validators !== undefined) {
    // The catalog's schema also proves the payload is JSON.
    const refused = preflightPayload(operation, request.payload, validators);
    if (refused !== undefined) return refuse(refused);
  } else {
    const issues = issuesOf(checkJson, request.payload, "payload");
    if (issues !== undefined) {
      const reason = truncateUtf8(`the payload is not JSON: ${describeIssues(issues.slice(0, 3), "payload")}`, 512);
      return refuse(
        wireError(requestInvalid(reason, { details: { kind: "requestValidation", issues: boundedIssues(issues) } })),
      );
    }
  }
  const capability = descriptor?.capability;
  if (capability !== undefined && settings.capabilityUsable(capability) === false) {
    return refuse(
      wireError(
        new GlassError({
          code: "capability.unavailable",
          message: `the daemon does not offer the ${capability} capability ${operation} needs in this session (see glass.agreement)`,
          retry: { classification: "requiresUserDecision", recommendedOperation: "inspect_capabilities" },
        }),
      ),
    );
  }
  const unlisted = settings.unlistedTool?.(operation);
  if (unlisted !== undefined) return refuse(wireError(unlisted));
  const mutating = requiresLease(operation, request.payload);
  const lease = settings.lease;
  let outgoing = request;
  if (mutating && lease !== undefined && request.mutationLease === undefined) {
    outgoing = { ...request, sessionId: lease.sessionId, mutationLease: lease.mutationLease };
  }
  const payload = clampTimeout(outgoing.payload, deadlineAt - Date.now());
  if (payload !== outgoing.payload) outgoing = { ...outgoing, payload: payload as never };
  const callOptions = callOptionArguments(operation, descriptor !== undefined, options);
  if ("problem" in callOptions) return refuse(wireError(requestInvalid(callOptions.problem)));
  let message: JsonRpcRequest;
  try {
    message = toMcpRequest(outgoing, callOptions.arguments);
  } catch (error) {
    return refuse(wireError(error instanceof GlassError ? error : requestInvalid(describeError(error))));
  }
  const retrySafe = isRetrySafe(operation, request.payload);
  const maxRetries =
    !retrySafe || options.retry === false
      ? 0
      : typeof options.retry === "number"
        ? options.retry
        : settings.retryPolicy.maxRetries;

  let response: GlassResponse;
  try {
    response = await retrying(
      settings,
      { operation, maxRetries, deadlineAt, signal: options.signal },
      async (attempt) => {
        const outcome = await exchange(settings, {
          message,
          operation,
          requestId,
          mutating,
          deadlineAt,
          signal: options.signal,
          attempt,
        });
        let answer: GlassResponse;
        let retryable: boolean;
        let retryAfterMs: number | undefined;
        if (outcome.kind === "failed") {
          answer = responseEnvelope(request, false, wireError(outcome.error));
          retryable = failedBeforeSending(outcome);
          retryAfterMs = retryAfterOf(outcome.error);
        } else {
          answer = readAnswer(
            outcome.message,
            request,
            settings.validateResponses ? { result: validators?.result } : undefined,
            mutating,
          );
          retryable = !answer.ok && answer.error.code === "overloaded";
        }
        const retry =
          retryable && !answer.ok && settings.session.closeReason === undefined
            ? { code: answer.error.code, requestId, retryAfterMs }
            : undefined;
        return { result: answer, retry };
      },
    );
  } catch (error) {
    // The caller aborted while the call waited to be retried.
    if (!(error instanceof GlassError)) throw error;
    return refuse(wireError(error));
  }
  if (settings.log !== undefined)
    settings.log({
      type: "response",
      operation,
      requestId,
      ok: response.ok,
      ...(response.ok ? {} : { code: response.error.code }),
      ms: Date.now() - started,
    });
  if (response.ok) return response;
  const failed = refuse(response.error) as GlassResponse & { ok: false };
  if (DEAD_LEASE.has(failed.error.code) && lease !== undefined && outgoing.mutationLease?.token === lease.token) {
    settings.onLeaseRefused?.(failed.error, request);
  }
  return failed;
}

/**
 * An operation's validators once the wait in line settles (`waitingFor` says what it waited for:
 * its own validators' chunk or an earlier call's), or the failure that ends the call first: the
 * load failing (`validators.unavailable`), the deadline passing or the caller aborting. Nothing of
 * the call has been sent.
 */
function loadWithin(
  ready: Promise<OperationValidators | undefined>,
  operation: string,
  waitingFor: string,
  deadlineAt: number,
  signal: AbortSignal | undefined,
): Promise<OperationValidators | undefined | GlassError> {
  const base = {
    operation,
    phase: "preflight" as const,
    retry: { classification: "safeImmediate" as const, recommendedOperation: "retry" },
  };
  if (signal?.aborted) return Promise.resolve(new CancelledError({ ...base, message: "the call was aborted" }));
  return new Promise((resolve) => {
    const finish = (outcome: OperationValidators | undefined | GlassError): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void =>
      finish(new CancelledError({ ...base, message: `the call was aborted while ${waitingFor} were loading` }));
    const timer = setTimeout(
      () =>
        finish(
          new DeadlineExceededError({
            ...base,
            message: `the deadline passed while ${waitingFor} were loading; nothing was sent`,
          }),
        ),
      Math.max(0, deadlineAt - Date.now()),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    ready.then(finish, (error: unknown) => finish(validatorsUnavailable(operation, error)));
  });
}

/** What an answer is checked against before it is believed: the operation's result validator, if any. */
interface AnswerChecks {
  result: GeneratedValidator | undefined;
}

/**
 * The daemon's answer as the caller sees it: mapped back to an envelope and checked before it is
 * believed. Whatever the daemon sent, this never throws: an answer the mapping or the checks cannot
 * read is `response.invalid` (after dispatch, `mutationPossible` for a mutating call).
 */
function readAnswer(
  message: JsonRpcResponse,
  request: GlassRequest,
  checks: AnswerChecks | undefined,
  mutating: boolean,
): GlassResponse {
  try {
    return believe(fromMcpResponse(message, request), request.operation, checks, mutating);
  } catch (error) {
    const reason = error instanceof RangeError ? "is nested too deeply to read" : "could not be read";
    return responseEnvelope(request, false, responseInvalid(request.operation, [{ path: "answer", reason }], mutating));
  }
}

/**
 * Checks what came from the daemon before it is believed: the error object of a failure (code and
 * message limits, phase, retry advice, details size), and for catalog operations the result's
 * schema. The rest of the envelope is the client's own (ids copied from the request); the result
 * came out of JSON.parse, so it is JSON.
 */
function believe(
  response: GlassResponse,
  operation: string,
  checks: AnswerChecks | undefined,
  mutating: boolean,
): GlassResponse {
  if (checks === undefined) return response;
  const resultValidator = checks.result;
  const issues = !response.ok
    ? issuesOf(validateGlassErrorObject, response.error, "error")
    : resultValidator === undefined
      ? undefined
      : issuesOf(resultValidator, response.result, "result");
  if (issues === undefined || issues.length === 0) return response;
  return responseEnvelope(response, false, responseInvalid(operation, issues, mutating));
}

let nextRpcId = 1;

/**
 * Calls an MCP method that is not a tool (`ping`, `tools/list`, `glass/lease/*`) and returns its
 * result object, or throws the GlassError its failure maps to. Read-only methods are retried on
 * overload, or on a failure before the request was sent (an HTTP refusal, after its `Retry-After`),
 * within the deadline. An answer that cannot be read (nested past the depth bound, a
 * malformed error) is `response.invalid`.
 */
export async function rpcCall(
  context: RpcContext,
  method: string,
  params: Record<string, unknown>,
  options: CallOptions & { deadlineMs: number },
): Promise<Record<string, unknown>> {
  const deadlineAt = Date.now() + options.deadlineMs;
  const readOnly = READ_ONLY_METHODS.has(method);
  const maxRetries =
    options.retry === false
      ? 0
      : typeof options.retry === "number"
        ? options.retry
        : readOnly
          ? context.retryPolicy.maxRetries
          : 0;
  const outcome = await retrying<Record<string, unknown> | GlassError>(
    context,
    { operation: method, maxRetries, deadlineAt, signal: options.signal },
    async () => {
      const id = nextRpcId++;
      const requestId = String(id);
      const exchanged = await exchange(context, {
        message: { jsonrpc: "2.0", id, method, params },
        operation: method,
        requestId,
        mutating: !readOnly,
        deadlineAt,
        signal: options.signal,
      });
      if (exchanged.kind === "failed") {
        // Refused before it was sent (an HTTP 503 …): tried again like an overload, after the server's Retry-After.
        if (!failedBeforeSending(exchanged) || context.session.closeReason !== undefined) throw exchanged.error;
        return {
          result: exchanged.error,
          retry: { code: exchanged.error.code, requestId, retryAfterMs: retryAfterOf(exchanged.error) },
        };
      }
      const message = exchanged.message;
      const problem = answerProblem(message);
      if (problem !== undefined)
        throw errorFromEnvelope(responseInvalid(method, [problem], !readOnly), method, requestId);
      if (!("error" in message))
        return { result: message.result !== null && typeof message.result === "object" ? message.result : {} };
      const error = errorFromEnvelope(jsonRpcErrorToGlass(message.error, false), method, requestId);
      return { result: error, retry: error.code === "overloaded" ? { code: error.code, requestId } : undefined };
    },
  );
  if (outcome instanceof GlassError) throw outcome;
  return outcome;
}
