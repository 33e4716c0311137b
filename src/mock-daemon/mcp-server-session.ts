import type { OperationName } from "../../generated/operation-map.js";
import type { GlassErrorObject } from "../envelope/envelope-types.js";
import { JsonRpcErrorCode, type Framing, type JsonRpcId, type JsonRpcResponse } from "../mcp/json-rpc.js";
import { DAEMON_MCP_VERSIONS } from "../mcp/mcp-versions.js";
import { SlotList } from "../collections/slot-list.js";
import { SlotTable } from "../collections/slot-table.js";
import { operationFor } from "../operations/catalog.js";
import { isJsonObject } from "../validation/json-value.js";
import { isIdentifier, readToolCall, requestIdFor, type ToolCall } from "./read-tool-call.js";
import type { DaemonContext } from "./daemon-context.js";
import type { RecordedCall } from "./daemon-record.js";
import type { MockCallContext, MockClientAnswer, MockDaemonClient } from "./handlers.js";
import type { AfterAnswerFault } from "./faults.js";
import {
  rpcError,
  rpcFailure,
  rpcResult,
  usableId,
  type DaemonMessage,
  type ReplyId,
  type RpcError,
  type RpcReply,
} from "./json-rpc-replies.js";
import { fastPathAllowed } from "./fast-answers.js";
import { checkToolLease, handleLeaseMethod, LEASE_METHODS } from "./lease-rpc.js";
import { overloadReason } from "./limits.js";
import { negotiate } from "./negotiation.js";
import { describeThrown, type ToolAnswer } from "./handler-call.js";
import { answerToolCall } from "./tool-call.js";
import { listTools } from "./tools-list.js";

/** Bytes that are not a valid frame, written by the malformed-, partial- and oversized-frame faults. */
export type GarbageKind = "malformedFrame" | "partialFrame" | "oversizedFrame";

/** What a session needs from the connection it runs on. */
export interface SessionConnection {
  /** Writes a message, framed like the request it answers (`undefined`: like the client's last frame). */
  write(message: DaemonMessage, framing: Framing | undefined): void;
  /** Writes bytes that are not a valid frame. */
  writeGarbage(kind: GarbageKind): void;
  /**
   * `false` when the connection cannot carry the daemon's own requests to the client (an HTTP
   * exchange without a server stream): a handler that asks the client then gets a refusal at once
   * (-32601, as a bridge answers one it cannot relay) instead of waiting out the daemon's bound.
   */
  readonly carriesServerRequests?: boolean;
}

/** The MCP protocol versions the daemon accepts in initialize (§3). */
export const SUPPORTED_MCP_VERSIONS: readonly string[] = DAEMON_MCP_VERSIONS;

/** `serverInfo.name` of the mock daemon. */
export const MOCK_SERVER_NAME = "glass-sdk-mock-daemon";

/** The MCP revision with which a client may declare form elicitation (the daemon reads it with no other). */
const ELICITATION_MCP_VERSION = "2025-11-25";

/** How long the daemon waits for its client to answer a request of its own (15 minutes). */
export const CLIENT_ANSWER_TIMEOUT_MS = 15 * 60 * 1000;

/** Method families of which the daemon serves only the methods it names (§3.4); the rest are -32601. */
const PROMPTS_AND_RESOURCES = { "prompts/list": "prompts", "resources/list": "resources" } as const;

interface ActiveCall {
  /** The request's id; `undefined` for a tools/call sent as a notification, which is never answered. */
  id: ReplyId | undefined;
  number: number;
  framing: Framing;
  workflow: boolean;
  answered: boolean;
  /** Where it is kept while in flight: by id, or (a null id, a notification) in the anonymous list. */
  slot: number | "byId" | undefined;
  timer?: ReturnType<typeof setTimeout>;
  /** What the daemon's record holds about it (its outcome is filled in when it ends). */
  record: RecordedCall;
  /** Aborts the signal its handler was given (set while a handler runs). */
  abort?: AbortController;
}

/** A request a handler sent the client, awaiting its answer: its method, and what settles it (once). */
interface AskedClient {
  readonly method: string;
  readonly settle: (answer: MockClientAnswer) => void;
}

