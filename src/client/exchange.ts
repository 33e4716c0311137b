import { CancelledError, DeadlineExceededError, TransportClosedError } from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from "../mcp/json-rpc.js";
import type { McpSession } from "../mcp/mcp-session.js";
import type { InFlightLimiter } from "./in-flight-limiter.js";
import type { GlassLogEvent } from "./options.js";

/** What one request needs to be sent: where, when it must end, and what it is. */
export interface ExchangeContext {
  session: McpSession;
  limiter: InFlightLimiter;
  /** How long a cancelled request keeps its in-flight slot while the daemon winds it down. */
  cancelGraceMs: number;
  log?: ((event: GlassLogEvent) => void) | undefined;
}

/** One request to exchange. */
export interface ExchangeRequest {
  message: JsonRpcRequest;
  /** The operation (or JSON-RPC method) name, for errors and logs. */
  operation: string;
  requestId: string;
  /** Whether the request may change the page (decides `mutationPossible` when it is interrupted). */
  mutating: boolean;
  /** When the call must be over (ms since the epoch). */
  deadlineAt: number;
  /** 0 for the first try, 1 for the first retry, ... (for logs). */
  attempt?: number;
  signal?: AbortSignal | undefined;
}

/**
 * How an exchange ended: with the daemon's answer, or with an error. `reachedDaemon` is false only
 * when the request was certainly never written (so repeating it cannot repeat anything).
 */
export type ExchangeOutcome =
  | { kind: "answer"; message: JsonRpcResponse }
  | { kind: "failed"; error: GlassError; reachedDaemon: boolean };

type SendState = "queued" | "sending" | "written" | "failed";

const DEADLINE = Symbol("deadline");

/**
 * Sends one request and waits for its answer, within its deadline and until its AbortSignal fires.
 * Waits for an in-flight slot first (FIFO). When the deadline passes or the caller aborts after
 * the request was written, sends `notifications/cancelled` and fails with a DeadlineExceededError or
 * CancelledError whose `mutationPossible` is true for a mutating request that may have been
 * written; the slot is kept until the daemon answers (or a grace period ends), so the client never
 * overruns the daemon's limit. Never throws.
 */
