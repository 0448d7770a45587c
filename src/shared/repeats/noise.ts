// Noise reported, not hidden: each cell's run-to-run spread, and the runs that drifted or stepped inside their own
// ticks (a throughput trend over the run, a dip the size of a checkpoint), each warning naming its run.
import { linearRegression, median } from 'simple-statistics';
import type { Tick } from '../experiment';
import { formatNumber } from '../numberText';
import { cellEstimate, type Cell } from './cells';

/** A cell whose repetitions spread more than this (coefficient of variation) is called noisy. */
export const NOISY_CV = 0.1;
/** A run whose throughput trend moves it this much (start to end, against its mean) drifted. */
export const DRIFT_SHARE = 0.15;
/** A tick below this share of the run's median throughput is a dip. */
export const DIP_SHARE = 0.5;
/** Fewer ticks than this say nothing about a trend. */
const MIN_TICKS = 5;

/** How a run is named in a warning: "run 4 (other node, 10 threads, repetition 2)". */
export function runName(r: { index?: number; threads: number; repetition?: number; arm: { id: string; label: string } }): string {
  const parts = [
    ...(r.arm.id !== 'main' ? [r.arm.label] : []),
    `${r.threads} thread${r.threads === 1 ? '' : 's'}`,
    ...(r.repetition !== undefined ? [`repetition ${r.repetition}`] : []),
  ];
  return `run ${r.index !== undefined ? r.index + 1 : '?'} (${parts.join(', ')})`;
}

export interface RunNoise {
  /** Throughput change over the run from its trend line, as a share of its mean (+0.2: rose 20%); null: too few ticks. */
  trend: number | null;
  /** Dips: ticks below DIP_SHARE of the run's median throughput, as [seconds into the run, share of the median]. */
  dips: [number, number][];
  warnings: string[];
}

/** The drift and the dips inside one run's ticks (a gap tick after a reconnect is left out: it spans no work). */
export function runNoise(r: {
  index?: number;
  threads: number;
  repetition?: number;
  arm: { id: string; label: string };
  timeline: readonly Pick<Tick, 't' | 'rowsPerSec' | 'gap'>[];
}): RunNoise {
  const ticks = r.timeline.filter((t) => !t.gap);
  const name = runName(r);
  if (ticks.length < MIN_TICKS) return { trend: null, dips: [], warnings: [] };
  const rates = ticks.map((t) => t.rowsPerSec);
  const mid = median(rates);
  const mean = rates.reduce((s, v) => s + v, 0) / rates.length;
  const span = (ticks[ticks.length - 1].t - ticks[0].t) / 1000;
  const { m } = linearRegression(ticks.map((t) => [t.t / 1000, t.rowsPerSec]));
  const trend = mean > 0 && span > 0 ? (m * span) / mean : null;
  const warnings: string[] = [];
  if (trend !== null && Math.abs(trend) >= DRIFT_SHARE)
    warnings.push(
      `${name} drifted: its throughput ${trend > 0 ? 'rose' : 'fell'} about ${Math.round(Math.abs(trend) * 100)}% from start to end (trend over ${ticks.length} ticks); a growing log, a checkpoint or other work on the server can do this.`,
    );
  // The first and the last tick are part-intervals around the sessions' start and stop: not dips.
  const dips: [number, number][] = [];
  if (mid > 0) for (const t of ticks.slice(1, -1)) if (t.rowsPerSec < DIP_SHARE * mid) dips.push([t.t / 1000, t.rowsPerSec / mid]);
  if (dips.length)
    warnings.push(
      `${name} stepped: throughput dipped to ${Math.round(Math.min(...dips.map((d) => d[1])) * 100)}% of its median at ${dips
        .slice(0, 3)
        .map((d) => `${formatNumber(d[0])} s`)
        .join(
          ', ',
        )}${dips.length > 3 ? ` and ${dips.length - 3} more tick${dips.length - 3 === 1 ? '' : 's'}` : ''} (the size of a checkpoint or a log growth).`,
    );
  return { trend, dips, warnings };
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

/** The noise warnings of an experiment: noisy cells, then drifting or stepping runs. */
export function noiseWarnings(cells: readonly Cell[], runs: readonly Parameters<typeof runNoise>[0][]): string[] {
  const out: string[] = [];
  for (const s of cellSpread(cells))
    if (s.cv !== null && s.cv > NOISY_CV)
      out.push(
        `${s.armId !== 'main' ? `${s.armLabel}, ` : ''}${s.threads} thread${s.threads === 1 ? '' : 's'}: its ${s.n} repetitions spread ${Math.round(s.cv * 100)}% (coefficient of variation), more than ${Math.round(NOISY_CV * 100)}%; intervals are wide and small differences cannot be told from noise.`,
      );
  for (const r of runs) out.push(...runNoise(r).warnings);
  return out;
}
