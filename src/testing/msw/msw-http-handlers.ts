import { http, HttpResponse, type HttpHandler } from "msw";
import { JsonRpcErrorCode, jsonRpcFailure, type JsonRpcId, type JsonRpcMessage } from "../../mcp/json-rpc.js";
import { McpHttpHeader } from "../../transport/mcp-http-headers.js";
import { isJsonObject } from "../../validation/json-value.js";
import { usableId } from "../../mock-daemon/json-rpc-replies.js";
import type { GoldenFixture } from "../../mock-daemon/golden-fixture.js";
import { HttpReplaySession, type HttpExchangeOutcome } from "./http-replay-session.js";
import { createReplayDaemonContext, type ReplayDaemonOptions } from "../replay-daemon.js";
import type { ReplayEngine } from "../../mock-daemon/replay-engine.js";

/** Options of {@link createGlassHandlers}. */
export interface GlassHandlersOptions extends ReplayDaemonOptions {
  /**
   * What answers tool calls of operations without a handler (see `handlers`): a golden fixture, or
   * a replay engine over one (exact matches). Without it, only the handlers answer.
   */
  fixture?: GoldenFixture | ReplayEngine;
  /** The MCP endpoint to serve, e.g. `http://glass.test/mcp` (any MSW path: `*` and `:param` work). */
  url: string;
  /**
   * When set, every request must carry `Authorization: Bearer <token>`, as the glass-sdk bridge
   * requires; others get 401 with a `WWW-Authenticate: Bearer` challenge.
   */
  token?: string;
}

/** The header of MCP Streamable HTTP that names the session. */
const SESSION_HEADER = McpHttpHeader.sessionId;

/** JSON-RPC code of "session not found" (the MCP TypeScript SDK's). */
const SESSION_NOT_FOUND = -32001;

/** JSON-RPC code of a refusal at the HTTP level (as the bridge answers: -32000 unless a more precise one applies). */
const REFUSED = -32000;

/**
 * MSW handlers that serve the replay daemon over MCP Streamable HTTP at `url` (JSON responses, no
 * SSE stream):
 *
 * - `POST` carries one JSON-RPC message. An `initialize` without `Mcp-Session-Id` opens a session
 *   (an MCP server session of the mock daemon) and its successful answer carries the new
 *   `Mcp-Session-Id`; every other message must carry a known one (missing → 400, unknown or
 *   deleted → 404 with a JSON-RPC error). A request is answered with its JSON-RPC response
 *   (`application/json`, 200); a notification or a response gets 202 with no body; a body that is
 *   not JSON gets 400 with -32700, a batch 400 with -32600.
 * - `DELETE` with `Mcp-Session-Id` ends the session (200; its lease is released).
 * - `GET` (an SSE stream for daemon-initiated messages) is not offered: 405.
 *
 * The sessions of one set of handlers share one daemon (its limits, faults and — with
 * `mode: "socket"` — its one mutation lease). A crash fault drops every session: POSTs waiting for
 * an answer fail as network errors, later ones get 404.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { Glass, httpTransport } from "glass-sdk";
 * import { goldenFixture } from "glass-sdk/testing";
 * import { createGlassHandlers } from "glass-sdk/testing/msw";
 *
 * const fixture = await goldenFixture();
 * const server = setupServer(...createGlassHandlers({ fixture, url: "http://glass.test/mcp" }));
 * server.listen();
 * const glass = await Glass.connect(httpTransport({ url: "http://glass.test/mcp" }));
 * ```
 */
