import { JsonRpcErrorCode, type JsonRpcId, type JsonRpcMessage, type JsonRpcResponse, type McpToolResult } from "../../mcp/json-rpc.js";
import { SlotTable } from "../../collections/slot-table.js";
import { operationFor } from "../../operations/lease-requirement.js";
import { isJsonObject } from "../../validation/json-value.js";
import type { Framing } from "../../node/framing/encode-frame.js";
import type { DaemonContext } from "./daemon-context.js";
import type { AfterAnswerFault } from "./faults.js";
import { rpcError, rpcFailure, rpcResult, usableId, type RpcError } from "./json-rpc-replies.js";
import { fastPathAllowed } from "./fast-answers.js";
import { handleLeaseMethod, LEASE_METHODS } from "./lease-rpc.js";
import { overloadReason } from "./limits.js";
import { negotiate } from "./negotiation.js";
import { startToolCall } from "./tool-call.js";
import { listTools } from "./tools-list.js";

/** Bytes that are not a valid frame, written by the malformed-, partial- and oversized-frame faults. */
export type GarbageKind = "malformedFrame" | "partialFrame" | "oversizedFrame";

/** What a session needs from the connection it runs on. */
export interface SessionConnection {
  /** Writes a message, framed like the request it answers (`undefined`: like the client's last frame). */
  write(message: JsonRpcMessage, framing: Framing | undefined): void;
  /** Writes bytes that are not a valid frame. */
  writeGarbage(kind: GarbageKind): void;
}

/** The MCP protocol versions the daemon accepts in initialize (§3). */
export const SUPPORTED_MCP_VERSIONS: readonly string[] = ["2024-11-05", "2025-11-25"];

/** `serverInfo.name` of the mock daemon. */
export const MOCK_SERVER_NAME = "glass-sdk-mock-daemon";

interface ActiveCall {
  id: JsonRpcId;
  number: number;
  framing: Framing;
  workflow: boolean;
  answered: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** How a call ends: a JSON-RPC error, or a tool result. */
type CallOutcome = { error: RpcError } | { result: McpToolResult };

/**
 * One MCP connection to a mock daemon, independent of its transport: it takes decoded messages
 * (`handle`) and writes answers through its {@link SessionConnection}, now or later (tool calls
 * wait `latencyMs`, and can be cancelled). It enforces the session rules of §2–§4: one initialize,
 * nothing but ping before `notifications/initialized`, unique active ids, the request limits,
 * leases on the socket, and the faults the daemon was given.
 */
export class McpServerSession {
  private state: "new" | "initializing" | "ready" = "new";
  /** Calls in flight by id (a slot table: they churn once per call). */
  private readonly active = new SlotTable<JsonRpcId, ActiveCall>();
  private readonly serverRequests = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly context: DaemonContext,
    /** The client's name on this daemon (`stdio`, `client-1`, …): lease owner and call records. */
    readonly clientId: string,
    private readonly connection: SessionConnection,
  ) {}

  /** Requests of this connection still waiting for their answer. */
  get activeCount(): number {
    return this.active.size;
  }

  /**
   * Handles one decoded message that arrived in `framing`. Answers are written through the
   * connection, at once or (tool calls) later; a failure of the mock itself is answered with -32603.
   */
  handle(message: unknown, framing: Framing): void {
    if (this.closed) return;
    try {
      this.take(message, framing);
    } catch (error) {
      const id = isJsonObject(message) && (typeof message.id === "string" || typeof message.id === "number") ? message.id : null;
      this.reply(id, internalError(error), framing);
    }
  }

