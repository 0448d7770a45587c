// How many repetitions a question needs, said with its uncertainty. A plan rests on the measured run-to-run spread,
// and a spread from 3 runs is itself uncertain (with 4 degrees of freedom its 80% interval runs from 0.7x to 1.9x
// the estimate, so the repetitions from 0.5x to 3.8x): a plan is a range from the chi-square bounds of the spread,
// never one number that reads as exact. Effects found at low power are exaggerated on average (a type M error:
// Gelman and Carlin, "Beyond power calculations", 2014): a detected change smaller than the one this design finds
// 80% of the time is labelled as possibly overstated.
import chisqQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { tCritical, BETWEEN_SESSION_SD, type Design, type RatioEstimate } from './interval';

/** A power of 80% is the usual planning figure: four in five experiments with the change would find it. */
export const PLANNING_POWER = 0.8;
/** The spread's bounds a plan's range comes from: its two-sided 80% interval. */
const SPREAD_LEVEL = 0.8;
/** Beyond this many repetitions a plan is not worth stating: the change is lost in the noise. */
export const MAX_PLANNED = 1000;

export interface Plan {
  /** Repetitions of each arm in all, at the measured spread; null when none up to MAX_PLANNED does it. */
  point: number | null;
  /** At the low and the high bound of the spread (80% interval); null: none up to MAX_PLANNED. */
  low: number | null;
  high: number | null;
  /** Separate sessions: the between-session term alone rules it out, however many repetitions. */
  sessionsBound: boolean;
}

/** The spread's 80% bounds from its degrees of freedom (chi-square). */
export function spreadBounds(sdLog: number, df: number): { low: number; high: number } {
  const q = (p: number) => chisqQuantile(p, df);
  return { low: sdLog * Math.sqrt(df / q(1 - (1 - SPREAD_LEVEL) / 2)), high: sdLog * Math.sqrt(df / q((1 - SPREAD_LEVEL) / 2)) };
}

/** The standard error of the log ratio at n repetitions of each arm, and its degrees of freedom. */
function seAt(design: Design, sdLog: number, n: number): { se: number; df: number } {
  if (design === 'paired') return { se: sdLog / Math.sqrt(n), df: n - 1 };
  const between = design === 'separate' ? 2 * BETWEEN_SESSION_SD ** 2 : 0;
  return { se: Math.sqrt((2 * sdLog ** 2) / n + between), df: 2 * n - 2 };
}

/** The smallest n (2 to MAX_PLANNED) with `enough(se, df)`, or null. */
function smallest(design: Design, sdLog: number, enough: (se: number, df: number) => boolean): number | null {
  for (let n = 2; n <= MAX_PLANNED; n++) {
    const { se, df } = seAt(design, sdLog, n);
    if (enough(se, df)) return n;
  }
  return null;
}

function planFor(r: Pick<RatioEstimate, 'sdLog' | 'df' | 'design'>, enough: (se: number, df: number) => boolean): Plan | null {
  if (r.sdLog === null || r.df === null || !Number.isFinite(r.sdLog)) return null;
  const at = (s: number) => smallest(r.design, s, enough);
  const b = r.sdLog > 0 && r.df > 0 ? spreadBounds(r.sdLog, r.df) : { low: r.sdLog, high: r.sdLog };
  const sessionsBound = r.design === 'separate' && !enough(Math.sqrt(2) * BETWEEN_SESSION_SD, 1e6);
  return { point: at(r.sdLog), low: at(b.low), high: at(b.high), sessionsBound };
}

/**
 * Repetitions of each arm that detect a change of `change` (0.05 = 5%) at 95% with 80% power: the standard error
 * small enough that (t(0.975) + t(0.8)) * se <= ln(1 + change), for the comparison's design.
 */
export function detectPlan(r: Pick<RatioEstimate, 'sdLog' | 'df' | 'design'>, change = 0.05): Plan | null {
  const delta = Math.log(1 + change);
  return planFor(r, (se, df) => (tCritical(df) + tCritical(df, PLANNING_POWER)) * se <= delta);
}

/**
 * Repetitions of each arm at which two one-sided tests show equivalence within ±margin 80% of the time when there
 * is no difference: (t(0.95) + t(0.9)) * se <= ln(1 + margin).
 */
export function equivalencePlan(r: Pick<RatioEstimate, 'sdLog' | 'df' | 'design'>, margin = 0.05): Plan | null {
  const delta = Math.log(1 + margin);
  return planFor(r, (se, df) => (tCritical(df, 0.95) + tCritical(df, 1 - (1 - PLANNING_POWER) / 2)) * se <= delta);
}

/** A plan as words: "8 to 21 repetitions of each arm (12 at the measured spread)"; null: no practical number. */
export function planText(p: Plan, have: number): string | null {
  if (p.sessionsBound || p.point === null) return null;
  const hi = p.high === null ? `more than ${MAX_PLANNED}` : String(p.high);
  const lo = Math.max(p.low ?? p.point, have + 1);
  return lo === p.high
    ? `${p.point} repetitions of each arm`
    : `${lo} to ${hi} repetitions of each arm (${p.point} at the measured spread)`;
}

/**
 * A detected change that this design finds less than 80% of the time, were it the truth: |d| below (t(0.975) +
 * t(0.8)) * se on the log scale. Such findings overstate the change on average.
 */
export function lowPower(r: Pick<RatioEstimate, 'log' | 'df'>): boolean {
  if (!r.log || r.df === null) return false;
  return Math.abs(r.log.d) < (tCritical(r.df) + tCritical(r.df, PLANNING_POWER)) * r.log.se;
}

/** Repetitions of each arm that detect `change` at the measured spread (the plan's point), unpaired; null: none. */
export function repetitionsToDetect(sdLog: number | null, change = 0.05, design: Design = 'unpaired'): number | null {
  if (sdLog === null) return null;
  if (sdLog === 0) return 2;
  return detectPlan({ sdLog, df: 1e6, design }, change)?.point ?? null;
}
