// How a gate is decided on noisy figures: on the 95% interval of the figure over a cell's repetitions, not on one
// run. The whole interval on the right side of the limit passes, the whole of it on the wrong side fails, and one that
// straddles the limit is inconclusive, with the repetitions that would settle it at this noise (the figure assumed to
// stay where it is while the interval narrows as t(0.975, n-1) * sd / sqrt(n)).
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { tCritical, type Interval } from './repeats';

export type GateOp = '<' | '<=' | '>' | '>=' | '=' | '!=';
export type GateOutcome = 'pass' | 'fail' | 'inconclusive';

export function holds(op: GateOp, actual: number, limit: number): boolean {
  switch (op) {
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
 * Pass when both ends of the interval satisfy the gate, fail when neither does, inconclusive otherwise. Without an
 * interval (one run), and for '=' and '!=' (no interval is ever all one value), the point decides.
 */
export function decide(op: GateOp, point: number, interval: Interval | null, limit: number): GateOutcome {
  if (!interval || op === '=' || op === '!=') return holds(op, point, limit) ? 'pass' : 'fail';
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
  for (let n = Math.max(2, have + 1); n <= MAX_SETTLE; n++) if (halfWidth(n) < distance) return n;
  return null;
}

const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);
const ON_LIMIT = 1e-9;
const TOO_NOISY = 'the noise is too large for any practical number of repetitions to settle it';

function moreText(need: number | null, have: number): string {
  if (need === null) return TOO_NOISY;
  const more = need - have;
  return `about ${more} more repetition${more === 1 ? '' : 's'} (${need} in all) would settle it`;
}

/**
 * What would settle a figure straddling a limit: on the log scale when every repetition and the limit are above 0
 * (the interval is the geometric mean's), on the plain scale otherwise (the arithmetic mean's).
 */
export function settleFigure(values: readonly number[], limit: number): string {
  const n = values.length;
  const logScale = limit > 0 && values.every((v) => v > 0);
  const v = logScale ? values.map((x) => Math.log(x)) : [...values];
  const at = logScale ? Math.log(limit) : limit;
  const distance = Math.abs(mean(v) - at);
  if (distance <= ON_LIMIT * Math.max(1, Math.abs(at))) return 'the figure sits on the limit: more repetitions would not settle it';
  const s = sd(v);
  return moreText(
    repetitionsToSettle(distance, (k) => (tCritical(k - 1) * s) / Math.sqrt(k), n),
    n,
  );
}

/**
 * What would settle a ratio to a saved baseline straddling its factor: only this side can be repeated, so the
 * baseline's own spread over its runs stays in the interval however many this side adds. A side of one run borrows
 * the other's spread. Null-valued or zero figures (no log scale) get no plan.
 */
export function settleRatio(baseline: readonly number[], current: readonly number[], factor: number): string {
  if (!(factor > 0) || ![...baseline, ...current].every((v) => v > 0)) return 'more repetitions would narrow the interval';
  const la = baseline.map((x) => Math.log(x));
  const lb = current.map((x) => Math.log(x));
  const distance = Math.abs(mean(lb) - mean(la) - Math.log(factor));
  if (distance <= ON_LIMIT) return 'the figure sits on the limit: more repetitions would not settle it';
  const sa = la.length >= 2 ? sd(la) : sd(lb);
  const sb = lb.length >= 2 ? sd(lb) : sa;
  const nA = la.length;
  const half = (k: number) => tCritical(Math.max(1, nA + k - 2)) * Math.sqrt(sa ** 2 / nA + sb ** 2 / k);
  // With this side repeated for ever, the baseline's part of the interval alone.
  if (tCritical(MAX_SETTLE) * (sa / Math.sqrt(nA)) >= distance)
    return `${nA === 1 ? "the baseline's one run is" : `the baseline's ${nA} runs are`} too few to settle it, however often this side repeats: save a baseline with more repetitions`;
  return moreText(repetitionsToSettle(distance, half, lb.length), lb.length);
}
