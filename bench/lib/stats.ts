/** A number with its unit, as every figure of the results is written. */
export interface Figure {
  value: number;
  unit: string;
}

/** Shorthand for a {@link Figure}, rounded to a sensible precision. */
export function fig(value: number, unit: string, digits = 3): Figure {
  return { value: Number(value.toFixed(digits)), unit };
}

/** The median (the mean of the two middle values of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile `p` (0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
