import type { JsonRpcId, JsonRpcResponse } from "../mcp/json-rpc.js";

/** One `tools/call` a mock daemon received, as tests see it. */
export interface RecordedCall {
  /** Its number: 1 for the daemon's first call (all connections together). */
  number: number;
  /** The connection it came on (`stdio`, or `client-1`, `client-2`, … on the socket). */
  clientId: string;
  /** Its JSON-RPC id (null when sent with a null id; `undefined` for one sent as a notification). */
  id: JsonRpcId | null | undefined;
  /** `params.name`. */
  tool: string;
  /** The Glass operation the tool maps to. */
  operation: string;
  /** `params.arguments`, as sent (MCP-only fields included). */
  arguments: Record<string, unknown>;
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
  private readonly waiters = new Set<() => void>();

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
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Re-checks the conditions waited for (the servers call it when clients come and go, and calls end). */
  changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
