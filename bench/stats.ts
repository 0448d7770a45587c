// Pure figures for the benchmark (unit-tested in test/unit/benchStats.test.ts): medians and percentiles, tick
// jitter against a fixed schedule, and how ratios and figures are written.

/** Median of a list (mean of the two middle values for an even count); NaN for an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile (p in 0..100); NaN for an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export interface Jitter {
  ticks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Schedule slots that passed without a tick starting in them (a tick overran its interval). */
  skipped: number;
}

/** How early a tick may start and still count for the slot it is early for. */
export const EARLY_MS = 2;

/**
 * Jitter of tick starts against a fixed timeline: slot k is at `firstAt + k * intervalMs`; each start is compared
 * with the latest slot at or before it (a start up to EARLY_MS early, from timers on a whole-millisecond clock,
 * counts against the slot it is early for; its size is reported). Deviations are absolute, in ms.
 */
export function tickJitter(starts: readonly number[], firstAt: number, intervalMs: number): Jitter {
  const devs: number[] = [];
  const slots = new Set<number>();
  for (const t of starts) {
    let k = Math.floor((t - firstAt) / intervalMs);
    let dev = t - (firstAt + k * intervalMs);
    // Within EARLY_MS before the next slot: early for that slot (timers run on a whole-millisecond clock), not late for this one.
    if (intervalMs - dev < EARLY_MS) {
      k += 1;
      dev -= intervalMs;
    }
    slots.add(k);
    devs.push(Math.abs(dev));
  }
  const lastSlot = starts.length ? Math.max(...slots) : -1;
  return {
    ticks: starts.length,
    p50Ms: median(devs),
    p99Ms: percentile(devs, 99),
    maxMs: devs.length ? Math.max(...devs) : NaN,
    skipped: Math.max(0, lastSlot + 1 - slots.size),
  };
}

/** 'x 0.97 (3% behind)' style: the ratio a/b with two decimals and the gap in words. */
export function ratioText(a: number, b: number, higherIsBetter = true): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return 'n/a';
  const r = a / b;
  const pct = Math.round(Math.abs(r - 1) * 100);
  const word = pct === 0 ? 'level' : r > 1 === higherIsBetter ? `${pct}% better` : `${pct}% worse`;
  return `${r.toFixed(2)} (${word})`;
}

/** A figure with sensible digits: 3 significant digits below 100, whole numbers with thousands separators above. */
export function fmt(x: number, unit = ''): string {
  if (!Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  const s = a >= 100 ? Math.round(x).toLocaleString('en-US') : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toFixed(3);
  return unit ? `${s} ${unit}` : s;
}

/** A markdown table from a header and rows (cells already text). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
