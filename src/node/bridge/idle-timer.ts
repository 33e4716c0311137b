/**
 * Fires `onIdle` once a session has had no traffic for `idleMs` while nothing was in flight.
 * `touch()` records traffic; `begin()` marks work in flight (no idling until its `end` is called).
 */
export class IdleTimer {
  readonly #idleMs: number;
  readonly #onIdle: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #busy = 0;
  #stopped = false;

  constructor(idleMs: number, onIdle: () => void) {
    this.#idleMs = idleMs;
    this.#onIdle = onIdle;
    this.#arm();
  }

  /** Records traffic: the idle period starts again. */
  touch(): void {
    this.#arm();
  }

  /** Marks one piece of work in flight; call the returned function (once) when it ends. */
  begin(): () => void {
    this.#busy++;
    this.#arm();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#busy--;
      this.#arm();
    };
  }

  /** Stops the timer for good. */
  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #arm(): void {
    this.#clear();
    if (this.#stopped || this.#busy > 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#stopped && this.#busy === 0) this.#onIdle();
    }, this.#idleMs);
    this.#timer.unref?.();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
