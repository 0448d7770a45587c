// The ratio of means of a figure that was 0 in some repetition (a spinlock that did not spin in every run), where
// no logarithm exists. A percentile bootstrap fails here in the way that matters most: with one side all zeros and
// the other one non-zero run, every resample's ratio is 0 and the interval [0, 0] reads as a certainty. Instead: a
// permutation test (Fisher-Pitman) of "mean(B) = theta * mean(A)", exact over every relabelling while there are at
// most EXACT_LIMIT of them (seeded Monte Carlo beyond), and the interval is every theta the test does not reject
// (test inversion). It is honest about small samples: with 3 runs a side no relabelling is rare enough to reject at
// 5% (the smallest two-sided p is 2/20), so the interval stays open, [0, Infinity) when the data cannot close it.
import randu from '@stdlib/random-base-randu';

/** Relabellings enumerated exactly up to this count; beyond it a seeded sample of MONTE_CARLO of them. */
const EXACT_LIMIT = 20_000;
const MONTE_CARLO = 20_000;
/** Seeded so the CLI, the panel and the notebook agree to the digit. */
const SEED = 27182818;

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Every subset (as a list of indices) of size k from n, or a seeded sample of them. */
function labellings(n: number, k: number): number[][] {
  const out: number[][] = [];
  if (binomial(n, k) <= EXACT_LIMIT) {
    const pick = (start: number, chosen: number[]) => {
      if (chosen.length === k) return void out.push([...chosen]);
      for (let i = start; i <= n - (k - chosen.length); i++) pick(i + 1, [...chosen, i]);
    };
    pick(0, []);
    return out;
  }
  const rand = randu.factory({ name: 'mt19937', seed: SEED });
  for (let s = 0; s < MONTE_CARLO; s++) {
    const idx = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    out.push(idx.slice(0, k));
  }
  return out;
}

const sum = (v: readonly number[]) => v.reduce((s, x) => s + x, 0);

/** Two-sided permutation p-value of mean(b) - theta * mean(a) = 0 over the given relabellings. */
function pValueAt(a: readonly number[], b: readonly number[], theta: number, sets: readonly number[][]): number {
  const pooled = [...a.map((x) => x * theta), ...b];
  const total = sum(pooled);
  const nA = a.length;
  const nB = b.length;
  const stat = (sumA: number) => (total - sumA) / nB - sumA / nA;
  const observed = Math.abs(stat(sum(pooled.slice(0, nA))));
  // A tolerance relative to the values: ties in the statistic (equal values) count as extreme, as an exact test
  // requires, whatever the figure's scale (spins per row can be 1e-6).
  const tol = 1e-9 * Math.max(...pooled.map(Math.abs));
  let extreme = 0;
  for (const s of sets) {
    let sa = 0;
    for (const i of s) sa += pooled[i];
    if (Math.abs(stat(sa)) >= observed - tol) extreme++;
  }
  return extreme / sets.length;
}

const STEPS = 60;

/**
 * The interval of the ratio mean(b) / mean(a) at `level` by test inversion, and the p-value of "no difference"
 * (theta = 1). a has a non-zero mean (the caller checks).
 */
export function rankRatio(a: readonly number[], b: readonly number[], level: number): { interval: { low: number; high: number }; p: number } {
  const sets = labellings(a.length + b.length, a.length);
  const alpha = 1 - level;
  const keep = (theta: number) => pValueAt(a, b, theta, sets) >= alpha;
  const point = sum(b) / b.length / (sum(a) / a.length);
  const p = pValueAt(a, b, 1, sets);
  // B all zeros: every theta above 0 relabels alike (the statistic only scales), so one test decides the whole side.
  if (point === 0) return { interval: { low: 0, high: keep(1) ? Infinity : 0 }, p };
  // Search on the log scale from the point (kept by the test: its statistic is 0) outwards; a side the test never
  // rejects, however far out, stays open.
  const bound = (dir: 1 | -1): number => {
    let inside = Math.log(point);
    let outside = inside + dir * 50;
    if (keep(Math.exp(outside))) return dir > 0 ? Infinity : 0;
    for (let i = 0; i < STEPS; i++) {
      const mid = (inside + outside) / 2;
      if (keep(Math.exp(mid))) inside = mid;
      else outside = mid;
    }
    return Math.exp(inside);
  };
  return { interval: { low: bound(-1), high: bound(1) }, p };
}
