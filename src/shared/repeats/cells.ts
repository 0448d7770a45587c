// The repetitions of an experiment read as cells: the completed runs of one arm at one thread count, each figure an
// estimate over them (interval.ts), and arm B's cell against arm A's at each thread count both ran. A record from
// before repetitions is a cell of one run per arm and thread count, and reads as "1 run: no interval".
import { runFigures, TX_NOT_COUNTED, topNames, type FigureDirection, type RunFigures } from '../analysis';
import type { ArmRun } from '../armAnalysis';
import { atLevel, compareFigures, estimate, type FigureEstimate, type RatioEstimate } from './interval';
import { cellLayout, type CellLayout } from './design';
import { holm } from './family';
import { lowPower } from './plan';
import { levelText, ratioVerdict, THROUGHPUT_WORDS, type Verdict } from './words';
import { othersBusy, type OwnShare } from '../ownShare';

/** A run as a cell needs it: the analysis input, its arm, and (since schema 6) which repetition it was. */
export type CellRun = ArmRun & { repetition?: number; index?: number; share?: OwnShare | null };

export interface Cell<R extends CellRun = CellRun> {
  armId: string;
  armLabel: string;
  threads: number;
  /** The cell's completed runs with rows, in the order they ran. */
  runs: R[];
  figures: RunFigures[];
}

/** The cells of a set of runs, in the order each first ran; failed, cancelled and empty runs are left out. */
export function cellsOf<R extends CellRun>(runs: readonly R[]): Cell<R>[] {
  const out = new Map<string, Cell<R>>();
  for (const r of runs) {
    if (r.status !== 'completed') continue;
    const f = runFigures(r);
    if (f.rows <= 0) continue;
    const key = `${r.arm.id}\u0000${r.threads}`;
    const c = out.get(key) ?? { armId: r.arm.id, armLabel: r.arm.label, threads: r.threads, runs: [], figures: [] };
    c.runs.push(r);
    c.figures.push(f);
    out.set(key, c);
  }
  return [...out.values()];
}

/** One figure of the analysis: how it is named, its unit, which way is better, and where a run's value is. */
export interface FigureDef {
  key: string;
  label: string;
  unit: string;
  direction: FigureDirection;
  value(f: RunFigures): number | null;
  note?: string;
}

const fixed: FigureDef[] = [
  { key: 'rowsPerSec', label: 'Throughput', unit: 'rows/s', direction: 'higher-better', value: (f) => f.rowsPerSec },
  {
    key: 'transactionsPerSec',
    label: 'Transactions',
    unit: 'tx/s',
    direction: 'higher-better',
    value: (f) => f.transactionsPerSec,
    note: TX_NOT_COUNTED,
  },
  { key: 'cpuMsPerRow', label: 'CPU per row', unit: 'ms/row', direction: 'lower-better', value: (f) => f.cpuMsPerRow },
  { key: 'logBytesPerRow', label: 'Log bytes per row', unit: 'B/row', direction: 'lower-better', value: (f) => f.logBytesPerRow },
  { key: 'logFlushesPerSec', label: 'Log flushes', unit: '/s', direction: 'lower-better', value: (f) => f.logFlushesPerSec },
];
const latency: FigureDef[] = [
  { key: 'p50Us', label: 'Latency p50', unit: 'µs', direction: 'lower-better', value: (f) => f.p50Us },
  { key: 'p99Us', label: 'Latency p99', unit: 'µs', direction: 'lower-better', value: (f) => f.p99Us },
];
type NamedMap = 'spinsPerRow' | 'backoffsPerRow' | 'waitMsPerRow' | 'latchMsPerRow';
const NAMED: { map: NamedMap; what: string; unit: string }[] = [
  { map: 'spinsPerRow', what: 'spins per row', unit: 'spins/row' },
  { map: 'backoffsPerRow', what: 'backoffs per row', unit: 'backoffs/row' },
  { map: 'waitMsPerRow', what: 'wait ms per row', unit: 'ms/row' },
  { map: 'latchMsPerRow', what: 'latch ms per row', unit: 'ms/row' },
];

/** A named figure's definition, e.g. 'spinsPerRow:LOGCACHE_ACCESS' (a name that did not move in a run is 0 there). */
export function namedFigure(map: NamedMap, name: string): FigureDef {
  const n = NAMED.find((x) => x.map === map)!;
  return { key: `${map}:${name}`, label: `${name} ${n.what}`, unit: n.unit, direction: 'lower-better', value: (f) => f[map][name] ?? 0 };
}

