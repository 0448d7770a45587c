// The statistics of repeated runs: one figure over an arm's repetitions, and arm B against arm A as a ratio, each
// with an interval (95% unless a caller asks for another level). Run-to-run noise on a server is multiplicative (a
// checkpoint or a cold cache slows every session alike), so a figure is the geometric mean of its repetitions with
// Student's t interval on the logarithms. A comparison is the ratio of geometric means:
//   - paired: the arms alternated in blocks (A B, B A ...): a paired t on the per-block log ratios, so the drift the
//     neighbours share cancels instead of widening the error (Kalibera and Jones, "Rigorous benchmarking in
//     reasonable time", ISMM 2013);
//   - unpaired: Welch's t on the difference of the log means;
//   - separate: the arms ran in separate sessions (two experiments, a saved baseline, deploy groups one after the
//     other): Welch's t widened by a between-session term (BETWEEN_SESSION_SD), since a position effect shared by a
//     whole session is not in either side's run-to-run spread.
// A figure that is 0 in some repetition has no logarithm: it falls back to the arithmetic mean with t, and its ratio
// to a permutation (rank) method (rank.ts) that never draws a zero-width interval.
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { rankRatio } from './rank';

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
  /** The interval at LEVEL; null with fewer than two repetitions. */
  interval: Interval | null;
  /** The spread of the repetitions: sample standard deviation over mean; null with fewer than two. */
  cv: number | null;
  values: number[];
}

/**
 * welch-log: both arms repeated; paired-log: per-block log ratios; pooled-log: one arm ran once, the other's spread
 * stands for both; rank: a figure with zeros, by permutation.
 */
export type RatioMethod = 'welch-log' | 'paired-log' | 'pooled-log' | 'rank' | 'single' | 'none';

/** How the two sides ran: in alternating blocks, side by side in one session, or in separate sessions. */
export type Design = 'paired' | 'unpaired' | 'separate';

export interface RatioEstimate {
  method: RatioMethod;
  /** B over A; null when A is 0 (or a side measured nothing). */
  ratio: number | null;
  /** The interval at `level`; either end may be 0 or Infinity for a rank interval that data cannot close. */
  interval: Interval | null;
  /** The interval's confidence level (0.95 unless adjusted for many figures). */
  level: number;
  nA: number;
  nB: number;
  /** The run-to-run spread on the log scale the interval rests on (paired: of the block log ratios); null without. */
  sdLog: number | null;
  /** Degrees of freedom of that spread; null without one. */
  df: number | null;
  /** Two-sided p-value of "no difference"; null without an interval. */
  p: number | null;
  design: Design;
  /** On the log scale, for the t methods: the difference of log means and its standard error. */
  log: { d: number; se: number } | null;
  /** Paired: the blocks used and the standard error an unpaired analysis would have had (what pairing removed). */
  pairing: { blocks: number; unpairedSe: number } | null;
  /** Separate: the between-session standard deviation (log scale) added for each side. */
  betweenSd: number | null;
}

/**
 * The standard deviation, on the log scale, of a whole session's shift (a position effect, the time of day, a
 * restarted service) that runs of one session share and runs of another do not. Measured: whichever of two
 * back-to-back experiments on the simulator ran second was about 3.6% faster; two sessions differ by this term
 * times the square root of 2 (about 3.5%).
 */
export const BETWEEN_SESSION_SD = 0.025;

const finite = (v: readonly number[]) => v.filter((x) => Number.isFinite(x));
const logs = (v: readonly number[]) => v.map((x) => Math.log(x));
const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);

/** Student's t quantile (two-sided 95%: p = 0.975). */
export function tCritical(df: number, p = 1 - (1 - LEVEL) / 2): number {
  return tQuantile(p, df);
}

/** The two-sided quantile for a confidence level: 0.95 -> t(0.975). */
const twoSided = (level: number) => 1 - (1 - level) / 2;

