import {
  BadFrameError,
  OverloadedError,
  requestInvalid,
  TransportClosedError,
  TransportUnavailableError,
} from "../errors/error-classes.js";
import type { GlassError } from "../errors/glass-error.js";
import { isJsonRpcMessage, type JsonRpcMessage } from "../mcp/json-rpc.js";
import { createRedactor, describeError } from "../errors/redact.js";
import { utf8Length } from "../validation/byte-length.js";
import type { TransportHandlers } from "./transport.js";

/** Helpers the transports share. */

/** `maxInFlight` (default 4), checked. */
export function checkMaxInFlight(given: number | undefined): number {
  const value = given ?? 4;
  if (Number.isInteger(value) && value > 0) return value;
  throw requestInvalid(`maxInFlight must be a positive integer; got ${String(value)}`);
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
  return requestInvalid(`the message cannot be encoded as JSON: ${describeError(error)}`, { cause: error });
}

/** A TransportClosedError with a message (and the error behind it, if any). */
export const closed = (message: string, cause?: unknown): TransportClosedError =>
  new TransportClosedError({ message, cause });

/** Why a message offered to a closed transport failed. */
export const NOT_SENT = "the transport is closed; the message was not sent";
/** Why `start()` failed on a transport closed before it started. */
export const CLOSED_BEFORE_START = "the transport was closed before it started";

/** What `start()` rejects with when called twice. */
export const startedTwice = (): TransportUnavailableError =>
  new TransportUnavailableError({ message: "start() was already called: a transport is started once" });

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
export function messagesIn(
  text: string,
  what: string,
  handlers: TransportHandlers | undefined,
  batch?: boolean,
): JsonRpcMessage[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    reportBadFrame(handlers, `${what} is not valid JSON: ${describeError(error)}`, error);
    return [];
  }
  return (batch && Array.isArray(parsed) ? parsed : [parsed]).filter((item): item is JsonRpcMessage => {
    if (isJsonRpcMessage(item)) return true;
    reportBadFrame(handlers, `${what} holds JSON but not a JSON-RPC 2.0 message`);
    return false;
  });
}

/** Whether `text` is longer than `maxBytes` in UTF-8, counting only when its length leaves doubt. */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  return text.length * 3 > maxBytes && utf8Length(text) > maxBytes;
}

/**
 * The error of a send refused because the peer stopped reading: `queuedBytes` already wait for it
 * and the message would take the queue past `maxBytes`. Nothing was sent.
 */
export function peerNotReading(peer: string, queuedBytes: number, maxBytes: number): OverloadedError {
  return new OverloadedError({
    message:
      `${peer} is not reading what it is sent: ${queuedBytes} bytes already wait to be written to it, and at most ${maxBytes} may; ` +
      "the message was NOT sent. Retry later; if this persists, the peer is stuck: close the connection and open a new one",
    details: { queuedBytes, maxQueuedBytes: maxBytes },
  });
}

/** Does nothing: the handler for a rejection or an event that needs no action. */
export function ignore(): void {}

/** The shortest password or credential parameter of a URL that a transport's `redact` looks for on its own. */
const MIN_URL_SECRET = 4;

/** Query and fragment parameters of a URL whose value is a credential (`token`, `access_token`, `api_key`, `password`, `auth` …). */
const CREDENTIAL_PARAMETER = /^(?:[a-z0-9_.-]*(?:token|key|secret|password)|auth)$/i;

/**
 * The scrubbing of a transport that reaches `url` with `token` (its `redact`): the token, the
 * URL's password and the values of its credential parameters (`?token=`, `#access_token=` …; of
 * {@link MIN_URL_SECRET} characters or more, so that a placeholder like `x` leaves messages
 * readable) are replaced by `[redacted]` wherever a peer echoes them (as written,
 * JSON-escaped or percent-encoded), besides every credential carried the usual ways (see
 * `createRedactor`).
 */
export function transportRedactor(url: string, token: string | undefined): (text: string) => string {
  const secrets: string[] = token === undefined ? [] : [token];
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    if (parsed.password.length >= MIN_URL_SECRET) secrets.push(parsed.password, safeDecode(parsed.password));
    const fragment = new URLSearchParams(parsed.hash.slice(1));
    for (const params of [parsed.searchParams, fragment])
      params.forEach(
        (value, name) => CREDENTIAL_PARAMETER.test(name) && value.length >= MIN_URL_SECRET && secrets.push(value),
      );
  }
  return createRedactor(secrets);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
