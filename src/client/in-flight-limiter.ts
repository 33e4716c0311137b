/** A caller waiting for a slot: `granted` resolves when it has one; `cancel()` gives up the wait. */
export interface SlotWait {
  granted: Promise<void>;
  cancel(): void;
}

/**
 * A client-side limit on requests in flight: a slot is taken before a request is sent and given
 * back when the daemon is done with it. Above the limit callers wait in order (FIFO) instead of
 * provoking the daemon's -32000. Taking a free slot costs no promise.
 */
export class InFlightLimiter {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    /** Requests allowed in flight at once. */
    readonly limit: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`maxInFlight must be a positive integer (got ${limit})`);
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Takes a slot if one is free and nobody is waiting; false otherwise (then {@link wait}). */
  tryAcquire(): boolean {
    if (this.#active >= this.limit || this.#waiting.length > 0) return false;
    this.#active++;
    return true;
  }

  /** Waits for a slot, in order. A cancelled wait takes no slot. */
  wait(): SlotWait {
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    this.#waiting.push(grant);
    return {
      granted,
      cancel: () => {
        const index = this.#waiting.indexOf(grant);
        if (index !== -1) this.#waiting.splice(index, 1);
      },
    };
  }

  /** Gives a slot back, handing it to the next waiter if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#active = Math.max(0, this.#active - 1);
    else next();
  }
}
