// The live charts' data: one column of values per series name, sample by sample, and the top-N names by cumulative
// total, plus the min/max buckets the live chart draws (decimate.ts), kept as samples arrive. The shown set is kept
// stable: a name enters once there is room or once its total passes the smallest shown total by the hysteresis
// factor, so colours do not reshuffle every tick when two series run neck and neck.

/** A growable Float64 column. */
export class Column {
  private data: Float64Array;
  length = 0;

  constructor(initial = 256) {
    this.data = new Float64Array(initial);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  /** A column holding these values, which it takes as they are (no copy: the caller hands them over). */
  static adopt(values: Float64Array): Column {
    const c = new Column(0);
    c.data = values;
    c.length = values.length;
    return c;
  }

  /** A view of the values (no copy): valid until the next push. */
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  at(i: number): number {
    return this.data[i];
  }
}

import { MinMaxBuckets } from './decimate';

/** One name's values over a batch as SeriesSet.fill takes them (cleanValues). */
export interface CleanedValues {
  name: string;
  /** Each sample's value, 0 where it has none (NaN, absent, not finite). */
  values: Float64Array;
  /** The first sample with a value (values.length when none). */
  first: number;
  /** The sum of the values, in sample order. */
  total: number;
}

/** Cleans values in place for SeriesSet.fill: no value (not finite) becomes 0; the first sample with one, and the total. */
export function cleanValues(values: Float64Array): { first: number; total: number } {
  const n = values.length;
  let first = n;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i];
    if (Number.isFinite(x)) {
      total += x;
      if (first === n) first = i;
    } else values[i] = 0;
  }
  return { first, total };
}

/** Buckets of a live chart before it knows its width (rebucketed from the full-resolution columns once it does). */
export const DEFAULT_MAX_BUCKETS = 256;

export interface SeriesOptions {
  /** How many names to show (the rest are counted as hidden). */
  maxShown: number;
  /** A new name displaces a shown one only when its total exceeds the smallest shown total by this factor. */
  hysteresis?: number;
  /** Fixed series (throughput, log): always shown, in this order, whatever their totals. */
  fixed?: readonly string[];
  /** Buckets of the live view (even). */
  maxBuckets?: number;
}

export class SeriesSet {
  private xcol = new Column();
  /** The samples' xs. */
  get xs(): Column {
    return this.xcol;
  }
  private readonly columns = new Map<string, Column>();
  /** Each column's index in the buckets. */
  private readonly bucketIndex = new Map<string, number>();
  private bucketsView: MinMaxBuckets;
  private readonly totals = new Map<string, number>();
  private shown: string[] = [];
  private readonly hysteresis: number;

  constructor(private readonly options: SeriesOptions) {
    this.hysteresis = options.hysteresis ?? 1.2;
    this.bucketsView = new MinMaxBuckets(options.maxBuckets ?? DEFAULT_MAX_BUCKETS);
    if (options.fixed) {
      this.shown = [...options.fixed];
      for (const n of options.fixed) {
        this.columns.set(n, new Column());
        this.bucketIndex.set(n, this.bucketsView.addColumn());
        this.totals.set(n, 0);
      }
    }
  }

  /** The live view: every sample so far in min/max buckets. */
  get buckets(): MinMaxBuckets {
    return this.bucketsView;
  }

  /** A column's index in the buckets. */
  bucketColumn(name: string): number | undefined {
    return this.bucketIndex.get(name);
  }

  /** Rebuilds the buckets for another bucket count (the chart's width changed), from the full-resolution columns. */
  setMaxBuckets(maxBuckets: number): void {
    if (maxBuckets === this.bucketsView.maxBuckets) return;
    const next = new MinMaxBuckets(maxBuckets);
    const cols: Float64Array[] = [];
    for (const [name, col] of this.columns) cols[this.bucketIndex.get(name) as number] = col.view();
    for (let c = 0; c < cols.length; c++) next.addColumn();
    next.fill(this.xs.view(), this.xs.length, cols);
    next.generation = this.bucketsView.generation + 1;
    this.bucketsView = next;
  }

  get length(): number {
    return this.xs.length;
  }

