import { errorFromEnvelope } from "./error-from-envelope.js";
import { exchange, type ExchangeContext } from "./exchange.js";
import { answerProblem, responseInvalid } from "../mcp/answer-check.js";
import { jsonRpcErrorToGlass } from "../mcp/json-rpc-error-to-glass.js";
import { READ_ONLY_METHODS } from "../mcp/json-rpc.js";
import { GlassError } from "../errors/glass-error.js";
import { retrying, type ResolvedRetryPolicy } from "./retry-delay.js";
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
  const outcome = await retrying<Record<string, unknown> | GlassError>(context, { operation: method, maxRetries, deadlineAt, signal: options.signal }, async () => {
    const id = nextRpcId++;
    const requestId = String(id);
    const exchanged = await exchange(context, { message: { jsonrpc: "2.0", id, method, params }, operation: method, requestId, mutating: !readOnly, deadlineAt, signal: options.signal });
    if (exchanged.kind === "failed") throw exchanged.error;
    const message = exchanged.message;
    const problem = answerProblem(message);
    if (problem !== undefined) throw errorFromEnvelope(responseInvalid(method, [problem], !readOnly), method, requestId);
    if (!("error" in message)) return { result: message.result !== null && typeof message.result === "object" ? message.result : {} };
    const error = errorFromEnvelope(jsonRpcErrorToGlass(message.error, false), method, requestId);
    return { result: error, retry: error.code === "overloaded" ? { code: error.code, requestId } : undefined };
  });
  if (outcome instanceof GlassError) throw outcome;
  return outcome;
}