/**
 * One MCP connection to a mock daemon, independent of its transport: it takes decoded messages
 * (`handle`) and writes answers through its {@link SessionConnection}, now or later (tool calls
 * wait `latencyMs`, and can be cancelled). It accepts what the daemon accepts and answers as it
 * does (§2–§4): the handshake and its -32002, ids of any JSON-RPC type (null ones served and never
 * de-duplicated), -32600 for what is not a request, the methods of §3.4, tool calls (as
 * notifications too, never answered), cancellation, the request limits, leases on the socket, and
 * the faults the daemon was given. Every JSON-RPC error carries the daemon's `data` wrapper.
 */
export class McpServerSession {
  #state: "new" | "initializing" | "ready" = "new";
  /** Calls in flight with a string or number id, by id (a slot table: they churn once per call). */
  readonly #byId = new SlotTable<JsonRpcId, ActiveCall>();
  /** Calls in flight with a null id or none (notifications): served, but not addressable. */
  readonly #anonymous = new SlotList<ActiveCall>();
  /** Requests the server-request fault sent the client, by id: their method, for recording the answer. */
  readonly #faultRequestMethods = new Map<string, string>();
  /** Requests handlers sent the client, by id, awaiting the answer. */
  readonly #asked = new Map<string, AskedClient>();
  /** The MCP revision the client negotiated. */
  #mcpProtocolVersion = "";
  /** Whether the client negotiated form elicitation (MCP 2025-11-25 and `capabilities.elicitation`). */
  #formElicitation = false;
  #closed = false;

  readonly #context: DaemonContext;
  readonly #connection: SessionConnection;

  constructor(
    context: DaemonContext,
    /** The client's name on this daemon (`stdio`, `client-1`, …): lease owner and call records. */
    readonly clientId: string,
    connection: SessionConnection,
  ) {
    this.#context = context;
    this.#connection = connection;
  }

  /** Requests of this connection in flight (tool calls not yet answered, notifications included). */
  get activeCount(): number {
    return this.#byId.size + this.#anonymous.size;
  }

  /**
   * Handles one decoded message that arrived in `framing`. Answers are written through the
   * connection, at once or (tool calls) later; a failure of the mock itself is answered with -32603.
   */
  handle(message: unknown, framing: Framing): void {
    if (this.#closed) return;
    try {
      this.#takeMessage(message, framing);
    } catch (error) {
      this.#replyError(
        (isJsonObject(message) ? usableId(message.id) : undefined) ?? null,
        internalError(error),
        framing,
      );
    }
  }

