import type { OperationName, PayloadOf, ResultOf } from "../../generated/operation-map.js";
import type { JsonValue } from "../validation/json-value.js";

/**
 * What a handler of the mock daemon knows about the call it answers, besides the payload.
 */
export interface MockCallContext {
  /** The operation called (`browser.click`, `webIr.validate`, …). */
  readonly operation: OperationName;
  /** The call's request id (the JSON-RPC id as text). */
  readonly requestId: string;
  /**
   * Whether the call carried a lease token the mock daemon accepted (on the socket, where leases
   * exist). Mutations without one never reach a handler: the mock refuses them first (-32003),
   * as the daemon does.
   */
  readonly leased: boolean;
  /** Aborted when the client cancels the call (`notifications/cancelled`) or disconnects. */
  readonly signal: AbortSignal;
}

/**
 * Answers one operation: takes the typed payload (already accepted the way the daemon accepts it)
 * and returns the typed result, or a promise of it. To fail the call the way the daemon would,
 * throw {@link mockError}.
 */
export type MockHandler<Op extends OperationName> = (payload: PayloadOf<Op>, context: MockCallContext) => ResultOf<Op> | Promise<ResultOf<Op>>;

/** Handlers by operation name; an operation without one is answered as the mock would without handlers. */
export type MockHandlers = { readonly [Op in OperationName]?: MockHandler<Op> };

/** What {@link mockError} takes besides the code and the message. */
export interface MockErrorInit {
  /** Whether the page may have changed before the failure (default false). */
  readonly mutationPossible?: boolean;
  /** The phase the failure happened in (default `preflight`). */
  readonly phase?: "preflight" | "dispatch" | "postDispatch" | "verification" | "reconciliation";
  /** Retry advice (default: the daemon's, `safeAfterReobserve` with `inspect_page`). */
  readonly retry?: { readonly classification: string; readonly recommendedOperation: string };
  /** Error details (any JSON, at most 16 KiB serialised). */
  readonly details?: JsonValue;
}

/**
 * A failure a handler throws to make the mock daemon answer the call as the daemon answers that
 * failure (an `isError` tool result or a JSON-RPC error, protocol §2). Create it with
 * {@link mockError}.
 */
export class MockError extends Error {
  /** The Glass error code (`staleRevision`, `target.notFound`, …). */
  readonly code: string;
  /** The rest of the error object. */
  readonly init: MockErrorInit;

  constructor(code: string, message: string, init: MockErrorInit = {}) {
    super(message);
    this.name = "MockError";
    this.code = code;
    this.init = init;
  }
}

/**
 * The failure a handler throws to fail a call as the daemon would:
 * `throw mockError("staleRevision", "the page changed since revision 3")`.
 */
export function mockError(code: string, message: string, init?: MockErrorInit): MockError {
  return new MockError(code, message, init);
}
