/** Output helpers of the quickstart: a heading per step and short indented lines. */

export function step(number: number, title: string): void {
  console.log(`\n${number}. ${title}`);
}

export function say(...lines: string[]): void {
  for (const line of lines) console.log(`   ${line}`);
}

/** `a, b and c`. */
export function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "none") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
