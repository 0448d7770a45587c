// Change points in a series of measurements over time: where its level moved, not every noisy dip. E-divisive
// (Matteson and James, "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 109,
// 2014), the method MongoDB's performance CI runs over its nightly results (Daly et al., "The Use of Change Point
// Detection to Identify Software Performance Regressions in a Continuous Integration System", ICPE 2020): split a
// segment where the energy distance between its two sides is largest, keep the split when a permutation test says
// so, and look again on each side (binary segmentation). Permutations come from a fixed seed, so the terminal and
// the panel find the same points. No npm package fit (the README's "Dependencies and why" says which was looked at).
import randu from '@stdlib/random-base-randu';

export interface ChangePointOptions {
  /** Permutations of each tested segment (the smallest p-value is 1 / (permutations + 1)). */
  permutations?: number;
  /** A split is kept when its p-value is at most this. */
  significance?: number;
  /** The fewest points either side of a split. */
  minSegment?: number;
  seed?: number;
}

export const CHANGE_POINT_DEFAULTS: Required<ChangePointOptions> = {
  permutations: 199,
  significance: 0.01,
  minSegment: 3,
  seed: 16180339,
};

export interface SplitFound {
  /** The first index of the new level. */
  index: number;
  /** The energy statistic q̂ of the split (Matteson and James, eq. 6, with alpha 1). */
  q: number;
  pValue: number;
}

/**
 * The best split of xs[s..e): the τ and κ (s < τ < κ <= e) that maximise q̂ between X = xs[s..τ) and Y = xs[τ..κ)
 * (Matteson and James, section 2.2: κ lets a short level in the middle of the segment stand apart from what follows
 * it), at least `min` points in X and in Y; the split is at τ. Null when the segment is too short. O(n²): with the
 * prefix sums P[j][i] = Σ_{i' < i} |x_i' - x_j|, each step of κ adds to the between and within sums in O(1).
 */
export function bestSplit(xs: ArrayLike<number>, s: number, e: number, min: number): { index: number; q: number } | null {
  const L = e - s;
  if (L < 2 * min) return null;
  const P = new Float64Array(L * (L + 1));
  for (let j = 0; j < L; j++) {
    let acc = 0;
    P[j * (L + 1)] = 0;
    for (let i = 0; i < L; i++) {
      acc += Math.abs(xs[s + i] - xs[s + j]);
      P[j * (L + 1) + i + 1] = acc;
    }
  }
  const at = (j: number, i: number) => P[j * (L + 1) + i];
  const pairs = (k: number) => (k * (k - 1)) / 2;
  let best: { index: number; q: number } | null = null;
  let withinX = 0; // Σ over pairs in [0, τ)
  for (let tau = 1; tau <= L - min; tau++) {
    withinX += at(tau - 1, tau - 1);
    const m = tau;
    if (m < min) continue;
    let between = 0;
    let withinY = 0;
    for (let kappa = tau + 1; kappa <= L; kappa++) {
      between += at(kappa - 1, tau);
      withinY += at(kappa - 1, kappa - 1) - at(kappa - 1, tau);
      const n = kappa - tau;
      if (n < min) continue;
      const energy = (2 * between) / (m * n) - (m > 1 ? withinX / pairs(m) : 0) - (n > 1 ? withinY / pairs(n) : 0);
      const q = ((m * n) / (m + n)) * energy;
      if (!best || q > best.q) best = { index: s + tau, q };
    }
  }
  return best;
}

/**
 * The split of xs[s..e) with its permutation p-value: the share of shuffles of the segment whose best split is at least
 * as large (the observed order counted as one of them). Seeded by the segment's place, so the order in which segments
 * are tested changes nothing. The shuffling stops once the p-value can no longer come under the significance (the
 * decision is the same; the p-value of a split that is not kept is then where it stopped, above the significance).
 */
function testSegment(xs: readonly number[], s: number, e: number, o: Required<ChangePointOptions>): SplitFound | null {
  const found = bestSplit(xs, s, e, o.minSegment);
  if (!found) return null;
  const rand = randu.factory({ name: 'mt19937', seed: (o.seed + s * 7919 + e * 104729) % 4294967295 });
  const seg = Float64Array.from(xs.slice(s, e));
  let atLeast = 0;
  for (let r = 0; r < o.permutations; r++) {
    for (let i = seg.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const tmp = seg[i];
      seg[i] = seg[j];
      seg[j] = tmp;
    }
    const p = bestSplit(seg, 0, seg.length, o.minSegment);
    if (p && p.q >= found.q * (1 - 1e-12)) atLeast++;
    if ((atLeast + 1) / (o.permutations + 1) > o.significance) return { ...found, pValue: (atLeast + 1) / (r + 2) };
  }
  return { index: found.index, q: found.q, pValue: (atLeast + 1) / (o.permutations + 1) };
}

/**
 * Every change point of the series, in order: binary segmentation, each segment split where its energy distance is
 * largest when the permutation test keeps the split, then each side looked at again. `keep` may refuse a split the
 * test kept (the history asks that the level's shift leave out no change); a refused split ends that segment.
 */
export function eDivisive(
  xs: readonly number[],
  options: ChangePointOptions = {},
  keep: (split: SplitFound, s: number, e: number) => boolean = () => true,
): SplitFound[] {
  const o = { ...CHANGE_POINT_DEFAULTS, ...options };
  const out: SplitFound[] = [];
  const segments: [number, number][] = [[0, xs.length]];
  while (segments.length) {
    const [s, e] = segments.pop()!;
    const f = testSegment(xs, s, e, o);
    if (!f || f.pValue > o.significance || !keep(f, s, e)) continue;
    out.push(f);
    segments.push([s, f.index], [f.index, e]);
  }
  return out.sort((a, b) => a.index - b.index);
}
