// One saved experiment against another, cell by cell (an arm at a thread count, over its repetitions): what
// `spinlab compare A B` prints, and the "Against the baseline" section of a run given --baseline. Pure, so the panel
// and the notebooks can say the same.
import type { Experiment } from './experiment';
import {
  cellsOf,
  compareCells,
  ratioVerdict,
  THROUGHPUT_WORDS,
  type Cell,
  type CellComparison,
  type CellRun,
  type Verdict,
} from './repeats';
import { workloadText } from './runPairing';

export interface MatchedCell {
  armId: string;
  armLabel: string;
  threads: number;
  a: Cell;
  b: Cell;
}

export interface CellMatch {
  matched: MatchedCell[];
  /** Cells only one side has. */
  onlyA: Cell[];
  onlyB: Cell[];
}

/** The cells of two sets of runs matched by arm id and thread count: B's arms in their order, fewest threads first. */
export function matchCells(a: readonly CellRun[], b: readonly CellRun[]): CellMatch {
  const ca = cellsOf(a);
  const cb = cellsOf(b);
  const key = (c: Cell) => `${c.armId}\u0000${c.threads}`;
  const inA = new Map(ca.map((c) => [key(c), c] as const));
  const inB = new Set(cb.map(key));
  const armOrder = [...new Set(cb.map((c) => c.armId))];
  const matched = cb
    .filter((c) => inA.has(key(c)))
    .map((c) => ({ armId: c.armId, armLabel: c.armLabel, threads: c.threads, a: inA.get(key(c))!, b: c }))
    .sort((x, y) => armOrder.indexOf(x.armId) - armOrder.indexOf(y.armId) || x.threads - y.threads);
  return { matched, onlyA: ca.filter((c) => !inB.has(key(c))), onlyB: cb.filter((c) => !inA.has(key(c))) };
}

/** "8 threads", "8 threads, arm other-node". */
export function cellName(c: { armId: string; armLabel: string; threads: number }): string {
  return `${c.threads} thread${c.threads === 1 ? '' : 's'}${c.armId !== 'main' ? `, ${c.armLabel}` : ''}`;
}

/** What an experiment ran, in words: "preset writelog", "scenario disk-insert (rows_per_tx=10)", "a custom workload". */
export function workloadOf(e: Pick<Experiment, 'scenario' | 'preset' | 'custom' | 'load'>): string {
  if (e.preset) return `preset ${e.preset.id}`;
  return workloadText({
    scenarioId: e.custom ? 'custom' : e.scenario.id,
    parameters: e.scenario.parameters ?? {},
    mode: e.load.mode,
    custom: e.custom ? { database: e.custom.database, statements: e.custom.statements.map((s) => s.text) } : null,
  });
}

/** Why two experiments are not the same workload, or null when they are (mode included: it changes what runs). */
export function workloadDifference(
  a: Pick<Experiment, 'scenario' | 'preset' | 'custom' | 'load'>,
  b: Pick<Experiment, 'scenario' | 'preset' | 'custom' | 'load'>,
  names: { a: string; b: string } = { a: 'A', b: 'B' },
): string | null {
  const wa = workloadOf(a);
  const wb = workloadOf(b);
  const sameCustom =
    !a.custom ||
    !b.custom ||
    JSON.stringify(a.custom.statements.map((s) => s.text)) === JSON.stringify(b.custom.statements.map((s) => s.text));
  if (wa !== wb || !sameCustom)
    return `${names.a} ran ${wa}${sameCustom ? '' : ' (other statements)'}, ${names.b} ${wb}: this compares different workloads.`;
  if (!a.preset && a.load.mode !== b.load.mode)
    return `${names.a} ran in ${a.load.mode}, ${names.b} in ${b.load.mode}: this compares different workloads.`;
  return null;
}

export interface ExperimentComparison {
  cells: (MatchedCell & { comparison: CellComparison })[];
  onlyA: Cell[];
  onlyB: Cell[];
  /** Set when the two ran different workloads. */
  note: string | null;
}

/** B against A, every cell both completed. */
export function compareExperiments(a: Experiment, b: Experiment, topN = 5, primary?: string): ExperimentComparison {
  const m = matchCells(a.runs, b.runs);
  return {
    cells: m.matched.map((c) => ({ ...c, comparison: compareCells(c.a, c.b, 'B', { topN, separate: true, primary }) })),
    onlyA: m.onlyA,
    onlyB: m.onlyB,
    note: workloadDifference(a, b),
  };
}

export interface BaselineVerdict {
  cell: string;
  verdict: Verdict;
}

export interface AgainstBaseline {
  verdicts: BaselineVerdict[];
  /** This experiment's cells the baseline has no counterpart for. */
  unmatched: string[];
  note: string | null;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** This experiment's throughput against the baseline's, cell by cell, in words that follow from each interval. */
export function againstBaseline(current: Experiment, baseline: Experiment): AgainstBaseline {
  const m = matchCells(baseline.runs, current.runs);
  const words = {
    ...THROUGHPUT_WORDS('this experiment'),
    higher: 'faster than the baseline',
    lower: 'slower than the baseline',
    against: 'the baseline',
  };
  return {
    verdicts: m.matched.map((c) => {
      const [tp] = compareCells(c.a, c.b, 'this experiment', { separate: true }).figures;
      const v = ratioVerdict(tp.ratio, words);
      return { cell: cellName(c), verdict: { ...v, text: capital(v.text) } };
    }),
    unmatched: m.onlyB.map(cellName),
    note: workloadDifference(baseline, current, { a: 'The baseline', b: 'this experiment' }),
  };
}
