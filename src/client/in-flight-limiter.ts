import { CancelledError } from "../errors/error-classes.js";

interface Waiter {
  grant(): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * A client-side limit on requests in flight: a slot is taken before a request is sent and given
 * back when the daemon is done with it. Above the limit callers wait in order (FIFO) instead of
 * provoking the daemon's -32000. A waiting caller can give up with its AbortSignal.
 */
export class InFlightLimiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    /** Requests allowed in flight at once. */
    readonly limit: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`maxInFlight must be a positive integer (got ${limit})`);
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Takes a slot, waiting if all are taken. Rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.active < this.limit && this.waiting.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, signal, onAbort: undefined };
      if (signal !== undefined) {
        waiter.onAbort = () => {
          const index = this.waiting.indexOf(waiter);
          if (index !== -1) this.waiting.splice(index, 1);
          reject(abortReason(signal));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
    });
  }

  /** Gives a slot back, handing it to the next waiter if there is one. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) {
      this.active = Math.max(0, this.active - 1);
      return;
    }
    if (next.signal !== undefined && next.onAbort !== undefined) next.signal.removeEventListener("abort", next.onAbort);
    next.grant();
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new CancelledError({ message: "the call was aborted before it was sent" });
}