  /** The client went away: in-flight calls end unanswered and its lease is released. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.active.values()) this.forget(call);
    this.context.leases?.releaseOwnedBy(this.clientId);
  }

  private take(message: unknown, framing: Framing): void {
    if (!isJsonObject(message)) {
      const what = Array.isArray(message) ? "JSON-RPC batches are not supported" : "a JSON-RPC message must be an object";
      this.reply(null, rpcError(JsonRpcErrorCode.InvalidRequest, what), framing);
      return;
    }
    const { id, method, params } = message;
    const hasId = Object.hasOwn(message, "id") && id !== undefined;
    if (method === undefined && hasId && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) {
      this.takeClientAnswer(message as unknown as JsonRpcResponse);
      return;
    }
    const validId = usableId(id) ?? null;
    if (message.jsonrpc !== "2.0" || typeof method !== "string" || (hasId && validId === null)) {
      if (!hasId && message.jsonrpc === "2.0") return; // a notification we cannot read: nothing to answer
      const what = message.jsonrpc !== "2.0" ? 'jsonrpc must be "2.0"' : typeof method !== "string" ? "method must be a string" : "id must be a string or a number";
      this.reply(validId, rpcError(JsonRpcErrorCode.InvalidRequest, what), framing);
      return;
    }
    if (!hasId) {
      this.takeNotification(method, params);
      return;
    }
    const requestId = validId as JsonRpcId;
    if (this.active.has(requestId)) {
      this.reply(requestId, rpcError(JsonRpcErrorCode.InvalidRequest, `duplicate request id ${JSON.stringify(requestId)}: a request with this id is still active`), framing);
      return;
    }
    if (params !== undefined && !isJsonObject(params)) {
      this.reply(requestId, rpcError(JsonRpcErrorCode.InvalidParams, "params must be an object"), framing);
      return;
    }
    this.dispatch(requestId, method, params, framing);
  }

  private dispatch(id: JsonRpcId, method: string, params: Record<string, unknown> | undefined, framing: Framing): void {
    if (method === "initialize") return this.initialize(id, params, framing);
    if (method === "ping") return this.replyResult(id, {}, framing);
    if (this.state !== "ready") {
      const step = this.state === "new" ? "send initialize, then notifications/initialized" : "send notifications/initialized first";
      return this.reply(id, rpcError(JsonRpcErrorCode.NotInitialized, `not initialized: ${step}`), framing);
    }
    switch (method) {
      case "tools/call":
        return this.toolCall(id, params, framing);
      case "tools/list":
        return this.replyResult(id, { tools: listTools(this.context.manifest) }, framing);
      case "prompts/list":
        return this.replyResult(id, { prompts: [] }, framing);
      case "resources/list":
        return this.replyResult(id, { resources: [] }, framing);
      case "resources/templates/list":
        return this.replyResult(id, { resourceTemplates: [] }, framing);
      case "prompts/get":
        return this.reply(id, rpcError(JsonRpcErrorCode.InvalidParams, "unknown prompt: this daemon has no prompts"), framing);
      case "resources/read":
        return this.reply(id, rpcError(JsonRpcErrorCode.InvalidParams, "unknown resource: this daemon has no resources"), framing);
    }
    if (LEASE_METHODS.has(method) && this.context.leases !== undefined) {
      const outcome = handleLeaseMethod(this.context.leases, this.clientId, method, params);
      return "error" in outcome ? this.reply(id, outcome.error, framing) : this.replyResult(id, outcome.result, framing);
    }
    const where = LEASE_METHODS.has(method) ? " (leases exist only on the daemon socket)" : "";
    this.reply(id, rpcError(JsonRpcErrorCode.MethodNotFound, `method not found: ${method}${where}`), framing);
  }

  private initialize(id: JsonRpcId, params: Record<string, unknown> | undefined, framing: Framing): void {
    if (this.state !== "new") {
      return this.reply(id, rpcError(JsonRpcErrorCode.InvalidRequest, "initialize was already received on this connection"), framing);
    }
    const version = params?.protocolVersion;
    if (typeof version !== "string" || !SUPPORTED_MCP_VERSIONS.includes(version)) {
      const got = version === undefined ? "none" : JSON.stringify(version);
      return this.reply(id, rpcError(JsonRpcErrorCode.InvalidParams, `unsupported MCP protocol version ${got}; this daemon supports ${SUPPORTED_MCP_VERSIONS.join(" and ")}`), framing);
    }
    if (!isJsonObject(params?.capabilities) || !isJsonObject(params?.clientInfo) || typeof params.clientInfo.name !== "string") {
      return this.reply(id, rpcError(JsonRpcErrorCode.InvalidParams, "initialize needs capabilities (an object) and clientInfo {name, version}"), framing);
    }
    const negotiated = negotiate(this.context.manifest, params.glass);
    if (!negotiated.ok) return this.reply(id, rpcError(JsonRpcErrorCode.InvalidParams, negotiated.message), framing);
    this.state = "initializing";
    this.replyResult(
      id,
      {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: MOCK_SERVER_NAME, version: this.context.serverVersion },
        glass: this.context.manifest,
        glassAgreement: negotiated.agreement,
      },
      framing,
    );
  }

  private toolCall(id: JsonRpcId, params: Record<string, unknown> | undefined, framing: Framing): void {
    const context = this.context;
    const tool = typeof params?.name === "string" ? params.name : "";
    const fast = context.fastAnswers?.get(tool);
    if (fast !== undefined && fastPathAllowed(params)) return this.connection.write(rpcResult(id, { ...fast }), framing);
    const number = ++context.callCount;
    const started = startToolCall(context, this.clientId, id, params);
    context.record.addCall({
      number,
      clientId: this.clientId,
      id,
      tool,
      operation: operationFor(tool),
      arguments: isJsonObject(params?.arguments) ? params.arguments : {},
    });
    const fault = context.faults.onArrival(number);
    if (fault === "crash") return context.crash();
    const call: ActiveCall = { id, number, framing, workflow: tool === "workflow", answered: false };
    if (fault === "overload") return this.finish(call, { error: rpcError(JsonRpcErrorCode.Overloaded, "overloaded: the daemon is busy (fault injected); retry later") });
    const overloaded = overloadReason(context.mode, context.limits, this.active.size, context.inFlight);
    if (overloaded !== undefined) return this.finish(call, { error: rpcError(JsonRpcErrorCode.Overloaded, overloaded) });
    if (started.kind === "refuse") return this.finish(call, { error: started.error });
    if (call.workflow && context.workflowActive) {
      return this.finish(call, { error: rpcError(JsonRpcErrorCode.InvalidRequest, "workflow already active: wait for it to finish or cancel it") });
    }
    this.active.set(call.id, call);
    context.inFlight++;
    if (call.workflow) context.workflowActive = true;
    if (fault === "stall") return;
    if (context.latencyMs <= 0) return this.complete(call, started.answer);
    call.timer = setTimeout(() => this.complete(call, started.answer), context.latencyMs);
  }

  /** Answers a call with its tool result (or -32603 if making it fails). */
  private complete(call: ActiveCall, answer: () => McpToolResult): void {
    let outcome: CallOutcome;
    try {
      outcome = { result: answer() };
    } catch (error) {
      outcome = { error: internalError(error) };
    }
    this.finish(call, outcome);
  }

