// How a gate is decided on noisy figures: on the 95% interval of the figure over a cell's repetitions, not on one
// run. The whole interval on the right side of the limit passes, the whole of it on the wrong side fails, and one that
// straddles the limit is inconclusive, with the repetitions that would settle it at this noise (the figure assumed to
// stay where it is while the interval narrows as t(0.975, n-1) * sd / sqrt(n), said as a range: the spread measured
// over a few runs is itself uncertain, so the plan is given at the measured sd and at its 80% upper confidence bound).
// An equivalence gate ('~=') passes when its interval lies inside the band, fails when wholly outside it.
import chisqQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { tCritical, type Interval } from './repeats';

export type GateOp = '<' | '<=' | '>' | '>=' | '=' | '!=' | '~=';
export type GateOutcome = 'pass' | 'fail' | 'inconclusive';

/** The band of an equivalence gate: limit / (1 + margin) to limit * (1 + margin). */
export function band(limit: number, margin: number): Interval {
  return { low: limit / (1 + margin), high: limit * (1 + margin) };
}

export function holds(op: GateOp, actual: number, limit: number, margin = 0): boolean {
  switch (op) {
    case '~=': {
      const b = band(limit, margin);
      return actual >= b.low && actual <= b.high;
    }
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '=':
      return actual === limit;
    case '!=':
      return actual !== limit;
  }
}

/**
 * Pass when both ends of the interval satisfy the gate, fail when neither does, inconclusive otherwise; for '~=',
 * pass when the interval lies inside the band and fail when it lies wholly outside (two one-sided tests). '=' and
 * '!=' (no interval is ever all one value) decide on the point. Without an interval (one run) nothing is decided: one
 * run cannot tell the figure from its noise.
 */
export function decide(op: GateOp, point: number, interval: Interval | null, limit: number, margin = 0): GateOutcome {
  if (op === '=' || op === '!=') return holds(op, point, limit) ? 'pass' : 'fail';
  if (!interval) return 'inconclusive';
  if (op === '~=') {
    const b = band(limit, margin);
    if (interval.low >= b.low && interval.high <= b.high) return 'pass';
    return interval.high < b.low || interval.low > b.high ? 'fail' : 'inconclusive';
  }
  const low = holds(op, interval.low, limit);
  const high = holds(op, interval.high, limit);
  return low && high ? 'pass' : !low && !high ? 'fail' : 'inconclusive';
}

/** Beyond this many repetitions a plan is not worth stating. */
export const MAX_SETTLE = 1000;

/**
 * The smallest number of repetitions (more than `have`) at which the interval's half-width falls below `distance`,
 * the figure's distance from the limit; null when none up to MAX_SETTLE does (or the distance is ~0).
 */
export function repetitionsToSettle(distance: number, halfWidth: (n: number) => number, have: number): number | null {
  if (!(distance > 1e-12)) return null;
  // The half-width only narrows as n grows: bisect rather than try each n (a plan is then ~10 t quantiles, not 1,000).
  let lo = Math.max(2, have + 1);
  let hi = MAX_SETTLE;
  if (lo > hi || halfWidth(hi) >= distance) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (halfWidth(mid) < distance) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);
const ON_LIMIT = 1e-9;
const TOO_NOISY = 'the noise is too large for any practical number of repetitions to settle it';
/** The sd's one-sided upper confidence level for the far end of a plan's range. */
export const PLAN_SD_LEVEL = 0.8;

/** The 80% upper confidence bound of a spread measured as `s` over n runs: s sqrt((n-1) / chi2(0.2, n-1)). */
export function upperSd(s: number, n: number): number {
  return n >= 2 ? s * Math.sqrt((n - 1) / chisqQuantile(1 - PLAN_SD_LEVEL, n - 1)) : s;
}

const more = (n: number) => `${n} more repetition${n === 1 ? '' : 's'}`;

/**
 * "about 8 to 21 more repetitions (13 to 26 in all) would settle it": from the plan at the measured spread to the
 * plan at its upper bound. `near`: the figure is within one standard error of the limit, where the plan at the
 * measured spread promises too much (the figure may sit on the limit, and then nothing settles it).
 */
export function planText(low: number | null, high: number | null, have: number, near = false): string {
  if (low === null) return TOO_NOISY;
  const a = low - have;
  const range = high === null ? `about ${a} or more repetitions` : high > low ? `about ${a} to ${more(high - have)}` : `about ${more(a)}`;
  const all = high === null ? `${low} or more in all` : high > low ? `${low} to ${high} in all` : `${low} in all`;
  if (near)
    return `the figure is within its noise of the limit (it may sit on it, and then no number of repetitions settles it); if it is where it seems, ${range} (${all})`;
  return `${range} (${all}) would settle it`;
}

