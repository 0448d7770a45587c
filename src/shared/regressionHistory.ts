// A workload's saved experiments lined up over time, cell by cell (an arm at a thread count), with the change points
// of its throughput marked: what `spinlab history` prints and the panel's History view draws, computed once here.
// Each experiment is one point, its throughput the geometric mean of its repetitions with the 95% interval (repeats/);
// the change points are E-divisive's (changePoints.ts) on the logarithms of those means (server noise is
// multiplicative), and each is kept only when the shift between its neighbouring levels, the ratio of their
// geometric means with Welch's interval, leaves out no change: a marker always comes with a shift that is one.
import type { Experiment } from './experiment';
import { eDivisive, CHANGE_POINT_DEFAULTS, type ChangePointOptions } from './changePoints';
import { cellName, workloadDifference, workloadOf } from './experimentCompare';
import { cellsOf, compareFigures, estimate, excludesOne, type FigureEstimate, type Interval } from './repeats';

/** What the history reads of an experiment. */
export type HistoryExperiment = Pick<Experiment, 'id' | 'title' | 'createdAt' | 'simulated' | 'server' | 'scenario' | 'load' | 'runs'> &
  Partial<Pick<Experiment, 'preset' | 'custom'>>;

export interface HistoryPoint {
  experimentId: string;
  title: string;
  /** When the experiment's first run started (its creation time when no run did). */
  startedAt: string;
  serverName: string;
  simulated: boolean;
  /** Rows/s over the cell's completed repetitions. */
  throughput: Pick<FigureEstimate, 'method' | 'n' | 'value' | 'interval'>;
}

export interface HistoryChange {
  /** The point where the new level starts (index into the cell's points). */
  index: number;
  experimentId: string;
  /** The new level over the old: the geometric mean of the points after over those before (to the neighbouring changes). */
  ratio: number;
  interval: Interval;
  /** Points in the level before and after. */
  before: number;
  after: number;
  pValue: number;
}

export interface CellHistory {
  armId: string;
  armLabel: string;
  threads: number;
  /** "8 threads", "8 threads, other-node". */
  name: string;
  points: HistoryPoint[];
  changes: HistoryChange[];
}

export interface WorkloadHistory {
  /** The workload in words ("scenario disk-insert (batch_size=1)", "preset writelog"). */
  workload: string;
  experiments: number;
  servers: string[];
  cells: CellHistory[];
  /** Why no change point can be found yet (too few experiments), or null. */
  note: string | null;
}

/** The fewest experiments in which a change can be found: three each side of it. */
export const MIN_POINTS = 2 * CHANGE_POINT_DEFAULTS.minSegment;

/** When the experiment ran: its first run's start, else its creation. */
export function startOf(e: Pick<Experiment, 'createdAt' | 'runs'>): string {
  const starts = e.runs.map((r) => r.startedAt).filter((s): s is string => typeof s === 'string' && s.length > 0);
  return starts.length ? starts.reduce((a, b) => (b < a ? b : a)) : e.createdAt;
}

