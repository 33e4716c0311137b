import { JsonRpcErrorCode, type JsonRpcFailure, type JsonRpcId, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import { FrameLimits } from "../framing/frame-limits.js";
import { rpcErrorResponse } from "./client-message.js";

/** The largest message the bridge relays to a client: the daemon's own response limit (32 MiB). */
export const MAX_RELAYED_BYTES: number = FrameLimits.maxResponseBytes;

/** A message as it goes to a client (its JSON text and that text's UTF-8 length), or why it cannot go. */
export type RelayText = { ok: true; text: string; bytes: number } | { ok: false; problem: string };

/**
 * The JSON text of a message for a client. A message the daemon sent may have no text within
 * bounds: nested so deeply that serialising it exhausts the call stack (the frame reader parses
 * any depth; `JSON.stringify` does not write it back), or larger than {@link MAX_RELAYED_BYTES}
 * once serialised. Never throws: that is reported as the problem, for the caller to fail the one
 * call (or the one connection) it belongs to.
 */
export function relayText(message: JsonRpcMessage): RelayText {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    return { ok: false, problem: unserialisable(error) };
  }
  if (text === undefined) return { ok: false, problem: "it has no JSON form" };
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_RELAYED_BYTES) return { ok: false, problem: `it is ${bytes} bytes, over the ${MAX_RELAYED_BYTES} bytes the bridge relays` };
  return { ok: true, text, bytes };
}

/** What a client gets for its request when the daemon's answer to it cannot be relayed (-32603, with its id). */
export function unrelayableAnswer(id: JsonRpcId | null, problem: string): JsonRpcFailure {
  return rpcErrorResponse(id, JsonRpcErrorCode.InternalError, `the daemon's answer could not be relayed: ${problem}`);
}

function unserialisable(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return "it is nested too deeply to serialise";
  return `it cannot be serialised (${error instanceof Error ? error.message : String(error)})`;
}
