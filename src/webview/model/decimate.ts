// Decimation for long runs: an hour of 1 s samples or four hours at 250 ms must redraw in a few ms. Min/max
// bucketing over the visible x range, with one index set shared by every series of a chart, so an index-mode
// tooltip still lines the series up and no spike is lost (each series' min and max of every bucket is kept).

/**
 * Indices of the samples to draw: every sample when there are at most `buckets` * 2 in range; otherwise per bucket
 * the first and last sample and each series' min and max. One sample either side of the range is included so lines
 * run to the edges. `xs` must be ascending.
 */
export function decimateIndices(
  xs: ArrayLike<number>,
  length: number,
  series: readonly ArrayLike<number>[],
  range: { min: number; max: number } | null,
  buckets: number,
): number[] {
  if (length === 0) return [];
  let lo = 0;
  let hi = length - 1;
  if (range) {
    lo = Math.max(0, lowerBound(xs, length, range.min) - 1);
    hi = Math.min(length - 1, lowerBound(xs, length, range.max));
    if (hi < lo) return [];
  }
  const count = hi - lo + 1;
  if (count <= buckets * 2 || buckets < 1) return Array.from({ length: count }, (_, i) => lo + i);
  const out: number[] = [];
  const x0 = xs[lo];
  const span = xs[hi] - x0 || 1;
  let i = lo;
  const picked = new Set<number>();
  for (let b = 0; b < buckets && i <= hi; b++) {
    const end = b === buckets - 1 ? xs[hi] : x0 + (span * (b + 1)) / buckets;
    const start = i;
    while (i <= hi && (xs[i] < end || b === buckets - 1)) i++;
    const last = i - 1;
    if (last < start) continue;
    picked.clear();
    picked.add(start);
    picked.add(last);
    for (const ys of series) {
      let mn = start;
      let mx = start;
      for (let j = start + 1; j <= last; j++) {
        if (ys[j] < ys[mn]) mn = j;
        if (ys[j] > ys[mx]) mx = j;
      }
      picked.add(mn);
      picked.add(mx);
    }
    for (const j of [...picked].sort((a, c) => a - c)) out.push(j);
  }
  return out;
}

/** First index whose x is >= value (length when none). */
export function lowerBound(xs: ArrayLike<number>, length: number, value: number): number {
  let a = 0;
  let b = length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (xs[m] < value) a = m + 1;
    else b = m;
  }
  return a;
}