/** The figure over the cell's repetitions. */
export function cellEstimate(cell: Pick<Cell, 'figures'>, def: Pick<FigureDef, 'value'>): FigureEstimate {
  return estimate(cell.figures.map((f) => def.value(f)).filter((v): v is number => v !== null));
}

export interface RepeatedFigure {
  key: string;
  label: string;
  unit: string;
  direction: FigureDirection;
  a: FigureEstimate;
  b: FigureEstimate;
  /** B over A: the primary figure's at 95%; a secondary's at the level of its Holm step (family.ts). */
  ratio: RatioEstimate;
  /** The figure the verdict rests on (throughput unless the user named another). */
  primary: boolean;
  /** Called different: the primary's interval leaves out 1; a secondary's does after Holm's adjustment. */
  differs: boolean;
  /** Called different at low power: the change may be overstated (plan.ts lowPower). */
  lowPower: boolean;
  /** Why a side has no value: the figure does not apply to its runs. */
  note?: string;
}

export interface CellComparison {
  threads: number;
  /** How the two cells' runs were laid out: paired blocks, unpaired, or separate sessions. */
  layout: CellLayout;
  figures: RepeatedFigure[];
  /** The verdict on throughput, in words that follow from its interval. */
  verdict: Verdict;
  /** The verdict first, then the other figures whose interval leaves out no change, largest first. */
  summary: string[];
}

/** The definitions compared between two cells: the fixed figures, latency when measured, the top names of each kind. */
export function figureDefs(a: Pick<Cell, 'figures'>, b: Pick<Cell, 'figures'>, topN = 5, primary?: string): FigureDef[] {
  const all = [...a.figures, ...b.figures];
  const defs = [...fixed];
  if (all.some((f) => f.p99Us !== null)) defs.push(...latency);
  for (const n of NAMED)
    for (const name of topNames(
      all.map((f) => f[n.map]),
      topN,
    ))
      defs.push(namedFigure(n.map, name));
  // A named primary figure outside the top ones still takes part (a name measured in neither cell is 0 on both).
  const [map, name] = primary?.split(':') ?? [];
  if (name && !defs.some((d) => d.key === primary) && NAMED.some((n) => n.map === map)) defs.push(namedFigure(map as NamedMap, name));
  return defs;
}

/** A label inside a sentence: "Log bytes per row" -> "log bytes per row"; "CPU per row" and names stay as they are. */
const nounOf = (label: string) => (/^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label);

export interface CompareCellOptions {
  /** The arms ran in separate sessions (two experiments, a saved baseline): no pairs, a between-session term. */
  separate?: boolean;
  /** The primary figure's key (default rowsPerSec). */
  primary?: string;
  topN?: number;
}

/** The figure keys a user may name as the primary one (besides the spinlock, wait and latch ones of a cell). */
export const PRIMARY_DEFAULT = 'rowsPerSec';

/** The layout two cells are compared by. */
export function layoutOf(a: Cell, b: Cell, separate = false): CellLayout {
  return separate ? { design: 'separate', pairs: [] } : cellLayout(a.runs, b.runs);
}

/** One figure's values on each side, aligned by block when paired; null when the figure does not apply to a run. */
function sides(a: Cell, b: Cell, layout: CellLayout, d: FigureDef): { va: number[]; vb: number[]; applies: boolean } {
  const pick = (c: Cell, i: number) => d.value(c.figures[i]);
  if (layout.design === 'paired') {
    const va = layout.pairs.map(([i]) => pick(a, i));
    const vb = layout.pairs.map(([, j]) => pick(b, j));
    const applies = [...va, ...vb].every((v) => v !== null);
    return { va: va.filter((v): v is number => v !== null), vb: vb.filter((v): v is number => v !== null), applies };
  }
  const va = a.figures.map((f) => d.value(f)).filter((v): v is number => v !== null);
  const vb = b.figures.map((f) => d.value(f)).filter((v): v is number => v !== null);
  return { va, vb, applies: va.length === a.figures.length && vb.length === b.figures.length };
}

/**
 * Cell B against cell A, figure by figure: the primary figure at 95%, the others as one family under Holm's method
 * (family.ts), each paired by block when the arms alternated (design.ts).
 */
