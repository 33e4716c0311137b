import type { GlassErrorPhase, GlassRetryAdvice } from "../../generated/types/glass-protocol-v1.js";
import type { GlassErrorCode, LeaseErrorCode } from "./error-codes.js";
import { neutraliseControls } from "./redact.js";

/**
 * The key under which each error class keeps its brand: a registered symbol, the same in every copy
 * of the package loaded in one process (ESM and CJS), so `instanceof` works across copies.
 */
const BRAND = Symbol.for("glass-sdk.brand");

/**
 * Gives an error class its cross-copy brand: `brandErrorClass(TransportClosedError,
 * "TransportClosedError")`. Instances of the class and its subclasses carry the brand.
 */
export function brandErrorClass(errorClass: abstract new (...args: never[]) => Error, name: string): void {
  const brand = Symbol.for(`glass-sdk.${name}`);
  Object.defineProperty(errorClass, BRAND, { value: brand });
  Object.defineProperty(errorClass.prototype, brand, { value: true });
}

/** The retry advice a Glass error carries when the daemon gives none (§1). */
export const DEFAULT_RETRY_ADVICE: Readonly<GlassRetryAdvice> = Object.freeze({
  classification: "safeAfterReobserve",
  recommendedOperation: "inspect_page",
});

/** What a {@link GlassError} is made from: the wire error object plus where it happened. */
export interface GlassErrorInit {
  /**
   * Machine-readable code: an SDK one (`request.invalid`, see {@link GlassErrorCode}), a lease code,
   * or any code a daemon sends (`staleRevision`, `task.invalid`).
   */
  code: GlassErrorCode | LeaseErrorCode | (string & {});
  /** What went wrong, in words; the error's message adds the operation and request id. */
  message: string;
  /** How far the operation got before it failed; `preflight` when absent. */
  phase?: GlassErrorPhase;
  /** Whether the operation may have changed the page; `false` when absent. */
  mutationPossible?: boolean;
  /** The daemon's retry advice; `{safeAfterReobserve, inspect_page}` when absent. */
  retry?: GlassRetryAdvice;
  /** Legacy retry flag, when the daemon sent one. */
  retryable?: boolean;
  /** Structured details (for validation errors `{kind, path, reason}` or `{kind, issues}`). */
  details?: unknown;
  /** The operation that failed, e.g. `browser.click`. */
  operation?: string;
  /** The id of the request that failed. */
  requestId?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of glass-sdk: every failure a caller sees is a GlassError carrying the Glass
 * error fields (`code`, `phase`, `mutationPossible`, `retry`, `retryable`, `details`) and where it
 * happened (`operation`, `requestId`). Its message reads
 * `glass.browser.click: staleRevision — the observation revision is no longer current (request r-12)`,
 * on one line: control characters a daemon or a page put in the text (ANSI and OSC escape
 * sequences, carriage returns, line breaks) are written out as visible escapes (`\u001b`, `\n`).
 */
export class GlassError extends Error {
  /**
   * Machine-readable error code: one of {@link GlassErrorCode} or {@link LeaseErrorCode} (editors
   * complete these), or any other code the daemon sent (`staleRevision`, `task.invalid`, …).
   */
  readonly code: GlassErrorCode | LeaseErrorCode | (string & {});
  /** How far the operation got before it failed. */
  readonly phase: GlassErrorPhase;
  /** Whether the operation may have changed the page: if true, re-observe before deciding anything. */
  readonly mutationPossible: boolean;
  /** The retry advice (the daemon's, or the protocol default). */
  readonly retry: GlassRetryAdvice;
  /** Legacy retry flag, when the daemon sent one. */
  readonly retryable: boolean | undefined;
  /** Structured details. */
  readonly details: unknown;
  /** The failed operation, when known. */
  readonly operation: string | undefined;
  /** The failed request's id, when known. */
  readonly requestId: string | undefined;
  /**
   * The daemon's (or the SDK's) own message, without the operation and request id. Control
   * characters are written out as visible escapes, except tab and line feed (a quoted stderr keeps
   * its lines).
   */
  readonly rawMessage: string;

  constructor(init: GlassErrorInit) {
    super(neutraliseControls(formatMessage(init)), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "GlassError";
    this.code = init.code;
    this.phase = init.phase ?? "preflight";
    this.mutationPossible = init.mutationPossible ?? false;
    this.retry = init.retry ?? DEFAULT_RETRY_ADVICE;
    this.retryable = init.retryable;
    this.details = init.details;
    this.operation = init.operation;
    this.requestId = init.requestId;
    this.rawMessage = neutraliseControls(init.message, { keepLineBreaks: true });
  }

  /** True for instances of this class (or a subclass) from any copy of glass-sdk in this process. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = Object.hasOwn(this, BRAND) ? (this as unknown as Record<symbol, symbol>)[BRAND] : undefined;
    if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }

  /** The wire form of this error, as a Glass response's `error` object carries it. */
  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.rawMessage,
      phase: this.phase,
      mutationPossible: this.mutationPossible,
      retry: this.retry,
      ...(this.retryable === undefined ? {} : { retryable: this.retryable }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

brandErrorClass(GlassError, "GlassError");

function formatMessage(init: GlassErrorInit): string {
  // An MCP method (`glass/lease/acquire`, `tools/list`) names itself; an operation is a client method (`glass.browser.click`).
  const where =
    init.operation === undefined ? "glass" : init.operation.includes("/") ? init.operation : `glass.${init.operation}`;
  const request = init.requestId === undefined ? "" : ` (request ${init.requestId})`;
  return `${where}: ${init.code} — ${init.message}${request}`;
}
