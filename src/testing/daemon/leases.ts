/** A mutation lease as `glass/lease/acquire` and `glass/lease/renew` return it (§4). */
export interface LeaseGrant {
  /** The daemon's browser session the lease is for. */
  sessionId: string;
  /** The client holding it. */
  ownerId: string;
  /** The secret a mutating call carries in `arguments.mutationLease.token`. */
  token: string;
  /** When it expires, in milliseconds since the Unix epoch. */
  expiresAtMs: number;
}

/** The lease error codes of §2 (sent in `error.data.code` of a -32003 error). */
export type LeaseFailureCode = "leaseRequired" | "leaseHeld" | "leaseExpired" | "leaseNotFound" | "leaseNotOwner" | "invalidLease";

/** Why a lease operation or a mutating call was refused. Messages never contain a token. */
export interface LeaseFailure {
  /** The lease error code (`error.data.code`). */
  code: LeaseFailureCode;
  /** What went wrong, in words. */
  message: string;
  /** Whether trying again (after acquiring a lease) can succeed. */
  retryable: boolean;
}

/** Options of {@link LeaseManager}. */
export interface LeaseManagerOptions {
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /** Fault: leases really expire this long after being acquired or renewed, whatever `ttlMs` says. */
  expiresAfterMs?: number;
}

/** Tokens of ended leases remembered, to tell an expired token from an unknown one. */
const REMEMBERED_TOKENS = 256;

/**
 * The mutation lease of a daemon (§4): at most one at a time, held by one client, expiring by the
 * wall clock, released by its owner or when the owner disconnects. Expiry is checked lazily, each
 * time the lease is used.
 */
export class LeaseManager {
  /** The daemon's one browser session, which every lease is for. */
  readonly sessionId = `sess-mock-${randomHex(4)}`;
  private current: { grant: LeaseGrant; endsAtMs: number } | undefined;
  private readonly ended = new Map<string, "expired" | "released">();
  private readonly now: () => number;
  private readonly expiresAfterMs: number | undefined;

  constructor(options: LeaseManagerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.expiresAfterMs = options.expiresAfterMs;
  }

  /** The lease in force, if any. */
  active(): LeaseGrant | undefined {
    this.sweep();
    return this.current === undefined ? undefined : { ...this.current.grant };
  }

  /** Gives `ownerId` the lease for `ttlMs` ms, unless a lease is in force (leaseHeld). */
  acquire(ownerId: string, ttlMs: number): LeaseGrant | LeaseFailure {
    this.sweep();
    if (this.current !== undefined) {
      const mine = this.current.grant.ownerId === ownerId;
      return leaseFailure("leaseHeld", mine ? "this client already holds the mutation lease; renew it instead" : "the mutation lease is held by another client; try again once it is released or expires");
    }
    const grant: LeaseGrant = { sessionId: this.sessionId, ownerId, token: `lt-${randomHex(12)}`, expiresAtMs: 0 };
    return this.extend(grant, ttlMs);
  }

  /** Extends the owner's lease to `ttlMs` ms from now. */
  renew(ownerId: string, token: string, ttlMs: number): LeaseGrant | LeaseFailure {
    const held = this.find(ownerId, token);
    return "code" in held ? held : this.extend(held, ttlMs);
  }

  /** Ends the owner's lease. */
  release(ownerId: string, token: string): { sessionId: string; released: true } | LeaseFailure {
    const held = this.find(ownerId, token);
    if ("code" in held) return held;
    this.end("released");
    return { sessionId: this.sessionId, released: true };
  }

  /**
   * Whether a mutating call from `ownerId` carrying `token` may run: `undefined` when it may,
   * otherwise why not. `sessionIds` are the session ids the call names (`arguments.sessionId`,
   * `mutationLease.sessionId`); each must be the lease's.
   */
  authorize(ownerId: string, token: unknown, sessionIds: readonly unknown[] = []): LeaseFailure | undefined {
    if (typeof token !== "string" || token === "") return leaseFailure("invalidLease", "the mutation lease token must be a non-empty string");
    const held = this.find(ownerId, token);
    if ("code" in held) return held;
    const other = sessionIds.find((id) => id !== undefined && id !== held.sessionId);
    if (other !== undefined) {
      return leaseFailure("invalidLease", `the mutation lease is for session ${held.sessionId}, not ${typeof other === "string" ? other : JSON.stringify(other)}`);
    }
    return undefined;
  }

  /** Releases the lease if `ownerId` holds it (the owner disconnected). */
  releaseOwnedBy(ownerId: string): void {
    if (this.current?.grant.ownerId === ownerId) this.end("released");
  }

  /** Forgets every lease (the daemon crashed). */
  reset(): void {
    this.current = undefined;
    this.ended.clear();
  }

  private find(ownerId: string, token: string): LeaseGrant | LeaseFailure {
    this.sweep();
    if (this.current === undefined || this.current.grant.token !== token) {
      return this.ended.get(token) === "expired"
        ? leaseFailure("leaseExpired", "the mutation lease has expired; acquire a new one")
        : leaseFailure("leaseNotFound", "no mutation lease has this token; acquire one first");
    }
    if (this.current.grant.ownerId !== ownerId) return leaseFailure("leaseNotOwner", "the mutation lease belongs to another client");
    return this.current.grant;
  }

  private extend(grant: LeaseGrant, ttlMs: number): LeaseGrant {
    const now = this.now();
    grant.expiresAtMs = now + ttlMs;
    this.current = { grant, endsAtMs: now + Math.min(ttlMs, this.expiresAfterMs ?? ttlMs) };
    return { ...grant };
  }

  private sweep(): void {
    if (this.current !== undefined && this.now() >= this.current.endsAtMs) this.end("expired");
  }

  private end(how: "expired" | "released"): void {
    if (this.current === undefined) return;
    this.ended.set(this.current.grant.token, how);
    if (this.ended.size > REMEMBERED_TOKENS) this.ended.delete(this.ended.keys().next().value!);
    this.current = undefined;
  }
}

/** A lease failure with the retry flag §2 gives its code (leaseNotOwner and invalidLease are final). */
export function leaseFailure(code: LeaseFailureCode, message: string): LeaseFailure {
  return { code, message, retryable: code === "leaseRequired" || code === "leaseHeld" || code === "leaseExpired" || code === "leaseNotFound" };
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  let hex = "";
  for (const byte of buffer) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
