import type { GlassTransport, TransportHandlers } from "glass-sdk";
import type { JsonRpcMessage, JsonRpcRequest } from "glass-sdk/protocol";
import { TransportClosedError } from "glass-sdk";

/** How the scripted daemon answers one request: a result, a JSON-RPC error, nothing (stall), or later. */
export type ScriptedAnswer =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } }
  | { stall: true }
  | Promise<{ result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } }>;

/** Answers `tools/call` and other requests after the handshake; `initialize` is answered for you. */
export type ScriptedHandler = (request: JsonRpcRequest, daemon: ScriptedDaemon) => ScriptedAnswer;

/** A successful `tools/call` answer carrying `result` as MCP text content. */
export function textResult(result: unknown): { result: Record<string, unknown> } {
  return { result: { content: [{ type: "text", text: JSON.stringify(result) }] } };
}

/**
 * The daemon's refusal of an MCP revision it does not speak (§3): -32602 with the error wrapper
 * every JSON-RPC error of the daemon carries, and no counter-offer.
 */
export function unsupportedVersion(version: unknown): { error: { code: number; message: string; data: unknown } } {
  const message = `unsupported MCP protocol version ${JSON.stringify(version)}`;
  return { error: { code: -32602, message, data: daemonErrorData("protocol.invalidParams", message) } };
}

/** The `error.data` wrapper the daemon puts on every JSON-RPC error (§2). */
export function daemonErrorData(code: string, message: string, details: unknown = null): Record<string, unknown> {
  return {
    code,
    phase: "preflight",
    message,
    mutationPossible: false,
    retry: { classification: "safeAfterReobserve", recommendedOperation: "inspect_page" },
    details,
  };
}

/**
 * An in-process daemon for client unit tests: a GlassTransport whose peer is a function. It
 * records every message the client sends, answers `initialize` like the daemon — with the MCP
 * revision asked for when it is one of {@link mcpVersions} (else -32602, no counter-offer), a small
 * manifest and an agreement — and lets a test crash the connection or push messages (server
 * requests, stray answers) at will.
 */
export class ScriptedDaemon implements GlassTransport {
  readonly kind = "memory";
  readonly received: JsonRpcMessage[] = [];
  handlers: TransportHandlers | undefined;
  closed = false;
  /** How long `send` takes to "write" (ms); 0 writes on the next microtask. */
  writeDelayMs = 0;
  /** The MCP revisions this daemon accepts in initialize (the newest daemons: both). */
  mcpVersions: readonly string[] = ["2024-11-05", "2025-11-25"];
  /**
   * The tools it lists to the client's `tools/list` at connect (ids `tools-list-N`), or `undefined`
   * (the default) to answer that with -32601, as a server without the method would: the client then
   * sends every call unchecked. `"handler"` passes it to the handler like any other request. Later
   * `tools/list` calls always go to the handler.
   */
  listedTools: readonly string[] | "handler" | undefined = undefined;

  constructor(
    private readonly handler: ScriptedHandler,
    readonly maxInFlight = 8,
    readonly initializeResult: Record<string, unknown> = DEFAULT_INITIALIZE_RESULT,
  ) {}

  /** Messages of one method the client sent. */
  sent(method: string): JsonRpcMessage[] {
    return this.received.filter((message) => "method" in message && message.method === method);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new TransportClosedError({ message: "scripted daemon is closed" });
    if (this.writeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.writeDelayMs));
    else await Promise.resolve();
    this.received.push(message);
    if (!("method" in message) || !("id" in message)) return;
    const request = message as JsonRpcRequest;
    const answer =
      request.method === "initialize"
        ? this.initialize(request)
        : isConnectToolsList(request) && this.listedTools !== "handler"
          ? this.connectToolsList(this.listedTools)
          : this.handler(request, this);
    void Promise.resolve(answer).then((settled) => {
      if (this.closed || "stall" in settled) return;
      this.push({ jsonrpc: "2.0", id: request.id, ...settled } as JsonRpcMessage);
    });
  }

  /** The answer to initialize: the requested revision echoed, or the daemon's refusal. */
  private initialize(request: JsonRpcRequest): ScriptedAnswer {
    const version = request.params?.protocolVersion;
    if (typeof version !== "string" || !this.mcpVersions.includes(version)) return unsupportedVersion(version);
    return { result: { protocolVersion: version, ...this.initializeResult } };
  }

  /** The answer to the client's `tools/list` at connect: {@link listedTools}, or -32601. */
  private connectToolsList(tools: readonly string[] | undefined): ScriptedAnswer {
    if (tools === undefined) return { error: { code: -32601, message: "method not found: tools/list" } };
    return { result: { tools: tools.map((name) => ({ name, inputSchema: { type: "object" } })) } };
  }

  /** Delivers a message to the client as if the daemon sent it. */
  push(message: JsonRpcMessage): void {
    queueMicrotask(() => this.handlers?.onMessage(message));
  }

  /** Ends the connection as a crash would. */
  crash(message = "the daemon exited (code 1)"): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers?.onClose(new TransportClosedError({ message }));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Whether a request is the client's `tools/list` at connect (its ids are `tools-list-1`, `tools-list-2` …). */
function isConnectToolsList(request: JsonRpcRequest): boolean {
  return request.method === "tools/list" && typeof request.id === "string" && request.id.startsWith("tools-list-");
}

/** A minimal initialize answer (the MCP revision asked for is added), a manifest and an agreement. */
export const DEFAULT_INITIALIZE_RESULT: Record<string, unknown> = {
  capabilities: { tools: {} },
  serverInfo: { name: "scripted", version: "1" },
  glass: {
    protocolVersion: 1,
    glassVersion: "0.0.0-test",
    schemas: { webIr: [1], task: [1] },
    capabilities: { webIr: true, taskProtocol: true, rawCdp: false },
    constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
  },
  glassAgreement: {
    protocolVersion: 1,
    agreedSchemas: {},
    capabilities: { webIr: { status: "available" }, intentResolution: { status: "disabledByPolicy" } },
    constraints: { platform: "linux-x64", browserFamily: "chromium", policy: "default", maxSessions: 1 },
  },
};