export async function exchange(context: ExchangeContext, request: ExchangeRequest): Promise<ExchangeOutcome> {
  const { session, limiter } = context;
  const stop = new AbortController();
  const remaining = request.deadlineAt - Date.now();
  const timer = setTimeout(() => stop.abort(DEADLINE), Math.max(0, remaining));
  const onCallerAbort = (): void => stop.abort(request.signal?.reason ?? new CancelledError({ message: "aborted" }));
  if (request.signal?.aborted) onCallerAbort();
  else request.signal?.addEventListener("abort", onCallerAbort, { once: true });

  let state: SendState = "queued";
  const interrupted = (reason: unknown): ExchangeOutcome => {
    const reachedDaemon = state === "sending" || state === "written";
    const mutationPossible = request.mutating && reachedDaemon;
    const deadline = reason === DEADLINE;
    const base = { operation: request.operation, requestId: request.requestId, mutationPossible, phase: reachedDaemon ? ("dispatch" as const) : ("preflight" as const) };
    const advice = mutationPossible ? { classification: "safeAfterReobserve" as const, recommendedOperation: "inspect_page" } : { classification: "safeToRetry" as const, recommendedOperation: "retry" };
    const error = deadline
      ? new DeadlineExceededError({ ...base, retry: advice, message: `no answer within the deadline${mutationPossible ? "; the action may have happened — observe before deciding" : ""}` })
      : reason instanceof GlassError && reason.code === "cancelled"
        ? new CancelledError({ ...base, retry: advice, message: reason.rawMessage })
        : new CancelledError({ ...base, retry: advice, message: `the call was aborted${reason instanceof Error ? `: ${reason.message}` : ""}`, cause: reason });
    return { kind: "failed", error, reachedDaemon };
  };

  try {
    if (limiter.inFlight >= limiter.limit) context.log?.({ type: "queued", operation: request.operation, requestId: request.requestId, inFlight: limiter.inFlight });
    try {
      await limiter.acquire(stop.signal);
    } catch (reason) {
      return interrupted(reason);
    }
    if (stop.signal.aborted) {
      limiter.release();
      return interrupted(stop.signal.reason);
    }
    state = "sending";
    context.log?.({ type: "request", operation: request.operation, requestId: request.requestId, attempt: request.attempt ?? 0 });
    const answer = session.request(request.message, () => {
      state = "written";
    });
    answer.catch(() => undefined);
    const outcome = await new Promise<ExchangeOutcome>((resolve) => {
      answer.then(
        (message) => resolve({ kind: "answer", message }),
        (error: unknown) => {
          if (state === "sending") state = "failed";
          resolve(closedOutcome(error, request, state === "written"));
        },
      );
      stop.signal.addEventListener("abort", () => resolve(interrupted(stop.signal.reason)), { once: true });
    });
    if (outcome.kind === "failed" && (outcome.error.code === "deadlineExceeded" || outcome.error.code === "cancelled")) {
      const why = stop.signal.reason === DEADLINE ? "deadline exceeded" : "aborted by the caller";
      context.log?.({ type: "cancel", operation: request.operation, requestId: request.requestId, reason: stop.signal.reason === DEADLINE ? "deadline" : "abort" });
      // Sent as soon as the request may have left: on HTTP a request counts as written only when its
      // answer starts, which a stalled call never does. A cancel for an id the daemon never got is ignored.
      sendCancel(session, request.message.id, why);
      holdSlotUntilSettled(context, session, request.message.id, answer);
    } else {
      limiter.release();
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onCallerAbort);
  }
}

/** Tells the daemon to stop a request; `requestId` is its JSON-RPC id, with its JSON type. */
function sendCancel(session: McpSession, requestId: JsonRpcId, reason: string): void {
  session.notify("notifications/cancelled", { requestId, reason }).catch(() => undefined);
}

/**
 * Keeps the slot of a cancelled request until the daemon answers it, or until the grace period ends —
 * then the session stops waiting for that answer too, so a daemon that never answers leaks nothing.
 */
function holdSlotUntilSettled(context: ExchangeContext, session: McpSession, id: JsonRpcId, answer: Promise<JsonRpcResponse>): void {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearTimeout(grace);
    context.limiter.release();
  };
  const grace = setTimeout(() => {
    session.forget(id);
    release();
  }, context.cancelGraceMs);
  answer.then(release, release);
}

function closedOutcome(error: unknown, request: ExchangeRequest, written: boolean): ExchangeOutcome {
  const reachedDaemon = written;
  const mutationPossible = request.mutating && written;
  if (error instanceof GlassError && error.code !== "transport.closed") {
    return { kind: "failed", error: withCall(error, request, mutationPossible), reachedDaemon };
  }
  const why = error instanceof GlassError ? error.rawMessage : error instanceof Error ? error.message : "the connection closed";
  return {
    kind: "failed",
    reachedDaemon,
    error: new TransportClosedError({
      message: mutationPossible ? `${why}; the action may have happened — observe before deciding` : why,
      operation: request.operation,
      requestId: request.requestId,
      mutationPossible,
      phase: written ? "dispatch" : "preflight",
      retry: mutationPossible ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" } : { classification: "safeToRetry", recommendedOperation: "reconnect" },
      ...(error instanceof GlassError && error.details !== undefined ? { details: error.details } : {}),
      cause: error,
    }),
  };
}

/** A transport error re-issued for this call (its operation, request id and mutationPossible), keeping its class. */
function withCall(error: GlassError, request: ExchangeRequest, mutationPossible: boolean): GlassError {
  return errorFromEnvelope({ ...(error.toJSON() as GlassErrorObject), mutationPossible }, request.operation, request.requestId, error);
}
