import type { RawPeer, RawResponse } from "./raw-mcp-peer.js";

/**
 * A small MCP client written the way upstream Glass clients talk to the daemon — not the way this
 * SDK does: `initialize` with the singular `glass: {protocolVersion: 1, schemas}`, numeric ids,
 * `arguments.leaseToken` on every tool call while it holds a lease (read-only calls included), never
 * a `sessionId` or `mutationLease`, and short leases kept alive by renewing in the background.
 */
export class DialectClient {
  /** Renewals that succeeded so far. */
  renewals = 0;
  /** Errors of renewals that failed. */
  readonly renewalErrors: unknown[] = [];
  #nextId = 1;
  #token: string | undefined;
  #renewing: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly peer: RawPeer) {}

  /** The handshake: initialize (MCP 2024-11-05, the singular Glass version), then notifications/initialized. */
  async initialize(schemas: Record<string, number[]>): Promise<Record<string, unknown>> {
    const answer = await this.#request("initialize", {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name: "dialect-client", version: "0.0.1" },
      glass: { protocolVersion: 1, schemas },
    });
    if (answer.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(answer.error)}`);
    this.peer.notify("notifications/initialized");
    return answer.result;
  }

  /** Takes the mutation lease for `ttlMs`. */
  async acquire(ttlMs: number): Promise<void> {
    const answer = await this.#request("glass/lease/acquire", { ttlMs });
    const token = (answer.result as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string") throw new Error(`acquire failed: ${JSON.stringify(answer.error)}`);
    this.#token = token;
  }

  /** Renews the lease to `ttlMs` every `everyMs` until {@link release}. */
  keepRenewing(everyMs: number, ttlMs: number): void {
    this.#renewing = setInterval(() => {
      if (this.#token === undefined) return;
      this.#request("glass/lease/renew", { token: this.#token, ttlMs }).then(
        (answer) => (answer.result !== undefined ? this.renewals++ : this.renewalErrors.push(answer.error)),
        (error: unknown) => this.renewalErrors.push(error),
      );
    }, everyMs);
  }

  /** Stops renewing and gives the lease back; resolves with the daemon's answer. */
  async release(): Promise<RawResponse> {
    clearInterval(this.#renewing);
    const token = this.#token;
    this.#token = undefined;
    return this.#request("glass/lease/release", { token });
  }

  /** Calls a tool, with `leaseToken` added while a lease is held. */
  call(name: string, args: Record<string, unknown>): Promise<RawResponse> {
    return this.#request("tools/call", {
      name,
      arguments: this.#token === undefined ? args : { ...args, leaseToken: this.#token },
    });
  }

  #request(method: string, params: Record<string, unknown>): Promise<RawResponse> {
    return this.peer.request(this.#nextId++, method, params);
  }
}
