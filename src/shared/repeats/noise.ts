// Noise reported, not hidden: each cell's run-to-run spread; the runs whose own ticks show their conditions changed
// (tickNoise.ts: a drift, a checkpoint-sized dip, a level shift); the runs still settling after the fixed warm-up
// (steady.ts); and the runs a cell's estimate left out (outliers.ts), each warning naming its run. The CLI, the panel
// and the notebook all print what noiseWarnings returns.
import { formatNumber } from '../numberText';
import { cellEstimate, type Cell } from './cells';
import { runName } from './runName';
import { DIP_DROP, DIP_FENCE, DRIFT_SHARE, runNoise, SHIFT_SHARE, type TickedRun } from './tickNoise';
import { STEADY_RULE } from './steady';
import type { Exclusion } from './outliers';
import { plural } from '../plural';

export { runName } from './runName';
export { runNoise } from './tickNoise';

/** A cell whose repetitions spread more than this (coefficient of variation) is called noisy. */
export const NOISY_CV = 0.1;

/** The warnings of one run's ticks, naming it. */
export function runWarnings(r: TickedRun): string[] {
  const { trend, dips, shift } = runNoise(r);
  const name = runName(r);
  const n = r.timeline.slice(r.steady?.fromTick ?? 0).filter((t) => !t.gap).length;
  const warnings: string[] = [];
  // A step also tilts the trend line: the shift says it better.
  if (trend !== null && Math.abs(trend) >= DRIFT_SHARE && !shift)
    warnings.push(
      `${name} drifted: its throughput ${trend > 0 ? 'rose' : 'fell'} about ${Math.round(Math.abs(trend) * 100)}% from start to end (trend over ${plural(n, 'tick')}); a growing log, a checkpoint or other work on the server can do this.`,
    );
  if (dips.length)
    warnings.push(
      `${name} stepped: throughput dipped to ${Math.round(Math.min(...dips.map((d) => d[1])) * 100)}% of its median at ${dips
        .slice(0, 3)
        .map((d) => `${formatNumber(d[0])} s`)
        .join(
          ', ',
        )}${dips.length > 3 ? ` and ${dips.length - 3} more tick${dips.length - 3 === 1 ? '' : 's'}` : ''} (the size of a checkpoint or a log growth: beyond ${DIP_FENCE} x IQR below the lower quartile of its ticks, and ${Math.round(DIP_DROP * 100)}% or more under its median).`,
    );
  if (shift)
    warnings.push(
      `${name} shifted level: its throughput moved from ${formatNumber(shift.before)}/s to ${formatNumber(shift.after)}/s (${shift.after > shift.before ? '+' : ''}${Math.round((shift.after / shift.before - 1) * 100)}%) at ${formatNumber(shift.atSec)} s and stayed there (a change point: OLS-CUSUM test p = ${formatNumber(shift.p)}, a shift of ${Math.round(SHIFT_SHARE * 100)}% or more that a step fits better than a trend); its figures mix two conditions.`,
    );
  if (r.steady?.capped)
    warnings.push(
      `${name} had not settled within a third of its ticks: its figures are over the last two thirds, ${formatNumber((r.steady.warmupMs + r.steady.droppedMs) / 1000)} s after its sessions started; a longer --warmup or --duration would say where it settles.`,
    );
  return warnings;
}

/** One line for the runs that were still settling after the fixed warm-up (none when every run was steady). */
export function steadyLine(runs: readonly TickedRun[]): string[] {
  const settled = runs.filter((r) => r.steady && r.steady.droppedTicks > 0);
  if (!settled.length) return [];
  const listed = settled
    .slice(0, 6)
    .map((r) => `${runName(r)} +${formatNumber(r.steady!.droppedMs / 1000)} s`)
    .join(', ');
  return [
    `Steady state: ${settled.length} of ${runs.length} run${runs.length === 1 ? ' was' : 's were'} still settling after the fixed warm-up (${listed}${settled.length > 6 ? ` and ${settled.length - 6} more` : ''}); their figures start where they settled, by ${STEADY_RULE}.`,
  ];
}

export interface CellSpread {
  armId: string;
  armLabel: string;
  threads: number;
  n: number;
  /** Coefficient of variation of the cell's throughput over its repetitions; null with one run. */
  cv: number | null;
}

/** Each cell's run-to-run spread of throughput. */
export function cellSpread(cells: readonly Cell[]): CellSpread[] {
  return cells.map((c) => {
    const e = cellEstimate(c, { value: (f) => f.rowsPerSec });
    return { armId: c.armId, armLabel: c.armLabel, threads: c.threads, n: e.n, cv: e.cv };
  });
}

/**
 * The noise warnings of an experiment: noisy cells, the runs their cells left out, runs whose ticks drifted, dipped
 * or shifted, and the runs that were still settling after the warm-up.
 */
export function noiseWarnings(cells: readonly (Cell & { excluded?: readonly Exclusion[] })[], runs: readonly TickedRun[]): string[] {
  const out: string[] = [];
  for (const s of cellSpread(cells))
    if (s.cv !== null && s.cv > NOISY_CV)
      out.push(
        `${s.armId !== 'main' ? `${s.armLabel}, ` : ''}${s.threads} thread${s.threads === 1 ? '' : 's'}: its ${plural(s.n, 'repetition')} spread ${Math.round(s.cv * 100)}% (coefficient of variation), more than ${Math.round(NOISY_CV * 100)}%; intervals are wide and small differences cannot be told from noise.`,
      );
  for (const c of cells) for (const e of c.excluded ?? []) out.push(e.reason);
  for (const r of runs) out.push(...runWarnings(r));
  out.push(...steadyLine(runs));
  return out;
}
