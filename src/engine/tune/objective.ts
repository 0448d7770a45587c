// A trial's objective as the search reads it: its value (null when the trial did not measure it), its score on the
// log scale (higher is better, whichever way the objective points), and whether it met the constraints.
import { runFigures } from '../../shared/analysis';
import type { RunRecord } from '../../shared/experiment';
import type { TuneConstraint, TuneObjective } from '../../shared/tune';

/** The objective of one run, or null when the run did not measure it. */
export function objectiveOf(run: RunRecord, o: TuneObjective): number | null {
  if (run.status !== 'completed') return null;
  const f = runFigures(run);
  if (f.rows <= 0) return null;
  if (o.kind === 'throughput') return f.rowsPerSec;
  if (o.kind === 'p99') return f.p99Us;
  return f.spinsPerRow[o.spinlock] ?? 0;
}

const higherBetter = (o: TuneObjective) => o.kind === 'throughput';
export const scoreOf = (v: number, o: TuneObjective) => (higherBetter(o) ? Math.log(Math.max(v, 1e-12)) : -Math.log(Math.max(v, 1e-12)));

export function meets(run: RunRecord, constraints: readonly TuneConstraint[]): boolean {
  const f = runFigures(run);
  return constraints.every((c) => {
    const v = c.figure === 'p99Us' ? f.p99Us : c.figure === 'rowsPerSec' ? f.rowsPerSec : run.threads;
    if (v === null) return false;
    return c.op === '<=' ? v <= c.value : v >= c.value;
  });
}
