import type { OperationName, PayloadOf, ResultOf } from "../../generated/operation-map.js";
import type { GlassErrorPhase, GlassRetryClassification } from "../../generated/types/glass-protocol-v1.js";
import { utf8Length } from "../validation/byte-length.js";
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
  /**
   * The client the call came from, which the handler may ask something (a page's dialog, as the
   * daemon asks through form elicitation). Absent when a handler is called outside a mock daemon.
   */
  readonly client?: MockDaemonClient;
}

/** How a request the mock daemon sent its client ended. */
export type MockClientAnswer =
  /** The client answered with a result. */
  | { readonly kind: "result"; readonly result: unknown }
  /** The client answered with a JSON-RPC error. */
  | { readonly kind: "error"; readonly error: unknown }
  /** No answer within the daemon's bound (the client was sent `notifications/cancelled`). */
  | { readonly kind: "timedOut" }
  /** The call that asked ended first (cancelled, or its client left); the client was sent `notifications/cancelled` if it was still there. */
  | { readonly kind: "cancelled" };

/** The client of a call, as a handler of the mock daemon sees it. */
export interface MockDaemonClient {
  /** The MCP revision the client negotiated (`2024-11-05`, `2025-11-25`). */
  readonly mcpProtocolVersion: string;
  /**
   * Whether the client can be asked through form elicitation, as the daemon decides it: it
   * negotiated MCP `2025-11-25` and declared `capabilities.elicitation` as `{}` or with a `form`
   * object.
   */
  readonly formElicitation: boolean;
  /**
   * Sends the client a request with the daemon's own ids (`glass-server-N`) and resolves with how
   * it ended: the answer, or no answer within the daemon's bound (15 minutes), or the call ending
   * first — both of which send the client `notifications/cancelled` for it. Never rejects.
   */
  ask(method: string, params: Record<string, unknown>): Promise<MockClientAnswer>;
}

/**
 * Answers one operation: takes the typed payload (already accepted the way the daemon accepts it)
 * and returns the typed result, or a promise of it. To fail the call the way the daemon would,
 * throw {@link mockError}.
 */
export type MockHandler<Op extends OperationName> = (
  payload: PayloadOf<Op>,
  context: MockCallContext,
) => ResultOf<Op> | Promise<ResultOf<Op>>;

/** Handlers by operation name; an operation without one is answered as the mock would without handlers. */
export type MockHandlers = { readonly [Op in OperationName]?: MockHandler<Op> };

/**
 * What {@link mockError} takes besides the code and the message. Fields left out are left out of
 * the error the daemon sends too (the client then reads the protocol's defaults).
 */
export interface MockErrorInit {
  /** Whether the page may have changed before the failure (default false). */
  readonly mutationPossible?: boolean;
  /** The phase the failure happened in (default `preflight`). */
  readonly phase?: GlassErrorPhase;
  /** Retry advice (default: the daemon's, `safeAfterReobserve` with `inspect_page`). */
  readonly retry?: { readonly classification: GlassRetryClassification; readonly recommendedOperation: string };
  /** The legacy retry flag (a `staleRevision` error carries `true` unless told otherwise). */
  readonly retryable?: boolean;
  /** Error details (any JSON, at most 16 KiB serialised). */
  readonly details?: JsonValue;
  /**
   * The `isError` text the daemon sends, as it is (a failure it reports in its own words or
   * JSON, such as "MCP client did not negotiate form elicitation; native page dialog was
   * dismissed"); set, it is sent instead of the text the code stands for.
   */
  readonly daemonText?: string;
}

/**
 * Marks a {@link MockError} across copies of this module (the CLI's bundle and a handlers module
 * importing `glass-sdk/testing`, or its ESM and CommonJS builds, each have their own class).
 */
const MOCK_ERROR_BRAND = Symbol.for("glass-sdk.MockError");

/** Whether `value` is a {@link MockError}, from this copy of the module or another. */
export function isMockError(value: unknown): value is MockError {
  return (
    value instanceof MockError ||
    (value instanceof Error && (value as unknown as Record<symbol, unknown>)[MOCK_ERROR_BRAND] === true)
  );
}

/** The longest error code, in UTF-8 bytes (§1). */
const MAX_CODE_BYTES = 64;

/**
 * A failure a handler throws to make the mock daemon answer the call as the daemon answers that
 * failure (protocol §2). Create it with {@link mockError}; how each code goes on the wire: see
 * docs/testing.md, "Typed handlers".
 */
export class MockError extends Error {
  /** The Glass error code (`staleRevision`, `target.notFound`, …). */
  readonly code: string;
  /** The rest of the error object. */
  readonly init: MockErrorInit;

  /** Throws a TypeError when `code` is not 1 to 64 UTF-8 bytes or `message` is empty (a Glass error needs both, §1). */
  constructor(code: string, message: string, init: MockErrorInit = {}) {
    if (typeof code !== "string" || code === "" || utf8Length(code) > MAX_CODE_BYTES) {
      throw new TypeError(
        `mockError needs a code of 1 to ${MAX_CODE_BYTES} UTF-8 bytes (e.g. "staleRevision"), not ${JSON.stringify(code)}`,
      );
    }
    if (typeof message !== "string" || message === "")
      throw new TypeError(`mockError(${JSON.stringify(code)}, …) needs a message that says what went wrong`);
    super(message);
    this.name = "MockError";
    this.code = code;
    this.init = init;
    Object.defineProperty(this, MOCK_ERROR_BRAND, { value: true });
  }
}

/**
 * The failure a handler throws to fail a call as the daemon would:
 * `throw mockError("staleRevision", "the page changed since revision 3")`.
 */
export function mockError(code: string, message: string, init?: MockErrorInit): MockError {
  return new MockError(code, message, init);
}
