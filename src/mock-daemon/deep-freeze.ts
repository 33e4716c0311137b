/**
 * Freezes `value` and everything reachable from it, so answers shared between calls cannot be
 * changed by one caller under another. Returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