/** One figure over its repetitions. */
export function estimate(values: readonly number[], level = LEVEL): FigureEstimate {
  const v = finite(values);
  const n = v.length;
  if (n === 0) return { method: 'none', n, value: null, interval: null, cv: null, values: [] };
  if (n === 1) return { method: 'single', n, value: v[0], interval: null, cv: null, values: v };
  const m = mean(v);
  const cv = m !== 0 ? sd(v) / Math.abs(m) : null;
  const t = tCritical(n - 1, twoSided(level));
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

export interface CompareOptions {
  /** Confidence level of the interval (default LEVEL). */
  level?: number;
  /** paired: aValues[i] and bValues[i] ran in one block; separate: in separate sessions; default unpaired. */
  design?: Design;
}

/** Two-sided p-value of a t statistic. */
export function tPValue(stat: number, df: number): number {
  if (!Number.isFinite(stat)) return 0;
  return Math.min(1, 2 * (1 - tCdf(Math.abs(stat), df)));
}

const none = (nA: number, nB: number, level: number, design: Design, method: RatioMethod = 'none', ratio: number | null = null) => ({
  method,
  ratio,
  interval: null,
  level,
  nA,
  nB,
  sdLog: null,
  df: null,
  p: null,
  design,
  log: null,
  pairing: null,
  betweenSd: null,
});

/** The t interval from a log difference, its standard error and degrees of freedom. */
function logInterval(d: number, se: number, df: number, level: number): Interval {
  const half = tCritical(df, twoSided(level)) * se;
  return { low: Math.exp(d - half), high: Math.exp(d + half) };
}

/** Welch on the log means; with `between`, each side's mean carries a session shift of that sd too. */
function unpaired(la: number[], lb: number[], level: number, design: Design): RatioEstimate {
  const nA = la.length;
  const nB = lb.length;
  const d = mean(lb) - mean(la);
  const between = design === 'separate' ? BETWEEN_SESSION_SD : 0;
  let se: number;
  let df: number;
  let sdLog: number;
  let method: RatioMethod;
  if (nA >= 2 && nB >= 2) {
    const va = sd(la) ** 2 / nA;
    const vb = sd(lb) ** 2 / nB;
    se = Math.sqrt(va + vb + 2 * between ** 2);
    // Welch-Satterthwaite on the measured part (the between-session term is a documented constant, not estimated);
    // identical repetitions (no spread at all) leave it undefined: use the pooled count.
    df = va + vb > 0 ? (va + vb) ** 2 / (va ** 2 / (nA - 1) + vb ** 2 / (nB - 1)) : nA + nB - 2;
    sdLog = Math.sqrt(((nA - 1) * sd(la) ** 2 + (nB - 1) * sd(lb) ** 2) / (nA + nB - 2));
    method = 'welch-log';
  } else {
    sdLog = sd(nA >= 2 ? la : lb);
    se = Math.sqrt(sdLog ** 2 * (1 / nA + 1 / nB) + 2 * between ** 2);
    df = Math.max(nA, nB) - 1;
    method = 'pooled-log';
  }
  return {
    method,
    ratio: Math.exp(d),
    interval: logInterval(d, se, df, level),
    level,
    nA,
    nB,
    sdLog,
    df,
    p: se > 0 ? tPValue(d / se, df) : d === 0 ? 1 : 0,
    design,
    log: { d, se },
    pairing: null,
    betweenSd: between || null,
  };
}

/** Paired t on the per-block log ratios (aligned arrays, every value above 0, at least two blocks). */
function paired(la: number[], lb: number[], level: number): RatioEstimate {
  const n = la.length;
  const diffs = lb.map((x, i) => x - la[i]);
  const d = mean(diffs);
  const sdLog = sd(diffs);
  const se = sdLog / Math.sqrt(n);
  const df = n - 1;
  const unpairedSe = Math.sqrt(sd(la) ** 2 / n + sd(lb) ** 2 / n);
  return {
    method: 'paired-log',
    ratio: Math.exp(d),
    interval: logInterval(d, se, df, level),
    level,
    nA: n,
    nB: n,
    sdLog,
    df,
    p: se > 0 ? tPValue(d / se, df) : d === 0 ? 1 : 0,
    design: 'paired',
    log: { d, se },
    pairing: { blocks: n, unpairedSe },
    betweenSd: null,
  };
}

/** Arm B against arm A (B / A), from each arm's repetitions of the figure. */
export function compareFigures(aValues: readonly number[], bValues: readonly number[], opts: CompareOptions = {}): RatioEstimate {
  const level = opts.level ?? LEVEL;
  let design = opts.design ?? 'unpaired';
  // Pairs need both sides of every block: anything else is read unpaired.
  const pairable =
    design === 'paired' && aValues.length === bValues.length && aValues.every((x, i) => Number.isFinite(x) && Number.isFinite(bValues[i]));
  if (design === 'paired' && !pairable) design = 'unpaired';
  const a = finite(aValues);
  const b = finite(bValues);
  const nA = a.length;
  const nB = b.length;
  if (nA === 0 || nB === 0) return none(nA, nB, level, design);
  if (a.every((x) => x > 0) && b.every((x) => x > 0)) {
    const la = logs(a);
    const lb = logs(b);
    if (nA < 2 && nB < 2) return none(nA, nB, level, design, 'single', Math.exp(mean(lb) - mean(la)));
    if (design === 'paired' && nA >= 2) return paired(la, lb, level);
    return unpaired(la, lb, level, design === 'paired' ? 'unpaired' : design);
  }
  const ma = mean(a);
  const ratio = ma !== 0 ? mean(b) / ma : null;
  if (nA < 2 || nB < 2 || ratio === null) return none(nA, nB, level, design, ratio === null ? 'none' : 'single', ratio);
  const r = rankRatio(a, b, level);
  return { ...none(nA, nB, level, design, 'rank', ratio), interval: r.interval, p: r.p };
}

/** The same comparison at another confidence level (a figure's interval after the family-wise adjustment). */
export function atLevel(r: RatioEstimate, aValues: readonly number[], bValues: readonly number[], level: number): RatioEstimate {
  if (r.log && r.df !== null) return { ...r, level, interval: logInterval(r.log.d, r.log.se, r.df, level) };
  if (r.method === 'rank') return compareFigures(aValues, bValues, { level, design: r.design });
  return { ...r, level };
}

/** True when the interval leaves out 1: the arms differ at the interval's level. */
export function excludesOne(r: RatioEstimate): boolean {
  return !!r.interval && (r.interval.low > 1 || r.interval.high < 1);
}

/** The equivalence margin: within ±5% is "no difference that matters" unless the user names another. */
export const EQUIVALENCE_MARGIN = 0.05;

/**
 * Two one-sided tests (TOST, Schuirmann 1987): B is equivalent to A within ±margin when the 90% interval of the
 * ratio lies inside (1/(1+margin), 1+margin), the margin symmetric on the log scale. Only for the t methods: a rank
 * interval on a figure with zeros shows no equivalence. The 90% interval, or null when none can be drawn.
 */
export function equivalenceInterval(r: RatioEstimate): Interval | null {
  return r.log && r.df !== null ? logInterval(r.log.d, r.log.se, r.df, 0.9) : null;
}

export function isEquivalent(r: RatioEstimate, margin = EQUIVALENCE_MARGIN): boolean {
  const i = equivalenceInterval(r);
  return !!i && i.low > 1 / (1 + margin) && i.high < 1 + margin;
}

/** A ratio as a record may hold it: records before this version have no level, p-value or design. */
export type StoredRatio = Omit<RatioEstimate, 'method' | 'level' | 'df' | 'p' | 'design' | 'log' | 'pairing' | 'betweenSd'> &
  Partial<Omit<RatioEstimate, 'method'>> & { method: RatioMethod | 'bootstrap' };

/** A stored ratio read as this version's: what an older record lacks is unknown (null), its level 95%. */
export function fullRatio(r: StoredRatio): RatioEstimate {
  return {
    ...r,
    method: r.method === 'bootstrap' ? 'rank' : r.method,
    level: r.level ?? LEVEL,
    df: r.df ?? null,
    p: r.p ?? null,
    design: r.design ?? 'unpaired',
    log: r.log ?? null,
    pairing: r.pairing ?? null,
    betweenSd: r.betweenSd ?? null,
  };
}
