// The ratio of means of a figure that was 0 in some repetition (a spinlock that did not spin in every run), where
// no logarithm exists. A percentile bootstrap fails here in the way that matters most: with one side all zeros and
// the other one non-zero run, every resample's ratio is 0 and the interval [0, 0] reads as a certainty. Instead: a
// permutation test (Fisher-Pitman) of "mean(B) = theta * mean(A)", exact over every relabelling while there are at
// most EXACT_LIMIT of them (seeded Monte Carlo beyond), and the interval is every theta the test does not reject
// (test inversion). It is honest about small samples: with 3 runs a side no relabelling is rare enough to reject at
// 5% (the smallest two-sided p is 2/20), so the interval stays open, [0, Infinity) when the data cannot close it.
import randu from '@stdlib/random-base-randu';

/** Relabellings enumerated exactly up to this count; beyond it a seeded sample of MONTE_CARLO of them. */
const EXACT_LIMIT = 5_000;
const MONTE_CARLO = 5_000;
/** Seeded so the CLI, the panel and the notebook agree to the digit. */
const SEED = 27182818;

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Every subset (as a list of indices) of size k from n, or a seeded sample of them; kept, as views ask again. */
const cache = new Map<string, number[][]>();
function labellings(n: number, k: number): number[][] {
  const key = `${n}:${k}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out: number[][] = [];
  if (binomial(n, k) <= EXACT_LIMIT) {
    const pick = (start: number, chosen: number[]) => {
      if (chosen.length === k) return void out.push([...chosen]);
      for (let i = start; i <= n - (k - chosen.length); i++) pick(i + 1, [...chosen, i]);
    };
    pick(0, []);
  } else {
    const rand = randu.factory({ name: 'mt19937', seed: SEED });
    for (let s = 0; s < MONTE_CARLO; s++) {
      const idx = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      out.push(idx.slice(0, k));
    }
  }
  cache.set(key, out);
  return out;
}

const sum = (v: readonly number[]) => v.reduce((s, x) => s + x, 0);

/**
 * The permutation test as a function of theta. A relabelling puts some of A's runs (their sum alpha) and some of
 * B's (beta) in the first group; its statistic mean(second) - mean(first) is then linear in theta, u * theta + v, so
 * each relabelling is two numbers computed once and every theta costs one pass.
 */
function permutationTest(a: readonly number[], b: readonly number[]): (theta: number) => number {
  const nA = a.length;
  const nB = b.length;
  const sets = labellings(nA + nB, nA);
  const sa = sum(a);
  const sb = sum(b);
  const u = new Float64Array(sets.length);
  const v = new Float64Array(sets.length);
  sets.forEach((s, k) => {
    let alpha = 0;
    let beta = 0;
    for (const i of s) {
      if (i < nA) alpha += a[i];
      else beta += b[i - nA];
    }
    u[k] = (sa - alpha) / nB - alpha / nA;
    v[k] = (sb - beta) / nB - beta / nA;
  });
  const scale = Math.max(...a.map(Math.abs), ...b.map(Math.abs));
  return (theta: number) => {
    // The observed labelling: A's runs first (alpha = sum(a), beta = 0).
    const observed = Math.abs(sb / nB - (theta * sa) / nA);
    // A tolerance relative to the values: ties in the statistic (equal values) count as extreme, as an exact test
    // requires, whatever the figure's scale (spins per row can be 1e-6).
    const tol = 1e-9 * scale * Math.max(1, theta);
    let extreme = 0;
    for (let k = 0; k < u.length; k++) if (Math.abs(u[k] * theta + v[k]) >= observed - tol) extreme++;
    return extreme / u.length;
  };
}

/** Bisection steps per end: the log-scale search span (2 x 12) halved 40 times is far below any shown digit. */
const STEPS = 40;
const SPAN = 12;

/**
 * The interval of the ratio mean(b) / mean(a) at `level` by test inversion, and the p-value of "no difference"
 * (theta = 1). a has a non-zero mean (the caller checks).
 */
export function rankRatio(
  a: readonly number[],
  b: readonly number[],
  level: number,
): { interval: { low: number; high: number }; p: number } {
  const test = permutationTest(a, b);
  const alpha = 1 - level;
  const keep = (theta: number) => test(theta) >= alpha;
  const point = sum(b) / b.length / (sum(a) / a.length);
  const p = test(1);
  // B all zeros: every theta above 0 relabels alike (the statistic only scales), so one test decides the whole side.
  if (point === 0) return { interval: { low: 0, high: keep(1) ? Infinity : 0 }, p };
  // Search on the log scale from the point (kept by the test: its statistic is 0) outwards; a side the test never
  // rejects, however far out, stays open.
  const bound = (dir: 1 | -1): number => {
    let inside = Math.log(point);
    let outside = inside + dir * SPAN;
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
