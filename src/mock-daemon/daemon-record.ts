import type { OperationName, PayloadOf, ResultOf } from "../../generated/operation-map.js";
import type { GlassErrorObject } from "../envelope/envelope-types.js";
import type { JsonRpcId, JsonRpcResponse } from "../mcp/json-rpc.js";

/**
 * How a recorded call ended, as the mock daemon answered it: the Glass result, or the failure — a
 * tool failure's error object (`browser tool failed` is recorded as `tool.failed`), or the
 * `data` of a JSON-RPC error with its `jsonRpcCode` (lease errors: `data.details.code` names the
 * lease problem).
 */
export type RecordedOutcome<Op extends string = string> =
  | { readonly ok: true; readonly result: Op extends OperationName ? ResultOf<Op> : unknown }
  | { readonly ok: false; readonly error: GlassErrorObject; readonly jsonRpcCode?: number };

/**
 * One `tools/call` a mock daemon received, as tests see it. `RecordedCall<"browser.click">` (what
 * `callsTo("browser.click")` of the mock returns) has the operation's payload and result types;
 * the payload is what the client sent, which the mock accepts as leniently as the daemon does.
 */
export interface RecordedCall<Op extends string = string> {
  /** Its number: 1 for the daemon's first call (all connections together). */
  number: number;
  /** The connection it came on (`stdio`, or `client-1`, `client-2`, … on the socket). */
  clientId: string;
  /** Its JSON-RPC id (null when sent with a null id; `undefined` for one sent as a notification). */
  id: JsonRpcId | null | undefined;
  /** `params.name`. */
  tool: string;
  /** The Glass operation the tool maps to. */
  operation: Op;
  /** `params.arguments`, as sent (MCP-only fields included). */
  arguments: Record<string, unknown>;
  /** The Glass request id: the JSON-RPC id as text (`"null"` for a null id, `"notification"` for none). */
  requestId: string;
  /** The canonical payload (the arguments without the MCP-only fields); `undefined` when the params were unusable. */
  payload: (Op extends OperationName ? PayloadOf<Op> : unknown) | undefined;
  /** How the call ended; `undefined` while it is in flight, or when it never got an answer (stalled, or its client left). */
  outcome?: RecordedOutcome<Op>;
}

/** A client's answer to a request the daemon sent it (the server-request fault). */
export interface RecordedClientAnswer {
  /** The connection it came on. */
  clientId: string;
  /** The method of the daemon's request. */
  method: string;
  /** The client's JSON-RPC response. */
  response: JsonRpcResponse;
}

/** What a mock daemon has seen, for tests to assert on. */
export class DaemonRecord {
  /** Every `tools/call` received, in order of arrival. */
  readonly calls: RecordedCall[] = [];
  /** Every answer a client gave to a daemon-to-client request. */
  readonly clientAnswers: RecordedClientAnswer[] = [];
  readonly #waiters = new Set<() => void>();

  /** The calls of one operation, in order of arrival, typed by it. */
  callsTo<Op extends OperationName>(operation: Op): RecordedCall<Op>[] {
    return this.calls.filter((call): call is RecordedCall<Op> => call.operation === operation);
  }

  /** Adds a call. */
  addCall(call: RecordedCall): void {
    this.calls.push(call);
    this.changed();
  }

  /** Adds a client's answer. */
  addClientAnswer(answer: RecordedClientAnswer): void {
    this.clientAnswers.push(answer);
    this.changed();
  }

  /** Resolves once `condition` holds (checked now, after each new record and on each {@link changed}). */
  waitFor(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (!condition()) return;
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
    });
  }

  /** Forgets the calls and client answers recorded so far (the call numbering goes on). */
  clear(): void {
    this.calls.length = 0;
    this.clientAnswers.length = 0;
    this.changed();
  }

  /** Re-checks the conditions waited for (the servers call it when clients come and go, and calls end). */
  changed(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
