// Quantiles as criterion.rs computes its percentiles (and R's default, type 7): linear interpolation between order
// statistics. The outlier and dip rules take their quartiles from here.

/** The p-th quantile (0..1) of values sorted ascending. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}
