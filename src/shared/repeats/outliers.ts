// Runs left out of a cell's estimate, by one rule the report states, never silently. A run is excluded when both:
//  1. it is a far outlier of its cell: with at least OUTLIER_MIN_RUNS runs, its throughput lies beyond Tukey's far
//     fences, 3 x IQR from the quartiles of the cell's log throughput (Tukey 1977, "Exploratory Data Analysis";
//     criterion.rs reports these as "severe" outliers and those beyond 1.5 x IQR as "mild":
//     https://bheisler.github.io/criterion.rs/book/analysis.html#outlier-classification). Logs, since run-to-run
//     noise is multiplicative (interval.ts); quartiles by linear interpolation (quantile.ts), as criterion's.
//  2. its own ticks show its conditions changed (tickNoise.ts): a drift, a checkpoint-sized dip, a level shift, or a
//     warm-up that had not settled at the cap. The fences alone are no rule at this size: with 5 runs of plain
//     lognormal noise they put a run outside them in 14% of cells (7% at 6 runs, 5% at 10; test/unit/outliers.test.ts
//     measures it), which would narrow the intervals the README's coverage figures rest on.
// A far outlier whose ticks look ordinary, and every mild one, stays: it is named as an outlier, not excluded.
import { formatNumber } from '../numberText';
import { runName, type NamedRun } from './runName';
import { quantileSorted } from './quantile';
import { ticksFlagged, type TickedRun } from './tickNoise';

/** Fewer runs than this in a cell: nothing is excluded (the quartiles of 4 runs are two of the runs themselves). */
export const OUTLIER_MIN_RUNS = 5;
/** Tukey's far (outer) fences, in IQRs from the quartiles: beyond them a run is excluded. */
export const FAR_FENCE = 3;
/** Tukey's near (inner) fences: beyond them, within the far ones, a run is a mild outlier (kept). */
export const NEAR_FENCE = 1.5;

export type OutlierClass = 'low severe' | 'low mild' | 'high mild' | 'high severe' | null;

/** Tukey's classification of positive values on the log scale; null labels below OUTLIER_MIN_RUNS values. */
export function classifyOutliers(values: readonly number[]): { labels: OutlierClass[]; far: [number, number] | null } {
  if (values.length < OUTLIER_MIN_RUNS || values.some((v) => !(v > 0))) return { labels: values.map(() => null), far: null };
  const logs = values.map(Math.log);
  const sorted = [...logs].sort((a, b) => a - b);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const iqr = q3 - q1;
  const labels = logs.map((x): OutlierClass => {
    if (x < q1 - FAR_FENCE * iqr) return 'low severe';
    if (x > q3 + FAR_FENCE * iqr) return 'high severe';
    if (x < q1 - NEAR_FENCE * iqr) return 'low mild';
    if (x > q3 + NEAR_FENCE * iqr) return 'high mild';
    return null;
  });
  return { labels, far: [Math.exp(q1 - FAR_FENCE * iqr), Math.exp(q3 + FAR_FENCE * iqr)] };
}

/** A run as the rule reads it: its name, and its ticks when the cell has them (without ticks nothing is excluded). */
export type OutlierRun = NamedRun & Partial<Pick<TickedRun, 'timeline' | 'steady'>>;

/** A run left out of its cell's estimate. */
export interface Exclusion {
  /** Its position in the cell's runs (and figures). */
  at: number;
  /** Its throughput and the far fence it is beyond (rows/s, or calls/s for a custom workload). */
  rowsPerSec: number;
  fence: number;
  side: 'low' | 'high';
  /** The sentence the report prints: which run, its value, the fence, the rule. */
  reason: string;
}

/** The runs of a cell its estimate leaves out, by OUTLIER_RULE (none below OUTLIER_MIN_RUNS runs). */
export function excludedRuns(cell: { runs: readonly OutlierRun[]; figures: readonly { rowsPerSec: number }[] }): Exclusion[] {
  const values = cell.figures.map((f) => f.rowsPerSec);
  const { labels, far } = classifyOutliers(values);
  if (!far) return [];
  const out: Exclusion[] = [];
  labels.forEach((label, at) => {
    if (label !== 'low severe' && label !== 'high severe') return;
    const run = cell.runs[at];
    if (!run.timeline || !ticksFlagged(run as TickedRun)) return;
    const side = label === 'low severe' ? 'low' : 'high';
    const fence = side === 'low' ? far[0] : far[1];
    out.push({
      at,
      rowsPerSec: values[at],
      fence,
      side,
      reason: `${runName(run)} is left out of its cell's estimate: its throughput ${formatNumber(values[at])}/s is ${side === 'low' ? 'below' : 'above'} the far fence of ${formatNumber(fence)}/s (${FAR_FENCE} x IQR ${side === 'low' ? 'below the lower' : 'above the upper'} quartile of the cell's ${values.length} runs, on logs: Tukey's rule, criterion.rs's "severe" outliers), and its own ticks show its conditions changed (see its noise warning); the cell's figures are over the other ${values.length - 1}.`,
    });
  });
  return out;
}

/** The cell without its excluded runs, which it keeps under `excluded` (a cell with none is returned as it is). */
export function withoutOutliers<C extends { runs: OutlierRun[]; figures: { rowsPerSec: number }[] }>(
  cell: C,
): C & { excluded?: (Exclusion & { run: C['runs'][number] })[] } {
  const ex = excludedRuns(cell);
  if (!ex.length) return cell;
  const out = new Set(ex.map((e) => e.at));
  return {
    ...cell,
    runs: cell.runs.filter((_, i) => !out.has(i)),
    figures: cell.figures.filter((_, i) => !out.has(i)),
    excluded: ex.map((e) => ({ ...e, run: cell.runs[e.at] })),
  };
}
