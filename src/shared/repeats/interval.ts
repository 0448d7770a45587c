// The statistics of repeated runs: one figure over an arm's repetitions, and arm B against arm A as a ratio, each
// with a 95% interval. Run-to-run noise on a server is multiplicative (a checkpoint or a cold cache slows every
// session alike), so a figure is the geometric mean of its repetitions with Student's t interval on the logarithms,
// and a comparison is the ratio of geometric means with Welch's t interval on the difference of the log means: with
// 3 to 10 repetitions a resampling interval is too narrow (it covers ~85% at 5), while t keeps its 95%. A figure that
// is 0 in some repetition (a spinlock that did not spin) has no logarithm: it falls back to the arithmetic mean with
// t, and its ratio to a percentile bootstrap, seeded so every view computes the same interval.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import randu from '@stdlib/random-base-randu';
import { mean, sampleStandardDeviation, sampleWithReplacement } from 'simple-statistics';

export const LEVEL = 0.95;

export interface Interval {
  low: number;
  high: number;
}

/** gmean: geometric mean, t on the logs; mean: arithmetic mean, t (a repetition was 0); single: one run; none. */
export type EstimateMethod = 'gmean' | 'mean' | 'single' | 'none';

export interface FigureEstimate {
  method: EstimateMethod;
  /** Repetitions that measured the figure. */
  n: number;
  value: number | null;
  /** The 95% interval; null with fewer than two repetitions. */
  interval: Interval | null;
  /** The spread of the repetitions: sample standard deviation over mean; null with fewer than two. */
  cv: number | null;
  values: number[];
}

/** welch-log: both arms repeated; pooled-log: one arm ran once, the other's spread stands for both. */
export type RatioMethod = 'welch-log' | 'pooled-log' | 'bootstrap' | 'single' | 'none';

export interface RatioEstimate {
  method: RatioMethod;
  /** B over A; null when A is 0 (or a side measured nothing). */
  ratio: number | null;
  interval: Interval | null;
  nA: number;
  nB: number;
  /** The run-to-run spread on the log scale that the interval rests on (pooled over both arms); null without one. */
  sdLog: number | null;
}

const finite = (v: readonly number[]) => v.filter((x) => Number.isFinite(x));
const logs = (v: readonly number[]) => v.map((x) => Math.log(x));
const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);

/** Student's t quantile (two-sided 95%: p = 0.975). */
export function tCritical(df: number, p = 1 - (1 - LEVEL) / 2): number {
  return tQuantile(p, df);
}

/** One figure over its repetitions. */
export function estimate(values: readonly number[]): FigureEstimate {
  const v = finite(values);
  const n = v.length;
  if (n === 0) return { method: 'none', n, value: null, interval: null, cv: null, values: [] };
  if (n === 1) return { method: 'single', n, value: v[0], interval: null, cv: null, values: v };
  const m = mean(v);
  const cv = m !== 0 ? sd(v) / Math.abs(m) : null;
  const t = tCritical(n - 1);
  if (v.every((x) => x > 0)) {
    const l = logs(v);
    const lm = mean(l);
    const half = (t * sd(l)) / Math.sqrt(n);
    return { method: 'gmean', n, value: Math.exp(lm), interval: { low: Math.exp(lm - half), high: Math.exp(lm + half) }, cv, values: v };
  }
  const half = (t * sd(v)) / Math.sqrt(n);
  // A count or a rate cannot go below zero: an interval reaching past it is cut there.
  const low = v.every((x) => x >= 0) ? Math.max(0, m - half) : m - half;
  return { method: 'mean', n, value: m, interval: { low, high: m + half }, cv, values: v };
}

/** Resamples for a bootstrap ratio; seeded so the CLI, the panel and the notebook agree to the digit. */
const BOOTSTRAP_RESAMPLES = 4000;
const BOOTSTRAP_SEED = 27182818;

