// The terminal's summary of repeated runs for a scenario or a custom workload: per arm and thread count over its
// repetitions, throughput, latency and the top spinlocks' spins per row as `gmean [low, high]`, the spread, and the
// noise warnings naming runs. One run per cell says so instead. All figures come from shared/repeats.
import type { RunRecord } from '../shared/experiment';
import { topNames } from '../shared/analysis';
import {
  cellEstimate,
  cellsOf,
  isRepeated,
  namedFigure,
  noiseWarnings,
  NOISY_CV,
  oneRunPerCell,
  type Cell,
  type FigureEstimate,
} from '../shared/repeats';
import { methodLine } from './presetViews/repeats';
import { estimateCell } from './presetViews/table';
import { table } from './textTable';

const cvText = (cv: number | null) => (cv === null ? '-' : `${(cv * 100).toFixed(1)}%`);

/** A column of the summary: its header and each cell's estimate. */
export interface RepeatColumn {
  header: string;
  value(c: Cell<RunRecord>): FigureEstimate;
  /** Shown only when some cell measured it (latency is measured by the client loop and custom workloads). */
  optional?: boolean;
  /** The estimate as text, when its unit differs from the figure's (latency recorded in µs, shown in ms). */
  text?(e: FigureEstimate): string;
}

/**
 * The summary table over repetitions with the columns given, its method line and (unless `noise` is false: another
 * section said them) the noise warnings; one run per cell says it has no interval.
 */
export function repeatSection(runs: readonly RunRecord[], title: string, columns: readonly RepeatColumn[], noise = true): string {
  if (!isRepeated(runs)) return `  ${oneRunPerCell(new Set(runs.map((r) => r.arm.id)).size > 1)}`;
  const cells = cellsOf(runs);
  const armed = new Set(cells.map((c) => c.armId)).size > 1;
  const values = columns.map((col) => cells.map((c) => col.value(c)));
  const shown = columns.map((col, i) => !col.optional || values[i].some((e) => e.value !== null));
  const all: FigureEstimate[] = [];
  const rows = cells.map((c, j) => {
    const tp = cellEstimate(c, { value: (f) => f.rowsPerSec });
    return [
      ...(armed ? [c.armLabel] : []),
      String(c.threads),
      String(c.runs.length),
      c.runs.map((r) => r.index + 1).join(', '),
      ...columns.flatMap((col, i) => (shown[i] ? [(all.push(values[i][j]), (col.text ?? estimateCell)(values[i][j]))] : [])),
      cvText(tp.cv),
    ];
  });
  const headers = [
    ...(armed ? ['arm'] : []),
    'threads',
    'n',
    'runs',
    ...columns.filter((_, i) => shown[i]).map((c) => c.header),
    'spread (cv)',
  ];
  const warnings = noise
    ? noiseWarnings(
        cells,
        runs.filter((r) => r.status === 'completed'),
      )
    : [];
  return [
    `\n${title}`,
    table(headers, rows),
    `  ${methodLine(all)}`,
    ...(!noise
      ? []
      : warnings.length
        ? ['\nNoise', ...warnings.map((w) => `  ${w}`)]
        : [`  Noise: no cell spread more than ${Math.round(NOISY_CV * 100)}%, and no run drifted or stepped inside its own ticks.`]),
  ].join('\n');
}

/** A scenario's summary over repetitions: throughput, latency (when measured) and the top spinlocks' spins per row. */
export function scenarioRepeatSection(runs: readonly RunRecord[], unit: string): string {
  const cells = cellsOf(runs);
  const spins = topNames(
    cells.flatMap((c) => c.figures.map((f) => f.spinsPerRow)),
    3,
  );
  return repeatSection(runs, 'Over repetitions: each thread count, geometric mean [95% interval]', [
    { header: `${unit}/s`, value: (c) => cellEstimate(c, { value: (f) => f.rowsPerSec }) },
    { header: 'p50 µs', value: (c) => cellEstimate(c, { value: (f) => f.p50Us }), optional: true },
    { header: 'p99 µs', value: (c) => cellEstimate(c, { value: (f) => f.p99Us }), optional: true },
    ...spins.map((n) => ({
      header: `${n} spins/row`,
      value: (c: Cell<RunRecord>) => cellEstimate(c, namedFigure('spinsPerRow', n)),
    })),
  ]);
}
