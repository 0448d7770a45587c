// Gates judged on noisy runs: each gate per cell (one arm at one thread count, its repetitions), on the interval of
// the figure over the cell (gateDecision.ts), or on its ratio to the same cell of a saved baseline: 95% for a floor or
// a ceiling (each wrong call at most 2.5%), 90% for an equivalence (two one-sided tests at 5%). Under --repeat auto a
// gate is looked at after each repetition, on the interval at the level its look has spent (sequential.ts), and the
// first look that decides it stands. Counts of errors are judged run by run (every run must hold), from one run on;
// a failed run fails its cell's gates; a figure's gate on a cell of one run is never decided: one run has no interval.
import type { RunRecord } from './experiment';
import { band, decide, holds, settleFigure, settleOneRun, settleRatio, type GateOutcome } from './gateDecision';
import { gateValue, type Gate, type GateMetric } from './gateSyntax';
import { compareFigures, estimate, SINGLE_RUN } from './repeats';
import { lookLevel, type SequentialDesign } from './sequential';
import { thousands } from './numberText';
import { plural } from './plural';

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
  /** Under --repeat auto: the repetition whose look decided the gate (absent while undecided). */
  decidedAt?: number;
}

/** Each wrong call of a floor or ceiling (pass or fail) at most 2.5%, as the 95% interval; each side of a '~=' 5%. */
const ALPHA = { bound: 0.025, equivalence: 0.05 } as const;
const alphaOf = (g: Gate) => (g.op === '~=' ? ALPHA.equivalence : ALPHA.bound);
/** The fixed design's level: the whole error at one look. */
const fixedLevel = (g: Gate) => 1 - 2 * alphaOf(g);

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

const pctLevel = (level: number) => `${+(level * 100).toPrecision(3)}%`;