const byStart = <E extends HistoryExperiment>(a: E, b: E) => {
  const x = startOf(a);
  const y = startOf(b);
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

export interface WorkloadGroup<E> {
  workload: string;
  experiments: E[];
}

/** Experiments grouped by what they ran (experimentCompare's workloadDifference: the same work, mode included), in the order each workload first appears. */
export function groupByWorkload<E extends HistoryExperiment>(es: readonly E[]): WorkloadGroup<E>[] {
  const groups: WorkloadGroup<E>[] = [];
  for (const e of es) {
    const g = groups.find((x) => workloadDifference(x.experiments[0], e) === null);
    if (g) g.experiments.push(e);
    else groups.push({ workload: workloadOf(e) + (e.preset ? '' : `, ${e.load.mode}`), experiments: [e] });
  }
  return groups;
}

/**
 * The change points of a series of positive values (each point an experiment's throughput), with each shift: E-divisive
 * on the logarithms, a split kept only when its two sides differ (Welch on the logs leaves out no change), and after
 * the search each change's shift measured between its final neighbours; one that no longer leaves out no change there
 * is dropped (the weakest first) and the others measured again.
 */
export function findChanges(values: readonly number[], o: ChangePointOptions = {}): Omit<HistoryChange, 'experimentId'>[] {
  const logs = values.map((v) => Math.log(v));
  const differ = (a: readonly number[], b: readonly number[]) => excludesOne(compareFigures(a, b));
  const splits = eDivisive(logs, o, (f, s, e) => differ(values.slice(s, f.index), values.slice(f.index, e)));
  let kept = splits;
  for (;;) {
    const measured = kept.map((f, i) => {
      const from = i > 0 ? kept[i - 1].index : 0;
      const to = i + 1 < kept.length ? kept[i + 1].index : values.length;
      const r = compareFigures(values.slice(from, f.index), values.slice(f.index, to));
      return { f, r, before: f.index - from, after: to - f.index };
    });
    const weak = measured.filter((m) => !excludesOne(m.r) || m.r.ratio === null || !m.r.interval);
    if (!weak.length)
      return measured.map((m) => ({
        index: m.f.index,
        ratio: m.r.ratio as number,
        interval: m.r.interval as Interval,
        before: m.before,
        after: m.after,
        pValue: m.f.pValue,
      }));
    const worst = weak.reduce((a, b) => (b.f.pValue > a.f.pValue || (b.f.pValue === a.f.pValue && b.f.q < a.f.q) ? b : a));
    kept = kept.filter((f) => f !== worst.f);
  }
}

/** One workload's experiments (the caller groups them) as a history: every cell, its points in time order, its changes. */
export function workloadHistory(es: readonly HistoryExperiment[], o: ChangePointOptions = {}): WorkloadHistory {
  const ordered = [...es].sort(byStart);
  const cells = new Map<string, CellHistory>();
  for (const e of ordered) {
    for (const c of cellsOf(e.runs)) {
      const key = `${c.armId}\u0000${c.threads}`;
      const cell = cells.get(key) ?? {
        armId: c.armId,
        armLabel: c.armLabel,
        threads: c.threads,
        name: cellName(c),
        points: [],
        changes: [],
      };
      const t = estimate(c.figures.map((f) => f.rowsPerSec));
      cell.points.push({
        experimentId: e.id,
        title: e.title,
        startedAt: startOf(e),
        serverName: e.server.serverName,
        simulated: e.simulated === true,
        throughput: { method: t.method, n: t.n, value: t.value, interval: t.interval },
      });
      cells.set(key, cell);
    }
  }
  const out = [...cells.values()].sort((a, b) => a.threads - b.threads || (a.armId < b.armId ? -1 : a.armId > b.armId ? 1 : 0));
  for (const c of out) {
    const values = c.points.map((p) => p.throughput.value).filter((v): v is number => v !== null && v > 0);
    if (values.length !== c.points.length) continue;
    c.changes = findChanges(values, o).map((ch) => ({ ...ch, experimentId: c.points[ch.index].experimentId }));
  }
  const longest = Math.max(0, ...out.map((c) => c.points.length));
  const workload = es.length ? groupByWorkload([es[0]])[0].workload : '';
  return {
    workload,
    experiments: es.length,
    servers: [...new Set(ordered.map((e) => e.server.serverName))],
    cells: out,
    note:
      longest < MIN_POINTS
        ? `${longest} experiment${longest === 1 ? '' : 's'} of this workload: a change point needs ${CHANGE_POINT_DEFAULTS.minSegment} on each side of it (${MIN_POINTS} in all).`
        : null,
  };
}

const pct = (v: number) => {
  const p = v * 100;
  return `${p >= 0 ? '+' : '-'}${Math.abs(p) < 10 ? Math.abs(p).toFixed(1) : Math.abs(p).toFixed(0)}%`;
};

/** "-15% [-19%, -11%]": the new level against the old, with its 95% interval. */
export function shiftText(c: Pick<HistoryChange, 'ratio' | 'interval'>): string {
  return `${pct(c.ratio - 1)} [${pct(c.interval.low - 1)}, ${pct(c.interval.high - 1)}]`;
}

/** "slower by 15% [-19%, -11%] from here (8 before, 12 after)": a change as the table's marker says it. */
export function changePointText(c: HistoryChange): string {
  return `${c.ratio < 1 ? 'slower' : 'faster'} ${shiftText(c)} from here (${c.before} before, ${c.after} after)`;
}

/** The cell of a history a `--cell` text names ("8 threads", "8", "8 threads, <arm label or id>"), or null. */
export function findCell(h: WorkloadHistory, text: string): CellHistory | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  return (
    h.cells.find((c) => c.name.toLowerCase() === t) ??
    h.cells.find((c) => `${c.threads} thread${c.threads === 1 ? '' : 's'}, ${c.armId}`.toLowerCase() === t) ??
    h.cells.find((c) => String(c.threads) === t || `${c.threads} threads` === t || `${c.threads} thread` === t) ??
    null
  );
}
