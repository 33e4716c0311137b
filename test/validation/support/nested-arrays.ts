/** An array nested `levels` deep: `[]` is one level, `[[]]` two. */
export function nestedArrays(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}
