// A tune's confirmation read as pairs: the winner (B) against the current settings (A) on fresh trials taken in pairs
// (A B, then B A, ...), each pair's log ratio one observation, with Student's t on the n pairs (n-1 degrees of
// freedom). Neighbours share the server's drift (a checkpoint, a warming cache), so it cancels within a pair instead of
// widening the interval as Welch on the unpaired trials would (Kalibera and Jones 2013).
import { tCritical, type Interval } from './repeats/interval';

/** The winner against the current settings over the confirmation's pairs. */
export interface PairedRatio {
  /** Pairs with both trials measured. */
  pairs: number;
  /** B / A: the geometric mean of the per-pair ratios; null without a pair. */
  ratio: number | null;
  /** The 95% interval (paired t); null with fewer than two pairs. */
  interval: Interval | null;
  /** The spread of the per-pair log ratios; null with fewer than two pairs. */
  sdLog: number | null;
}

/** B against A from pairs of positive values ([a, b] each); a pair with a side missing or not positive is left out. */
export function pairedRatio(pairs: readonly (readonly [number | null, number | null])[]): PairedRatio {
  const d = pairs.filter(([a, b]) => a !== null && b !== null && a > 0 && b > 0).map(([a, b]) => Math.log(b!) - Math.log(a!));
  const n = d.length;
  if (!n) return { pairs: 0, ratio: null, interval: null, sdLog: null };
  const m = d.reduce((x, y) => x + y, 0) / n;
  if (n < 2) return { pairs: n, ratio: Math.exp(m), interval: null, sdLog: null };
  const sd = Math.sqrt(d.reduce((x, y) => x + (y - m) ** 2, 0) / (n - 1));
  const half = (tCritical(n - 1) * sd) / Math.sqrt(n);
  return { pairs: n, ratio: Math.exp(m), interval: { low: Math.exp(m - half), high: Math.exp(m + half) }, sdLog: sd };
}

/** A power of 80%: four confirmations in five with the change would show it. */
const POWER = 0.8;
/** Beyond this many pairs a plan is not worth stating. */
const MAX_PAIRS = 1000;

/**
 * Pairs that show a change of `change` (0.2 = 20%) at 95% with 80% power when the per-pair log ratios spread by
 * `sdDiff`: the smallest n with n >= (t(0.975, n-1) + t(0.8, n-1))^2 sdDiff^2 / ln(1 + change)^2; at least 2 (an
 * interval needs two). Null when no practical number would.
 */
export function pairsToDetect(sdDiff: number, change: number): number | null {
  if (!Number.isFinite(sdDiff)) return null;
  const delta = Math.log(1 + change);
  for (let n = 2; n <= MAX_PAIRS; n++) if (n >= ((tCritical(n - 1) + tCritical(n - 1, POWER)) * sdDiff) ** 2 / delta ** 2) return n;
  return null;
}
