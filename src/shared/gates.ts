// Gates judged on noisy runs: each gate per cell (one arm at one thread count, its repetitions), on the 95% interval
// of the figure over the cell (gateDecision.ts), or on its ratio to the same cell of a saved baseline. Counts of
// errors are judged run by run (every run must hold); a failed run fails its cell's gates; a cell of one run (every
// record from before repetitions) decides on its value and says it has no interval.
import type { RunRecord } from './experiment';
import { compareFigures, estimate, SINGLE_RUN } from './repeats';
import { decide, holds, settleFigure, settleRatio, type GateOutcome } from './gateDecision';
import { gateValue, type Gate, type GateMetric } from './gateSyntax';
import { thousands } from './numberText';

export * from './gateSyntax';

export interface GateResult {
  gate: string;
  outcome: GateOutcome;
  /** The gate passed (outcome 'pass'). */
  ok: boolean;
  /** Which cell, by thread count (and arm in a preset). */
  run: string;
  /** The figure: the value, with its interval when the cell has one, or why there is none. */
  actual: string;
  /** How much it rests on: "5 runs", "1 run: no interval". */
  note?: string;
  /** For an inconclusive gate: what would settle it. */
  settle?: string;
}

/** The runs of one arm at one thread count. */
export interface GateCell {
  armId: string;
  armLabel: string;
  threads: number;
  runs: RunRecord[];
}

