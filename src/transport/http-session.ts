// The MCP session of the HTTP transport (MCP 2025-11-25, Streamable HTTP, "Session Management"):
// the `Mcp-Session-Id` the server assigned in its answer to `initialize`, the protocol version that
// answer negotiated (both sent with every later request), the client's `initialize` kept to start a
// new session when the server says the old one expired (HTTP 404), and the renewal in progress.

import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../mcp/json-rpc.js";
import { discard } from "./http-body.js";
import { errorBody, snippet } from "./http-errors.js";
import type { SessionHeaders } from "./http-request.js";
import { McpHttpHeader } from "./mcp-http-headers.js";

/** Whether `message` is the `initialize` request that starts a session. */
export function isInitialize(message: JsonRpcMessage): message is JsonRpcRequest {
  return isJsonRpcRequest(message) && message.method === "initialize";
}

/** Whether `message` is the notification that completes the session's start. */
export function isInitialized(message: JsonRpcMessage): boolean {
  return isJsonRpcNotification(message) && message.method === "notifications/initialized";
}

/** The client's side of the session: what it names, and its renewal once however many messages found it expired. */
export class HttpClientSession implements SessionHeaders {
  #id: string | undefined;
  #protocolVersion: string | undefined;
  #initialize: JsonRpcRequest | undefined;
  /** The last renewal, keyed by the session id that had expired. */
  #lastRenewal: { expired: string; done: Promise<void> } | undefined;
  /** A renewal in progress: new messages wait for it rather than going out without a session. */
  #renewing: Promise<void> | undefined;

  /** The `Mcp-Session-Id` the server assigned; `undefined` before `initialize` was answered, or during a renewal. */
  get id(): string | undefined {
    return this.#id;
  }

  /** The `MCP-Protocol-Version` `initialize` negotiated. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** The client's `initialize`, replayed to start a new session. */
  get initialize(): JsonRpcRequest | undefined {
    return this.#initialize;
  }

  /** Keeps the client's `initialize` for a renewal. */
  rememberInitialize(message: JsonRpcRequest): void {
    this.#initialize = message;
  }

  /** Takes the session id the server assigned in its answer to `initialize`, if it gave one. */
  adoptId(response: Response): void {
    const sessionId = response.headers.get(McpHttpHeader.sessionId);
    if (sessionId) this.#id = sessionId;
  }

  /** Takes the protocol version of `initialize`'s answer. */
  adoptProtocolVersion(answer: JsonRpcResponse): void {
    if ("result" in answer && typeof answer.result.protocolVersion === "string")
      this.#protocolVersion = answer.result.protocolVersion;
  }

  /** Forgets the session's id and version: a new session is being started. */
  forget(): void {
    this.#id = this.#protocolVersion = undefined;
  }

  /** The renewal in progress, if any: new messages wait for it to settle. */
  get renewing(): Promise<void> | undefined {
    return this.#renewing;
  }

  /**
   * Starts a new session with `startNew` after the session `expired` expired — once, however many
   * messages found it expired: a later call for the same session gets the same renewal, and one for
   * a session already replaced the renewal in progress, if any.
   */
  renew(expired: string, startNew: () => Promise<void>): Promise<void> {
    if (this.#lastRenewal?.expired === expired) return this.#lastRenewal.done;
    if (this.#id !== expired) return this.#renewing ?? Promise.resolve(); // already replaced
    const done = startNew();
    this.#lastRenewal = { expired, done };
    this.#renewing = done;
    const settled = (): void => {
      if (this.#renewing === done) this.#renewing = undefined;
    };
    done.then(settled, settled);
    return done;
  }
}

/** What replaying `initialize` needs of the transport. */
export interface SessionStartHost {
  /** POSTs a message; resolves with its response whatever its status. */
  post(message: JsonRpcRequest | JsonRpcNotification): Promise<Response>;
  /** The error that ends the transport when the server answers 401 or 403. */
  tokenRefused(response: Response): Promise<Error>;
  /** Scrubs the token and the URL's credentials from what the server says. */
  redact(text: string): string;
  /** Reads the messages of a response, passing each to `take` until it returns something truthy. */
  read(response: Response, take: (message: JsonRpcMessage) => unknown): Promise<void>;
  /** Hands a message from the server to the client. */
  deliver(message: JsonRpcMessage): void;
}

/**
 * Starts a new session on the server after the old one expired: replays the client's `initialize`
 * (its answer is not delivered: the client already has one; what else comes with it is), adopts
 * the new session's id and version, then sends `notifications/initialized`. Throws when it cannot.
 */
export async function replayInitialize(session: HttpClientSession, host: SessionStartHost): Promise<void> {
  const initialize = session.initialize;
  if (initialize === undefined) throw new Error("the client sent no initialize to replay");
  const response = await postAccepted(host, initialize);
  session.adoptId(response);
  const reply: { to?: JsonRpcResponse } = {};
  await host.read(response, (message) => {
    if (isJsonRpcResponse(message) && message.id === initialize.id) return (reply.to = message);
    host.deliver(message);
  });
  const initialized = reply.to;
  if (initialized === undefined) throw new Error("the daemon did not answer initialize");
  if ("error" in initialized)
    throw new Error(`the daemon refused initialize: ${initialized.error.message} (JSON-RPC ${initialized.error.code})`);
  session.adoptProtocolVersion(initialized);
  await discard(await postAccepted(host, { jsonrpc: "2.0", method: "notifications/initialized" }));
}

/** POSTs a message of the renewal: 401 and 403 are refusals, anything else but a 2xx an Error. */
async function postAccepted(host: SessionStartHost, message: JsonRpcRequest | JsonRpcNotification): Promise<Response> {
  const response = await host.post(message);
  if (response.status === 401 || response.status === 403) throw await host.tokenRefused(response);
  if (!response.ok)
    throw new Error(
      `${message.method} was answered with HTTP ${response.status}${snippet(await errorBody(response), host.redact)}`,
    );
  return response;
}
