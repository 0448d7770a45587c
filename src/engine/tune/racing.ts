// Racing's drop rule, adjusted for multiplicity. Each round compares every racing configuration with the leader: with
// 20 of them at an unadjusted 95% each, about one would be dropped by chance alone. Holm's step-down method keeps the
// chance of dropping any configuration that is in truth as good as the leader at 5% across the whole round, with no
// assumption about how the comparisons depend on each other (they share the leader). irace does the same: racing with
// Friedman or paired t-tests and a correction for the many comparisons (López-Ibáñez et al., "The irace package:
// Iterated racing for automatic algorithm configuration", Operations Research Perspectives 3, 2016).
import { LEVEL, tCritical } from '../../shared/repeats';

export interface Challenger {
  /** The configuration's index. */
  i: number;
  /** The leader's score less this one's (log scale; positive: behind). */
  gap: number;
  /** The standard error of the gap. */
  se: number;
}

export interface Drop {
  i: number;
  gap: number;
  /** The interval of the gap at the level Holm's step gave it. */
  low: number;
  high: number;
  /** How many comparisons the round made (the correction's family). */
  family: number;
}

/**
 * The challengers behind the leader beyond doubt at a family-wise 95%: Holm's step-down, the largest gap-to-error
 * first, the k-th (from 0) judged at a two-sided 5% / (m - k), stopping at the first that is not ruled out.
 */
export function holmDrops(challengers: readonly Challenger[], df: number): Drop[] {
  const m = challengers.length;
  const alpha = 1 - LEVEL;
  const sorted = [...challengers].sort((a, b) => b.gap / b.se - a.gap / a.se);
  const out: Drop[] = [];
  for (let k = 0; k < m; k++) {
    const c = sorted[k];
    const half = tCritical(df, 1 - alpha / (2 * (m - k))) * c.se;
    if (!(c.gap > half)) break;
    out.push({ i: c.i, gap: c.gap, low: c.gap - half, high: c.gap + half, family: m });
  }
  return out;
}
