import type { GlassCapabilityName } from "../../generated/types/glass-capabilities-v1.js";
import type { ServerRequestHandler } from "../mcp/mcp-session.js";
import type { GlassDialogEvent, GlassDialogHandler } from "./dialogs.js";

/** When and how read-only calls are retried (mutations never are). */
export interface RetryOptions {
  /**
   * Attempts after the first; default 2. Over HTTP this is also the budget for a read the server
   * refused (408, 429, 502, 503, 504): the transport leaves those to this retry, which waits at
   * least the refusal's `Retry-After` (`details.retryAfterMs`) and gives up at once when the
   * deadline ends before it.
   */
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
   * Answers the page's own dialogs (alert, confirm, prompt, beforeunload) when the daemon asks:
   * `onDialog: async (dialog, { signal }) => ({ action: "accept", response: "Ada" })`. With it the
   * client declares `capabilities.elicitation` in an initialize asking for MCP `2025-11-25` (not in
   * one asking for `2024-11-05`, which has no elicitation). Only a daemon on its native runtime asks;
   * on the Chromium runtime (glass-browser 0.3.14) use `browser.acceptDialog` / `dismissDialog`. A
   * handler that throws, answers something else or takes longer than `dialogTimeoutMs` makes the
   * client answer `cancel`. See docs/calls.md, "Dialogs".
   */
  onDialog?: GlassDialogHandler;
  /** How long `onDialog` may take for one dialog, in ms (1..900000); default 60000. Then its signal aborts and the daemon gets `cancel`. */
  dialogTimeoutMs?: number;
  /**
   * Receives log events (no payloads, no tokens; what quotes the daemon is scrubbed). In Node,
   * `GLASS_DEBUG=1` (or `DEBUG=glass-sdk`) in the environment also writes them to stderr, one line
   * each. See docs/calls.md, "Logging".
   */
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
