import { GlassError } from "../errors/glass-error.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { truncateUtf8 } from "../mcp/utf8-truncate.js";
import { isJsonObject } from "../validation/json-value.js";
import { exchange, failedBeforeSending } from "./exchange.js";
import { InFlightLimiter } from "./in-flight-limiter.js";
import type { GlassLogEvent } from "./options.js";
import { retryAfterOf, retrying, type ResolvedRetryPolicy } from "./retry.js";

// Which tools the connected daemon has (its `tools/list`, read once at connect), so that a call to a
// tool it lacks — one newer than the daemon, say — fails before anything is sent.

/** Pages of `tools/list` read at most (a daemon lists its tools on one). */
const MAX_PAGES = 16;

/** Tools remembered at most; a longer list is not believed (the client then checks nothing). */
const MAX_TOOLS = 4096;

/**
 * The names of the tools the daemon lists, read once after the handshake (following `nextCursor`).
 * `undefined` when the daemon does not answer `tools/list` with a list (a server without the
 * method, a malformed answer): calls are then sent unchecked, as before. A page refused before it
 * was sent (an HTTP 503) is asked for again under `retryPolicy`, after the server's `Retry-After`;
 * a failure to reach the daemon at all rejects, as the handshake's own would.
 */
export async function listDaemonTools(
  session: McpSession,
  deadlineAt: number,
  log: ((event: GlassLogEvent) => void) | undefined,
  retryPolicy: ResolvedRetryPolicy,
): Promise<ReadonlySet<string> | undefined> {
  const names = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const id = `tools-list-${page + 1}`;
    const params = cursor === undefined ? {} : { cursor };
    const outcome = await retrying(
      { retryPolicy, log },
      { operation: "tools/list", maxRetries: retryPolicy.maxRetries, deadlineAt },
      async (attempt) => {
        const tried = await exchange(
          { session, limiter: new InFlightLimiter(1), cancelGraceMs: 0, log },
          {
            message: { jsonrpc: "2.0", id, method: "tools/list", params },
            operation: "tools/list",
            requestId: id,
            mutating: false,
            deadlineAt,
            attempt,
          },
        );
        const again = tried.kind === "failed" && failedBeforeSending(tried) && session.closeReason === undefined;
        return {
          result: tried,
          retry: again ? { code: tried.error.code, requestId: id, retryAfterMs: retryAfterOf(tried.error) } : undefined,
        };
      },
    );
    if (outcome.kind === "failed") throw outcome.error;
    const answer = outcome.message;
    const result = "result" in answer && isJsonObject(answer.result) ? answer.result : undefined;
    const tools = result?.tools;
    if (!Array.isArray(tools)) {
      const said =
        "error" in answer && isJsonObject(answer.error) && typeof answer.error.message === "string"
          ? `: ${truncateUtf8(answer.error.message, 128)}`
          : "";
      log?.({
        type: "connection",
        detail: `the daemon did not list its tools${said}; calls are sent without checking that it has their tool`,
      });
      return undefined;
    }
    for (const tool of tools) if (isJsonObject(tool) && typeof tool.name === "string") names.add(tool.name);
    if (names.size > MAX_TOOLS) return undefined;
    const next = result?.nextCursor;
    if (typeof next !== "string" || next === "") return names;
    cursor = next;
  }
  return names;
}

/**
 * The failure of a call to a tool the connected daemon does not list: nothing was sent, and the
 * message names the tool and the daemon (whose version lacks it, or which switched it off).
 */
export function toolNotListed(
  operation: string,
  tool: string,
  daemon: { name: string; version: string } | undefined,
): GlassError {
  const who = daemon === undefined ? "the daemon" : truncateUtf8(`${daemon.name} ${daemon.version}`.trim(), 128);
  return new GlassError({
    code: "capability.unavailable",
    message:
      `${who} does not list the ${tool} tool that ${operation} needs (a tool newer than this daemon, or one it has switched off); nothing was sent. ` +
      `Check with glass.supports(${JSON.stringify(operation)}) before calling, or connect to a daemon that has it`,
    operation,
    retry: { classification: "notRetryable", recommendedOperation: "inspect_capabilities" },
    details: { kind: "toolNotListed", operation, tool, daemon: who },
  });
}
