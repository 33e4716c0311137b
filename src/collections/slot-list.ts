/**
 * A list of short-lived values in reusable slots: `add` returns the slot a value went into, and
 * `remove(slot)` empties it for the next value. For what comes and goes once per call (pending
 * sends, requests in flight) where a `Set` or `Map` would do: those reallocate their hash table as
 * entries churn, and a discarded table that the garbage collector already moved to the old
 * generation keeps every value it held (and all they reference) alive through young-generation
 * collections, so whole calls get promoted and are only freed by full collections. A slot list's
 * arrays grow to the most values held at once and are then reused in place.
 */
export class SlotList<V extends object> {
  readonly #values: (V | undefined)[] = [];
  readonly #free: number[] = [];
  #size = 0;

  /** How many values are held. */
  get size(): number {
    return this.#size;
  }

  /** Puts a value in a free slot; returns the slot. */
  add(value: V): number {
    const slot = this.#free.length > 0 ? this.#free.pop()! : this.#values.length;
    this.#values[slot] = value;
    this.#size++;
    return slot;
  }

  /** The value in a slot (`undefined` once removed). */
  get(slot: number): V | undefined {
    return this.#values[slot];
  }

  /** Empties a slot; returns what it held (`undefined` if it was already empty). */
  remove(slot: number): V | undefined {
    const value = this.#values[slot];
    if (value === undefined) return undefined;
    this.#values[slot] = undefined;
    this.#free.push(slot);
    this.#size--;
    return value;
  }

  /**
   * Empties `slot` if it still holds `value` (an emptied slot is soon reused by another value);
   * returns whether it did. For a value that removes itself, at most once.
   */
  release(slot: number, value: V): boolean {
    return this.#values[slot] === value && this.remove(slot) !== undefined;
  }

  /**
   * Removes a value wherever it is (a linear search: for the few values in flight at once);
   * returns whether it was held.
   */
  delete(value: V): boolean {
    const slot = this.#values.indexOf(value);
    return slot !== -1 && this.remove(slot) !== undefined;
  }

  /** The values held now, in slot order (a copy: removing while going through it is safe). */
  values(): V[] {
    return this.#values.filter((value): value is V => value !== undefined);
  }

  /** Empties every slot; returns the values that were held, in slot order. */
  clear(): V[] {
    const held = this.values();
    this.#values.length = 0;
    this.#free.length = 0;
    this.#size = 0;
    return held;
  }
}