  /**
   * Adds one sample: x (seconds) and the value of each name that moved (missing names count as 0). `rank` false leaves
   * the shown set for one rank() after a batch (a loaded history): it then holds the largest totals over the whole
   * batch, and hysteresis applies from there on, to live samples.
   */
  append(x: number, sample: Readonly<Record<string, number>>, rank = true): void {
    const n = this.xs.length;
    let vals = this.scratch(this.bucketsView.columns);
    for (const name in sample) {
      const v = sample[name];
      if (!Number.isFinite(v)) continue;
      let col = this.columns.get(name);
      if (!col) {
        if (this.options.fixed) continue;
        col = this.addName(name, n);
      }
      col.push(v);
      const c = this.bucketIndex.get(name) as number;
      if (c >= vals.length) vals = this.scratch(c + 1, true);
      vals[c] = v;
      this.totals.set(name, (this.totals.get(name) as number) + v);
    }
    for (const col of this.columns.values()) if (col.length === n) col.push(0);
    this.xs.push(x);
    this.bucketsView.append(x, vals);
    if (rank && !this.options.fixed) this.updateShown();
  }

  /**
   * Adds samples i = 0..xs.length-1 at once, as append() would one by one (rank false, then `rank` after the last):
   * entries[j].values[i] is name j's value at sample i, NaN where the sample has none. A loaded history's columns
   * come in this way, without a record per sample.
   */
  appendRows(xs: ArrayLike<number>, entries: readonly { name: string; values: Float64Array }[], rank: boolean): void {
    if (this.xs.length === 0 && xs.length > 0)
      this.fillRows(
        xs,
        entries.map((e) => ({ name: e.name, values: e.values, ...cleanValues(e.values) })),
      );
    else this.appendRowsOneByOne(xs, entries);
    if (rank) this.rank();
  }

  /**
   * appendRows into an empty set, with each name's values already cleaned (cleanValues: what a reader can do in the
   * loop that reads them, instead of two more passes here). Takes over the entries' arrays.
   */
  fill(xs: ArrayLike<number>, entries: readonly CleanedValues[], rank: boolean): void {
    if (this.xs.length !== 0) throw new Error('fill() needs an empty series set');
    if (xs.length > 0) this.fillRows(xs, entries);
    if (rank) this.rank();
  }

  /**
   * Cleaned entries into an empty set, column by column: what appending sample by sample leaves (each name's column
   * from its first finite value on, 0 where it has none; names created in the order their first values came; the same
   * totals, summed in sample order; the same buckets, MinMaxBuckets.fill).
   */
  private fillRows(xs: ArrayLike<number>, entries: readonly CleanedValues[]): void {
    const n = xs.length;
    const born: { j: number; first: number }[] = [];
    entries.forEach((e, j) => {
      if (this.columns.has(e.name)) return born.push({ j, first: -1 });
      if (this.options.fixed) return;
      if (e.first < n) born.push({ j, first: e.first });
    });
    born.sort((a, b) => a.first - b.first || a.j - b.j);
    for (const { j } of born) {
      const e = entries[j];
      // A fixed name's column exists, empty (the set is): taken over as a new one's is.
      if (!this.columns.has(e.name)) this.bucketIndex.set(e.name, this.bucketsView.addColumn());
      this.columns.set(e.name, Column.adopt(e.values));
      this.totals.set(e.name, e.total);
    }
    // Names no entry fed (a fixed series the ticks lack) hold 0 at every sample.
    for (const [name, col] of this.columns) if (col.length === 0) this.columns.set(name, Column.adopt(new Float64Array(n)));
    // A Float64Array is kept as it is (the column never writes into what it adopted: its first push copies).
    let xcol: Float64Array;
    if (xs instanceof Float64Array && xs.length === n) xcol = xs;
    else {
      xcol = new Float64Array(n);
      for (let i = 0; i < n; i++) xcol[i] = xs[i];
    }
    this.xcol = Column.adopt(xcol);
    const cols: Float64Array[] = [];
    for (const [name, col] of this.columns) cols[this.bucketIndex.get(name) as number] = col.view();
    this.bucketsView.fill(xcol, n, cols);
  }

