// The views of repeated runs: each cell (an arm at a thread count) over its repetitions, every figure a geometric mean
// with its 95% interval and the cell's spread beside it; and the noise, each cell's spread and the runs that drifted
// or stepped inside their own ticks, named. The numbers all come from shared/repeats, as the panel's do.
import type { RunRecord } from '../../shared/experiment';
import { cellEstimate, cellsOf, cellSpread, NOISY_CV, noiseWarnings, type FigureEstimate } from '../../shared/repeats';
import { estimateCell, watchedFigure, type ViewTable } from './table';

const cvText = (cv: number | null) => (cv === null ? '-' : `${(cv * 100).toFixed(1)}%`);
const runNumbers = (runs: readonly RunRecord[]) => runs.map((r) => r.index + 1).join(', ');

/** How the figures of a table over repetitions were computed, said once under it. */
export function methodLine(estimates: readonly FigureEstimate[]): string {
  const mean = estimates.some((e) => e.method === 'mean');
  return `Each figure: the geometric mean of the cell's repetitions with a Student-t 95% interval on the logarithms [low, high]${mean ? '; "(mean)": a repetition measured 0, so the arithmetic mean with t' : ''}. Spread: the coefficient of variation of throughput over the repetitions.`;
}

/** One row per cell: runs, throughput, spread and the watched names, each over the cell's repetitions. */
export function repeatsView(runs: readonly RunRecord[], unit: string, watch: readonly string[]): ViewTable {
  const cells = cellsOf(runs);
  const shown: FigureEstimate[] = [];
  const keep = (e: FigureEstimate) => (shown.push(e), estimateCell(e));
  const rows = cells.map((c) => {
    const tp = cellEstimate(c, { value: (f) => f.rowsPerSec });
    return [
      c.armLabel,
      String(c.threads),
      String(c.runs.length),
      runNumbers(c.runs),
      keep(tp),
      cvText(tp.cv),
      ...watch.map((w) => {
        const def = watchedFigure(c.figures, w);
        return `${keep(cellEstimate(c, def))} ${def.unit}`;
      }),
    ];
  });
  return {
    kind: 'repeats',
    title: `Over repetitions: each arm and thread count, geometric mean [95% interval]`,
    headers: ['arm', 'threads', 'n', 'runs', `${unit}/s [95% interval]`, 'spread (cv)', ...watch.map((w) => `${w} [95% interval]`)],
    rows,
    lines: [methodLine(shown)],
  };
}

/** Each cell's spread and the noise warnings, naming the runs. */
export function noiseView(runs: readonly RunRecord[]): ViewTable {
  const cells = cellsOf(runs);
  const spread = cellSpread(cells);
  const warnings = noiseWarnings(
    cells,
    runs.filter((r) => r.status === 'completed'),
  );
  return {
    kind: 'noise',
    title: 'Noise: the spread of each arm and thread count over its repetitions, and runs that drifted or stepped',
    headers: ['arm', 'threads', 'n', 'spread of throughput (cv)', `noisy (cv over ${Math.round(NOISY_CV * 100)}%)`],
    rows: spread.map((s) => [s.armLabel, String(s.threads), String(s.n), cvText(s.cv), s.cv !== null && s.cv > NOISY_CV ? 'yes' : 'no']),
    lines: warnings.length
      ? warnings
      : [`No cell spread more than ${Math.round(NOISY_CV * 100)}%, and no run drifted or stepped inside its own ticks.`],
  };
}
