// The results per cell (one arm at one thread count, over its repetitions): throughput, CPU and the top spinlocks'
// spins per row, each as shared/repeats estimates it (a geometric mean with its 95% interval), the cell's spread, and
// the experiment's noise warnings naming their runs. A cell of one run shows its value and "1 run: no interval".
import { topNames } from '../../shared/analysis';
import type { RunSteady, Tick } from '../../shared/experiment';
import {
  cellEstimate,
  cellsOf,
  estimateText,
  namedFigure,
  noiseWarnings,
  SINGLE_RUN,
  type CellRun,
  type FigureEstimate,
} from '../../shared/repeats';
import { armRuns, type ShownExperiment } from './armViews';

export type TimedCellRun = CellRun & { timeline: readonly Pick<Tick, 't' | 'rowsPerSec' | 'gap'>[]; steady?: RunSteady };

export interface CellResultRow {
  armId: string;
  armLabel: string;
  threads: number;
  /** Completed runs with rows in the cell. */
  n: number;
  rowsPerSec: FigureEstimate;
  cpuMsPerRow: FigureEstimate;
  /** Spins per row of each of the top spinlocks, in the order of CellResults.spinlocks. */
  spins: FigureEstimate[];
}

export interface CellResults {
  rows: CellResultRow[];
  spinlocks: string[];
  /** More than one arm: the table names each row's arm. */
  arms: boolean;
  warnings: string[];
}

export function cellResults(runs: readonly TimedCellRun[], topSpinlocks = 2): CellResults {
  const cells = cellsOf(runs);
  const spinlocks = topNames(
    cells.flatMap((c) => c.figures.map((f) => f.spins)),
    topSpinlocks,
  );
  const defs = spinlocks.map((n) => namedFigure('spinsPerRow', n));
  const rows = cells.map((c): CellResultRow => ({
    armId: c.armId,
    armLabel: c.armLabel,
    threads: c.threads,
    n: c.runs.length,
    rowsPerSec: cellEstimate(c, { value: (f) => f.rowsPerSec }),
    cpuMsPerRow: cellEstimate(c, { value: (f) => f.cpuMsPerRow }),
    spins: defs.map((d) => cellEstimate(c, d)),
  }));
  const ran = runs.filter((r) => r.status === 'completed');
  return { rows, spinlocks, arms: new Set(cells.map((c) => c.armId)).size > 1, warnings: noiseWarnings(cells, ran) };
}

/** The cells of the experiment the results show. */
export function cellResultsOf(e: ShownExperiment): CellResults {
  return cellResults(armRuns(e));
}

/** A figure as the cell table prints it: "12,345 [11,900, 12,800]", or the one run's value; a time in its best unit. */
export function cellText(e: FigureEstimate, unit = ''): string {
  return estimateText(e, { unit, inTable: true });
}

/** The cell's spread in words: its coefficient of variation, or that one run has no interval. */
export function spreadText(e: FigureEstimate): string {
  if (e.n <= 1) return SINGLE_RUN;
  return e.cv === null ? '-' : `${(e.cv * 100).toFixed(1)}%`;
}
