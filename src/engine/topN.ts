// Top N entries of a record (spinlocks by spins, waits by wait ms, ...). The order must be stable across ticks so a
// live chart does not reshuffle equal bars: highest first, ties broken by name (code-unit order, locale independent).

export interface Ranked<T> {
  name: string;
  value: number;
  entry: T;
}

export type Metric<T> = keyof T | ((entry: T, name: string) => number);

export interface TopNOptions {
  /** 'desc' (default): largest first. */
  order?: 'desc' | 'asc';
  /** Drop entries whose metric is 0 (default false). */
  skipZero?: boolean;
}

function metricValue<T>(metric: Metric<T>, entry: T, name: string): number {
  const v = typeof metric === 'function' ? metric(entry, name) : (entry[metric] as unknown);
  return typeof v === 'number' ? v : Number.NaN;
}

/** Every entry ranked by the metric; entries whose metric is not a number (NaN) go last, by name. */
export function rankBy<T>(record: Record<string, T>, metric: Metric<T>, options: TopNOptions = {}): Ranked<T>[] {
  const sign = options.order === 'asc' ? 1 : -1;
  const rows: Ranked<T>[] = [];
  for (const name of Object.keys(record)) {
    const entry = record[name];
    const value = metricValue(metric, entry, name);
    if (options.skipZero && value === 0) continue;
    rows.push({ name, value, entry });
  }
  rows.sort((a, b) => {
    const aNaN = Number.isNaN(a.value);
    const bNaN = Number.isNaN(b.value);
    if (aNaN !== bNaN) return aNaN ? 1 : -1;
    if (!aNaN && a.value !== b.value) return sign * (a.value - b.value);
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  return rows;
}

/** The first n of rankBy. n < 0 or non-integer is a caller bug: it throws rather than guessing. */
export function topN<T>(record: Record<string, T>, metric: Metric<T>, n: number, options: TopNOptions = {}): Ranked<T>[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`topN: n must be a non-negative integer, got ${n}`);
  return rankBy(record, metric, options).slice(0, n);
}