function bootstrapRatio(a: number[], b: number[]): Interval | null {
  const rand = randu.factory({ name: 'mt19937', seed: BOOTSTRAP_SEED });
  const ratios: number[] = [];
  for (let i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
    const ma = mean(sampleWithReplacement(a, a.length, rand));
    if (ma === 0) continue;
    ratios.push(mean(sampleWithReplacement(b, b.length, rand)) / ma);
  }
  if (ratios.length < BOOTSTRAP_RESAMPLES / 2) return null;
  ratios.sort((x, y) => x - y);
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.max(0, Math.floor(q * ratios.length)))];
  return { low: at((1 - LEVEL) / 2), high: at(1 - (1 - LEVEL) / 2) };
}

/** Arm B against arm A (B / A), from each arm's repetitions of the figure. */
export function compareFigures(aValues: readonly number[], bValues: readonly number[]): RatioEstimate {
  const a = finite(aValues);
  const b = finite(bValues);
  const nA = a.length;
  const nB = b.length;
  if (nA === 0 || nB === 0) return { method: 'none', ratio: null, interval: null, nA, nB, sdLog: null };
  if (a.every((x) => x > 0) && b.every((x) => x > 0)) {
    const la = logs(a);
    const lb = logs(b);
    const d = mean(lb) - mean(la);
    const ratio = Math.exp(d);
    if (nA < 2 && nB < 2) return { method: 'single', ratio, interval: null, nA, nB, sdLog: null };
    let se: number;
    let df: number;
    let sdLog: number;
    let method: RatioMethod;
    if (nA >= 2 && nB >= 2) {
      const va = sd(la) ** 2 / nA;
      const vb = sd(lb) ** 2 / nB;
      se = Math.sqrt(va + vb);
      // Welch-Satterthwaite; identical repetitions (no spread at all) leave it undefined: use the pooled count.
      df = va + vb > 0 ? (va + vb) ** 2 / (va ** 2 / (nA - 1) + vb ** 2 / (nB - 1)) : nA + nB - 2;
      sdLog = Math.sqrt(((nA - 1) * sd(la) ** 2 + (nB - 1) * sd(lb) ** 2) / (nA + nB - 2));
      method = 'welch-log';
    } else {
      sdLog = sd(nA >= 2 ? la : lb);
      se = sdLog * Math.sqrt(1 / nA + 1 / nB);
      df = Math.max(nA, nB) - 1;
      method = 'pooled-log';
    }
    const half = tCritical(df) * se;
    return { method, ratio, interval: { low: Math.exp(d - half), high: Math.exp(d + half) }, nA, nB, sdLog };
  }
  const ma = mean(a);
  const ratio = ma !== 0 ? mean(b) / ma : null;
  if (nA < 2 || nB < 2 || ratio === null) return { method: 'single', ratio, interval: null, nA, nB, sdLog: null };
  return { method: 'bootstrap', ratio, interval: bootstrapRatio(a, b), nA, nB, sdLog: null };
}

/** True when the interval leaves out 1: the arms differ at the 95% level. */
export function excludesOne(r: RatioEstimate): boolean {
  return !!r.interval && (r.interval.low > 1 || r.interval.high < 1);
}

/** A power of 80% is the usual planning figure: four in five experiments with the change would find it. */
export const PLANNING_POWER = 0.8;
/** Beyond this many repetitions a plan is not worth stating: the change is lost in the noise. */
const MAX_PLANNED = 1000;

/**
 * Repetitions of each arm that detect a change of `change` (0.05 = 5%) at 95% with 80% power, given the run-to-run
 * spread on the log scale: n = 2 (t(0.975, 2n-2) + t(0.8, 2n-2))^2 sd^2 / ln(1 + change)^2, solved for the smallest n.
 * Null when the spread is unknown; MAX_PLANNED+ is reported as null too (no feasible plan).
 */
export function repetitionsToDetect(sdLog: number | null, change = 0.05): number | null {
  if (sdLog === null || !Number.isFinite(sdLog)) return null;
  if (sdLog === 0) return 2;
  const delta = Math.log(1 + change);
  for (let n = 2; n <= MAX_PLANNED; n++) {
    const df = 2 * n - 2;
    const need = (2 * (tCritical(df) + tCritical(df, PLANNING_POWER)) ** 2 * sdLog ** 2) / delta ** 2;
    if (n >= need) return n;
  }
  return null;
}
