import type { LeaseGrant } from "../client/lease.js";
import type { GlassErrorCode, LeaseErrorCode } from "../errors/error-codes.js";

/** The lease the mock grants: the client's {@link LeaseGrant}, one shape on both sides. */
export type { LeaseGrant };

/**
 * The lease codes of §2, sent in `error.data.details.code` of a -32003 error; `leaseRequired` is the
 * mock's name for "mutation lease required" (no token), whose details are null on the wire.
 */
export type LeaseFailureCode = LeaseErrorCode | typeof GlassErrorCode.LeaseRequired;

/** Why a lease operation or a mutating call was refused. Messages never contain a token. */
export interface LeaseFailure {
  /** The lease code. */
  code: LeaseFailureCode;
  /** What went wrong, in words. */
  message: string;
  /** Whether trying again (after acquiring a lease, or waiting) can succeed. */
  retryable: boolean;
}

/** Options of {@link LeaseManager}. */
export interface LeaseManagerOptions {
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /** Fault: leases really expire this long after being acquired or renewed, whatever `ttlMs` says. */
  expiresAfterMs?: number;
}

/**
 * The mutation lease of a daemon (§4): at most one at a time, held by one client, expiring by the
 * wall clock, released by its owner or when the owner disconnects. An expired lease stays on record
 * (so its owner hears `leaseExpired`, and may still release it) until a new acquire replaces it.
 * Checks of a token, in order: no lease on record → `leaseNotFound`; another owner or another token
 * → `leaseNotOwner`; expired → `leaseExpired`.
 */
export class LeaseManager {
  /** The daemon's one browser session, which every lease is for. */
  readonly sessionId = `sess-mock-${randomHex(4)}`;
  #current: { grant: LeaseGrant; endsAtMs: number } | undefined;
  readonly #now: () => number;
  readonly #expiresAfterMs: number | undefined;

  constructor(options: LeaseManagerOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#expiresAfterMs = options.expiresAfterMs;
  }

  /** The lease in force (on record and not expired), if any. */
  active(): LeaseGrant | undefined {
    return this.#current === undefined || this.#expired() ? undefined : { ...this.#current.grant };
  }

  /** Gives `ownerId` the lease for `ttlMs` ms, unless an unexpired lease exists, even its own (leaseHeld). */
  acquire(ownerId: string, ttlMs: number): LeaseGrant | LeaseFailure {
    if (this.#current !== undefined && !this.#expired()) {
      return leaseFailure("leaseHeld", "mutation lease is already held");
    }
    const grant: LeaseGrant = { sessionId: this.sessionId, ownerId, token: `lt-${randomHex(12)}`, expiresAtMs: 0 };
    return this.#extend(grant, ttlMs);
  }

  /** Extends the owner's unexpired lease to `ttlMs` ms from now. */
  renew(ownerId: string, token: string, ttlMs: number): LeaseGrant | LeaseFailure {
    const held = this.authorize(ownerId, token);
    return held ?? this.#extend(this.#current!.grant, ttlMs);
  }

  /** Ends the owner's lease; an expired one too (only the token and the owner are checked). */
  release(ownerId: string, token: string): { sessionId: string; released: true } | LeaseFailure {
    const refused = this.#ownershipFailure(ownerId, token);
    if (refused !== undefined) return refused;
    this.#current = undefined;
    return { sessionId: this.sessionId, released: true };
  }

  /** Whether a mutating call from `ownerId` carrying `token` may run: `undefined` when it may, otherwise why not. */
  authorize(ownerId: string, token: string): LeaseFailure | undefined {
    return (
      this.#ownershipFailure(ownerId, token) ??
      (this.#expired() ? leaseFailure("leaseExpired", "mutation lease has expired") : undefined)
    );
  }

  /** Releases the lease if `ownerId` holds it (the owner disconnected). */
  releaseOwnedBy(ownerId: string): void {
    if (this.#current?.grant.ownerId === ownerId) this.#current = undefined;
  }

  /** Forgets the lease (the daemon crashed). */
  reset(): void {
    this.#current = undefined;
  }

  #ownershipFailure(ownerId: string, token: string): LeaseFailure | undefined {
    if (this.#current === undefined) return leaseFailure("leaseNotFound", "mutation lease was not found");
    const { grant } = this.#current;
    if (grant.ownerId !== ownerId || grant.token !== token)
      return leaseFailure("leaseNotOwner", "mutation lease is held by another owner");
    return undefined;
  }

  #expired(): boolean {
    return this.#current !== undefined && this.#now() >= this.#current.endsAtMs;
  }

  #extend(grant: LeaseGrant, ttlMs: number): LeaseGrant {
    const now = this.#now();
    grant.expiresAtMs = now + ttlMs;
    this.#current = { grant, endsAtMs: now + Math.min(ttlMs, this.#expiresAfterMs ?? ttlMs) };
    return { ...grant };
  }
}

/** A lease failure with the retry flag §2 gives its code (leaseNotOwner and invalidLease are final). */
export function leaseFailure(code: LeaseFailureCode, message: string): LeaseFailure {
  return {
    code,
    message,
    retryable: code === "leaseRequired" || code === "leaseHeld" || code === "leaseExpired" || code === "leaseNotFound",
  };
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  let hex = "";
  for (const byte of buffer) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
