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

/** One column's per-bucket extremes and where (sample index) each fell, so a bucket draws them in time order. */
interface BucketColumn {
  min: Float64Array;
  max: Float64Array;
  minAt: Float64Array;
  maxAt: Float64Array;
}

/**
 * The live view of a chart, kept as samples arrive: consecutive samples grouped in buckets of `width` samples (a
 * power of two), each bucket holding every column's min and max. Appending touches only the last bucket; when the
 * buckets would outgrow `maxBuckets`, adjacent pairs merge and the width doubles, which keeps each min and max exact.
 * Memory is bounded by maxBuckets whatever the run's length.
 */
export class MinMaxBuckets {
  /** Samples per bucket. */
  width = 1;
  /** Buckets in use. */
  count = 0;
  /** Samples appended so far (what the buckets represent). */
  samples = 0;
  /** Bumped whenever existing buckets were rewritten (a merge): a consumer holding points rebuilds them. */
  generation = 0;
  private readonly xFirst: Float64Array;
  private readonly xLast: Float64Array;
  private readonly filled: Uint32Array;
  private readonly cols: BucketColumn[] = [];

  constructor(readonly maxBuckets: number) {
    if (maxBuckets < 2 || maxBuckets % 2) throw new Error(`maxBuckets must be even and at least 2, not ${maxBuckets}`);
    this.xFirst = new Float64Array(maxBuckets);
    this.xLast = new Float64Array(maxBuckets);
    this.filled = new Uint32Array(maxBuckets);
  }

  get columns(): number {
    return this.cols.length;
  }

  /** A new column (its index): the samples before it count as 0, as SeriesSet backfills them. */
  addColumn(): number {
    const n = this.maxBuckets;
    const c: BucketColumn = { min: new Float64Array(n), max: new Float64Array(n), minAt: new Float64Array(n), maxAt: new Float64Array(n) };
    for (let b = 0; b < this.count; b++) c.minAt[b] = c.maxAt[b] = b * this.width;
    this.cols.push(c);
    return this.cols.length - 1;
  }

  /** One sample: x and a value per column, by column index. */
  append(x: number, values: ArrayLike<number>): void {
    let b = this.count - 1;
    if (b < 0 || this.filled[b] === this.width) {
      if (this.count === this.maxBuckets) this.mergePairs();
      b = this.count++;
      this.xFirst[b] = x;
      this.filled[b] = 0;
    }
    const at = this.samples++;
    const first = this.filled[b] === 0;
    this.xLast[b] = x;
    this.filled[b]++;
    for (let c = 0; c < this.cols.length; c++) {
      const col = this.cols[c];
      const v = values[c];
      if (first || v < col.min[b]) {
        col.min[b] = v;
        col.minAt[b] = at;
      }
      if (first || v > col.max[b]) {
        col.max[b] = v;
        col.maxAt[b] = at;
      }
    }
  }

  /**
   * Samples 0..length-1 at once into empty buckets: the state append() would reach one sample at a time (the same
   * width, buckets, extremes and, on ties, the earlier sample), computed bucket by bucket and column by column. A
   * loaded history comes in this way; `cols[c]` is column c's values (as append()'s values[c]).
   */
  fill(xs: ArrayLike<number>, length: number, cols: readonly ArrayLike<number>[]): void {
    if (this.samples !== 0) throw new Error('fill() needs empty buckets');
    if (cols.length !== this.cols.length) throw new Error(`fill() takes ${this.cols.length} columns, not ${cols.length}`);
    if (length === 0) return;
    // append() doubles the width each time the buckets would overflow: the smallest power of two that fits them all.
    let width = 1;
    let merges = 0;
    while (length > this.maxBuckets * width) {
      width *= 2;
      merges++;
    }
    const count = Math.ceil(length / width);
    for (let b = 0; b < count; b++) {
      const start = b * width;
      const end = Math.min(length, start + width);
      this.xFirst[b] = xs[start];
      this.xLast[b] = xs[end - 1];
      this.filled[b] = end - start;
    }
    for (let c = 0; c < cols.length; c++) {
      const v = cols[c];
      const col = this.cols[c];
      for (let b = 0; b < count; b++) {
        const start = b * width;
        const end = Math.min(length, start + width);
        let mn = start;
        let mx = start;
        for (let j = start + 1; j < end; j++) {
          if (v[j] < v[mn]) mn = j;
          else if (v[j] > v[mx]) mx = j;
        }
        col.min[b] = v[mn];
        col.minAt[b] = mn;
        col.max[b] = v[mx];
        col.maxAt[b] = mx;
      }
    }
    this.width = width;
    this.count = count;
    this.samples = length;
    this.generation += merges;
  }

  private mergePairs(): void {
    const half = this.count / 2;
    for (let b = 0; b < half; b++) {
      const l = 2 * b;
      const r = l + 1;
      this.xFirst[b] = this.xFirst[l];
      this.xLast[b] = this.xLast[r];
      this.filled[b] = this.filled[l] + this.filled[r];
      for (const col of this.cols) {
        // Ties keep the earlier sample, as appending does.
        const mn = col.min[r] < col.min[l] ? r : l;
        const mx = col.max[r] > col.max[l] ? r : l;
        col.min[b] = col.min[mn];
        col.minAt[b] = col.minAt[mn];
        col.max[b] = col.max[mx];
        col.maxAt[b] = col.maxAt[mx];
      }
    }
    this.count = half;
    this.width *= 2;
    this.generation++;
  }

  bucket(b: number, column: number): { xFirst: number; xLast: number; samples: number; min: number; max: number } {
    const c = this.cols[column];
    return { xFirst: this.xFirst[b], xLast: this.xLast[b], samples: this.filled[b], min: c.min[b], max: c.max[b] };
  }

  /** Points per bucket: one while every bucket is one sample, then two (the min and the max in time order). */
  get pointsPerBucket(): 1 | 2 {
    return this.width === 1 ? 1 : 2;
  }

  /**
   * Writes the points of buckets from..count-1 of a column into `out` (from its index from * pointsPerBucket on,
   * reusing the point objects there). Every column gives the same xs (a bucket's first and last x), so an
   * index-mode tooltip lines the series up.
   */
  writePoints(column: number, from: number, out: { x: number; y: number }[]): void {
    const c = this.cols[column];
    const per = this.pointsPerBucket;
    out.length = Math.min(out.length, from * per);
    const put = (i: number, x: number, y: number) => {
      const p = out[i];
      if (p) {
        p.x = x;
        p.y = y;
      } else out[i] = { x, y };
    };
    for (let b = from; b < this.count; b++) {
      if (per === 1) {
        put(b, this.xFirst[b], c.min[b]);
        continue;
      }
      const minFirst = c.minAt[b] <= c.maxAt[b];
      put(2 * b, this.xFirst[b], minFirst ? c.min[b] : c.max[b]);
      put(2 * b + 1, this.xLast[b], minFirst ? c.max[b] : c.min[b]);
    }
  }
}
