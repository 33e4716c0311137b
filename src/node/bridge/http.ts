/**
 * The bridge's HTTP side: MCP Streamable HTTP at `/mcp` (the request handler and its checks, the
 * HTTP session behind an `Mcp-Session-Id`, replies, and reading a body within its limit).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SlotTable } from "../../collections/slot-table.js";
import { GlassError } from "../../errors/glass-error.js";
import {
  isJsonRpcRequest,
  isJsonRpcResponse,
  JsonRpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../mcp/json-rpc.js";
import { DAEMON_MCP_VERSIONS } from "../../mcp/mcp-versions.js";
import { truncateUtf8 } from "../../mcp/utf8-truncate.js";
import { McpHttpHeader } from "../../transport/mcp-http-headers.js";
import { ignore } from "../../transport/transport-util.js";
import { parseClientMessage, relayText, rpcErrorResponse, unrelayableAnswer, type ClientMessage } from "./messages.js";
import {
  admitRequest,
  checkToken,
  corsHeaders,
  httpRequestTokens,
  preflightHeaders,
  quoteHeader,
  refusal,
  refusalBody,
  requestPath,
  type Refusal,
} from "./security.js";
import {
  daemonRefusalReason,
  REQUESTS_IN_FLIGHT_PER_SESSION,
  shortId,
  UpstreamSession,
  type BridgeContext,
  type SessionEndCause,
  type SessionSlot,
} from "./sessions.js";

/** The header that names an HTTP session. */
const SESSION_HEADER = McpHttpHeader.sessionId;
/** The header that names the MCP revision of each request after initialize. */
const VERSION_HEADER = McpHttpHeader.protocolVersion;
/** What `Allow` says on a 405. */
const ALLOW = { Allow: "POST, DELETE, OPTIONS" } as const;

/**
 * The bridge's HTTP side: MCP Streamable HTTP at `/mcp`, answering every POSTed request with
 * `application/json`. Order of checks, before anything reaches the daemon: Host (403), Origin
 * (403), path (404), CORS preflight (answered without a token), token (401), method (405),
 * Content-Type (415), Accept (406), body size (413), JSON-RPC shape (400), session (400/404),
 * `MCP-Protocol-Version` after initialize (400), the client cap for a new session (503, unless a
 * session idle long enough gives way). A new session whose daemon connection the daemon closes
 * before answering, as it does past its own client limit, is refused with 503 too.
 */
export function createHttpHandler(context: BridgeContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handleRequest(context, req, res).catch((error: unknown) => {
      context.log(
        `internal error on ${req.method ?? "?"} ${requestPath(req)}: ${error instanceof Error ? error.message : String(error)}`,
      );
      reply(
        req,
        res,
        500,
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: JsonRpcErrorCode.InternalError, message: "internal bridge error" },
        }),
        {
          closeConnection: true,
        },
      );
    });
  };
}

/** The client's address, for log lines. */
function peerOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

async function handleRequest(context: BridgeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refuse = (refused: Refusal, closeConnection: boolean): void => {
    context.log(
      `refused ${req.method ?? "?"} ${requestPath(req)} from ${peerOf(req)}: ${refused.reason} (${refused.status})`,
    );
    replyRefusal(req, res, refused, closeConnection);
  };

  for (const [name, value] of Object.entries(corsHeaders(req, context.options.allowedOrigins)))
    res.setHeader(name, value);
  const admission = admitRequest(req, context.options, context.port);
  if (admission !== undefined) return refuse(admission, true);
  if (req.method === "OPTIONS")
    return reply(req, res, 204, undefined, {
      headers: { ...preflightHeaders(req, context.options.allowedOrigins), ...ALLOW },
    });
  const tokenRefusal = checkToken(httpRequestTokens(req), context.options.token, "http");
  if (tokenRefusal !== undefined) return refuse(tokenRefusal, true);
  context.connections.authenticated(req.socket);

  switch (req.method) {
    case "POST":
      return handlePost(context, req, res, refuse);
    case "DELETE":
      return handleDelete(context, req, res, refuse);
    case "GET":
      return refuse(
        refusal(
          405,
          "Method not allowed: this bridge offers no server-to-client SSE stream (POST requests; use WebSocket for server requests)",
          ALLOW,
        ),
        false,
      );
    default:
      return refuse(refusal(405, `Method not allowed: ${req.method ?? "?"}`, ALLOW), true);
  }
}

