// Repeated runs as the scaling view and the summary tables read them: each arm's cells by thread count, each figure an
// estimate over the cell's repetitions (throughput, all spinlocks' spins per row, wait ms per row with benign waits
// left out, latency), so the terminal, the notebook and the panel draw the same points and bands.
import type { RunFigures } from '../analysis';
import { cellsOf, cellEstimate, type Cell, type CellRun } from './cells';
import type { FigureEstimate } from './interval';

const sum = (m: Record<string, number>) => Object.values(m).reduce((s, v) => s + v, 0);

/** The figures a cell shows in a sweep, each over its repetitions. */
export interface CellPoint<R extends CellRun = CellRun> {
  threads: number;
  cell: Cell<R>;
  rowsPerSec: FigureEstimate;
  /** Every spinlock's spins per row, summed. */
  spinsPerRow: FigureEstimate;
  /** Wait ms per row over every wait type (benign ones are never counted). */
  waitMsPerRow: FigureEstimate;
  p50Us: FigureEstimate;
  p99Us: FigureEstimate;
}

export interface ArmCells<R extends CellRun = CellRun> {
  id: string;
  label: string;
  /** Fewest threads first. */
  points: CellPoint<R>[];
}

function point<R extends CellRun>(c: Cell<R>): CellPoint<R> {
  const of = (value: (f: RunFigures) => number | null) => cellEstimate(c, { value });
  return {
    threads: c.threads,
    cell: c,
    rowsPerSec: of((f) => f.rowsPerSec),
    spinsPerRow: of((f) => sum(f.spinsPerRow)),
    waitMsPerRow: of((f) => sum(f.waitMsPerRow)),
    p50Us: of((f) => f.p50Us),
    p99Us: of((f) => f.p99Us),
  };
}

/** Each arm's cells as points by thread count, arms in the order they first ran. */
export function armCells<R extends CellRun>(runs: readonly R[]): ArmCells<R>[] {
  const out: ArmCells<R>[] = [];
  for (const c of cellsOf(runs)) {
    let arm = out.find((a) => a.id === c.armId);
    if (!arm) out.push((arm = { id: c.armId, label: c.armLabel, points: [] }));
    arm.points.push(point(c));
  }
  for (const a of out) a.points.sort((x, y) => x.threads - y.threads);
  return out;
}

/** True when some arm ran some thread count more than once: the views then show intervals. */
export function isRepeated(runs: readonly CellRun[]): boolean {
  return cellsOf(runs).some((c) => c.runs.length > 1);
}

/** The line a view of one run per cell shows in place of intervals (`arms`: the experiment has several). */
export function oneRunPerCell(arms: boolean): string {
  return `1 run per ${arms ? 'arm and ' : ''}thread count: no interval (run with --repeat 3 or more for intervals).`;
}
