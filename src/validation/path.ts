const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Appends a property name to an issue path: `joinPath("scope", "regionName")` is
 * `scope.regionName`; a name that is not a plain identifier is quoted (`inputs["first name"]`).
 */
export function joinPath(parent: string, key: string): string {
  if (PLAIN_KEY.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** Appends an array index to an issue path: `joinIndex("entities", 3)` is `entities[3]`. */
export function joinIndex(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
