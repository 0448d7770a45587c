// A trial's objective as the search reads it: its value (null when the trial did not measure it), its score on the
// log scale (higher is better, whichever way the objective points), and whether it met the constraints.
import { runFigures } from '../../shared/analysis';
import type { RunRecord } from '../../shared/experiment';
import { objectiveText, type TuneConstraint, type TuneObjective } from '../../shared/tune';
import { constraintsLine } from '../../shared/tuneText';
import { figureText } from '../../shared/numberText';

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

/**
 * Why the search must stop when a spins-per-row objective read 0 in every completed trial, at least one per
 * configuration (a spinlock this workload never spins on): every score ties, and a winner would be named on nothing.
 * Null while the objective tells trials apart, or before there are that many trials.
 */
export function silentObjective(runs: readonly RunRecord[], o: TuneObjective, configs: number): string | null {
  if (o.kind !== 'spins-per-row') return null;
  const done = runs.filter((r) => r.status === 'completed' && runFigures(r).rows > 0);
  if (done.length < configs || done.some((r) => (objectiveOf(r, o) ?? 0) > 0)) return null;
  const seen = new Map<string, number>();
  for (const r of done) for (const [k, v] of Object.entries(runFigures(r).spinsPerRow)) seen.set(k, (seen.get(k) ?? 0) + v);
  const busiest = [...seen]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k]) => k);
  return (
    `${o.spinlock} did not spin in any of the ${done.length} trials run (0 spins per row in each), so its spins per row cannot tell the configurations apart; ` +
    `the search stopped rather than name a winner on nothing. Tune for a spinlock this workload spins on${busiest.length ? ` (the trials' busiest: ${busiest.join(', ')})` : ''}, or for throughput`
  );
}

/** Why a search with trials ended without a result when none of them met the constraints; null when one did. */
export function unmetConstraints(
  runs: readonly RunRecord[],
  o: TuneObjective,
  constraints: readonly TuneConstraint[],
  unit: string,
): string | null {
  const done = runs.filter((r) => r.status === 'completed' && objectiveOf(r, o) !== null);
  if (!constraints.length || !done.length || done.some((r) => meets(r, constraints))) return null;
  const t = objectiveText(o, unit);
  const values = done.map((r) => objectiveOf(r, o)!);
  const best = t.higherBetter ? Math.max(...values) : Math.min(...values);
  const limits = constraintsLine({ constraints: [...constraints] })
    .replace(/^Constraints: /, '')
    .replace(/\.$/, '');
  return `no trial met the constraints (${limits}); the best reached ${figureText(best)} ${t.unit}: widen them, or tune another workload`;
}
