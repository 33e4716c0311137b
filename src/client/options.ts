import type { GlassCapabilityName } from "../../generated/types/glass-capabilities-v1.js";
import type { ServerRequestHandler } from "../mcp/mcp-session.js";
import type { GlassDialogEvent, GlassDialogHandler } from "./dialogs.js";

/** When and how read-only calls are retried (mutations never are). */
export interface RetryOptions {
  /** Attempts after the first; default 2. Over HTTP also the budget for refused reads: see docs/calls.md, "Retries". */
  maxRetries?: number;
  /** First backoff in ms; doubles each attempt; default 100. */
  baseDelayMs?: number;
  /** Backoff cap in ms; default 2000. */
  maxDelayMs?: number;
}

/** What the client asks the daemon for in `initialize` (§3). Ask only for what you use. */
export interface NegotiationOptions {
  /** Schemas the client uses, by name, with the versions it speaks, e.g. `{ webIr: [1], task: [1] }`. */
  schemas?: Record<string, number[]>;
  /** Capabilities the session cannot do without: initialize fails if one is unknown or disabled. */
  requires?: GlassCapabilityName[];
  /** Capabilities the client uses when available. */
  optional?: GlassCapabilityName[];
  /** Whether experimental capabilities may be agreed. */
  acceptsExperimental?: boolean;
}

/** One thing the client did or saw, for logging. Never carries payloads or lease tokens. */
export type GlassLogEvent =
  | { type: "request"; operation: string; requestId: string; attempt: number }
  | { type: "response"; operation: string; requestId: string; ok: boolean; code?: string; ms: number }
  | { type: "retry"; operation: string; requestId: string; attempt: number; delayMs: number; code: string }
  | { type: "cancel"; operation: string; requestId: string; reason: "deadline" | "abort" }
  | { type: "queued"; operation: string; requestId: string; inFlight: number }
  | { type: "lease"; action: "acquired" | "renewed" | "released" | "lost"; sessionId: string; expiresAtMs?: number }
  | { type: "connection"; detail: string }
  | GlassDialogEvent
  | { type: "wire"; detail: string };

/** Options of {@link Glass.connect}. */
export interface GlassClientOptions {
  /** Name and version the client introduces itself with. */
  clientInfo?: { name: string; version: string };
  /**
   * The MCP protocol version to ask for, alone. Unset (the default), the client asks for
   * `2025-11-25` (newest daemons) and, if the server refuses it, for `2024-11-05` (every daemon) on
   * the same connection.
   */
  mcpProtocolVersion?: "2024-11-05" | "2025-11-25";
  /**
   * The Glass negotiation, or `false` to send none (plain MCP servers). Default `{ protocolVersions: [1] }` only.
   * With `requires`, connecting fails (`initialize.failed`) unless the server makes a Glass agreement.
   */
  negotiation?: NegotiationOptions | false;
  /** Default deadline of every call in ms (1..900000); default 60000. */
  deadlineMs?: number;
  /** Retry policy for read-only calls, or `false` to never retry. */
  retry?: RetryOptions | false;
  /** Requests in flight at most; more are queued. Default: the transport's (8 stdio, 4 socket). */
  maxInFlight?: number;
  /** Check payloads before sending (default true) and responses before believing them (default true). */
  validate?: { payloads?: boolean; responses?: boolean };
  /**
   * Answers to requests the daemon sends the client, by method; any other is answered -32601. An
   * `elicitation/create` handler here and {@link GlassClientOptions.onDialog} together are a
   * TypeError.
   */
  serverRequestHandlers?: Readonly<Record<string, ServerRequestHandler>>;
  /**
   * Answers the page's own dialogs (alert, confirm, prompt, beforeunload) when the daemon asks
   * (its native runtime only); with it the client declares `capabilities.elicitation` for MCP
   * `2025-11-25`. A handler that throws, answers something else or overruns `dialogTimeoutMs`
   * makes the client answer `cancel`. See docs/calls.md, "Dialogs".
   */
  onDialog?: GlassDialogHandler;
  /** How long `onDialog` may take for one dialog, in ms (1..900000); default 60000. Then its signal aborts and the daemon gets `cancel`. */
  dialogTimeoutMs?: number;
  /** Receives log events (no payloads, no tokens; scrubbed); `GLASS_DEBUG=1` also prints them. See docs/calls.md, "Logging". */
  logger?: (event: GlassLogEvent) => void;
  /** How long a cancelled call keeps its in-flight slot while the daemon winds it down (ms); default 5000. */
  cancelGraceMs?: number;
}

/** Per-call options of every operation method, `glass.request` and `glass.send`. */
export interface CallOptions {
  /** This call's deadline in ms (1..900000); overrides the client default. */
  deadlineMs?: number;
  /** Cancels the call: a cancel notification is sent and the call rejects with a CancelledError. */
  signal?: AbortSignal;
  /** `false` turns retries off for this call; a number sets its retry count (read-only calls only). */
  retry?: boolean | number;
  /** `false` skips the local payload check (e.g. to see the daemon's own answer to a bad payload). */
  validate?: boolean;
  /** Groups the requests of one run or workflow. */
  correlationId?: string;
  /** The request id; a fresh UUID when absent. */
  requestId?: string;
}
