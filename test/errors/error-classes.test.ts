import { describe, expect, it } from "vitest";
import {
  BadFrameError,
  CancelledError,
  DeadlineExceededError,
  LeaseError,
  NotInitializedError,
  OverloadedError,
  requestInvalid,
  TransportClosedError,
  TransportUnavailableError,
} from "../../src/errors/error-classes.js";
import { DEFAULT_RETRY_ADVICE, GlassError } from "../../src/errors/glass-error.js";

describe("requestInvalid", () => {
  it("is a preflight request.invalid that nothing was sent for, to be fixed rather than retried", () => {
    const error = requestInvalid("deadlineMs must be positive");
    expect(error).toBeInstanceOf(GlassError);
    expect(error.toJSON()).toEqual({
      code: "request.invalid",
      message: "deadlineMs must be positive",
      phase: "preflight",
      mutationPossible: false,
      retry: { classification: "notRetryable", recommendedOperation: "fix_request" },
    });
  });

  it("adds the details, operation, request id and cause it is given", () => {
    const cause = new TypeError("bad");
    const error = requestInvalid("bad payload", {
      details: { path: "a" },
      operation: "browser.click",
      requestId: "r-3",
      cause,
    });
    expect(error).toMatchObject({ details: { path: "a" }, operation: "browser.click", requestId: "r-3" });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("glass.browser.click: request.invalid — bad payload (request r-3)");
  });
});

describe("the error classes: code, phase and retry advice each fills in", () => {
  const cases = [
    [TransportClosedError, "TransportClosedError", "transport.closed", "dispatch", DEFAULT_RETRY_ADVICE],
    [
      TransportUnavailableError,
      "TransportUnavailableError",
      "transport.unavailable",
      "preflight",
      { classification: "safeImmediate", recommendedOperation: "connect" },
    ],
    [BadFrameError, "BadFrameError", "transport.badFrame", "preflight", DEFAULT_RETRY_ADVICE],
    [DeadlineExceededError, "DeadlineExceededError", "deadlineExceeded", "dispatch", DEFAULT_RETRY_ADVICE],
    [CancelledError, "CancelledError", "cancelled", "dispatch", DEFAULT_RETRY_ADVICE],
    [
      OverloadedError,
      "OverloadedError",
      "overloaded",
      "preflight",
      { classification: "safeImmediate", recommendedOperation: "retry_later" },
    ],
    [
      NotInitializedError,
      "NotInitializedError",
      "notInitialized",
      "preflight",
      { classification: "safeImmediate", recommendedOperation: "initialize" },
    ],
  ] as const;

  it("gives each class its name, code, phase and retry advice by default", () => {
    for (const [errorClass, name, code, phase, retry] of cases) {
      const error = new errorClass({ message: "m" });
      expect(error, name).toMatchObject({ name, code, phase, retry });
      expect(error).toBeInstanceOf(GlassError);
    }
  });

  it("lets the caller's phase and retry advice override the defaults, but not the code", () => {
    const advice = { classification: "notRetryable", recommendedOperation: "stop" } as const;
    for (const [errorClass, name, code] of cases) {
      const error = new errorClass({ message: "m", phase: "postDispatch", retry: advice, code: "other" } as never);
      expect(error.phase, name).toBe("postDispatch");
      expect(error.retry, name).toEqual(advice);
      if (errorClass !== TransportClosedError) expect(error.code, name).toBe(code);
    }
  });

  it("lets a closed connection carry a more precise code", () => {
    expect(new TransportClosedError({ message: "peer reset", code: "transport.reset" }).code).toBe("transport.reset");
  });

  it("keeps a LeaseError's code as given, whichever lease code it is", () => {
    const error = new LeaseError({ code: "leaseExpired", message: "expired", mutationPossible: false });
    expect(error).toMatchObject({ name: "LeaseError", code: "leaseExpired", phase: "preflight" });
  });

  it("tells the classes apart with instanceof", () => {
    const classes = cases.map(([errorClass]) => errorClass);
    for (const errorClass of classes) {
      const error = new errorClass({ message: "m" });
      for (const other of classes) expect(error instanceof other).toBe(other === errorClass);
      expect(error).not.toBeInstanceOf(LeaseError);
    }
  });
});
