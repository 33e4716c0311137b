// The requests the HTTP transport makes, and what each carries: the method, the protocol's headers
// (MCP 2025-11-25, Streamable HTTP), the body as UTF-8 and the timeout of its status. Sending is the
// transport's (through ky); this module only says what to send.

import { isJsonRpcRequest, type JsonRpcMessage } from "../mcp/json-rpc.js";
import { mayMutate } from "./http-retry.js";
import { McpHttpHeader } from "./mcp-http-headers.js";
import { encode } from "./transport-util.js";

/**
 * One request to the MCP endpoint: the POST of a message; the GET that resumes an SSE stream (a
 * call's, or the server's standalone stream) after its event `lastEventId`; the GET that opens the
 * server's standalone stream (again, when the last one brought no event id); the DELETE that ends
 * the session.
 */
export type HttpRequest =
  | { kind: "post"; message: JsonRpcMessage }
  | { kind: "resume"; lastEventId: string }
  | { kind: "serverStream" }
  | { kind: "endSession" };

/** The session a request names, when one was assigned and negotiated. */
export interface SessionHeaders {
  readonly id: string | undefined;
  readonly protocolVersion: string | undefined;
}

/** How a request goes out: what the transport hands to ky. */
export interface RequestPlan {
  method: "POST" | "GET" | "DELETE";
  /** Lower-cased names: the caller's headers and `authorization`, then the protocol's. */
  headers: Record<string, string>;
  /** A POST's message as UTF-8, encoded once. */
  body: Uint8Array<ArrayBuffer> | undefined;
  /** The longest wait for the status, in milliseconds; `false` for none. */
  timeout: number | false;
}

/** How long `close()` waits for the server to answer the DELETE that ends the session. */
const END_SESSION_TIMEOUT_MS = 2000;

const utf8 = new TextEncoder();

/**
 * What `request` sends: `baseHeaders` (the caller's and the token's) plus the protocol's — the
 * session's id and version on every request but `initialize`, `Accept` for JSON or SSE, and
 * `Last-Event-ID` on a resuming GET. A POST that cannot change the page has `requestTimeoutMs`
 * (when given); a mutation and a GET have no timeout (only the call's deadline ends them); the
 * DELETE waits {@link END_SESSION_TIMEOUT_MS}.
 */
export function planRequest(
  request: HttpRequest,
  baseHeaders: Readonly<Record<string, string>>,
  session: SessionHeaders,
  requestTimeoutMs: number | undefined,
): RequestPlan {
  const headers = { ...baseHeaders };
  const isInitialize =
    request.kind === "post" && isJsonRpcRequest(request.message) && request.message.method === "initialize";
  if (!isInitialize) {
    if (session.id !== undefined) headers[McpHttpHeader.sessionId] = session.id;
    if (session.protocolVersion !== undefined) headers[McpHttpHeader.protocolVersion] = session.protocolVersion;
  }
  switch (request.kind) {
    case "post": {
      // The body goes as UTF-8 bytes, encoded here once: handed a string, fetch converts it to
      // well-formed UTF-16 (a pass over all of it; JSON.stringify's output already is) and then
      // encodes it, and its length in bytes would need one more pass.
      const body = utf8.encode(encode(request.message));
      headers["content-type"] = "application/json";
      headers.accept = "application/json, text/event-stream";
      const timeout = mayMutate(request.message) ? false : (requestTimeoutMs ?? false);
      return { method: "POST", headers, body, timeout };
    }
    case "resume":
    case "serverStream":
      headers.accept = "text/event-stream";
      if (request.kind === "resume") headers[McpHttpHeader.lastEventId] = request.lastEventId;
      // A GET has no timeout of its own: like a mutation's answer, only the call's deadline ends it.
      return { method: "GET", headers, body: undefined, timeout: false };
    case "endSession":
      return { method: "DELETE", headers, body: undefined, timeout: END_SESSION_TIMEOUT_MS };
  }
}
