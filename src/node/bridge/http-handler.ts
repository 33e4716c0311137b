import type { IncomingMessage, ServerResponse } from "node:http";
import { JsonRpcErrorCode, type JsonRpcRequest, type JsonRpcResponse } from "../../mcp/json-rpc.js";
import { GlassError } from "../../errors/glass-error.js";
import { admitRequest, requestPath } from "./admission.js";
import { shortId, type BridgeContext } from "./bridge-context.js";
import { parseClientMessage, type ClientMessage } from "./messages.js";
import { corsHeaders, preflightHeaders } from "./cors.js";
import { reply, replyRefusal } from "./http-replies.js";
import { HttpSession } from "./http-session.js";
import { readBody } from "./read-body.js";
import { relayText, unrelayableAnswer } from "./messages.js";
import { refusal, type Refusal } from "./refusal.js";
import { checkToken, httpRequestTokens } from "./request-token.js";

/** The header that names an HTTP session. */
const SESSION_HEADER = "mcp-session-id";
/** What `Allow` says on a 405. */
const ALLOW = { Allow: "POST, DELETE, OPTIONS" } as const;

/**
 * The bridge's HTTP side: MCP Streamable HTTP at `/mcp`, answering every POSTed request with
 * `application/json`. Order of checks, before anything reaches the daemon: Host (403), Origin
 * (403), path (404), CORS preflight (answered without a token), token (401), method (405),
 * Content-Type (415), Accept (406), body size (413), JSON-RPC shape (400), session (400/404), the
 * client cap for a new session (503).
 */
export function createHttpHandler(context: BridgeContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handleRequest(context, req, res).catch((error: unknown) => {
      context.log(`internal error on ${req.method ?? "?"} ${requestPath(req)}: ${error instanceof Error ? error.message : String(error)}`);
      reply(req, res, 500, JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: JsonRpcErrorCode.InternalError, message: "internal bridge error" } }), {
        closeConnection: true,
      });
    });
  };
}

/** The client's address, for log lines. */
export function peerOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

async function handleRequest(context: BridgeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refuse = (refused: Refusal, closeConnection: boolean): void => {
    context.log(`refused ${req.method ?? "?"} ${requestPath(req)} from ${peerOf(req)}: ${refused.reason} (${refused.status})`);
    replyRefusal(req, res, refused, closeConnection);
  };

  for (const [name, value] of Object.entries(corsHeaders(req, context.options.allowedOrigins))) res.setHeader(name, value);
  const admission = admitRequest(req, context.options, context.port);
  if (admission !== undefined) return refuse(admission, true);
  if (req.method === "OPTIONS") return reply(req, res, 204, undefined, { headers: { ...preflightHeaders(req, context.options.allowedOrigins), ...ALLOW } });
  const tokenRefusal = checkToken(httpRequestTokens(req), context.options.token, "http");
  if (tokenRefusal !== undefined) return refuse(tokenRefusal, true);
  context.connections.authenticated(req.socket);

  switch (req.method) {
    case "POST":
      return handlePost(context, req, res, refuse);
    case "DELETE":
      return handleDelete(context, req, res, refuse);
    case "GET":
      return refuse(refusal(405, "Method not allowed: this bridge offers no server-to-client SSE stream (POST requests; use WebSocket for server requests)", ALLOW), false);
    default:
      return refuse(refusal(405, `Method not allowed: ${req.method ?? "?"}`, ALLOW), true);
  }
}

type Refuse = (refused: Refusal, closeConnection: boolean) => void;

async function handlePost(context: BridgeContext, req: IncomingMessage, res: ServerResponse, refuse: Refuse): Promise<void> {
  if (!isJsonMediaType(req.headers["content-type"])) return refuse(refusal(415, "Unsupported Media Type: Content-Type must be application/json"), true);
  if (!acceptsJson(req.headers.accept)) return refuse(refusal(406, "Not Acceptable: the bridge answers with application/json"), true);

  const body = await readBody(req, context.options.maxBodyBytes);
  if (body.kind === "aborted") return;
  if (body.kind === "tooLarge") return refuse(refusal(413, `Payload Too Large: the body must not exceed ${context.options.maxBodyBytes} bytes`), true);

  const parsed = parseClientMessage(body.bytes);
  if (parsed.kind === "invalid") {
    return refuse({ status: 400, rpcCode: parsed.error.error.code, reason: parsed.error.error.message }, false);
  }
  const sessionId = req.headers[SESSION_HEADER];
  if (parsed.kind === "request" && parsed.message.method === "initialize") {
    if (sessionId !== undefined) {
      return refuse({ status: 400, rpcCode: JsonRpcErrorCode.InvalidRequest, reason: "Invalid Request: initialize starts a new session; send it without an Mcp-Session-Id header" }, false);
    }
    return startSession(context, req, res, parsed.message, body.bytes.length, refuse);
  }
  const session = findSession(context, sessionId, refuse);
  if (session === undefined) return;
  return forward(context, req, res, session, parsed, body.bytes.length);
}

