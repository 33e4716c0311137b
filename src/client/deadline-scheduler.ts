/** A deadline waiting in a {@link DeadlineScheduler}. */
export interface ScheduledDeadline {
  readonly at: number;
  readonly fire: () => void;
  /** Position in the heap; -1 once fired or cancelled. */
  index: number;
}

/**
 * The deadlines of a client's calls behind ONE timer: a min-heap of deadlines and a timer armed for
 * the earliest. A call that ends in time is taken out of the heap (O(log n)) without touching the
 * timer; the timer, when it fires, runs what is due and re-arms for what is left. So a call costs
 * no timer of its own, and an idle client holds at most one (unreferenced: it never keeps a Node
 * process alive; `stop()` clears it).
 */
export class DeadlineScheduler {
  readonly #heap: ScheduledDeadline[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /** Calls `fire` at `at` (ms since the epoch) unless cancelled first. */
  schedule(at: number, fire: () => void): ScheduledDeadline {
    const entry: ScheduledDeadline = { at, fire, index: this.#heap.length };
    this.#heap.push(entry);
    this.#siftUp(entry.index);
    if (at < this.#timerAt) this.#arm(at);
    return entry;
  }

  /** Takes a deadline out (a no-op once it fired or was cancelled). */
  cancel(entry: ScheduledDeadline): void {
    const i = entry.index;
    if (i < 0) return;
    entry.index = -1;
    const last = this.#heap.pop()!;
    if (i < this.#heap.length) {
      this.#heap[i] = last;
      last.index = i;
      this.#siftDown(i);
      this.#siftUp(i);
    }
  }

  /** Clears the timer and forgets every deadline (the client is closing). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    for (const entry of this.#heap) entry.index = -1;
    this.#heap.length = 0;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(this.#fireDue, Math.max(0, at - Date.now()));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #fireDue = (): void => {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    while (this.#heap.length > 0 && this.#heap[0]!.at <= now) {
      const entry = this.#heap[0]!;
      this.cancel(entry);
      entry.fire();
    }
    if (this.#heap.length > 0) this.#arm(this.#heap[0]!.at);
  };

  #siftUp(i: number): void {
    const heap = this.#heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= entry.at) break;
      heap[i] = heap[parent]!;
      heap[i]!.index = i;
      i = parent;
    }
    heap[i] = entry;
    entry.index = i;
  }

  #siftDown(i: number): void {
    const heap = this.#heap;
    const entry = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.at < heap[left]!.at ? right : left;
      if (heap[child]!.at >= entry.at) break;
      heap[i] = heap[child]!;
      heap[i]!.index = i;
      i = child;
    }
    heap[i] = entry;
    entry.index = i;
  }
}
