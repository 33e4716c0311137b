/**
 * Keeps one client's calls in the order they were made while some of them wait for an operation's
 * validators (in the browser build bundlers take, a chunk loaded on the operation's first call). A
 * call made while an earlier one still waits goes after it, so `click(); type();` without `await`
 * reaches the daemon as click, then type, as it does wherever validators are at hand. Calls made
 * when nothing waits and whose validators are at hand go on at once.
 */
export class CallOrder {
  /** Calls of this client that have not yet left the line. */
  #waiting = 0;
  /** Settles once the last call in the line has left it. */
  #last: Promise<void> = Promise.resolve();

  /** Whether a call must queue: an earlier call is still in the line, or its own validators are loading. */
  mustWait(found: unknown): boolean {
    return this.#waiting > 0 || found instanceof Promise;
  }

  /**
   * Joins the line. `ready` settles once every earlier call has left the line and `found` has
   * settled (rejecting as `found` does); the call must `leave()` once its wait is over, whatever
   * ended it (its validators, its deadline, its caller's abort), and before it sends anything: the
   * next call in the line then resumes after it.
   */
  join<T>(found: T | Promise<T>): { ready: Promise<T>; leave: () => void } {
    const earlier = this.#last;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The next call goes once this one and every earlier one have left, whichever order they leave in.
    this.#last = earlier.then(() => released);
    this.#waiting++;
    let left = false;
    return {
      ready: earlier.then(() => found),
      leave: () => {
        if (left) return;
        left = true;
        this.#waiting--;
        release();
      },
    };
  }
}