/** The cells of the runs that `keep` admits, in the order each first ran. */
export function gateCells(runs: readonly RunRecord[], keep: (r: RunRecord) => boolean): GateCell[] {
  const out = new Map<string, GateCell>();
  for (const r of runs) {
    if (!keep(r)) continue;
    const armId = r.arm?.id ?? 'main';
    const key = `${armId}\u0000${r.threads}`;
    const c = out.get(key) ?? { armId, armLabel: r.arm?.label ?? armId, threads: r.threads, runs: [] };
    c.runs.push(r);
    out.set(key, c);
  }
  return [...out.values()];
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const cellLabel = (c: Pick<GateCell, 'armId' | 'armLabel' | 'threads'>) =>
  `${plural(c.threads, 'thread')}${c.armId !== 'main' ? ` (${c.armLabel})` : ''}`;
const repetitionOf = (c: GateCell, r: RunRecord) => `repetition ${r.repetition ?? c.runs.indexOf(r) + 1}`;

/** A figure as a gate shows it: latency with its unit, counts and rates with thousands grouped. */
export function showValue(metric: GateMetric, v: number): string {
  if (metric.kind === 'latency')
    return v >= 1e6 ? `${+(v / 1e6).toPrecision(4)}s` : v >= 1000 ? `${+(v / 1000).toPrecision(4)}ms` : `${+v.toPrecision(4)}us`;
  // A count of errors keeps its digits (an error rate a hair over its limit must not print as the limit).
  return Math.abs(v) >= 1000 ? thousands(v) : String(+v.toPrecision(metric.kind === 'errors' ? 6 : 4));
}

const signedPct = (r: number) => {
  const p = (r - 1) * 100;
  return `${p >= 0 ? '+' : '-'}${Math.abs(p) < 10 ? Math.abs(p).toFixed(1) : Math.abs(p).toFixed(0)}%`;
};

/** The baseline's cells, described for a gate whose cell it lacks: "2, 4 threads" or "arm x at 2 threads; ...". */
export function describeCells(cells: readonly GateCell[]): string {
  if (!cells.length) return 'no completed run';
  const arms = [...new Set(cells.map((c) => c.armId))];
  const threadsOf = (id: string) =>
    cells
      .filter((c) => c.armId === id)
      .map((c) => c.threads)
      .sort((a, b) => a - b);
  if (arms.length === 1 && arms[0] === 'main') return `runs at ${threadsOf('main').join(', ')} threads`;
  return arms.map((id) => `arm ${id} at ${threadsOf(id).join(', ')} threads`).join('; ');
}

type Judged = Omit<GateResult, 'gate' | 'ok' | 'run'>;

/** An absolute gate on the cell's values (one per run, in order). */
function judgeFigure(g: Gate, values: number[], limit = g.value): Judged {
  const e = estimate(values);
  const v = e.value as number;
  const show = (x: number) => showValue(g.metric, x);
  if (!e.interval) return { outcome: holds(g.op, v, limit) ? 'pass' : 'fail', actual: show(v), note: SINGLE_RUN };
  const outcome = decide(g.op, v, e.interval, limit);
  return {
    outcome,
    actual: `${show(v)} [${show(e.interval.low)}, ${show(e.interval.high)}]`,
    note: `${plural(e.n, 'run')}`,
    ...(outcome === 'inconclusive' ? { settle: settleFigure(values, limit) } : {}),
  };
}

/** errors and error_rate are counts: every run must hold, and each run that does not is named. */
function judgeRunByRun(g: Gate, c: GateCell, values: number[]): Judged {
  const show = (x: number) => showValue(g.metric, x);
  if (values.length === 1) return { outcome: holds(g.op, values[0], g.value) ? 'pass' : 'fail', actual: show(values[0]) };
  const bad = c.runs.map((r, i) => [r, values[i]] as const).filter(([, v]) => !holds(g.op, v, g.value));
  if (bad.length)
    return {
      outcome: 'fail',
      actual: bad.map(([r, v]) => `${show(v)} in ${repetitionOf(c, r)}`).join(', '),
      note: plural(values.length, 'run'),
    };
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return {
    outcome: 'pass',
    actual: lo === hi ? `${show(lo)} in every run` : `${show(lo)} to ${show(hi)}`,
    note: plural(values.length, 'run'),
  };
}

/** A gate against the baseline: this cell's figure over the baseline cell's, as a ratio, against the gate's factor. */
function judgeAgainst(g: Gate, values: number[], base: GateCell): Judged {
  const baseValues: number[] = [];
  for (const r of base.runs) {
    const v = gateValue(g.metric, r);
    if (typeof v !== 'number') return { outcome: 'fail', actual: `the baseline has no figure: ${v.missing}` };
    baseValues.push(v);
  }
  const show = (x: number) => showValue(g.metric, x);
  const cur = estimate(values).value as number;
  const was = estimate(baseValues).value as number;
  const r = compareFigures(baseValues, values);
  if (r.ratio === null) {
    // The baseline's figure is 0 (a spinlock that never spun): no ratio, so the limit is 0 itself.
    const j = judgeFigure(g, values, 0);
    return { ...j, actual: `${j.actual} against the baseline's 0` };
  }
  const counts = r.interval
    ? `${plural(r.nB, 'run')}; the baseline ${r.nA}`
    : r.nA === 1 && r.nB === 1
      ? '1 run each: no interval'
      : SINGLE_RUN;
  const outcome = decide(g.op, r.ratio, r.interval, g.value);
  const iv = r.interval ? ` [${signedPct(r.interval.low)}, ${signedPct(r.interval.high)}]` : '';
  return {
    outcome,
    actual: `${show(cur)} against the baseline's ${show(was)}: ${signedPct(r.ratio)}${iv}`,
    note: counts,
    ...(outcome === 'inconclusive' ? { settle: settleRatio(baseValues, values, g.value) } : {}),
  };
}

function judgeCell(g: Gate, c: GateCell, baseline: readonly GateCell[] | null): Judged {
  // A failed run's figures describe work that did not happen: no gate holds on them.
  const failed = c.runs.find((r) => r.status === 'failed');
  if (failed) {
    const which = c.runs.length === 1 ? 'the run' : `${repetitionOf(c, failed)}`;
    return { outcome: 'fail', actual: `${which} failed${failed.failedReason ? ` (${failed.failedReason})` : ''}` };
  }
  const values: number[] = [];
  for (const r of c.runs) {
    const v = gateValue(g.metric, r);
    if (typeof v !== 'number') return { outcome: 'fail', actual: c.runs.length === 1 ? v.missing : `${repetitionOf(c, r)}: ${v.missing}` };
    values.push(v);
  }
  if (g.metric.kind === 'errors') return judgeRunByRun(g, c, values);
  if (g.against !== 'baseline') return judgeFigure(g, values);
  if (!baseline) return { outcome: 'fail', actual: 'no baseline to compare with: give --baseline DIR' };
  const base = baseline.find((b) => b.armId === c.armId && b.threads === c.threads);
  if (!base)
    return {
      outcome: 'fail',
      actual: `the baseline has no run${c.armId !== 'main' ? ` of arm ${c.armId}` : ''} at ${plural(c.threads, 'thread')} (it has ${describeCells(baseline)})`,
    };
  return judgeAgainst(g, values, base);
}

/**
 * Every gate on every cell of the runs that completed or failed (a failed run fails its cell); a gate with no run to
 * judge fails. `baseline`: the saved experiment's runs that gates against the baseline compare with.
 */
export function evaluateGates(
  gates: readonly Gate[],
  runs: readonly RunRecord[],
  baseline: readonly RunRecord[] | null = null,
): GateResult[] {
  const cells = gateCells(runs, (r) => r.status === 'completed' || r.status === 'failed');
  const baseCells = baseline ? gateCells(baseline, (r) => r.status === 'completed') : null;
  const out: GateResult[] = [];
  for (const g of gates) {
    if (cells.length === 0) {
      out.push({ gate: g.text, outcome: 'fail', ok: false, run: '-', actual: 'no completed run to judge' });
      continue;
    }
    for (const c of cells) {
      const j = judgeCell(g, c, baseCells);
      out.push({ gate: g.text, ok: j.outcome === 'pass', run: cellLabel(c), ...j });
    }
  }
  return out;
}
