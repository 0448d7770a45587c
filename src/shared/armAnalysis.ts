// Reading an experiment of several arms (a preset): arm A against arm B at each thread count both ran (through
// analysis.ts's compareRuns), and the scaling curves of the arms overlaid, with wait ms per row beside throughput and
// spins per row. Pure (no DOM, no Node): the panel, notebooks and the CLI share it.
import { compareRuns, runFigures, scalingCurve, summarizeScaling, type RunComparison, type RunInput, type ScalingCurve } from './analysis';

/** A run as this module needs it: the analysis input plus which arm it belongs to. */
export type ArmRun = RunInput & { arm: { id: string; label: string }; rows?: number };

export interface ArmComparisonAt {
  threads: number;
  comparison: RunComparison;
}

function usable(r: ArmRun): boolean {
  return r.status === 'completed' && runFigures(r).rows > 0;
}

/** Arm `a` against arm `b` at every thread count both completed with rows, fewest threads first. */
export function compareArms(runs: readonly ArmRun[], a: string, b: string, topN = 5): ArmComparisonAt[] {
  const of = (id: string) => new Map(runs.filter((r) => r.arm.id === id && usable(r)).map((r) => [r.threads, r] as const));
  const ra = of(a);
  const rb = of(b);
  return [...ra.keys()].filter((t) => rb.has(t)).sort((x, y) => x - y)
    .map((threads) => ({ threads, comparison: compareRuns(runFigures(ra.get(threads)!), runFigures(rb.get(threads)!), topN) }));
}

export interface ArmCurve {
  id: string;
  label: string;
  curve: ScalingCurve;
  /** Wait ms per row (benign waits excluded, all types summed) by thread count. */
  waitMsPerRow: Record<number, number>;
  summary: string;
}

export interface ScalingOverlay {
  /** Every thread count any arm ran, ascending. */
  threads: number[];
  arms: ArmCurve[];
  /** Spinlocks named in the curves: the top ones over every arm. */
  spinlocks: string[];
}

/** One scaling curve per arm (arms in the order given), on a shared thread axis. */
export function overlayScaling(experimentId: string, arms: readonly { id: string; label: string }[], runs: readonly ArmRun[], topN = 3): ScalingOverlay {
  const out: ArmCurve[] = arms.map((arm) => {
    const mine = runs.filter((r) => r.arm.id === arm.id);
    const curve = scalingCurve({ id: experimentId, title: arm.label, runs: mine }, topN);
    const waitMsPerRow: Record<number, number> = {};
    for (const r of mine) {
      const f = runFigures(r);
      if (f.rows > 0) waitMsPerRow[r.threads] = Object.values(f.waitMsPerRow).reduce((s, v) => s + v, 0);
    }
    return { id: arm.id, label: arm.label, curve, waitMsPerRow, summary: summarizeScaling(curve) };
  });
  const threads = [...new Set(out.flatMap((a) => a.curve.points.map((p) => p.threads)))].sort((x, y) => x - y);
  const spinlocks = [...new Set(out.flatMap((a) => a.curve.topSpinlocks))];
  return { threads, arms: out, spinlocks };
}
