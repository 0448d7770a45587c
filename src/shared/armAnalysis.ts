// Reading an experiment of several arms (a preset): arm A against arm B at each thread count both ran (through
// analysis.ts's compareRuns), and the scaling curves of the arms overlaid, with wait ms per row beside throughput and
// spins per row. Pure (no DOM, no Node): the panel, notebooks and the CLI share it.
import {
  compareRuns,
  runFigures,
  scalingCurve,
  summarizeComparison,
  summarizeScaling,
  type ComparedFigure,
  type RunComparison,
  type RunFigures,
  type RunInput,
  type ScalingCurve,
} from './analysis';

/** A run as this module needs it: the analysis input plus which arm it belongs to. */
export type ArmRun = RunInput & { arm: { id: string; label: string }; rows?: number };

/** The arms of a set of runs, in the order they first ran. */
export function armsInOrder(runs: readonly { arm: { id: string; label: string } }[]): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = [];
  for (const r of runs) if (!out.some((a) => a.id === r.arm.id)) out.push({ id: r.arm.id, label: r.arm.label });
  return out;
}

export interface ArmComparisonAt {
  threads: number;
  comparison: RunComparison;
  /** The summary from the figures that matter (see figuresThatMatter). */
  summary: string[];
}

/** A spinlock below this share of the comparison's leading spinlock (spins per row) is left out of the summary. */
export const MINOR_SPIN_SHARE = 0.01;
/** A wait or latch below this share of the sessions' time (in both runs) is left out of the summary. */
export const MINOR_WAIT_SHARE = 0.005;

/**
 * The figures worth a sentence: backoffs move with their spins and are left to the table; a spinlock far below the
 * leading one, or a wait that takes a negligible share of the sessions' time in both runs, would read as news
 * ("only in run B") while being noise.
 */
export function figuresThatMatter(figures: readonly ComparedFigure[], a: RunFigures, b: RunFigures): ComparedFigure[] {
  const lead = Math.max(0, ...Object.values(a.spinsPerRow), ...Object.values(b.spinsPerRow));
  const share = (f: RunFigures, ms: number) => (f.elapsedSec > 0 && f.threads > 0 ? ms / (f.elapsedSec * 1000 * f.threads) : 0);
  return figures.filter((f) => {
    const [kind, name] = f.key.split(':');
    if (kind === 'backoffsPerRow') return false;
    if (kind === 'spinsPerRow') return Math.max(f.a ?? 0, f.b ?? 0) >= lead * MINOR_SPIN_SHARE;
    if (kind === 'waitMsPerRow') return Math.max(share(a, a.waitMs[name] ?? 0), share(b, b.waitMs[name] ?? 0)) >= MINOR_WAIT_SHARE;
    if (kind === 'latchMsPerRow') return Math.max(share(a, a.latchMs[name] ?? 0), share(b, b.latchMs[name] ?? 0)) >= MINOR_WAIT_SHARE;
    return true;
  });
}

function usable(r: ArmRun): boolean {
  return r.status === 'completed' && runFigures(r).rows > 0;
}

/** Arm `a` against arm `b` at every thread count both completed with rows, fewest threads first. */
export function compareArms(runs: readonly ArmRun[], a: string, b: string, topN = 5): ArmComparisonAt[] {
  const of = (id: string) => new Map(runs.filter((r) => r.arm.id === id && usable(r)).map((r) => [r.threads, r] as const));
  const ra = of(a);
  const rb = of(b);
  return [...ra.keys()]
    .filter((t) => rb.has(t))
    .sort((x, y) => x - y)
    .map((threads) => {
      const fa = runFigures(ra.get(threads)!);
      const fb = runFigures(rb.get(threads)!);
      const comparison = compareRuns(fa, fb, topN);
      return { threads, comparison, summary: summarizeComparison(figuresThatMatter(comparison.figures, fa, fb)) };
    });
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
export function overlayScaling(
  experimentId: string,
  arms: readonly { id: string; label: string }[],
  runs: readonly ArmRun[],
  topN = 3,
): ScalingOverlay {
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