/** An absolute gate on the cell's values (one per run, in order), on the interval at `level`. */
function judgeFigure(g: Gate, values: number[], level: number, limit = g.value, plan = true): Judged {
  const e = estimate(values, level);
  const value = e.value as number;
  const show = (x: number) => showValue(g.metric, x);
  if (!e.interval)
    return {
      outcome: 'inconclusive',
      actual: show(value),
      note: SINGLE_RUN,
      ...(plan ? { settle: settleOneRun(value, limit, fixedLevel(g)) } : {}),
    };
  const outcome = decide(g.op, value, e.interval, limit, g.margin);
  // The nearer end of an equivalence's band is the limit a plan has to clear.
  const b = g.op === '~=' ? band(limit, g.margin ?? 0) : null;
  const target = b ? (Math.abs(Math.log(value / b.low)) < Math.abs(Math.log(value / b.high)) ? b.low : b.high) : limit;
  return {
    outcome,
    actual: `${show(value)} [${show(e.interval.low)}, ${show(e.interval.high)}]${level !== 0.95 ? ` (${pctLevel(level)} interval)` : ''}${b ? `, band ${show(b.low)} to ${show(b.high)}` : ''}`,
    note: `${plural(e.n, 'run')}`,
    ...(outcome === 'inconclusive' && plan ? { settle: settleFigure(values, target, fixedLevel(g)) } : {}),
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
function judgeAgainst(g: Gate, values: number[], base: GateCell, level: number, plan = true): Judged {
  const baseValues: number[] = [];
  for (const r of base.runs) {
    const v = gateValue(g.metric, r);
    if (typeof v !== 'number') return { outcome: 'fail', actual: `the baseline has no figure: ${v.missing}` };
    baseValues.push(v);
  }
  const show = (x: number) => showValue(g.metric, x);
  const cur = estimate(values).value as number;
  const was = estimate(baseValues).value as number;
  // Unpaired, as the gate always was: the 'separate' sessions term (repeats' BETWEEN_SESSION_SD) would put a floor of
  // +-5.8% under every 90% interval, and no 'within 5% of baseline' could ever pass.
  const r = compareFigures(baseValues, values, { level });
  if (r.ratio === null) {
    // The baseline's figure is 0 (a spinlock that never spun): no ratio, so the limit is 0 itself.
    if (g.op === '~=') return { outcome: 'fail', actual: `${show(cur)} against the baseline's 0: no ratio to hold within a margin` };
    const j = judgeFigure(g, values, level, 0, plan);
    return { ...j, actual: `${j.actual} against the baseline's 0` };
  }
  if (values.length < 2)
    return {
      outcome: 'inconclusive',
      actual: `${show(cur)} against the baseline's ${show(was)}: ${signedPct(r.ratio)}`,
      note: SINGLE_RUN,
      ...(plan ? { settle: settleOneRun(r.ratio, g.value, fixedLevel(g)) } : {}),
    };
  const outcome = decide(g.op, r.ratio, r.interval, g.value, g.margin);
  const b = g.op === '~=' ? band(1, g.margin ?? 0) : null;
  const target = b ? (Math.abs(Math.log(r.ratio / b.low)) < Math.abs(Math.log(r.ratio / b.high)) ? b.low : b.high) : g.value;
  const iv = r.interval
    ? ` [${signedPct(r.interval.low)}, ${signedPct(r.interval.high)}]${level !== 0.95 ? ` (${pctLevel(level)} interval)` : ''}`
    : '';
  return {
    outcome,
    actual: `${show(cur)} against the baseline's ${show(was)}: ${signedPct(r.ratio)}${iv}${b ? `, band ${signedPct(b.low)} to ${signedPct(b.high)}` : ''}`,
    note: `${plural(r.nB, 'run')}; the baseline ${r.nA}`,
    ...(outcome === 'inconclusive' && plan ? { settle: settleRatio(baseValues, values, target, fixedLevel(g)) } : {}),
  };
}

function judgeCell(g: Gate, c: GateCell, baseline: readonly GateCell[] | null, design: SequentialDesign | null): Judged {
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
  // A count is a fact about the runs, not an estimate: one run with errors fails errors=0, one without passes it.
  if (g.metric.kind === 'errors') return judgeRunByRun(g, c, values);
  // `plan`: what would settle it, worked out only for the judgment shown (a plan costs up to 2,000 t quantiles).
  let judge: (v: number[], level: number, plan?: boolean) => Judged = (v, level, plan) => judgeFigure(g, v, level, g.value, plan);
  if (g.against === 'baseline') {
    if (!baseline) return { outcome: 'fail', actual: 'no baseline to compare with: give --baseline DIR' };
    const base = baseline.find((b) => b.armId === c.armId && b.threads === c.threads);
    if (!base)
      return {
        outcome: 'fail',
        actual: `the baseline has no run${c.armId !== 'main' ? ` of arm ${c.armId}` : ''} at ${plural(c.threads, 'thread')} (it has ${describeCells(baseline)})`,
      };
    judge = (v, level, plan) => judgeAgainst(g, v, base, level, plan);
  }
  if (!design || values.length < design.firstLook) return judge(values, fixedLevel(g));
  // Each look on the repetitions so far, at the level it has spent; the first that decides stands.
  let last: Judged | null = null;
  const upTo = Math.min(values.length, design.maxRepeat);
  for (let k = design.firstLook; k <= upTo; k++) {
    last = judge(values.slice(0, k), lookLevel(design, k, alphaOf(g)) as number, k === upTo);
    if (last.outcome !== 'inconclusive')
      return { ...last, note: `${last.note}; decided at repetition ${k} of at most ${design.maxRepeat}`, decidedAt: k };
  }
  const j = last as Judged;
  const open =
    upTo >= design.maxRepeat ? `not decided in ${design.maxRepeat} repetitions (--max-repeat)` : `not decided after ${upTo} repetitions`;
  return { ...j, note: `${j.note}; ${open}` };
}

/**
 * Every gate on every cell of the runs that completed or failed (a failed run fails its cell); a gate with no run to
 * judge fails. `baseline`: the saved experiment's runs that gates against the baseline compare with. `design`: the
 * sequential design of --repeat auto (null: the repetitions were fixed in advance, one look at the end).
 */
export function evaluateGates(
  gates: readonly Gate[],
  runs: readonly RunRecord[],
  baseline: readonly RunRecord[] | null = null,
  design: SequentialDesign | null = null,
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
      const j = judgeCell(g, c, baseCells, design);
      out.push({ gate: g.text, ok: j.outcome === 'pass', run: cellLabel(c), ...j });
    }
  }
  return out;
}