/**
 * What would settle a figure straddling a limit: on the log scale when every repetition and the limit are above 0
 * (the interval is the geometric mean's), on the plain scale otherwise (the arithmetic mean's). `level`: of the
 * interval the gate is judged on (0.9 for an equivalence).
 */
export function settleFigure(values: readonly number[], limit: number, level = 0.95): string {
  const n = values.length;
  const logScale = limit > 0 && values.every((v) => v > 0);
  const v = logScale ? values.map((x) => Math.log(x)) : [...values];
  const at = logScale ? Math.log(limit) : limit;
  const distance = Math.abs(mean(v) - at);
  if (distance <= ON_LIMIT * Math.max(1, Math.abs(at))) return 'the figure sits on the limit: more repetitions would not settle it';
  const s = sd(v);
  const t = (k: number) => tCritical(k - 1, 1 - (1 - level) / 2);
  const plan = (spread: number) => repetitionsToSettle(distance, (k) => (t(k) * spread) / Math.sqrt(k), n);
  return planText(plan(s), plan(upperSd(s, n)), n, distance < s / Math.sqrt(n));
}

/**
 * What would settle a ratio to a saved baseline straddling its factor: only this side can be repeated, so the
 * baseline's own spread over its runs stays in the interval however many this side adds. A side of one run borrows
 * the other's spread. Null-valued or zero figures (no log scale) get no plan.
 */
export function settleRatio(baseline: readonly number[], current: readonly number[], factor: number, level = 0.95): string {
  if (!(factor > 0) || ![...baseline, ...current].every((v) => v > 0)) return 'more repetitions would narrow the interval';
  const la = baseline.map((x) => Math.log(x));
  const lb = current.map((x) => Math.log(x));
  const distance = Math.abs(mean(lb) - mean(la) - Math.log(factor));
  if (distance <= ON_LIMIT) return 'the figure sits on the limit: more repetitions would not settle it';
  const sa = la.length >= 2 ? sd(la) : sd(lb);
  const sb = lb.length >= 2 ? sd(lb) : sa;
  const nA = la.length;
  const p = 1 - (1 - level) / 2;
  const half = (a: number, b: number) => (k: number) => tCritical(Math.max(1, nA + k - 2), p) * Math.sqrt(a ** 2 / nA + b ** 2 / k);
  // With this side repeated for ever, the baseline's part of the interval alone.
  if (tCritical(MAX_SETTLE, p) * (sa / Math.sqrt(nA)) >= distance)
    return `${nA === 1 ? "the baseline's one run is" : `the baseline's ${nA} runs are`} too few to settle it, however often this side repeats: save a baseline with more repetitions`;
  const nB = lb.length;
  const upA = upperSd(sa, la.length >= 2 ? nA : nB);
  const upB = upperSd(sb, nB >= 2 ? nB : nA);
  const near = distance < Math.sqrt(sa ** 2 / nA + sb ** 2 / nB);
  return planText(repetitionsToSettle(distance, half(sa, sb), nB), repetitionsToSettle(distance, half(upA, upB), nB), nB, near);
}

/** Typical run-to-run noise on a server (README: routinely 5 to 25%): what a one-run plan assumes, low and high. */
const TYPICAL_NOISE: readonly [number, number] = [0.05, 0.15];

/**
 * What a gate on one run needs: one run has no interval, so no noise to plan from; at typical server noise the
 * figure's distance from the limit gives a range.
 */
export function settleOneRun(value: number, limit: number, level = 0.95): string {
  const head = 'one run has no interval, so a gate needs 2 repetitions or more: use --repeat auto (it repeats until the gate is decided)';
  if (!(value > 0 && limit > 0)) return head;
  const distance = Math.abs(Math.log(value / limit));
  const t = (k: number) => tCritical(k - 1, 1 - (1 - level) / 2);
  const [lo, hi] = TYPICAL_NOISE.map((cv) => {
    const s = Math.sqrt(Math.log(1 + cv * cv));
    return repetitionsToSettle(distance, (k) => (t(k) * s) / Math.sqrt(k), 1);
  });
  if (lo === null) return `${head}; this one is too close to its limit to say how many`;
  const range = hi === null ? `${lo} or more` : hi > lo ? `${lo} to ${hi}` : `${lo}`;
  return `${head}; at 5 to 15% run-to-run noise, about ${range} in all`;
}
