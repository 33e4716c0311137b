import { brandErrorClass, GlassError, type GlassErrorInit } from "./glass-error.js";
import { describeError } from "./redact.js";

/**
 * An operation's validators could not be loaded (in a browser bundle, the operation's chunk): the
 * call was not sent. Safe to call again, which tries the load again; the cause says why it failed.
 */
export function validatorsUnavailable(operation: string, cause: unknown): GlassError {
  return new GlassError({
    code: "validators.unavailable",
    message: `the validators of ${operation} could not be loaded, so nothing was sent (in a browser page: check that the page's chunks are served beside it, or call with { validate: false }): ${describeError(cause)}`,
    phase: "preflight",
    operation,
    cause,
    retry: { classification: "safeImmediate", recommendedOperation: "retry" },
  });
}

/**
 * The error for a request, an option or a message the caller must fix before sending it again:
 * code `request.invalid`, phase `preflight`, `mutationPossible: false` (nothing was sent), retry
 * advice `{notRetryable, fix_request}`. `init` adds the details, the operation, the request id or
 * the error behind it.
 */
export function requestInvalid(
  message: string,
  init: Pick<GlassErrorInit, "details" | "operation" | "requestId" | "cause"> = {},
): GlassError {
  return new GlassError({
    code: "request.invalid",
    message,
    retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
    ...init,
  });
}

/**
 * The connection to the daemon closed: it exited or crashed, the socket dropped, or the client was
 * closed. `mutationPossible` says whether a mutating call had already been written when it happened
 * (re-observe before deciding anything).
 */
export class TransportClosedError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code"> & { code?: string }) {
    super({ phase: "dispatch", ...init, code: init.code ?? "transport.closed" });
    this.name = "TransportClosedError";
  }
}
brandErrorClass(TransportClosedError, "TransportClosedError");

/** The daemon could not be reached at all: a missing binary or socket, or no permission. Nothing was sent. */
export class TransportUnavailableError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({
      retry: { classification: "safeImmediate", recommendedOperation: "connect" },
      ...init,
      code: "transport.unavailable",
    });
    this.name = "TransportUnavailableError";
  }
}
brandErrorClass(TransportUnavailableError, "TransportUnavailableError");

/** A frame could not be decoded (bad header, invalid UTF-8 or JSON, over the size limit). */
export class BadFrameError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({ ...init, code: "transport.badFrame" });
    this.name = "BadFrameError";
  }
}
brandErrorClass(BadFrameError, "BadFrameError");

/** The call's deadline passed before the daemon answered (a cancel notification was sent). */
export class DeadlineExceededError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({ phase: "dispatch", ...init, code: "deadlineExceeded" });
    this.name = "DeadlineExceededError";
  }
}
brandErrorClass(DeadlineExceededError, "DeadlineExceededError");

/** The call was cancelled: aborted by the caller's AbortSignal, or reported cancelled by the daemon (-32800). */
export class CancelledError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({ phase: "dispatch", ...init, code: "cancelled" });
    this.name = "CancelledError";
  }
}
brandErrorClass(CancelledError, "CancelledError");

/** The daemon is at a limit (-32000). Read-only calls are retried; mutations never are. */
export class OverloadedError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({
      retry: { classification: "safeImmediate", recommendedOperation: "retry_later" },
      ...init,
      code: "overloaded",
    });
    this.name = "OverloadedError";
  }
}
brandErrorClass(OverloadedError, "OverloadedError");

/** A request reached the daemon before the MCP session was initialized (-32002). */
export class NotInitializedError extends GlassError {
  constructor(init: Omit<GlassErrorInit, "code">) {
    super({
      retry: { classification: "safeImmediate", recommendedOperation: "initialize" },
      ...init,
      code: "notInitialized",
    });
    this.name = "NotInitializedError";
  }
}
brandErrorClass(NotInitializedError, "NotInitializedError");

/**
 * A mutation-lease problem (-32003): `leaseRequired` (a mutating call without a lease), or the
 * lease code the daemon gives in `data.details.code` — leaseHeld, leaseExpired, leaseNotFound
 * (retryable after acquiring a lease), leaseNotOwner, invalidLease. The lease token is never part
 * of the message.
 */
export class LeaseError extends GlassError {
  constructor(init: GlassErrorInit) {
    super(init);
    this.name = "LeaseError";
  }
}
brandErrorClass(LeaseError, "LeaseError");