  /** The client went away: in-flight calls end unanswered, requests to it end, and its lease is released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const { settle } of [...this.#asked.values()]) settle({ kind: "cancelled" });
    for (const call of [...this.#byId.values(), ...this.#anonymous.values()]) this.#forget(call);
    this.#context.leases?.releaseOwnedBy(this.clientId);
  }

  #takeMessage(message: unknown, framing: Framing): void {
    if (!isJsonObject(message)) {
      const what = Array.isArray(message)
        ? "JSON-RPC batches are not supported: send one message at a time"
        : "a JSON-RPC message must be an object";
      return this.#replyError(null, rpcError(JsonRpcErrorCode.InvalidRequest, what), framing);
    }
    const hasId = Object.hasOwn(message, "id");
    const { jsonrpc, id, method, params } = message;
    if (method === undefined && hasId && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) {
      return this.#takeClientAnswer(message as unknown as JsonRpcResponse);
    }
    if (jsonrpc === undefined || typeof method !== "string") {
      const what = jsonrpc === undefined ? "jsonrpc is missing" : "method is missing or not a string";
      return this.#replyError(null, rpcError(JsonRpcErrorCode.InvalidRequest, `invalid request: ${what}`), framing);
    }
    const replyId = hasId ? usableId(id) : undefined;
    if (hasId && replyId === undefined) {
      return this.#replyError(
        null,
        rpcError(JsonRpcErrorCode.InvalidRequest, "invalid request: id must be a string, a number or null"),
        framing,
      );
    }
    if (jsonrpc !== "2.0")
      return this.#replyError(
        replyId ?? null,
        rpcError(JsonRpcErrorCode.InvalidRequest, 'invalid request: jsonrpc must be "2.0"'),
        framing,
      );
    if (replyId === undefined) return this.#takeNotification(method, params, framing);
    this.#takeRequest(replyId, method, params, framing);
  }

  #takeRequest(id: ReplyId, method: string, params: unknown, framing: Framing): void {
    if (method === "initialize") return this.#initialize(id, params, framing);
    if (this.#state !== "ready") {
      const step =
        this.#state === "new"
          ? "send initialize, then the notification notifications/initialized"
          : "send the notification notifications/initialized first";
      return this.#replyError(id, rpcError(JsonRpcErrorCode.NotInitialized, `not initialized: ${step}`), framing);
    }
    if (id !== null && this.#byId.has(id)) {
      return this.#replyError(
        id,
        rpcError(
          JsonRpcErrorCode.InvalidRequest,
          `duplicate request id ${JSON.stringify(id)}: a request with this id is still in flight`,
        ),
        framing,
      );
    }
    if (method === "tools/call") return this.#toolCall(id, params, framing);
    if (LEASE_METHODS.has(method)) return this.#leaseMethod(id, method, params, framing);
    const busy = this.#overloaded();
    if (busy !== undefined) return this.#replyError(id, rpcError(JsonRpcErrorCode.Overloaded, busy), framing);
    switch (method) {
      case "ping":
        return this.#replyResult(id, {}, framing);
      case "tools/list":
        return this.#replyResult(id, { tools: listTools(this.#context.manifest) }, framing);
      case "prompts/list":
      case "resources/list":
        return this.#replyResult(id, { [PROMPTS_AND_RESOURCES[method]]: [] }, framing);
      case "prompts/get":
        return this.#replyError(
          id,
          rpcError(JsonRpcErrorCode.InvalidParams, unknownEntry("prompt", "name", params)),
          framing,
        );
      case "resources/read":
        return this.#replyError(
          id,
          rpcError(JsonRpcErrorCode.InvalidParams, unknownEntry("resource", "uri", params)),
          framing,
        );
    }
    this.#replyError(id, rpcError(JsonRpcErrorCode.MethodNotFound, `method not found: ${method}`), framing);
  }

  #initialize(id: ReplyId, params: unknown, framing: Framing): void {
    if (this.#state !== "new") {
      return this.#replyError(
        id,
        rpcError(JsonRpcErrorCode.InvalidRequest, "initialize was already received on this connection"),
        framing,
      );
    }
    const args = isJsonObject(params) ? params : {};
    const version = args.protocolVersion;
    if (typeof version !== "string" || !SUPPORTED_MCP_VERSIONS.includes(version)) {
      const got = version === undefined ? "none" : JSON.stringify(version);
      return this.#replyError(
        id,
        rpcError(
          JsonRpcErrorCode.InvalidParams,
          `unsupported MCP protocol version ${got}; this daemon supports ${SUPPORTED_MCP_VERSIONS.join(" and ")}`,
        ),
        framing,
      );
    }
    const negotiated = negotiate(this.#context.manifest, Object.hasOwn(args, "glass") ? args.glass : undefined);
    if (!negotiated.ok)
      return this.#replyError(id, rpcError(JsonRpcErrorCode.InvalidParams, negotiated.message), framing);
    this.#state = "initializing";
    this.#mcpProtocolVersion = version;
    this.#formElicitation = version === ELICITATION_MCP_VERSION && declaresFormElicitation(args.capabilities);
    this.#replyResult(
      id,
      {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: MOCK_SERVER_NAME, version: this.#context.serverVersion },
        glass: this.#context.manifest,
        glassAgreement: negotiated.agreement,
      },
      framing,
    );
  }

  #leaseMethod(id: ReplyId, method: string, params: unknown, framing: Framing): void {
    if (this.#context.leases === undefined) {
      return this.#replyError(
        id,
        rpcError(
          JsonRpcErrorCode.MethodNotFound,
          `method not found: ${method} (leases exist only on the daemon socket)`,
        ),
        framing,
      );
    }
    const outcome = handleLeaseMethod(this.#context.leases, this.clientId, method, params);
    if ("error" in outcome) this.#replyError(id, outcome.error, framing);
    else this.#replyResult(id, outcome.result, framing);
  }

  /** A `tools/call` with this id (`undefined`: sent as a notification, run but never answered). */
  #toolCall(id: ReplyId | undefined, params: unknown, framing: Framing): void {
    const context = this.#context;
    const args = isJsonObject(params) ? params : undefined;
    const tool = typeof args?.name === "string" ? args.name : "";
    const fast = id === undefined ? undefined : context.fastAnswers?.get(tool);
    if (
      fast !== undefined &&
      fastPathAllowed(args) &&
      (typeof id !== "string" || isIdentifier(id)) &&
      this.#overloaded() === undefined
    ) {
      return this.#connection.write(rpcResult(id!, { ...fast }), framing);
    }
    const number = ++context.callCount;
    const read = readToolCall(id, params);
    const record: RecordedCall = {
      number,
      clientId: this.clientId,
      id,
      tool,
      operation: typeof read === "string" ? operationFor(tool) : read.request.operation,
      arguments: isJsonObject(args?.arguments) ? args.arguments : {},
      requestId: typeof read === "string" ? requestIdFor(id) : read.request.requestId,
      payload: typeof read === "string" ? undefined : read.request.payload,
    };
    context.record.addCall(record);
    const fault = context.faults.onArrival(number);
    if (fault === "crash") return context.crash();
    const call: ActiveCall = { id, number, framing, workflow: false, answered: false, slot: undefined, record };
    if (typeof read === "string") return this.finish(call, { error: rpcError(JsonRpcErrorCode.InvalidParams, read) });
    call.workflow = read.request.operation === "browser.workflow";
    if (fault === "overload")
      return this.finish(call, {
        error: rpcError(JsonRpcErrorCode.Overloaded, "overloaded: the daemon is busy (fault injected); retry later"),
      });
    const busy = this.#overloaded();
    if (busy !== undefined) return this.finish(call, { error: rpcError(JsonRpcErrorCode.Overloaded, busy) });
    const refused = context.leases === undefined ? undefined : checkToolLease(context.leases, this.clientId, read);
    if (refused !== undefined) return this.finish(call, { error: refused });
    if (call.workflow && context.workflowActive) {
      return this.finish(call, {
        error: rpcError(JsonRpcErrorCode.InvalidRequest, "workflow already active: wait for it to finish or cancel it"),
      });
    }
    this.#track(call);
    if (fault === "stall") return;
    if (context.latencyMs <= 0) return this.#complete(call, read);
    call.timer = setTimeout(() => this.#complete(call, read), context.latencyMs);
  }