type Refuse = (refused: Refusal, closeConnection: boolean) => void;

async function handlePost(
  context: BridgeContext,
  req: IncomingMessage,
  res: ServerResponse,
  refuse: Refuse,
): Promise<void> {
  if (!isJsonMediaType(req.headers["content-type"]))
    return refuse(refusal(415, "Unsupported Media Type: Content-Type must be application/json"), true);
  if (!acceptsJson(req.headers.accept))
    return refuse(refusal(406, "Not Acceptable: the bridge answers with application/json"), true);

  const body = await readBody(req, context.options.maxBodyBytes);
  if (body.kind === "aborted") return;
  if (body.kind === "tooLarge")
    return refuse(
      refusal(413, `Payload Too Large: the body must not exceed ${context.options.maxBodyBytes} bytes`),
      true,
    );

  const parsed = parseClientMessage(body.bytes);
  if (parsed.kind === "invalid") {
    return refuse({ status: 400, rpcCode: parsed.error.error.code, reason: parsed.error.error.message }, false);
  }
  const sessionId = req.headers[SESSION_HEADER];
  if (parsed.kind === "request" && parsed.message.method === "initialize") {
    if (sessionId !== undefined) {
      return refuse(
        {
          status: 400,
          rpcCode: JsonRpcErrorCode.InvalidRequest,
          reason: "Invalid Request: initialize starts a new session; send it without an Mcp-Session-Id header",
        },
        false,
      );
    }
    return startSession(context, req, res, parsed.message, body.bytes.length, refuse);
  }
  const session = findSession(context, sessionId, refuse);
  if (session === undefined) return;
  const versionRefusal = protocolVersionRefusal(req, session, context.options.token);
  if (versionRefusal !== undefined) return refuse(versionRefusal, false);
  return forward(context, req, res, session, parsed, body.bytes.length);
}

async function handleDelete(
  context: BridgeContext,
  req: IncomingMessage,
  res: ServerResponse,
  refuse: Refuse,
): Promise<void> {
  const session = findSession(context, req.headers[SESSION_HEADER], refuse);
  if (session === undefined) return;
  const versionRefusal = protocolVersionRefusal(req, session, context.options.token);
  if (versionRefusal !== undefined) return refuse(versionRefusal, false);
  await session.terminate();
  reply(req, res, 200, undefined);
}

/** The running HTTP session the request names, or `undefined` after refusing (400 without a session id, 404 for an unknown one). */
function findSession(
  context: BridgeContext,
  sessionId: string | string[] | undefined,
  refuse: Refuse,
): HttpSession | undefined {
  if (typeof sessionId !== "string" || sessionId === "") {
    refuse(refusal(400, "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)"), false);
    return undefined;
  }
  const session = context.sessions.httpSession(sessionId);
  if (!(session instanceof HttpSession) || session.isEnded) {
    // -32001 and 404, as the official SDK answers: clients take it as "session expired" and start over.
    refuse(
      { status: 404, rpcCode: -32001, reason: "Session not found: it ended or expired; initialize a new session" },
      false,
    );
    return undefined;
  }
  return session;
}

/**
 * MCP Streamable HTTP's `MCP-Protocol-Version` rule (revisions 2025-06-18 and 2025-11-25) for a
 * request in a running session. Absent, the version the session negotiated holds: the bridge knows
 * it from initialize, so the spec's fallback to `2025-03-26` (for a server with no other way to
 * tell) does not arise. Present, it must name a version the daemon accepts
 * ({@link DAEMON_MCP_VERSIONS}); anything else — another revision, a malformed value, the header
 * twice — is refused with 400 and -32000, whose message and `data.supported` list the versions.
 * A supported version other than the negotiated one goes through: the bridge relays the same
 * messages under either. `initialize` is never checked here: its version travels in its body.
 */