async function handleDelete(context: BridgeContext, req: IncomingMessage, res: ServerResponse, refuse: Refuse): Promise<void> {
  const session = findSession(context, req.headers[SESSION_HEADER], refuse);
  if (session === undefined) return;
  await session.terminate();
  reply(req, res, 200, undefined);
}

/** The running HTTP session the request names, or `undefined` after refusing (400 without a session id, 404 for an unknown one). */
function findSession(context: BridgeContext, sessionId: string | string[] | undefined, refuse: Refuse): HttpSession | undefined {
  if (typeof sessionId !== "string" || sessionId === "") {
    refuse(refusal(400, "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)"), false);
    return undefined;
  }
  const session = context.sessions.httpSession(sessionId);
  if (!(session instanceof HttpSession) || session.isEnded) {
    // -32001 and 404, as the official SDK answers: clients take it as "session expired" and start over.
    refuse({ status: 404, rpcCode: -32001, reason: "Session not found: it ended or expired; initialize a new session" }, false);
    return undefined;
  }
  return session;
}

/** `initialize` without a session: take a place, open a daemon connection, forward, and name the session in the answer. */
async function startSession(context: BridgeContext, req: IncomingMessage, res: ServerResponse, message: JsonRpcRequest, bytes: number, refuse: Refuse): Promise<void> {
  if (context.closing) return refuse(refusal(503, "Service Unavailable: the bridge is shutting down"), false);
  const slot = context.sessions.reserve();
  if (slot === undefined) {
    const max = context.sessions.maxClients;
    return refuse(refusal(503, `Service Unavailable: the bridge already serves ${max} client session${max === 1 ? "" : "s"} (its limit); end one (DELETE /mcp) or retry later`, { "Retry-After": "5" }), false);
  }
  let session: HttpSession;
  try {
    session = await HttpSession.open(context, slot, peerOf(req));
  } catch (error) {
    context.log(`could not open a daemon connection for ${peerOf(req)}: ${error instanceof GlassError ? error.rawMessage : String(error)}`);
    return refuse(refusal(502, "Bad Gateway: the bridge could not reach the Glass daemon"), false);
  }
  const response = await answerFor(res, session, message, bytes);
  const body = answerBody(context, session, response);
  if ("error" in response || body.failed) {
    await session.close(`initialize failed: ${"error" in response ? response.error.message : "its answer could not be relayed"}`);
    return reply(req, res, 200, body.text);
  }
  reply(req, res, 200, body.text, { headers: { "Mcp-Session-Id": session.id } });
}

/** A message in a running session: requests are answered with the daemon's response; notifications and responses get 202. */
async function forward(context: BridgeContext, req: IncomingMessage, res: ServerResponse, session: HttpSession, parsed: ClientMessage, bytes: number): Promise<void> {
  const headers = { "Mcp-Session-Id": session.id };
  switch (parsed.kind) {
    case "request": {
      const response = await answerFor(res, session, parsed.message, bytes);
      return reply(req, res, 200, answerBody(context, session, response).text, { headers });
    }
    case "notification":
      try {
        await session.notify(parsed.message, bytes);
      } catch {
        context.log(`session ${shortId(session.id)}: a notification could not be forwarded (the daemon connection closed)`);
      }
      return reply(req, res, 202, undefined, { headers });
    case "response":
      // The bridge never relays the daemon's requests to HTTP clients (it answers them itself), so
      // there is nothing to deliver an HTTP client's response to.
      return reply(req, res, 202, undefined, { headers });
  }
}

/**
 * The body of the answer to a request: the daemon's response, or — when that has no JSON text
 * within bounds (nested too deeply to serialise, over 32 MiB) — -32603 for the request's id, as
 * a WebSocket client would get it. Either way a JSON-RPC answer with status 200, never a 500.
 */
function answerBody(context: BridgeContext, session: HttpSession, response: JsonRpcResponse): { text: string; failed: boolean } {
  const relayed = relayText(response);
  if (relayed.ok) return { text: relayed.text, failed: false };
  context.log(`session ${shortId(session.id)}: a daemon answer could not be relayed to the client: ${relayed.problem}`);
  return { text: JSON.stringify(unrelayableAnswer(response.id, relayed.problem)), failed: true };
}

/** Forwards a request; if the HTTP client disconnects first, the daemon is told to cancel it. */
function answerFor(res: ServerResponse, session: HttpSession, message: JsonRpcRequest, bytes: number): ReturnType<HttpSession["request"]> {
  const answer = session.request(message, bytes);
  const onClose = (): void => {
    if (!res.writableFinished) session.abandon(message.id);
  };
  res.once("close", onClose);
  void answer.then(() => res.off("close", onClose));
  return answer;
}

/** True for `application/json` (any parameters, any case). */
function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** True when an `Accept` header is absent or takes JSON (`application/json`, `application/*`, `*\/*`). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept
    .split(",")
    .map((range) => range.split(";")[0]!.trim().toLowerCase())
    .some((range) => range === "application/json" || range === "application/*" || range === "*/*");
}
