/**
 * Why the bridge turns a request or WebSocket upgrade away: the HTTP status, and a reason that
 * goes both to the client (in a JSON-RPC error body) and to the log. A reason never holds the token.
 */
export interface Refusal {
  /** 400, 401, 403, 404, 405, 406, 413, 415, 502 or 503. */
  readonly status: number;
  /** The JSON-RPC error code of the body (-32000 unless a more precise one applies). */
  readonly rpcCode: number;
  /** What was wrong, in words. */
  readonly reason: string;
  /** Extra response headers (`WWW-Authenticate`, `Allow`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A refusal with the generic server-error code -32000. */
export function refusal(status: number, reason: string, headers?: Readonly<Record<string, string>>): Refusal {
  return headers === undefined ? { status, rpcCode: -32000, reason } : { status, rpcCode: -32000, reason, headers };
}

/** The JSON-RPC error body of a refusal (`id` null: it answers no particular request). */
export function refusalBody(refused: Refusal): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: refused.rpcCode, message: refused.reason } });
}
