import { LeaseError, requestInvalid } from "../errors/error-classes.js";
import { GlassError } from "../errors/glass-error.js";
import { Lease, type LeaseGrant } from "./lease.js";
import type { CallOptions, GlassLogEvent } from "./options.js";

/** Options of `Glass.withLease` (and of the lease keeper behind it). */
export interface WithLeaseOptions {
  /** How long each grant lasts, 100..900000 ms; default 60000. */
  ttlMs?: number;
  /** Renew this long before expiry; default a third of ttlMs. */
  renewBeforeMs?: number;
}

/** The daemon's range for a lease's `ttlMs` (§4): an integer, with no default. */
const MIN_TTL_MS = 100;
const MAX_TTL_MS = 900_000;

/** `ttlMs`, checked before it is sent: a missing or out-of-range value would be refused by the daemon. */
function checkTtl(ttlMs: unknown, operation: string): number {
  if (typeof ttlMs === "number" && Number.isInteger(ttlMs) && ttlMs >= MIN_TTL_MS && ttlMs <= MAX_TTL_MS) return ttlMs;
  throw requestInvalid(`ttlMs must be an integer from ${MIN_TTL_MS} to ${MAX_TTL_MS} ms; got ${String(ttlMs)}`, {
    operation,
  });
}

/** Calls an MCP method and returns its result (the client's rpc). */
type RpcCaller = (
  method: string,
  params: Record<string, unknown>,
  options: CallOptions,
) => Promise<Record<string, unknown>>;

/** What a {@link LeaseKeeper} needs from its client. */
interface LeaseKeeperDeps {
  call: RpcCaller;
  log?: ((event: GlassLogEvent) => void) | undefined;
  /** Told every token the daemon grants, so that errors and logs can be scrubbed of it. */
  remember?: ((token: string) => void) | undefined;
}

function grantFrom(result: Record<string, unknown>, previous?: Lease): LeaseGrant {
  const sessionId = typeof result.sessionId === "string" ? result.sessionId : previous?.sessionId;
  const ownerId = typeof result.ownerId === "string" ? result.ownerId : previous?.ownerId;
  const token = typeof result.token === "string" ? result.token : previous?.token;
  const expiresAtMs = result.expiresAtMs;
  if (sessionId === undefined || ownerId === undefined || token === undefined || typeof expiresAtMs !== "number") {
    throw new GlassError({
      code: "response.invalid",
      message: "the daemon's lease answer lacks sessionId, ownerId, token or expiresAtMs",
      operation: "glass/lease",
    });
  }
  return { sessionId, ownerId, token, expiresAtMs };
}

/**
 * Holds this client's mutation lease (§4): acquires, renews and releases it with the daemon's
 * `glass/lease/*` methods, and runs blocks under it with renewal before expiry.
 */
export class LeaseKeeper {
  #held: Lease | undefined;
  /** Aborted when the lease they were made for is lost (one per running withLease block). */
  readonly #lossSignals = new Map<Lease, AbortController>();
  readonly #deps: LeaseKeeperDeps;

  constructor(deps: LeaseKeeperDeps) {
    this.#deps = deps;
  }

  /** The lease held now. */
  get current(): Lease | undefined {
    return this.#held;
  }

