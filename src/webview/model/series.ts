// The live charts' data: one column of values per series name, sample by sample, and the top-N names by cumulative
// total. The shown set is kept stable: a name enters once there is room or once its total passes the smallest shown
// total by the hysteresis factor, so colours do not reshuffle every tick when two series run neck and neck.

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

  /** A view of the values (no copy): valid until the next push. */
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  at(i: number): number {
    return this.data[i];
  }
}

export interface SeriesOptions {
  /** How many names to show (the rest are counted as hidden). */
  maxShown: number;
  /** A new name displaces a shown one only when its total exceeds the smallest shown total by this factor. */
  hysteresis?: number;
  /** Fixed series (throughput, log): always shown, in this order, whatever their totals. */
  fixed?: readonly string[];
}

export class SeriesSet {
  readonly xs = new Column();
  private readonly columns = new Map<string, Column>();
  private readonly totals = new Map<string, number>();
  private shown: string[] = [];
  private readonly hysteresis: number;

  constructor(private readonly options: SeriesOptions) {
    this.hysteresis = options.hysteresis ?? 1.2;
    if (options.fixed) {
      this.shown = [...options.fixed];
      for (const n of options.fixed) {
        this.columns.set(n, new Column());
        this.totals.set(n, 0);
      }
    }
  }

  get length(): number {
    return this.xs.length;
  }

  /** Adds one sample: x (seconds) and the value of each name that moved (missing names count as 0). */
  append(x: number, sample: Readonly<Record<string, number>>): void {
    const n = this.xs.length;
    for (const [name, v] of Object.entries(sample)) {
      if (!Number.isFinite(v)) continue;
      let col = this.columns.get(name);
      if (!col) {
        if (this.options.fixed) continue;
        col = new Column();
        for (let i = 0; i < n; i++) col.push(0);
        this.columns.set(name, col);
        this.totals.set(name, 0);
      }
      col.push(v);
      this.totals.set(name, (this.totals.get(name) ?? 0) + v);
    }
    for (const col of this.columns.values()) if (col.length === n) col.push(0);
    this.xs.push(x);
    if (!this.options.fixed) this.updateShown();
  }

  private updateShown(): void {
    const max = this.options.maxShown;
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