export function compareCells(a: Cell, b: Cell, subject = 'B', opts: CompareCellOptions = {}): CellComparison {
  const layout = layoutOf(a, b, opts.separate);
  const primaryKey = opts.primary ?? PRIMARY_DEFAULT;
  const defs = figureDefs(a, b, opts.topN ?? 5, primaryKey);
  const raw = defs.map((d) => {
    const s = sides(a, b, layout, d);
    const design = layout.design === 'paired' && !s.applies ? 'unpaired' : layout.design;
    return { d, ...s, ratio: compareFigures(s.va, s.vb, { design }) };
  });
  const secondary = raw.map((x) => x.d.key !== primaryKey);
  const decisions = holm(raw.map((x, i) => (secondary[i] ? x.ratio.p : null)));
  const figures = raw.map(({ d, va, vb, applies, ratio }, i): RepeatedFigure => {
    const primary = !secondary[i];
    const shown = primary || ratio.p === null ? ratio : atLevel(ratio, va, vb, decisions[i].level);
    const differs = primary
      ? ratio.p !== null && ratio.interval !== null && (ratio.interval.low > 1 || ratio.interval.high < 1)
      : decisions[i].differs;
    return {
      key: d.key,
      label: d.label,
      unit: d.unit,
      direction: d.direction,
      a: estimate(va),
      b: estimate(vb),
      ratio: shown,
      primary,
      differs,
      lowPower: differs && lowPower(shown),
      ...(!applies && d.note ? { note: d.note } : {}),
    };
  });
  const main = figures.find((f) => f.primary);
  const words = (f: RepeatedFigure) =>
    f.key === PRIMARY_DEFAULT ? THROUGHPUT_WORDS(subject) : { subject, figure: nounOf(f.label), higher: 'higher', lower: 'lower' };
  // A primary figure these runs do not measure (a latency of server-loop runs) gets no verdict, never another's.
  const verdict: Verdict = main
    ? ratioVerdict(main.ratio, words(main))
    : {
        kind: 'none',
        text: `${primaryKey}: not measured in these runs, so no verdict; name a figure both sides measured.`,
        repetitionsFor5Pct: null,
      };
  const detected = figures
    .filter(
      (f) => !f.primary && f.differs && f.key !== 'transactionsPerSec' && !f.key.startsWith('backoffsPerRow:') && f.ratio.ratio !== null,
    )
    .sort((x, y) => Math.abs(Math.log(y.ratio.ratio as number)) - Math.abs(Math.log(x.ratio.ratio as number)))
    .slice(0, 4)
    .map((f) => {
      const v = ratioVerdict(f.ratio, { subject, figure: nounOf(f.label), higher: 'higher', lower: 'lower' }).text;
      return `${v.replace(/\.$/, '')} (exploratory: one of ${raw.length - 1} secondary figures, ${levelText(f.ratio.level)} interval after Holm's adjustment).`;
    });
  return { threads: a.threads, layout, figures, verdict, summary: [verdict.text, ...detected, ...othersCaveat(a, b)] };
}

/** A comparison whose runs ran beside busy other sessions says so: its per-row figures carry their work too. */
function othersCaveat(a: Cell, b: Cell): string[] {
  const busy = [a, b].filter((c) => c.runs.some((r) => othersBusy(r.share)));
  if (!busy.length) return [];
  const whose = busy.length === 2 ? 'both sides' : `${busy[0].armLabel}`;
  return [
    `Other sessions did a meaningful part of the server's work during the runs of ${whose}: the spinlock, wait and latch figures per row are server-wide and include their work, so part of any difference in them may be the others'.`,
  ];
}

/** Arm `a`'s cells against arm `b`'s at every thread count both completed, fewest threads first. */
export function compareArmCells<R extends CellRun>(runs: readonly R[], a: string, b: string, topN = 5): CellComparison[] {
  const cells = cellsOf(runs);
  const of = (id: string) => new Map(cells.filter((c) => c.armId === id).map((c) => [c.threads, c] as const));
  const ca = of(a);
  const cb = of(b);
  return [...ca.keys()]
    .filter((t) => cb.has(t))
    .sort((x, y) => x - y)
    .map((t) => compareCells(ca.get(t)!, cb.get(t)!, 'B', { topN }));
}
