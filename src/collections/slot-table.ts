import { SlotList } from "./slot-list.js";

/**
 * A map of short-lived entries (requests awaiting their answer, by id) whose values live in a
 * {@link SlotList}: the `Map` behind it holds only slot numbers, so the tables it discards as keys
 * churn keep nothing of the values alive (see {@link SlotList} for why that matters). Keys compare
 * as in a `Map` (`1` and `"1"` are different keys).
 */
export class SlotTable<K, V extends object> {
  readonly #slots = new Map<K, number>();
  readonly #values = new SlotList<V>();

  /** How many entries are held. */
  get size(): number {
    return this.#slots.size;
  }

  /** Whether `key` has an entry. */
  has(key: K): boolean {
    return this.#slots.has(key);
  }

  /** The value of `key`, if any. */
  get(key: K): V | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#values.get(slot);
  }

  /** Sets the value of `key` (replacing any it had). */
  set(key: K, value: V): void {
    const slot = this.#slots.get(key);
    if (slot !== undefined) this.#values.remove(slot);
    this.#slots.set(key, this.#values.add(value));
  }

  /** Removes the entry of `key`; returns its value (`undefined` if there was none). */
  take(key: K): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    this.#slots.delete(key);
    return this.#values.remove(slot);
  }

  /** Removes the entry of `key`; returns whether there was one. */
  delete(key: K): boolean {
    return this.take(key) !== undefined;
  }

  /** The values held now (a copy: removing while going through it is safe). */
  values(): V[] {
    return this.#values.values();
  }

  /** Removes every entry; returns the values that were held. */
  clear(): V[] {
    this.#slots.clear();
    return this.#values.clear();
  }
}
