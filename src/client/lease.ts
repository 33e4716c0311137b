import { REDACTED } from "../errors/redact.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** A mutation lease as the daemon answers `glass/lease/acquire` and `glass/lease/renew` (§4). */
export interface LeaseGrant {
  /** The daemon's browser session the lease is for. */
  sessionId: string;
  /** The client holding it. */
  ownerId: string;
  /** The secret a mutating call carries (`arguments.leaseToken` or `arguments.mutationLease.token`). */
  token: string;
  /** When it expires, in milliseconds since the Unix epoch. */
  expiresAtMs: number;
}

/**
 * A mutation lease held by this client (§4). The client sends its token with mutating calls on its own;
 * the token is readable for hand-built requests but never shows up in logs, `JSON.stringify`,
 * `String(lease)` or `console.log(lease)`.
 */
export class Lease {
  /** The daemon session the lease belongs to. */
  readonly sessionId: string;
  /** The lease owner the daemon assigned. */
  readonly ownerId: string;
  /** When the lease expires (ms since the epoch) unless renewed. */
  expiresAtMs: number;
  readonly #token: string;

  constructor(grant: LeaseGrant) {
    this.sessionId = grant.sessionId;
    this.ownerId = grant.ownerId;
    this.expiresAtMs = grant.expiresAtMs;
    this.#token = grant.token;
  }

  /** The secret token. Never log it. */
  get token(): string {
    return this.#token;
  }

  /**
   * The lease context of a request envelope. Over MCP only its token travels, as
   * `arguments.leaseToken` of mutating calls (§2); the session id stays on this side.
   */
  get mutationLease(): { sessionId: string; token: string } {
    return { sessionId: this.sessionId, token: this.#token };
  }

  /** The lease without its token (the public type spells out the literal the value REDACTED is). */
  toJSON(): { sessionId: string; ownerId: string; expiresAtMs: number; token: "[redacted]" } {
    return { sessionId: this.sessionId, ownerId: this.ownerId, expiresAtMs: this.expiresAtMs, token: REDACTED };
  }

  /** `Lease(session-1, expires 2026-…)`, without the token. */
  toString(): string {
    return `Lease(${this.sessionId}, expires ${new Date(this.expiresAtMs).toISOString()})`;
  }

  /** Node's console shows the redacted form. */
  [INSPECT](): string {
    return this.toString();
  }
}