  /** Forgets the lease without telling the daemon (the connection is gone, which released it). */
  forget(): void {
    if (this.#held !== undefined) this.#lost(this.#held, undefined);
  }

  /**
   * Drops the lease the daemon says is no longer valid (expired, unknown, not ours) or that a new
   * daemon session cannot know, and aborts the withLease block running under it: a new lease can
   * then be acquired at once.
   */
  invalidate(reason: unknown): void {
    if (this.#held !== undefined) this.#lost(this.#held, reason);
  }

  async acquire(ttlMs: number, options: CallOptions = {}): Promise<Lease> {
    if (this.#held !== undefined) {
      throw new LeaseError({
        code: "leaseHeld",
        message: "this client already holds the mutation lease; release it first or use renewLease",
        operation: "glass/lease/acquire",
        retryable: false,
      });
    }
    const ttl = checkTtl(ttlMs, "glass/lease/acquire");
    const grant = grantFrom(await this.#deps.call("glass/lease/acquire", { ttlMs: ttl }, options));
    this.#deps.remember?.(grant.token);
    const lease = new Lease(grant);
    this.#held = lease;
    this.#deps.log?.({ type: "lease", action: "acquired", sessionId: lease.sessionId, expiresAtMs: lease.expiresAtMs });
    return lease;
  }

  async renew(ttlMs: number, options: CallOptions = {}): Promise<Lease> {
    const ttl = checkTtl(ttlMs, "glass/lease/renew");
    const lease = this.#requireHeld("glass/lease/renew");
    try {
      const grant = grantFrom(
        await this.#deps.call("glass/lease/renew", { token: lease.token, ttlMs: ttl }, options),
        lease,
      );
      this.#deps.remember?.(grant.token);
      lease.expiresAtMs = grant.expiresAtMs;
    } catch (error) {
      if (
        error instanceof LeaseError &&
        (error.code === "leaseExpired" || error.code === "leaseNotFound" || error.code === "invalidLease")
      )
        this.#lost(lease, error);
      throw error;
    }
    this.#deps.log?.({ type: "lease", action: "renewed", sessionId: lease.sessionId, expiresAtMs: lease.expiresAtMs });
    return lease;
  }

  async release(options: CallOptions = {}): Promise<void> {
    const lease = this.#held;
    if (lease === undefined) return;
    this.#held = undefined;
    await this.#deps.call("glass/lease/release", { token: lease.token }, options);
    this.#deps.log?.({ type: "lease", action: "released", sessionId: lease.sessionId });
  }

  async withLease<T>(
    fn: (lease: Lease, signal: AbortSignal) => Promise<T> | T,
    options: WithLeaseOptions = {},
  ): Promise<T> {
    const ttlMs = checkTtl(options.ttlMs ?? 60_000, "glass/lease/acquire");
    const renewBeforeMs = options.renewBeforeMs ?? Math.floor(ttlMs / 3);
    const lease = await this.acquire(ttlMs);
    const lost = new AbortController();
    this.#lossSignals.set(lease, lost);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (): void => {
      const wait = Math.max(0, lease.expiresAtMs - Date.now() - renewBeforeMs);
      timer = setTimeout(() => {
        this.renew(ttlMs, { deadlineMs: Math.max(1, Math.min(renewBeforeMs, 900_000)), retry: false }).then(
          () => {
            if (this.#held === lease) schedule();
          },
          (error: unknown) => this.#lost(lease, error),
        );
      }, wait);
    };
    schedule();
    try {
      return await fn(lease, lost.signal);
    } finally {
      clearTimeout(timer);
      this.#lossSignals.delete(lease);
      if (this.#held === lease) await this.release({ deadlineMs: 5000, retry: false }).catch(() => undefined);
    }
  }

  #requireHeld(operation: string): Lease {
    if (this.#held === undefined) {
      throw new LeaseError({
        code: "leaseNotFound",
        message: "this client holds no mutation lease; acquire one first",
        operation,
        retryable: true,
      });
    }
    return this.#held;
  }

  #lost(lease: Lease, reason: unknown): void {
    if (this.#held === lease) {
      this.#held = undefined;
      this.#deps.log?.({ type: "lease", action: "lost", sessionId: lease.sessionId });
    }
    const signal = this.#lossSignals.get(lease);
    if (signal !== undefined && !signal.signal.aborted)
      signal.abort(
        reason ??
          new LeaseError({
            code: "leaseNotFound",
            message: "the mutation lease was lost with the daemon session",
            retryable: true,
          }),
      );
  }
}