function protocolVersionRefusal(req: IncomingMessage, session: HttpSession, token: string): Refusal | undefined {
  const header = req.headers[VERSION_HEADER];
  if (header === undefined || (typeof header === "string" && DAEMON_MCP_VERSIONS.includes(header))) return undefined;
  const requested = quoteHeader(typeof header === "string" ? header : header.join(", "), 64, token);
  const negotiated = session.protocolVersion === undefined ? "" : ` (${session.protocolVersion} in this session)`;
  return {
    status: 400,
    rpcCode: -32000,
    reason: `Bad Request: unsupported MCP-Protocol-Version "${requested}": this bridge supports ${DAEMON_MCP_VERSIONS.join(" and ")}; send the version initialize negotiated${negotiated}`,
    data: { supported: [...DAEMON_MCP_VERSIONS], requested },
  };
}

/** `initialize` without a session: take a place, open a daemon connection, forward, and name the session in the answer. */
async function startSession(
  context: BridgeContext,
  req: IncomingMessage,
  res: ServerResponse,
  message: JsonRpcRequest,
  bytes: number,
  refuse: Refuse,
): Promise<void> {
  if (context.closing) return refuse(refusal(503, "Service Unavailable: the bridge is shutting down"), false);
  const slot = await context.sessions.reserve();
  if (slot === undefined) {
    const max = context.sessions.maxClients;
    return refuse(
      refusal(
        503,
        `Service Unavailable: the bridge already serves ${max} client session${max === 1 ? "" : "s"} (its limit), none idle long enough to give way; end one (DELETE /mcp) or retry later`,
        {
          "Retry-After": "5",
        },
      ),
      false,
    );
  }
  let session: HttpSession;
  try {
    session = await HttpSession.open(context, slot, peerOf(req));
  } catch (error) {
    context.log(
      `could not open a daemon connection for ${peerOf(req)}: ${error instanceof GlassError ? error.rawMessage : String(error)}`,
    );
    return refuse(refusal(502, "Bad Gateway: the bridge could not reach the Glass daemon"), false);
  }
  const response = await answerFor(res, session, message, bytes);
  if (session.refusedByDaemon)
    return refuse(refusal(503, `Service Unavailable: ${daemonRefusalReason(context.sessions.maxClients)}`), false);
  const body = answerBody(context, session, response);
  if ("error" in response || body.failed) {
    await session.close(
      `initialize failed: ${"error" in response ? response.error.message : "its answer could not be relayed"}`,
    );
    return reply(req, res, 200, body.text);
  }
  session.adoptProtocolVersion(response.result);
  reply(req, res, 200, body.text, { headers: { [SESSION_HEADER]: session.id } });
}

