import { CancelledError, DeadlineExceededError, TransportClosedError } from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { errorFromEnvelope } from "./error-from-envelope.js";
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from "../mcp/json-rpc.js";
import type { McpSession } from "../mcp/mcp-session.js";
import type { DeadlineScheduler, ScheduledDeadline } from "./deadline-scheduler.js";
import type { InFlightLimiter, SlotWait } from "./in-flight-limiter.js";
import type { GlassLogEvent } from "./options.js";

/** What one request needs to be sent: where, when it must end, and what it is. */
export interface ExchangeContext {
  session: McpSession;
  limiter: InFlightLimiter;
  /** Where call deadlines wait (one timer per client); without it, one timer per call. */
  deadlines?: DeadlineScheduler | undefined;
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

/**
 * Whether a failed exchange may be tried again: the request certainly never reached the daemon (an
 * HTTP refusal such as 503, a send that never left), and the call is not over (no deadline passed,
 * no abort).
 */
export function failedBeforeSending(outcome: ExchangeOutcome & { kind: "failed" }): boolean {
  return !outcome.reachedDaemon && outcome.error.code !== "deadlineExceeded" && outcome.error.code !== "cancelled";
}

type SendState = "queued" | "sending" | "written" | "failed";

const DEADLINE = Symbol("deadline");

/**
 * Sends one request and waits for its answer, within its deadline and until its AbortSignal fires.
 * Takes an in-flight slot first, waiting in order when none is free. When the deadline passes or
 * the caller aborts once the request may have left, sends `notifications/cancelled` and fails with
 * a DeadlineExceededError or CancelledError whose `mutationPossible` is true for a mutating request;
 * the slot is kept until the daemon answers (or a grace period ends), so the client never overruns
 * the daemon's limit. Never rejects. Allocates no AbortController and no promise of its own beyond
 * the one it returns.
 */
export function exchange(context: ExchangeContext, request: ExchangeRequest): Promise<ExchangeOutcome> {
  const { session, limiter } = context;
  return new Promise<ExchangeOutcome>((resolve) => {
    let state: SendState = "queued";
    let settled = false;
    let wait: SlotWait | undefined;
    let answer: Promise<JsonRpcResponse> | undefined;
    const signal = request.signal;

    const finish = (outcome: ExchangeOutcome): boolean => {
      if (settled) return false;
      settled = true;
      if (scheduled !== undefined) context.deadlines!.cancel(scheduled);
      else clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
      return true;
    };
    const interrupt = (reason: unknown): void => {
      if (settled) return;
      const queued = state === "queued";
      finish(interrupted(request, reason, state));
      if (queued) {
        wait?.cancel();
        return;
      }
      const deadline = reason === DEADLINE;
      context.log?.({
        type: "cancel",
        operation: request.operation,
        requestId: request.requestId,
        reason: deadline ? "deadline" : "abort",
      });
      // Sent as soon as the request may have left: on HTTP a request counts as written only when its
      // answer starts, which a stalled call never does. A cancel for an id the daemon never got is ignored.
      sendCancel(session, request.message.id, deadline ? "deadline exceeded" : "aborted by the caller");
      holdSlotUntilSettled(context, session, request.message.id, answer!);
    };
    const onAbort = (): void => interrupt(signal?.reason ?? new CancelledError({ message: "aborted" }));
    const send = (): void => {
      if (settled) {
        limiter.release(); // the wait was granted just as the call gave up
        return;
      }
      state = "sending";
      context.log?.({
        type: "request",
        operation: request.operation,
        requestId: request.requestId,
        attempt: request.attempt ?? 0,
      });
      answer = session.request(request.message, () => {
        state = "written";
      });
      answer.then(
        (message) => {
          if (finish({ kind: "answer", message })) limiter.release();
        },
        (error: unknown) => {
          if (state === "sending") state = "failed";
          if (finish(closedOutcome(error, request, state === "written"))) limiter.release();
        },
      );
    };

    const onDeadline = (): void => interrupt(DEADLINE);
    let scheduled: ScheduledDeadline | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (context.deadlines !== undefined) scheduled = context.deadlines.schedule(request.deadlineAt, onDeadline);
    else timer = setTimeout(onDeadline, Math.max(0, request.deadlineAt - Date.now()));
    if (signal !== undefined) {
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
    }
    if (limiter.tryAcquire()) {
      send();
      return;
    }
    context.log?.({
      type: "queued",
      operation: request.operation,
      requestId: request.requestId,
      inFlight: limiter.inFlight,
    });
    wait = limiter.wait();
    void wait.granted.then(send);
  });
}

/** The outcome of a call stopped by its deadline or its caller, in the state it had reached. */
function interrupted(request: ExchangeRequest, reason: unknown, state: SendState): ExchangeOutcome {
  const reachedDaemon = state === "sending" || state === "written";
  const mutationPossible = request.mutating && reachedDaemon;
  const base = {
    operation: request.operation,
    requestId: request.requestId,
    mutationPossible,
    phase: reachedDaemon ? ("dispatch" as const) : ("preflight" as const),
  };
  const retry = mutationPossible
    ? { classification: "safeAfterReobserve" as const, recommendedOperation: "inspect_page" }
    : { classification: "safeImmediate" as const, recommendedOperation: "retry" };
  const error =
    reason === DEADLINE
      ? new DeadlineExceededError({
          ...base,
          retry,
          message: `no answer within the deadline${mutationPossible ? "; the action may have happened — observe before deciding" : ""}`,
        })
      : reason instanceof GlassError && reason.code === "cancelled"
        ? new CancelledError({ ...base, retry, message: reason.rawMessage })
        : new CancelledError({
            ...base,
            retry,
            message: `the call was aborted${reason instanceof Error ? `: ${reason.message}` : ""}`,
            cause: reason,
          });
  return { kind: "failed", error, reachedDaemon };
}

/** Tells the daemon to stop a request; `requestId` is its JSON-RPC id, with its JSON type. */
function sendCancel(session: McpSession, requestId: JsonRpcId, reason: string): void {
  session.notify("notifications/cancelled", { requestId, reason }).catch(() => undefined);
}

/**
 * Keeps the slot of a cancelled request until the daemon answers it, or until the grace period ends —
 * then the session stops waiting for that answer too, so a daemon that never answers leaks nothing.
 */
function holdSlotUntilSettled(
  context: ExchangeContext,
  session: McpSession,
  id: JsonRpcId,
  answer: Promise<JsonRpcResponse>,
): void {
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
  // An HTTP POST can fail after its body reached the daemon: the transport says so on its error.
  const reachedDaemon = written || (error instanceof GlassError && error.mutationPossible);
  const mutationPossible = request.mutating && reachedDaemon;
  if (error instanceof GlassError && error.code !== "transport.closed") {
    return { kind: "failed", error: withCall(error, request, mutationPossible), reachedDaemon };
  }
  const why =
    error instanceof GlassError ? error.rawMessage : error instanceof Error ? error.message : "the connection closed";
  return {
    kind: "failed",
    reachedDaemon,
    error: new TransportClosedError({
      message: mutationPossible ? `${why}; the action may have happened — observe before deciding` : why,
      operation: request.operation,
      requestId: request.requestId,
      mutationPossible,
      phase: reachedDaemon ? "dispatch" : "preflight",
      retry: mutationPossible
        ? { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" }
        : { classification: "safeImmediate", recommendedOperation: "reconnect" },
      ...(error instanceof GlassError && error.details !== undefined ? { details: error.details } : {}),
      cause: error,
    }),
  };
}

/** A transport error re-issued for this call (its operation, request id and mutationPossible), keeping its class. */
function withCall(error: GlassError, request: ExchangeRequest, mutationPossible: boolean): GlassError {
  return errorFromEnvelope(
    { ...(error.toJSON() as GlassErrorObject), mutationPossible },
    request.operation,
    request.requestId,
    error,
  );
}
