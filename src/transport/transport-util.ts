import { BadFrameError, TransportClosedError, TransportUnavailableError } from "../errors/error-classes.js";
import { GlassErrorCode } from "../errors/error-codes.js";
import { GlassError } from "../errors/glass-error.js";
import type { JsonRpcMessage } from "../mcp/json-rpc.js";
import { redactUrl } from "./redact-url.js";
import type { TransportHandlers } from "./transport.js";

/** Helpers the transports share. */

/** A JSON object with `jsonrpc: "2.0"`: the shape of every JSON-RPC message (the session checks the rest). */
export function isMessage(value: unknown): value is JsonRpcMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** A GlassError for an option or message the caller must fix. */
export function invalid(message: string): GlassError {
  return new GlassError({ code: GlassErrorCode.RequestInvalid, message, retry: { classification: "notRetryable", recommendedOperation: "fix_request" } });
}

/** `maxInFlight` (default 4), checked. */
export function checkMaxInFlight(given: number | undefined): number {
  const value = given ?? 4;
  if (Number.isInteger(value) && value > 0) return value;
  throw invalid(`maxInFlight must be a positive integer; got ${String(value)}`);
}

/** `JSON.stringify(message)`, or a GlassError saying why it cannot be encoded. */
export function encode(message: JsonRpcMessage): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    throw notEncodable(error);
  }
}

/** The GlassError for a message `JSON.stringify` refused (`error` says why: a BigInt, a cycle). */
export function notEncodable(error: unknown): GlassError {
  return new GlassError({ code: GlassErrorCode.RequestInvalid, message: `the message cannot be encoded as JSON: ${describe(error)}`, cause: error });
}

/** A TransportClosedError with a message (and the error behind it, if any). */
export const closed = (message: string, cause?: unknown): TransportClosedError => new TransportClosedError({ message, cause });

/** Why a message offered to a closed transport failed. */
export const NOT_SENT = "the transport is closed; the message was not sent";
/** Why `start()` failed on a transport closed before it started. */
export const CLOSED_BEFORE_START = "the transport was closed before it started";

/** What `start()` rejects with when called twice. */
export const startedTwice = (): TransportUnavailableError => new TransportUnavailableError({ message: "start() was already called: a transport is started once" });

/** Runs an owner's handler; an exception it throws is reported asynchronously, never to the transport. */
export function callHandler(handler: () => void): void {
  try {
    handler();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** Tells the owner (if it listens) that a frame was skipped; the connection goes on. */
export function reportBadFrame(handlers: TransportHandlers | undefined, message: string, cause?: unknown): void {
  if (handlers?.onError === undefined) return;
  const error = new BadFrameError({ message, phase: "dispatch", cause });
  callHandler(() => handlers.onError?.(error));
}

/**
 * The JSON-RPC messages in `text`: one, or with `batch` an array of them. What is not one is
 * reported as a bad frame (`what` names the frame) and left out.
 */
export function messagesIn(text: string, what: string, handlers: TransportHandlers | undefined, batch?: boolean): JsonRpcMessage[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    reportBadFrame(handlers, `${what} is not valid JSON: ${describe(error)}`, error);
    return [];
  }
  return (batch && Array.isArray(parsed) ? parsed : [parsed]).filter((item): item is JsonRpcMessage => {
    if (isMessage(item)) return true;
    reportBadFrame(handlers, `${what} holds JSON but not a JSON-RPC 2.0 message`);
    return false;
  });
}

/** An error's message (and its cause's), with any credentials in URLs redacted. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return redactUrl(String(error));
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return redactUrl(cause === undefined || cause === error.message ? error.message : `${error.message} (${cause})`);
}

/** Does nothing: the handler for a rejection or an event that needs no action. */
export function ignore(): void {}
