import { errorFromEnvelope } from "./error-from-envelope.js";
import { exchange, type ExchangeContext } from "./exchange.js";
import { answerProblem, responseInvalid } from "../mcp/answer-check.js";
import { jsonRpcErrorToGlass } from "../mcp/json-rpc-error-to-glass.js";
import { READ_ONLY_METHODS } from "../mcp/json-rpc.js";
import { sleepUnlessAborted } from "./sleep.js";
import { retryDelayMs, type ResolvedRetryPolicy } from "./retry-delay.js";
import type { CallOptions } from "./options.js";


let nextRpcId = 1;

/** What an MCP method call (not a tool) needs. */
export interface RpcContext extends ExchangeContext {
  retryPolicy: ResolvedRetryPolicy;
}

/**
 * Calls an MCP method that is not a tool (`ping`, `tools/list`, `glass/lease/*`) and returns its
 * result object, or throws the GlassError its failure maps to. Read-only methods are retried on
 * overload within the deadline. An answer that cannot be read (nested past the depth bound, a
 * malformed error) is `response.invalid`.
 */
export async function rpcCall(context: RpcContext, method: string, params: Record<string, unknown>, options: CallOptions & { deadlineMs: number }): Promise<Record<string, unknown>> {
  const deadlineAt = Date.now() + options.deadlineMs;
  const readOnly = READ_ONLY_METHODS.has(method);
  const maxRetries = options.retry === false ? 0 : typeof options.retry === "number" ? options.retry : readOnly ? context.retryPolicy.maxRetries : 0;
  for (let attempt = 0; ; attempt++) {
    const id = nextRpcId++;
    const requestId = String(id);
    const outcome = await exchange(context, { message: { jsonrpc: "2.0", id, method, params }, operation: method, requestId, mutating: !readOnly, deadlineAt, signal: options.signal });
    if (outcome.kind === "failed") throw outcome.error;
    const message = outcome.message;
    const problem = answerProblem(message);
    if (problem !== undefined) throw errorFromEnvelope(responseInvalid(method, [problem], !readOnly), method, requestId);
    if (!("error" in message)) return message.result !== null && typeof message.result === "object" ? message.result : {};
    const error = errorFromEnvelope(jsonRpcErrorToGlass(message.error, false), method, requestId);
    const delay = retryDelayMs(context.retryPolicy, attempt + 1);
    if (error.code !== "overloaded" || attempt >= maxRetries || Date.now() + delay >= deadlineAt) throw error;
    context.log?.({ type: "retry", operation: method, requestId, attempt: attempt + 1, delayMs: delay, code: error.code });
    await sleepUnlessAborted(delay, options.signal);
  }
}
