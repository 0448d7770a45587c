// A scaling curve over repeated runs: one point per thread count (each figure over the cell's repetitions, as
// shared/repeats computes it) and the 95% interval of throughput as a band around the line. A curve whose every
// thread count ran once is left as it is, with no band: one run has no interval. Pure: no DOM.
import type { ScalingCurve, ScalingPoint } from '../../shared/analysis';
import { armCells, cellEstimate, namedFigure, type CellRun } from '../../shared/repeats';

/** The interval of throughput at one thread count. */
export interface BandPoint {
  threads: number;
  low: number;
  high: number;
}

/** band: the interval of throughput by thread count; cellWaitMsPerRow: wait ms per row over the repetitions. */
export type BandedCurve<C extends ScalingCurve> = C & { band?: BandPoint[]; cellWaitMsPerRow?: Record<number, number> };

/** `curve` drawn from `runs` (the runs it was made of): repeated thread counts folded into one point with a band. */
export function bandedCurve<C extends ScalingCurve>(curve: C, runs: readonly CellRun[]): BandedCurve<C> {
  // One arm's runs: its points are the shared sweep figures (armCells), so the panel draws what the terminal prints.
  const arm = armCells(runs)[0];
  if (!arm || !arm.points.some((p) => p.cell.figures.length > 1)) return curve;
  const band: BandPoint[] = [];
  const points: ScalingPoint[] = [];
  const waits: Record<number, number> = {};
  const values: Record<number, number[]> = {};
  for (const p of arm.points) {
    const tp = p.rowsPerSec;
    if (tp.value === null) continue;
    if (tp.interval) band.push({ threads: p.threads, low: tp.interval.low, high: tp.interval.high });
    const bySpinlock = Object.fromEntries(
      curve.topSpinlocks.map((n) => [n, cellEstimate(p.cell, namedFigure('spinsPerRow', n)).value ?? 0]),
    );
    waits[p.threads] = p.waitMsPerRow.value ?? 0;
    values[p.threads] = tp.values;
    points.push({ threads: p.threads, rowsPerSec: tp.value, spinsPerRow: p.spinsPerRow.value ?? 0, bySpinlock, status: 'completed' });
  }
  const best = points.reduce<ScalingPoint | null>((m, p) => (m === null || p.rowsPerSec > m.rowsPerSec ? p : m), null);
  return {
    ...curve,
    points,
    peak: best && { threads: best.threads, rowsPerSec: best.rowsPerSec },
    band,
    cellWaitMsPerRow: waits,
    rowsPerSecValues: values,
  };
}