export function createGlassHandlers(options: GlassHandlersOptions): HttpHandler[] {
  const context = createReplayDaemonContext(options.fixture, options);
  const sessions = new Map<string, HttpReplaySession>();
  let clients = 0;
  context.crash = () => {
    for (const session of sessions.values()) session.close();
    sessions.clear();
    context.leases?.reset();
  };
  const unauthorized = (request: Request): Response | undefined =>
    options.token === undefined ? undefined : checkBearer(request, options.token);

  return [
    http.post(options.url, async ({ request }) => {
      const refused = unauthorized(request) ?? checkAccept(request);
      if (refused !== undefined) return refused;
      let message: unknown;
      try {
        message = JSON.parse(await request.text());
      } catch {
        return rpcErrorResponse(400, null, JsonRpcErrorCode.ParseError, "parse error: the body is not JSON");
      }
      if (!isJsonObject(message)) {
        const what = Array.isArray(message)
          ? "JSON-RPC batches are not supported: send one message per POST"
          : "the body must be one JSON-RPC message object";
        return rpcErrorResponse(400, null, JsonRpcErrorCode.InvalidRequest, what);
      }
      const sessionId = request.headers.get(SESSION_HEADER);
      if (sessionId === null) {
        if (message.method !== "initialize") {
          return rpcErrorResponse(
            400,
            idOf(message),
            REFUSED,
            "bad request: the Mcp-Session-Id header is required; send initialize first to open a session",
          );
        }
        const session = new HttpReplaySession(context, `http-${++clients}`);
        const outcome = await session.exchange(message, request.signal);
        if (outcome.kind === "answer" && "result" in outcome.message) {
          const id = globalThis.crypto.randomUUID();
          sessions.set(id, session);
          return HttpResponse.json(outcome.message, { headers: { [SESSION_HEADER]: id } });
        }
        session.close();
        return respond(outcome);
      }
      const session = sessions.get(sessionId);
      if (session === undefined) {
        return rpcErrorResponse(
          404,
          idOf(message),
          SESSION_NOT_FOUND,
          "session not found: it was deleted, or never existed; send initialize to open a new one",
        );
      }
      return respond(await session.exchange(message, request.signal));
    }),

    http.delete(options.url, ({ request }) => {
      const refused = unauthorized(request);
      if (refused !== undefined) return refused;
      const sessionId = request.headers.get(SESSION_HEADER);
      if (sessionId === null)
        return rpcErrorResponse(400, null, REFUSED, "bad request: the Mcp-Session-Id header is required");
      const session = sessions.get(sessionId);
      if (session === undefined)
        return rpcErrorResponse(404, null, SESSION_NOT_FOUND, "session not found: it was deleted, or never existed");
      sessions.delete(sessionId);
      session.close();
      context.record.changed();
      return new HttpResponse(null, { status: 200 });
    }),

    http.get(options.url, ({ request }) => {
      const refused = unauthorized(request);
      if (refused !== undefined) return refused;
      return rpcErrorResponse(
        405,
        null,
        REFUSED,
        "method not allowed: this endpoint offers no SSE stream; POST each message",
        { Allow: "POST, DELETE" },
      );
    }),
  ];
}

/** The HTTP response for what became of a POSTed message. */
function respond(outcome: HttpExchangeOutcome): Response {
  switch (outcome.kind) {
    case "accepted":
      return new HttpResponse(null, { status: 202 });
    case "gone":
      return HttpResponse.error();
    case "answer":
      // An error about the message itself (id null) means the message was unusable.
      return HttpResponse.json(outcome.message, { status: isAboutNoRequest(outcome.message) ? 400 : 200 });
  }
}

function isAboutNoRequest(message: JsonRpcMessage): boolean {
  return "error" in message && message.id === null;
}

/** 401 unless the request carries `Authorization: Bearer <token>`. */
function checkBearer(request: Request, token: string): Response | undefined {
  const header = request.headers.get("Authorization");
  const presented = header === null ? undefined : /^bearer[ \t]+([^ \t]+)[ \t]*$/i.exec(header)?.[1];
  if (presented === token) return undefined;
  const reason =
    header === null
      ? "missing token: send Authorization: Bearer <token>"
      : presented === undefined
        ? "the Authorization header is not a Bearer token"
        : "wrong token";
  return rpcErrorResponse(401, null, REFUSED, reason, { "WWW-Authenticate": 'Bearer realm="glass-sdk testing"' });
}

/** 406 when the client says it takes neither JSON nor anything (`Accept` absent is fine). */
function checkAccept(request: Request): Response | undefined {
  const accept = request.headers.get("Accept");
  if (accept === null || /application\/json|application\/\*|\*\/\*/i.test(accept)) return undefined;
  return rpcErrorResponse(
    406,
    null,
    REFUSED,
    "not acceptable: this endpoint answers with application/json; include it in Accept",
  );
}

/** The id of a message, when it is usable in an answer. */
function idOf(message: Record<string, unknown>): JsonRpcId | null {
  return usableId(message.id) ?? null;
}

function rpcErrorResponse(
  status: number,
  id: JsonRpcId | null,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Response {
  return HttpResponse.json(jsonRpcFailure(id, code, message), {
    status,
    ...(headers === undefined ? {} : { headers }),
  });
}