/** A message in a running session: requests are answered with the daemon's response; notifications and responses get 202. */
async function forward(
  context: BridgeContext,
  req: IncomingMessage,
  res: ServerResponse,
  session: HttpSession,
  parsed: ClientMessage,
  bytes: number,
): Promise<void> {
  const headers = { [SESSION_HEADER]: session.id };
  switch (parsed.kind) {
    case "request": {
      const response = await answerFor(res, session, parsed.message, bytes);
      return reply(req, res, 200, answerBody(context, session, response).text, { headers });
    }
    case "notification":
      try {
        await session.notify(parsed.message, bytes);
      } catch {
        context.log(
          `session ${shortId(session.id)}: a notification could not be forwarded (the daemon connection closed)`,
        );
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
function answerBody(
  context: BridgeContext,
  session: HttpSession,
  response: JsonRpcResponse,
): { text: string; failed: boolean } {
  const relayed = relayText(response);
  if (relayed.ok) return { text: relayed.text, failed: false };
  context.log(`session ${shortId(session.id)}: a daemon answer could not be relayed to the client: ${relayed.problem}`);
  return { text: JSON.stringify(unrelayableAnswer(response.id, relayed.problem)), failed: true };
}

/** Forwards a request; if the HTTP client disconnects first, the daemon is told to cancel it. */
function answerFor(
  res: ServerResponse,
  session: HttpSession,
  message: JsonRpcRequest,
  bytes: number,
): ReturnType<HttpSession["request"]> {
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

/** A client request waiting for the daemon's answer. */
interface PendingRequest {
  id: JsonRpcId;
  settle(response: JsonRpcResponse): void;
}

/** What the daemon is told when it asks an HTTP client something (there is no stream to ask on). */
const NO_SERVER_REQUESTS =
  "method not found: this client reached the daemon through the bridge's HTTP endpoint, which has no server-to-client stream " +
  "and cannot relay requests to it (use the WebSocket endpoint for that)";

/**
 * An MCP Streamable HTTP session: created by `initialize`, named by its `Mcp-Session-Id`, backed
 * by its own daemon connection. Each POSTed request is forwarded with its id unchanged and answered
 * with the daemon's response to that id. There is no server-to-client stream, so the bridge answers
 * the daemon's own requests with -32601 itself (the daemon never waits) and drops its
 * notifications. When the daemon connection closes, pending requests get -32603 "the daemon
 * connection closed" and the session ends (later requests get 404, so clients start over).
 */
class HttpSession extends UpstreamSession {
  readonly channel = "http";
  readonly #pending = new SlotTable<JsonRpcId, PendingRequest>();
  #protocolVersion: string | undefined;

  private constructor(context: BridgeContext, slot: SessionSlot, peer: string) {
    super(context, slot, peer);
  }

  /** Opens a session with its daemon connection; rejects (releasing the place) when the daemon cannot be reached. */
  static async open(context: BridgeContext, slot: SessionSlot, peer: string): Promise<HttpSession> {
    const session = new HttpSession(context, slot, peer);
    await session.connect();
    return session;
  }

  /**
   * Forwards a request and resolves with the daemon's response to it (never rejects: failures
   * become JSON-RPC errors). A second request with an id still in flight is refused with -32600;
   * past {@link REQUESTS_IN_FLIGHT_PER_SESSION} unanswered requests, or while more than
   * `maxBufferedBytes` of this session's messages wait to be written to the daemon, with -32000.
   * `bytes` (the body's size) counts toward that backlog until it is written.
   */
  request(message: JsonRpcRequest, bytes = 0): Promise<JsonRpcResponse> {
    this.touch();
    if (this.isEnded)
      return Promise.resolve(rpcErrorResponse(message.id, JsonRpcErrorCode.InternalError, "the session ended"));
    if (this.#pending.has(message.id)) {
      return Promise.resolve(
        rpcErrorResponse(
          message.id,
          JsonRpcErrorCode.InvalidRequest,
          `duplicate request id ${JSON.stringify(message.id)}: a request with this id is still in flight`,
        ),
      );
    }
    const limit = REQUESTS_IN_FLIGHT_PER_SESSION;
    if (this.#pending.size >= limit) {
      return Promise.resolve(
        rpcErrorResponse(
          message.id,
          JsonRpcErrorCode.Overloaded,
          `too many requests in flight in this session (${limit}): wait for answers before sending more`,
        ),
      );
    }
    const { maxBufferedBytes } = this.context.options;
    if (this.upstreamBacklog > maxBufferedBytes) {
      return Promise.resolve(
        rpcErrorResponse(
          message.id,
          JsonRpcErrorCode.Overloaded,
          `the daemon is not reading: ${this.upstreamBacklog} bytes of this session wait to be written to it (over ${maxBufferedBytes}); retry later`,
        ),
      );
    }
    return new Promise<JsonRpcResponse>((resolve) => {
      const done = this.beginWork();
      this.#pending.set(message.id, {
        id: message.id,
        settle: (response) => {
          done();
          resolve(response);
        },
      });
      this.sendUpstream(message, bytes).catch((error: unknown) =>
        this.#settle(
          message.id,
          rpcErrorResponse(
            message.id,
            JsonRpcErrorCode.InternalError,
            `could not forward the request to the daemon: ${describe(error)}`,
          ),
        ),
      );
    });
  }

  /**
   * Forwards a notification. `notifications/cancelled` also answers the cancelled request at once
   * with -32800 (the daemon's own -32800 that follows is dropped).
   */
  notify(message: JsonRpcNotification, bytes = 0): Promise<void> {
    this.touch();
    if (message.method === "notifications/cancelled") {
      const requestId = message.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        this.#settle(
          requestId,
          rpcErrorResponse(requestId, JsonRpcErrorCode.RequestCancelled, "request cancelled by the client"),
        );
      }
    }
    return this.sendUpstream(message, bytes);
  }

  /**
   * The HTTP client went away before its request was answered: tell the daemon to stop
   * (`notifications/cancelled`) and forget the request.
   */
  abandon(id: JsonRpcId): void {
    if (!this.#pending.has(id)) return;
    this.#settle(id, rpcErrorResponse(id, JsonRpcErrorCode.RequestCancelled, "the HTTP client disconnected"));
    this.sendUpstream({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: "the HTTP client disconnected" },
    }).catch(ignore);
  }

  /** The MCP revision initialize settled on (the daemon's answer), once it succeeded. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Records the MCP revision from a successful initialize result. */
  adoptProtocolVersion(result: Readonly<Record<string, unknown>>): void {
    if (typeof result.protocolVersion === "string") this.#protocolVersion = truncateUtf8(result.protocolVersion, 64);
  }

  /** Ends the session at the client's request (DELETE). */
  terminate(): Promise<void> {
    return this.end("closed by the client (DELETE)", "client");
  }

  protected onUpstreamMessage(message: JsonRpcMessage): void {
    this.touch();
    if (isJsonRpcResponse(message)) {
      if (message.id !== null) this.#settle(message.id, message);
      return;
    }
    if (isJsonRpcRequest(message)) {
      this.sendUpstream(rpcErrorResponse(message.id, JsonRpcErrorCode.MethodNotFound, NO_SERVER_REQUESTS)).catch(
        ignore,
      );
    }
    // Notifications have nowhere to go without a server-to-client stream; the daemon sends none that matter.
  }

  protected onEnd(reason: string, cause: SessionEndCause): void {
    const message = cause === "upstream" ? "the daemon connection closed" : `the session was closed: ${reason}`;
    for (const pending of this.#pending.values())
      this.#settle(pending.id, rpcErrorResponse(pending.id, JsonRpcErrorCode.InternalError, message));
  }

  #settle(id: JsonRpcId, response: JsonRpcResponse): void {
    this.#pending.take(id)?.settle(response);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Headers on every bridge response: nothing is cached, nothing is sniffed. */
const BASE_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

/** How a reply ends the connection. */
interface ReplyOptions {
  /** Extra headers. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Close the connection after the reply without reading the rest of the request body (used for
   * refusals that come before the body was read, and for bodies over the limit).
   */
  closeConnection?: boolean;
}

/** Writes a response (a JSON body, or none) with the base headers and any set before (CORS). */
function reply(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | undefined,
  options: ReplyOptions = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...BASE_HEADERS, ...options.headers };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.closeConnection === true) {
    headers.Connection = "close";
    // Stop reading: once the reply is out, drop the connection rather than drain the body.
    res.once("finish", () => req.socket.destroy());
  }
  res.writeHead(status, headers);
  res.end(body);
}

/** Answers with a refusal's status and JSON-RPC error body. */
function replyRefusal(req: IncomingMessage, res: ServerResponse, refused: Refusal, closeConnection: boolean): void {
  reply(req, res, refused.status, refusalBody(refused), { headers: refused.headers ?? {}, closeConnection });
}

/** The outcome of reading a request body: its bytes, or why reading stopped. */
type BodyOutcome = { kind: "body"; bytes: Buffer } | { kind: "tooLarge" } | { kind: "aborted" };

/**
 * Reads a request body of at most `maxBytes`. A declared `Content-Length` over the limit is refused
 * without reading a byte; otherwise reading stops as soon as the limit is passed (the stream is
 * paused and left unread, for the caller to close the connection).
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ kind: "tooLarge" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: BodyOutcome): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("aborted", onAborted);
      req.off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        req.pause();
        finish({ kind: "tooLarge" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ kind: "body", bytes: Buffer.concat(chunks, received) });
    const onAborted = (): void => finish({ kind: "aborted" });
    const onClose = (): void => {
      if (!req.complete) finish({ kind: "aborted" });
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("aborted", onAborted);
    req.on("close", onClose);
  });
}
