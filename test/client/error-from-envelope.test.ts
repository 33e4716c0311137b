import { describe, expect, it } from "vitest";
import { errorFromEnvelope } from "../../src/client/error-from-envelope.js";
import type { GlassErrorObject } from "../../src/envelope/envelope-types.js";
import {
  BadFrameError,
  CancelledError,
  DeadlineExceededError,
  LeaseError,
  NotInitializedError,
  OverloadedError,
  TransportClosedError,
  TransportUnavailableError,
} from "../../src/errors/error-classes.js";
import { GlassError } from "../../src/errors/glass-error.js";

const failure = (code: string, more: Partial<GlassErrorObject> = {}): GlassErrorObject =>
  ({ code, message: `failed with ${code}`, ...more }) as GlassErrorObject;

describe("errorFromEnvelope", () => {
  it("throws the subclass that fits the code", () => {
    for (const [code, errorClass] of [
      ["overloaded", OverloadedError],
      ["notInitialized", NotInitializedError],
      ["cancelled", CancelledError],
      ["deadlineExceeded", DeadlineExceededError],
      ["transport.closed", TransportClosedError],
      ["transport.unavailable", TransportUnavailableError],
      ["transport.badFrame", BadFrameError],
    ] as const) {
      const error = errorFromEnvelope(failure(code), "browser.observe", "r-1");
      expect(error, code).toBeInstanceOf(errorClass);
      expect(error.code).toBe(code);
    }
  });

  it("makes every lease code, and leaseRequired, a LeaseError", () => {
    for (const code of ["leaseHeld", "leaseExpired", "leaseNotFound", "leaseNotOwner", "invalidLease", "leaseRequired"])
      expect(errorFromEnvelope(failure(code), "browser.click", "r-1"), code).toBeInstanceOf(LeaseError);
  });

  it("makes any other code a plain GlassError, not one of the subclasses", () => {
    const error = errorFromEnvelope(failure("staleRevision"), "browser.click", "r-1");
    expect(error).toBeInstanceOf(GlassError);
    expect(error.constructor).toBe(GlassError);
  });

  it("carries every field of the error object, the operation and the request id", () => {
    const cause = new Error("underneath");
    const error = errorFromEnvelope(
      failure("staleRevision", {
        phase: "postDispatch",
        mutationPossible: true,
        retry: { classification: "safeAfterReobserve", recommendedOperation: "observe" },
        retryable: true,
        details: { revision: 7 },
      } as Partial<GlassErrorObject>),
      "browser.click",
      "r-9",
      cause,
    );
    expect(error).toMatchObject({
      code: "staleRevision",
      rawMessage: "failed with staleRevision",
      phase: "postDispatch",
      mutationPossible: true,
      retry: { classification: "safeAfterReobserve", recommendedOperation: "observe" },
      retryable: true,
      details: { revision: 7 },
      operation: "browser.click",
      requestId: "r-9",
    });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("glass.browser.click: staleRevision — failed with staleRevision (request r-9)");
  });

  it("keeps only the two retry advice fields, and a subclass's own defaults where the object has none", () => {
    const advice = { classification: "safeImmediate", recommendedOperation: "retry_later", extra: 1 };
    expect(errorFromEnvelope(failure("x", { retry: advice } as never), undefined, undefined).retry).toEqual({
      classification: "safeImmediate",
      recommendedOperation: "retry_later",
    });
    const closed = errorFromEnvelope(failure("transport.closed"), undefined, undefined);
    expect(closed.phase).toBe("dispatch");
    expect(closed.operation).toBeUndefined();
    expect(closed.requestId).toBeUndefined();
    expect(closed.cause).toBeUndefined();
    expect("retryable" in closed.toJSON()).toBe(false);
  });
});