  /** Why one more request cannot start now (-32000), or `undefined` when it can. */
  #overloaded(): string | undefined {
    return overloadReason(this.#context.mode, this.#context.limits, this.activeCount, this.#context.inFlight);
  }

  /**
   * Answers a call with its tool result (or -32603 if making it fails): at once, or — when a
   * handler answers it — once the handler is done, unless the call ended first (cancelled, or its
   * client left), which aborts the handler's signal.
   */
  #complete(call: ActiveCall, read: ToolCall): void {
    let answer: ToolAnswer | Promise<ToolAnswer>;
    try {
      answer = answerToolCall(this.#context, read, () => this.#handlerContext(call, read));
    } catch (error) {
      return this.finish(call, { error: internalError(error) });
    }
    if (!(answer instanceof Promise)) return this.finish(call, answer);
    answer.then(
      (outcome) => {
        call.abort = undefined;
        this.finish(call, outcome);
      },
      (error: unknown) => {
        call.abort = undefined;
        this.finish(call, { error: internalError(error) });
      },
    );
  }

  /** What the handler of a call is told besides the payload; its signal aborts when the call ends unanswered. */
  #handlerContext(call: ActiveCall, read: ToolCall): MockCallContext {
    const abort = new AbortController();
    call.abort = abort;
    const { leases } = this.#context;
    return {
      operation: read.request.operation as OperationName,
      requestId: read.request.requestId,
      leased:
        leases !== undefined &&
        read.leaseToken !== undefined &&
        leases.authorize(this.clientId, read.leaseToken) === undefined,
      signal: abort.signal,
      client: this.#clientOf(call, abort.signal),
    };
  }

  /** The client as a call's handler sees it: what it negotiated, and a way to ask it something while the call runs. */
  #clientOf(call: ActiveCall, signal: AbortSignal): MockDaemonClient {
    return {
      mcpProtocolVersion: this.#mcpProtocolVersion,
      formElicitation: this.#formElicitation,
      ask: (method, params) => this.#askClient(method, params, call.framing, signal),
    };
  }

  /**
   * Sends the client a request (`glass-server-N`, in the framing of the call that asks) and resolves
   * with its answer (recorded with the daemon's client answers); or, sending `notifications/cancelled` for it, with `timedOut` after the bound
   * (the daemon's 15 minutes) or `cancelled` when `signal` aborts (the call ended first). A client
   * that left ends it as `cancelled`. Never rejects.
   */
  #askClient(
    method: string,
    params: Record<string, unknown>,
    framing: Framing,
    signal: AbortSignal,
  ): Promise<MockClientAnswer> {
    if (this.#closed || signal.aborted) return Promise.resolve({ kind: "cancelled" });
    if (this.#connection.carriesServerRequests === false) {
      return Promise.resolve({
        kind: "error",
        error: {
          code: JsonRpcErrorCode.MethodNotFound,
          message: `${method} cannot reach the client over this connection`,
        },
      });
    }
    const id = `glass-server-${++this.#context.serverRequestCount}`;
    return new Promise((resolve) => {
      const end = (answer: MockClientAnswer, cancel: boolean): void => {
        if (!this.#asked.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        if (cancel && !this.#closed)
          this.#connection.write(
            { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } },
            framing,
          );
        resolve(answer);
      };
      const onAbort = (): void => end({ kind: "cancelled" }, true);
      const timer = setTimeout(
        () => end({ kind: "timedOut" }, true),
        this.#context.clientAnswerTimeoutMs ?? CLIENT_ANSWER_TIMEOUT_MS,
      );
      signal.addEventListener("abort", onAbort, { once: true });
      this.#asked.set(id, { method, settle: (answer) => end(answer, false) });
      this.#connection.write({ jsonrpc: "2.0", id, method, params }, framing);
    });
  }

  /**
   * Ends a call with a tool result or an error, unless it has ended already: answers it (a
   * notification gets no answer), then runs the after-answer faults.
   */
  private finish(call: ActiveCall, outcome: ToolAnswer): void {
    if (this.#closed || call.answered) return;
    call.answered = true;
    call.record.outcome =
      "error" in outcome
        ? { ok: false, error: outcome.error.data as GlassErrorObject, jsonRpcCode: outcome.error.code }
        : outcome.outcome;
    this.#forget(call);
    this.#context.record.changed();
    if (call.id === undefined) return;
    const message: RpcReply =
      "error" in outcome ? rpcFailure(call.id, outcome.error) : rpcResult(call.id, { ...outcome.result });
    this.#connection.write(message, call.framing);
    for (const fault of this.#context.faults.afterAnswer(call.number))
      this.#applyAfterAnswerFault(fault, message, call.framing);
  }

  #track(call: ActiveCall): void {
    if (call.id === undefined || call.id === null) call.slot = this.#anonymous.add(call);
    else {
      this.#byId.set(call.id, call);
      call.slot = "byId";
    }
    this.#context.inFlight++;
    if (call.workflow) this.#context.workflowActive = true;
    this.#context.record.changed();
  }

  /** Stops keeping a call in flight, if it was kept (a call refused on arrival never was). */
  #forget(call: ActiveCall): void {
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (call.abort !== undefined) {
      call.abort.abort(new Error(`${call.record.operation} ended before its handler answered`));
      call.abort = undefined;
    }
    const { slot } = call;
    if (slot === undefined) return;
    call.slot = undefined;
    if (slot === "byId") this.#byId.delete(call.id as JsonRpcId);
    else this.#anonymous.release(slot, call);
    this.#context.inFlight--;
    if (call.workflow) this.#context.workflowActive = false;
    this.#context.record.changed();
  }

  #applyAfterAnswerFault(fault: AfterAnswerFault, answer: RpcReply, framing: Framing): void {
    switch (fault.kind) {
      case "duplicateAnswer":
        return this.#connection.write(answer, framing);
      case "unknownIdAnswer":
        return this.#connection.write(
          rpcResult("mock-unknown-request", { content: [{ type: "text", text: "{}" }] }),
          framing,
        );
      case "serverRequest": {
        const id = `glass-server-${++this.#context.serverRequestCount}`;
        this.#faultRequestMethods.set(id, fault.method);
        return this.#connection.write({ jsonrpc: "2.0", id, method: fault.method, params: fault.params }, framing);
      }
      case "malformedFrame":
      case "partialFrame":
      case "oversizedFrame":
        return this.#connection.writeGarbage(fault.kind);
    }
  }

  /**
   * A notification: `notifications/cancelled` is acted on at any time; before the session is ready
   * only `notifications/initialized` counts (it makes the session ready) and the rest are dropped;
   * once ready, a `tools/call` notification runs unanswered and others are ignored.
   */
  #takeNotification(method: string, params: unknown, framing: Framing): void {
    if (method === "notifications/cancelled") return this.#cancel(params);
    if (this.#state !== "ready") {
      if (method === "notifications/initialized" && this.#state === "initializing") this.#state = "ready";
      return;
    }
    if (method === "tools/call") this.#toolCall(undefined, params, framing);
  }

  /**
   * `notifications/cancelled {requestId, reason?}`: ends the call in flight with this id — of the
   * same JSON type, `"7"` is not `7` — with -32800. Unknown and finished ids are ignored, and so is
   * `reason`; calls with a null id cannot be cancelled.
   */
  #cancel(params: unknown): void {
    if (!isJsonObject(params)) return;
    const { requestId } = params;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const call = this.#byId.get(requestId);
    if (call !== undefined)
      this.finish(call, { error: rpcError(JsonRpcErrorCode.RequestCancelled, "request cancelled") });
  }

  /**
   * The client's answer to a request of the daemon's, recorded: handed to the handler that asked,
   * if one did (the server-request fault's requests have none). Answers to ids the daemon did not use (or no
   * longer waits for) are ignored, as the daemon ignores them.
   */
  #takeClientAnswer(response: JsonRpcResponse): void {
    const key = typeof response.id === "string" ? response.id : undefined;
    const asked = key === undefined ? undefined : this.#asked.get(key);
    if (asked !== undefined) {
      this.#context.record.addClientAnswer({ clientId: this.clientId, method: asked.method, response });
      asked.settle(
        "error" in response ? { kind: "error", error: response.error } : { kind: "result", result: response.result },
      );
      return;
    }
    const method = key === undefined ? undefined : this.#faultRequestMethods.get(key);
    if (key === undefined || method === undefined) return;
    this.#faultRequestMethods.delete(key);
    this.#context.record.addClientAnswer({ clientId: this.clientId, method, response });
  }

  #replyResult(id: ReplyId, result: { [key: string]: unknown }, framing: Framing): void {
    this.#connection.write(rpcResult(id, result), framing);
  }

  #replyError(id: ReplyId, error: RpcError, framing: Framing): void {
    this.#connection.write(rpcFailure(id, error), framing);
  }
}

/** Whether initialize's `capabilities` declare form elicitation as the daemon reads them: `elicitation` is `{}` or has a `form` object. */
function declaresFormElicitation(capabilities: unknown): boolean {
  const elicitation = isJsonObject(capabilities) ? capabilities.elicitation : undefined;
  if (!isJsonObject(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || isJsonObject(elicitation.form);
}

/** Why `prompts/get` or `resources/read` fails: the daemon has neither prompts nor resources to serve. */
function unknownEntry(kind: "prompt" | "resource", key: "name" | "uri", params: unknown): string {
  const value = isJsonObject(params) ? params[key] : undefined;
  return typeof value === "string"
    ? `unknown ${kind} ${JSON.stringify(value)}`
    : `${kind === "prompt" ? "prompts/get" : "resources/read"} needs params.${key}`;
}

function internalError(error: unknown): RpcError {
  return rpcError(JsonRpcErrorCode.InternalError, `internal error in the mock daemon: ${describeThrown(error)}`);
}