  private appendRowsOneByOne(xs: ArrayLike<number>, entries: readonly { name: string; values: Float64Array }[]): void {
    const cols = entries.map((e) => this.columns.get(e.name) ?? null);
    const at = entries.map((e) => this.bucketIndex.get(e.name) ?? -1);
    const sums = entries.map((e) => this.totals.get(e.name) ?? 0);
    let all = [...this.columns.values()];
    for (let i = 0; i < xs.length; i++) {
      const n = this.xs.length;
      let vals = this.scratch(this.bucketsView.columns);
      for (let j = 0; j < entries.length; j++) {
        const v = entries[j].values[i];
        if (!Number.isFinite(v)) continue;
        let col = cols[j];
        if (!col) {
          if (this.options.fixed) continue;
          col = cols[j] = this.addName(entries[j].name, n);
          at[j] = this.bucketIndex.get(entries[j].name) as number;
          all = [...this.columns.values()];
        }
        col.push(v);
        if (at[j] >= vals.length) vals = this.scratch(at[j] + 1, true);
        vals[at[j]] = v;
        sums[j] += v;
      }
      for (const col of all) if (col.length === n) col.push(0);
      this.xs.push(xs[i]);
      this.bucketsView.append(xs[i], vals);
    }
    entries.forEach((e, j) => {
      if (cols[j]) this.totals.set(e.name, sums[j]);
    });
  }

  private addName(name: string, zeros: number): Column {
    const col = new Column();
    for (let i = 0; i < zeros; i++) col.push(0);
    this.columns.set(name, col);
    this.bucketIndex.set(name, this.bucketsView.addColumn());
    this.totals.set(name, 0);
    return col;
  }

  /** Ranks the shown set after appends made with `rank` false. */
  rank(): void {
    if (!this.options.fixed) this.updateShown();
  }

  /** One sample's values by bucket column, zeroed; reused from sample to sample (the buckets copy what they keep). */
  private scratchValues = new Float64Array(16);
  private scratch(width: number, keep = false): Float64Array {
    if (this.scratchValues.length < width) {
      const next = new Float64Array(Math.max(width, this.scratchValues.length * 2));
      if (keep) next.set(this.scratchValues);
      this.scratchValues = next;
    } else if (!keep) this.scratchValues.fill(0);
    return this.scratchValues;
  }

  private updateShown(): void {
    const max = this.options.maxShown;
    // Most samples change nothing: with the shown set full, no name outside it beats the weakest by the factor. Said
    // without sorting, as this runs on every sample.
    if (this.shown.length >= max) {
      let weakest = Infinity;
      for (const n of this.shown) weakest = Math.min(weakest, this.totals.get(n) ?? 0);
      let best = -Infinity;
      for (const [n, t] of this.totals) if (t > best && !this.shown.includes(n)) best = t;
      if (weakest > 0 && !(best > weakest * this.hysteresis)) return;
    }
    const ranked = [...this.totals.entries()].filter(([, t]) => t > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const shown = this.shown.filter((n) => (this.totals.get(n) ?? 0) > 0);
    for (const [name, total] of ranked) {
      if (shown.includes(name)) continue;
      if (shown.length < max) {
        shown.push(name);
        continue;
      }
      // The weakest shown name, displaced only by a clearly larger newcomer.
      let weakest = 0;
      for (let i = 1; i < shown.length; i++) if ((this.totals.get(shown[i]) ?? 0) < (this.totals.get(shown[weakest]) ?? 0)) weakest = i;
      if (total > (this.totals.get(shown[weakest]) ?? 0) * this.hysteresis) shown[weakest] = name;
    }
    this.shown = shown;
  }

  /** Shown names, largest cumulative total first (the legend order). */
  shownNames(): string[] {
    if (this.options.fixed) return [...this.shown];
    return [...this.shown].sort((a, b) => (this.totals.get(b) ?? 0) - (this.totals.get(a) ?? 0) || (a < b ? -1 : 1));
  }

  /** Names that moved but are not shown. */
  hiddenNames(): string[] {
    const shown = new Set(this.shown);
    return [...this.totals.entries()].filter(([n, t]) => t > 0 && !shown.has(n)).map(([n]) => n);
  }

  column(name: string): Column | undefined {
    return this.columns.get(name);
  }

  total(name: string): number {
    return this.totals.get(name) ?? 0;
  }
}
