// Where a run's steady state starts. The fixed warm-up (--warmup) runs before the measured window and is the floor;
// over the measured ticks, MSER (White 1997, "An effective truncation heuristic for bias reduction in simulation
// output") picks the truncation d that minimises the squared standard error of the mean of the ticks kept,
// sum((x_i - mean_d)^2) / (n - d)^2, with d at most a third of the ticks (the cap). It runs on ticks, not on MSER-5's
// batches of five (White, Cobb and Spratt 2000): a tick already averages a second of thousands of calls, and a tick's
// resolution is what the record reports. MSER truncates something on any noisy series, so the drop stands only when
// the ticks' order matters: MSER's minimum, as a share of its value at d = 0, is lower than on 99% of 999 random
// reorderings of the same ticks (a permutation test, seeded: the engine decides once, and the test is repeatable).
import randu from '@stdlib/random-base-randu';
import type { RunSteady, Tick } from '../experiment';
import { formatNumber } from '../numberText';

/** The share of the measured ticks the rule may drop at most. */
export const STEADY_CAP_SHARE = 1 / 3;
/** The permutation test's level: a drop stands when fewer than this share of reorderings do as well. */
export const STEADY_ALPHA = 0.01;
/** Reorderings of the permutation test. */
export const STEADY_PERMUTATIONS = 999;
/** Fewer measured ticks than this: no detection (a cap of one tick says nothing). */
export const STEADY_MIN_TICKS = 6;
/** A longer run is read in batch means of as many ticks as keep it to this many (an 8-hour run: 29 s), in time. */
export const STEADY_MAX_BATCHES = 1000;
const STEADY_SEED = 1997;

/** The rule in words, as the report states it. */
export const STEADY_RULE =
  'MSER truncation over the ticks (White 1997), at most a third of them, kept only when a permutation test (999 reorderings) puts it under 1%';

/** MSER(d) for d = 0..cap: the squared standard error of the mean of x[d..] (suffix sums, one pass). */
export function mserCurve(x: readonly number[], cap: number): number[] {
  const n = x.length;
  const out = new Array<number>(cap + 1);
  let s = 0;
  let ss = 0;
  for (let i = n - 1; i >= 0; i--) {
    s += x[i];
    ss += x[i] * x[i];
    if (i <= cap) {
      const k = n - i;
      out[i] = Math.max(0, ss - (s * s) / k) / (k * k);
    }
  }
  return out;
}

/** The first d with the smallest MSER, and that smallest value. */
function mserMin(x: readonly number[], cap: number): { d: number; value: number } {
  const curve = mserCurve(x, cap);
  let d = 0;
  for (let i = 1; i <= cap; i++) if (curve[i] < curve[d]) d = i;
  return { d, value: curve[d] };
}

export interface SteadyResult {
  /** Measured ticks (not gaps) dropped: the first `d` of them. */
  d: number;
  /** The permutation test's p-value; null when nothing was tested (too few ticks, a flat series, or d = 0). */
  p: number | null;
  /** The drop reached the cap: the run had not settled within a third of its ticks. */
  capped: boolean;
}

/** The rule on a series of tick throughputs (in order). */
export function steadyStart(ticks: readonly number[]): SteadyResult {
  if (ticks.length < STEADY_MIN_TICKS) return { d: 0, p: null, capped: false };
  // Batch means when the run is long (MSER-m, as MSER-5 batches by five); d is then counted back in ticks.
  const m = Math.ceil(ticks.length / STEADY_MAX_BATCHES);
  const x = m === 1 ? ticks : batchMeans(ticks, m);
  const r = steadyBatches(x);
  return { ...r, d: Math.min(r.d * m, Math.floor(ticks.length * STEADY_CAP_SHARE)) };
}

function batchMeans(x: readonly number[], m: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < x.length; i += m) {
    const b = x.slice(i, i + m);
    out.push(b.reduce((s, v) => s + v, 0) / b.length);
  }
  return out;
}

function steadyBatches(x: readonly number[]): SteadyResult {
  const n = x.length;
  const cap = Math.floor(n * STEADY_CAP_SHARE);
  const whole = mserCurve(x, 0)[0];
  const best = mserMin(x, cap);
  if (best.d === 0 || !(whole > 0)) return { d: 0, p: null, capped: false };
  const observed = best.value / whole;
  const rand = randu.factory({ name: 'mt19937', seed: STEADY_SEED });
  const y = [...x];
  let asGood = 0;
  for (let b = 0; b < STEADY_PERMUTATIONS; b++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = y[i];
      y[i] = y[j];
      y[j] = t;
    }
    // The whole series' MSER(0) does not depend on the order: compare the minima.
    if (mserMin(y, cap).value / whole <= observed) asGood++;
  }
  const p = (asGood + 1) / (STEADY_PERMUTATIONS + 1);
  return p <= STEADY_ALPHA ? { d: best.d, p, capped: best.d === cap } : { d: 0, p, capped: false };
}

/**
 * The steady window of a run's measured ticks, as its record keeps it. Gap ticks (after a reconnect) span no work
 * and are not in the series; the window starts at the timeline tick of the first steady one.
 */
export function steadyWindow(timeline: readonly Pick<Tick, 'rowsPerSec' | 'rows' | 'intervalMs' | 'gap'>[], warmupMs: number): RunSteady {
  const at = timeline.flatMap((t, i) => (t.gap ? [] : [i]));
  const r = steadyStart(at.map((i) => timeline[i].rowsPerSec));
  const fromTick = r.d > 0 ? at[r.d] : 0;
  const dropped = timeline.slice(0, fromTick);
  return {
    rule: 'mser',
    warmupMs,
    fromTick,
    droppedTicks: fromTick,
    droppedMs: dropped.reduce((s, t) => s + t.intervalMs, 0),
    droppedRows: dropped.reduce((s, t) => s + t.rows, 0),
    p: r.p,
    capped: r.capped,
  };
}

/** What the rule dropped, in words: "its first 3 ticks (3 s) after the 5 s warm-up". */
export function steadyText(s: RunSteady): string {
  if (s.droppedTicks === 0) return `steady from its first tick after the ${formatNumber(s.warmupMs / 1000)} s warm-up`;
  return `its first ${s.droppedTicks} tick${s.droppedTicks === 1 ? '' : 's'} (${formatNumber(s.droppedMs / 1000)} s) after the ${formatNumber(s.warmupMs / 1000)} s warm-up were still settling${s.capped ? ', and it had not settled at the cap (a third of its ticks)' : ''} (MSER, permutation p = ${formatNumber(s.p ?? 1)})`;
}
