// What one run's own ticks say about its conditions, over its steady window (steady.ts; gap ticks after a reconnect
// span no work and are left out): a drift (its least-squares trend moves it DRIFT_SHARE or more from start to end), a
// checkpoint-sized dip, and a level shift. Each rule is stated where it is defined; noise.ts words the warnings.
import { linearRegression, median } from 'simple-statistics';
import type { RunSteady, Tick } from '../experiment';
import { quantileSorted } from './quantile';

/** A run whose throughput trend moves it this much (start to end, against its mean) drifted. */
export const DRIFT_SHARE = 0.15;
/** A dip is a tick far out below the run's others (Tukey's far fence on the log tick throughput) ... */
export const DIP_FENCE = 3;
/** ... and large: at least this share under the run's median (a far-out wobble of 3% is no checkpoint). */
export const DIP_DROP = 0.2;
/** A level shift must move the throughput this much, both sides at least SHIFT_MIN_TICKS long. */
export const SHIFT_SHARE = 0.1;
export const SHIFT_MIN_TICKS = 3;
/**
 * The OLS-based CUSUM test for a change in level (Ploberger and Krämer 1992, as R strucchange's efp "OLS-CUSUM"):
 * max |partial sums of residuals| / (sd sqrt(n)) against the supremum of a Brownian bridge (Kolmogorov's
 * distribution); a shift stands below this p-value.
 */
export const SHIFT_ALPHA = 0.01;
/** Fewer ticks than this say nothing about a trend, a dip or a shift. */
export const MIN_TICKS = 5;

/** A run as its ticks are read: which it is, its timeline and (since steady state was kept) its steady window. */
export interface TickedRun {
  index?: number;
  threads: number;
  repetition?: number;
  arm: { id: string; label: string };
  timeline: readonly Pick<Tick, 't' | 'rowsPerSec' | 'gap'>[];
  steady?: Pick<RunSteady, 'fromTick' | 'droppedTicks' | 'droppedMs' | 'warmupMs' | 'capped' | 'p'>;
}

export interface LevelShift {
  /** Seconds into the run of the first tick at the new level. */
  atSec: number;
  /** Mean throughput before and after. */
  before: number;
  after: number;
  p: number;
}

export interface RunNoise {
  /** Throughput change over the run from its trend line, as a share of its mean (+0.2: rose 20%); null: too few ticks. */
  trend: number | null;
  /** Dips: [seconds into the run, share of the median]. */
  dips: [number, number][];
  shift: LevelShift | null;
}

/** P(sup |Brownian bridge| > x): Kolmogorov's distribution. */
export function kolmogorovP(x: number): number {
  if (x <= 0.2) return 1;
  let p = 0;
  for (let k = 1; k <= 100; k++) p += 2 * (k % 2 ? 1 : -1) * Math.exp(-2 * k * k * x * x);
  return Math.min(1, Math.max(0, p));
}

/** The most likely single change in level of `x` and the OLS-CUSUM test's p-value for it. */
export function levelShift(x: readonly number[]): { at: number; p: number } | null {
  const n = x.length;
  if (n < 2 * SHIFT_MIN_TICKS) return null;
  const mean = x.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(x.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  if (!(sd > 0)) return null;
  let cum = 0;
  let best = 0;
  let at = 0;
  for (let k = 1; k < n; k++) {
    cum += x[k - 1] - mean;
    if (Math.abs(cum) > best) [best, at] = [Math.abs(cum), k];
  }
  return { at, p: kolmogorovP(best / (sd * Math.sqrt(n))) };
}

const sse = (x: readonly number[], fit: (i: number) => number) => x.reduce((s, v, i) => s + (v - fit(i)) ** 2, 0);
const meanOf = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length;

/** The drift, the dips and a level shift inside one run's steady window. */
export function runNoise(r: TickedRun): RunNoise {
  const first = r.timeline[0];
  const last = r.timeline[r.timeline.length - 1];
  const ticks = r.timeline.slice(r.steady?.fromTick ?? 0).filter((t) => !t.gap);
  if (ticks.length < MIN_TICKS) return { trend: null, dips: [], shift: null };
  const rates = ticks.map((t) => t.rowsPerSec);
  const mid = median(rates);
  const mean = meanOf(rates);
  const span = (ticks[ticks.length - 1].t - ticks[0].t) / 1000;
  const { m } = linearRegression(ticks.map((t) => [t.t / 1000, t.rowsPerSec]));
  const trend = mean > 0 && span > 0 ? (m * span) / mean : null;
  // Dips: on logs (a zero-row tick sits far below anything), the run's first and last ticks (part-intervals around
  // the sessions' start and stop) are not taken for dips.
  const dips: [number, number][] = [];
  const dipped = new Set<(typeof ticks)[number]>();
  if (mid > 0) {
    const logs = rates.map((v) => Math.log(Math.max(v, mid * 1e-6)));
    const sorted = [...logs].sort((a, b) => a - b);
    const q1 = quantileSorted(sorted, 0.25);
    const fence = q1 - DIP_FENCE * (quantileSorted(sorted, 0.75) - q1);
    ticks.forEach((t, i) => {
      if (t !== first && t !== last && logs[i] < fence && t.rowsPerSec < (1 - DIP_DROP) * mid) {
        dips.push([t.t / 1000, t.rowsPerSec / mid]);
        dipped.add(t);
      }
    });
  }
  // A level shift, tested on the ticks with the dips set aside (a dip is a shift that came back): it must be large,
  // long on both sides, and a step must fit the ticks better than the trend line does (else it is a drift).
  const level = ticks.filter((t) => !dipped.has(t));
  const lx = level.map((t) => t.rowsPerSec);
  const cp = levelShift(lx);
  let shift: LevelShift | null = null;
  if (cp && cp.p < SHIFT_ALPHA && cp.at >= SHIFT_MIN_TICKS && lx.length - cp.at >= SHIFT_MIN_TICKS) {
    const before = meanOf(lx.slice(0, cp.at));
    const after = meanOf(lx.slice(cp.at));
    const line = linearRegression(level.map((t) => [t.t / 1000, t.rowsPerSec]));
    const stepFits = sse(lx, (i) => (i < cp.at ? before : after)) < sse(lx, (i) => line.m * (level[i].t / 1000) + line.b);
    if (before > 0 && Math.abs(after / before - 1) >= SHIFT_SHARE && stepFits)
      shift = { atSec: level[cp.at].t / 1000, before, after, p: cp.p };
  }
  return { trend, dips, shift };
}

/** The run's ticks show its conditions changed: a drift, a dip, a level shift, or a warm-up that reached the cap. */
export function ticksFlagged(r: TickedRun): boolean {
  const n = runNoise(r);
  return (n.trend !== null && Math.abs(n.trend) >= DRIFT_SHARE) || n.dips.length > 0 || n.shift !== null || !!r.steady?.capped;
}
