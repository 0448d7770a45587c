// A gate's interval at a confidence level of its own: a sequential gate is judged at each look on the interval at the
// level that look has spent (sequential.ts), an equivalence on the 90% one. The same estimates as repeats/interval.ts
// (the geometric mean with t on the logs; the arithmetic mean with t, cut at 0, when a repetition was 0; the ratio of
// geometric means with Welch's t, or the repeated side's spread for both when one side ran once), at any level.
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { compareFigures, tCritical, type Interval } from './repeats';

export interface LevelEstimate {
  value: number;
  interval: Interval | null;
  n: number;
}

const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);
const tAt = (df: number, level: number) => tCritical(df, 1 - (1 - level) / 2);

/** One figure over its repetitions (at least one), with its interval at `level` from two repetitions on. */
export function figureAt(values: readonly number[], level: number): LevelEstimate {
  const n = values.length;
  if (n < 2) return { value: values[0], interval: null, n };
  const t = tAt(n - 1, level);
  if (values.every((x) => x > 0)) {
    const l = values.map((x) => Math.log(x));
    const half = (t * sd(l)) / Math.sqrt(n);
    return { value: Math.exp(mean(l)), interval: { low: Math.exp(mean(l) - half), high: Math.exp(mean(l) + half) }, n };
  }
  const m = mean(values as number[]);
  const half = (t * sd(values)) / Math.sqrt(n);
  return { value: m, interval: { low: values.every((x) => x >= 0) ? Math.max(0, m - half) : m - half, high: m + half }, n };
}

export interface LevelRatio {
  ratio: number | null;
  interval: Interval | null;
  nA: number;
  nB: number;
}

/** B over A at `level`; figures that were 0 somewhere fall back to repeats' bootstrap (its 95%). */
export function ratioAt(a: readonly number[], b: readonly number[], level: number): LevelRatio {
  const nA = a.length;
  const nB = b.length;
  if (!(a.every((x) => x > 0) && b.every((x) => x > 0))) {
    const r = compareFigures(a, b);
    return { ratio: r.ratio, interval: r.interval, nA, nB };
  }
  const la = a.map((x) => Math.log(x));
  const lb = b.map((x) => Math.log(x));
  const d = mean(lb) - mean(la);
  if (nA < 2 && nB < 2) return { ratio: Math.exp(d), interval: null, nA, nB };
  let se: number;
  let df: number;
  if (nA >= 2 && nB >= 2) {
    const va = sd(la) ** 2 / nA;
    const vb = sd(lb) ** 2 / nB;
    se = Math.sqrt(va + vb);
    df = va + vb > 0 ? (va + vb) ** 2 / (va ** 2 / (nA - 1) + vb ** 2 / (nB - 1)) : nA + nB - 2;
  } else {
    se = sd(nA >= 2 ? la : lb) * Math.sqrt(1 / nA + 1 / nB);
    df = Math.max(nA, nB) - 1;
  }
  const half = tAt(df, level) * se;
  return { ratio: Math.exp(d), interval: { low: Math.exp(d - half), high: Math.exp(d + half) }, nA, nB };
}
