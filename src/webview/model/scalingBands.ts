// A scaling curve over repeated runs: one point per thread count (each figure over the cell's repetitions, as
// shared/repeats computes it) and the 95% interval of throughput as a band around the line. A curve whose every
// thread count ran once is left as it is, with no band: one run has no interval. Pure: no DOM.
import type { ScalingCurve, ScalingPoint } from '../../shared/analysis';
import { cellEstimate, cellsOf, type CellRun } from '../../shared/repeats';

/** The interval of throughput at one thread count. */
export interface BandPoint {
  threads: number;
  low: number;
  high: number;
}

/** band: the interval of throughput by thread count; cellWaitMsPerRow: wait ms per row over the repetitions. */
export type BandedCurve<C extends ScalingCurve> = C & { band?: BandPoint[]; cellWaitMsPerRow?: Record<number, number> };

const total = (m: Record<string, number>) => Object.values(m).reduce((s, v) => s + v, 0);

/** `curve` drawn from `runs` (the runs it was made of): repeated thread counts folded into one point with a band. */
export function bandedCurve<C extends ScalingCurve>(curve: C, runs: readonly CellRun[]): BandedCurve<C> {
  const cells = cellsOf(runs).sort((x, y) => x.threads - y.threads);
  if (!cells.some((c) => c.figures.length > 1)) return curve;
  const band: BandPoint[] = [];
  const points: ScalingPoint[] = [];
  const waits: Record<number, number> = {};
  for (const c of cells) {
    const tp = cellEstimate(c, { value: (f) => f.rowsPerSec });
    if (tp.value === null) continue;
    if (tp.interval) band.push({ threads: c.threads, low: tp.interval.low, high: tp.interval.high });
    const spins = cellEstimate(c, { value: (f) => total(f.spinsPerRow) });
    const bySpinlock = Object.fromEntries(
      curve.topSpinlocks.map((n) => [n, cellEstimate(c, { value: (f) => f.spinsPerRow[n] ?? 0 }).value ?? 0]),
    );
    waits[c.threads] = cellEstimate(c, { value: (f) => total(f.waitMsPerRow) }).value ?? 0;
    points.push({ threads: c.threads, rowsPerSec: tp.value, spinsPerRow: spins.value ?? 0, bySpinlock, status: 'completed' });
  }
  const best = points.reduce<ScalingPoint | null>((m, p) => (m === null || p.rowsPerSec > m.rowsPerSec ? p : m), null);
  return { ...curve, points, peak: best && { threads: best.threads, rowsPerSec: best.rowsPerSec }, band, cellWaitMsPerRow: waits };
}