  /** Answers a call (a tool result or an error), unless it was answered already, then runs the after-answer faults. */
  private finish(call: ActiveCall, outcome: CallOutcome): void {
    if (this.closed || call.answered) return;
    call.answered = true;
    if (this.active.get(call.id) === call) this.forget(call);
    const message = "error" in outcome ? rpcFailure(call.id, outcome.error) : rpcResult(call.id, { ...outcome.result });
    this.connection.write(message, call.framing);
    for (const fault of this.context.faults.afterAnswer(call.number)) this.misbehave(fault, message, call.framing);
  }

  private forget(call: ActiveCall): void {
    if (call.timer !== undefined) clearTimeout(call.timer);
    this.active.delete(call.id);
    this.context.inFlight--;
    if (call.workflow) this.context.workflowActive = false;
    this.context.record.changed();
  }

  private misbehave(fault: AfterAnswerFault, answer: JsonRpcResponse, framing: Framing): void {
    switch (fault.kind) {
      case "duplicateAnswer":
        return this.connection.write(answer, framing);
      case "unknownIdAnswer":
        return this.connection.write(rpcResult("mock-unknown-request", { content: [{ type: "text", text: "{}" }] }), framing);
      case "serverRequest": {
        const id = `glass-server-${++this.context.serverRequestCount}`;
        this.serverRequests.set(id, fault.method);
        return this.connection.write({ jsonrpc: "2.0", id, method: fault.method, params: fault.params }, framing);
      }
      case "malformedFrame":
      case "partialFrame":
      case "oversizedFrame":
        return this.connection.writeGarbage(fault.kind);
    }
  }

  private takeNotification(method: string, params: unknown): void {
    if (method === "notifications/initialized") {
      if (this.state === "initializing") this.state = "ready";
      return;
    }
    if (method !== "notifications/cancelled" || !isJsonObject(params)) return;
    const requestId = params.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const call = this.active.get(requestId);
    if (call === undefined) return;
    const reason = typeof params.reason === "string" && params.reason !== "" ? `: ${params.reason}` : "";
    this.finish(call, { error: rpcError(JsonRpcErrorCode.RequestCancelled, `request cancelled${reason}`) });
  }

  private takeClientAnswer(response: JsonRpcResponse): void {
    const key = typeof response.id === "string" ? response.id : undefined;
    const method = key === undefined ? undefined : this.serverRequests.get(key);
    if (key === undefined || method === undefined) return;
    this.serverRequests.delete(key);
    this.context.record.addClientAnswer({ clientId: this.clientId, method, response });
  }

  private replyResult(id: JsonRpcId, result: { [key: string]: unknown }, framing: Framing): void {
    this.connection.write(rpcResult(id, result), framing);
  }

  private reply(id: JsonRpcId | null, error: RpcError, framing: Framing): void {
    this.connection.write(rpcFailure(id, error), framing);
  }
}

function internalError(error: unknown): RpcError {
  return rpcError(JsonRpcErrorCode.InternalError, `internal error in the mock daemon: ${error instanceof Error ? error.message : String(error)}`);
}
