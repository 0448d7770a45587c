// Comparing runs and reading a sweep: the figures of one run (totals and per-row), the change between two runs, a
// plain-language summary built from those numbers, and the scaling curve of a sweep. Pure (no DOM, no Node), so the
// panel, notebooks and the CLI can share it.
import { isBenignWait } from './benign';
import type { LatencySummary, RunDerived, RunRecord, RunTotals, Tick } from './experiment';
import { formatNumber } from './numberText';
import { quantityKind, quantityText, timeLabel } from './units';
import { plural } from './plural';
import { scalingGainText } from './scalingWords';

export { formatNumber };

/** What a run measured, normalised so runs of different length and thread count compare. */
export interface RunFigures {
  threads: number;
  status: string;
  elapsedSec: number;
  rows: number;
  /** The run's throughput: see perSecond; a finished run's is the one its record holds (RunDerived.rowsPerSec). */
  rowsPerSec: number;
  /** The lab database's Transactions/sec counter over the run; null when it does not apply (see TX_NOT_COUNTED). */
  transactionsPerSec: number | null;
  cpuMsPerRow: number | null;
  logBytesPerRow: number | null;
  logFlushesPerSec: number;
  /** Totals and per-row figures by name (spinlocks: spins and backoffs; waits: ms, benign excluded; latches: ms). */
  spins: Record<string, number>;
  backoffs: Record<string, number>;
  waitMs: Record<string, number>;
  latchMs: Record<string, number>;
  spinsPerRow: Record<string, number>;
  backoffsPerRow: Record<string, number>;
  waitMsPerRow: Record<string, number>;
  latchMsPerRow: Record<string, number>;
  /** Client latency in microseconds (client-loop runs only). */
  p50Us: number | null;
  p99Us: number | null;
}

/**
 * A run as the analysis needs it: a finished record, a live run with its totals folded so far (addTickToTotals), or
 * a live run with its ticks.
 */
export type RunInput = (
  | Pick<RunRecord, 'threads' | 'status' | 'totals' | 'latency'>
  | { threads: number; status: string; totals: RunTotals; latency?: LatencySummary | null }
  | { threads: number; status: string; ticks: readonly Tick[]; latency?: LatencySummary | null }
) &
  RecordedFigures;

/** What a finished run's record adds: its exact row count and the figures computed once when it ended. */
export interface RecordedFigures {
  rows?: number;
  derived?: Pick<RunDerived, 'rowsPerSec'>;
  nativeProcedures?: boolean;
}

/**
 * The one definition of a run's rates (rows/s, calls/s, tx/s, flushes/s): the count over the measured phase divided
 * by its length on the server's clock (the sum of the ticks' ms_ticks intervals, RunTotals.elapsedMs); 0 for an
 * empty phase. The engine stores rows/s in the record with it (RunDerived.rowsPerSec) and every view reads that.
 */
export function perSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? count / (elapsedMs / 1000) : 0;
}

/** Why a run's transactions per second is not shown. */
export const TX_NOT_COUNTED = "n/a: natively compiled procedures' transactions are not counted by SQL Server's Transactions/sec counter";

export function emptyRunTotals(): RunTotals {
  return { elapsedMs: 0, rows: 0, transactions: 0, spinlocks: {}, waits: {}, latches: {}, logFlushes: 0, logBytesFlushed: 0, cpuMs: 0 };
}

/** Folds one tick into running totals (mutates and returns them): the live view adds one tick at a time. */
export function addTickToTotals(totals: RunTotals, tick: Tick): RunTotals {
  totals.elapsedMs += tick.intervalMs;
  totals.rows += tick.rows;
  totals.transactions += tick.transactions;
  totals.cpuMs += tick.cpuMs;
  totals.logFlushes += tick.log.flushes;
  totals.logBytesFlushed += tick.log.bytesFlushed;
  // for...in, not Object.entries: a loaded hour folds 3,600 ticks at once, and the entry arrays were its garbage.
  for (const k in tick.spinlocks) {
    const s = tick.spinlocks[k];
    const a = (totals.spinlocks[k] ??= { spins: 0, collisions: 0, backoffs: 0, sleepTime: 0 });
    a.spins += s.spins;
    a.collisions += s.collisions;
    a.backoffs += s.backoffs;
    a.sleepTime += s.sleepTime;
  }
  for (const k in tick.waits) {
    const w = tick.waits[k];
    const a = (totals.waits[k] ??= { waitMs: 0, count: 0, signalMs: 0 });
    a.waitMs += w.waitMs;
    a.count += w.count;
    a.signalMs += w.signalMs;
  }
  for (const k in tick.latches) {
    const l = tick.latches[k];
    const a = (totals.latches[k] ??= { waitMs: 0, count: 0 });
    a.waitMs += l.waitMs;
    a.count += l.count;
  }
  return totals;
}

function perRow(values: Record<string, number>, rows: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (rows > 0) for (const [k, v] of Object.entries(values)) out[k] = v / rows;
  return out;
}

/** The figures of one run, from its totals when finished or from its ticks while it runs. */
export function runFigures(run: RunInput): RunFigures {
  const t = 'totals' in run ? run.totals : run.ticks.reduce(addTickToTotals, emptyRunTotals());
  const { elapsedMs, transactions, cpuMs } = t;
  // A finished run: the rows its sessions reported (exact) and the rate its record holds, as the terminal prints them.
  const rows = run.derived && run.rows !== undefined && run.rows > 0 ? run.rows : t.rows;
  const logBytes = t.logBytesFlushed;
  const logFlushes = t.logFlushes;
  const spins: Record<string, number> = {};
  const backoffs: Record<string, number> = {};
  const waitMs: Record<string, number> = {};
  const latchMs: Record<string, number> = {};
  for (const [k, s] of Object.entries(t.spinlocks)) {
    spins[k] = s.spins;
    backoffs[k] = s.backoffs;
  }
  for (const [k, w] of Object.entries(t.waits)) if (!isBenignWait(k) && w.waitMs > 0) waitMs[k] = w.waitMs;
  for (const [k, l] of Object.entries(t.latches)) if (l.waitMs > 0) latchMs[k] = l.waitMs;
  const sec = elapsedMs / 1000;
  const latency = run.latency ?? null;
  return {
    threads: run.threads,
    status: run.status,
    elapsedSec: sec,
    rows,
    rowsPerSec: run.derived ? run.derived.rowsPerSec : perSecond(rows, elapsedMs),
    transactionsPerSec: run.nativeProcedures ? null : perSecond(transactions, elapsedMs),
    cpuMsPerRow: rows > 0 ? cpuMs / rows : null,
    logBytesPerRow: rows > 0 ? logBytes / rows : null,
    logFlushesPerSec: perSecond(logFlushes, elapsedMs),
    spins,
    backoffs,
    waitMs,
    latchMs,
    spinsPerRow: perRow(spins, rows),
    backoffsPerRow: perRow(backoffs, rows),
    waitMsPerRow: perRow(waitMs, rows),
    latchMsPerRow: perRow(latchMs, rows),
    p50Us: latency && latency.count > 0 ? latency.p50Us : null,
    p99Us: latency && latency.count > 0 ? latency.p99Us : null,
  };
}

/** The names with the largest values summed over several records, largest first. */
export function topNames(records: readonly Record<string, number>[], n: number): string[] {
  const sum = new Map<string, number>();
  for (const r of records) for (const [k, v] of Object.entries(r)) sum.set(k, (sum.get(k) ?? 0) + v);
  return [...sum.entries()]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => k);
}

/** (b - a) / a in %, or null when a is zero (a change from nothing has no percentage). */
export function percentChange(a: number | null, b: number | null): number | null {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b) || a === 0) return null;
  return ((b - a) / Math.abs(a)) * 100;
}

export type FigureDirection = 'higher-better' | 'lower-better';

export interface ComparedFigure {
  key: string;
  label: string;
  unit: string;
  a: number | null;
  b: number | null;
  /** % change from A to B, null when A is zero or missing. */
  changePct: number | null;
  direction: FigureDirection;
  /** Why a side is null: the figure does not apply to that run (shown instead of a number). */
  note?: string;
}

export interface RunComparison {
  figures: ComparedFigure[];
  /** Sentences built from the largest changes, most important first. */
  summary: string[];
}

function fig(key: string, label: string, unit: string, a: number | null, b: number | null, direction: FigureDirection): ComparedFigure {
  return { key, label, unit, a, b, changePct: percentChange(a, b), direction };
}

/** Every figure of A against B: throughput, CPU, log, then the named spinlocks, waits and latches that matter in either. */
export function compareRuns(a: RunFigures, b: RunFigures, topN = 5): RunComparison {
  const figures: ComparedFigure[] = [
    fig('threads', 'Threads', '', a.threads, b.threads, 'higher-better'),
    fig('rowsPerSec', 'Throughput', 'rows/s', a.rowsPerSec, b.rowsPerSec, 'higher-better'),
    {
      ...fig('transactionsPerSec', 'Transactions', 'tx/s', a.transactionsPerSec, b.transactionsPerSec, 'higher-better'),
      ...(a.transactionsPerSec === null || b.transactionsPerSec === null ? { note: TX_NOT_COUNTED } : {}),
    },
    fig('cpuMsPerRow', 'CPU per row', 'ms/row', a.cpuMsPerRow, b.cpuMsPerRow, 'lower-better'),
    fig('logBytesPerRow', 'Log bytes per row', 'B/row', a.logBytesPerRow, b.logBytesPerRow, 'lower-better'),
    fig('logFlushesPerSec', 'Log flushes', '/s', a.logFlushesPerSec, b.logFlushesPerSec, 'lower-better'),
  ];
  if (a.p99Us !== null || b.p99Us !== null) {
    figures.push(fig('p50Us', 'Latency p50', 'µs', a.p50Us, b.p50Us, 'lower-better'));
    figures.push(fig('p99Us', 'Latency p99', 'µs', a.p99Us, b.p99Us, 'lower-better'));
  }
  const named = (prefix: string, what: string, unit: string, ra: Record<string, number>, rb: Record<string, number>) => {
    for (const name of topNames([ra, rb], topN)) {
      figures.push(fig(`${prefix}:${name}`, `${name} ${what}`, unit, ra[name] ?? 0, rb[name] ?? 0, 'lower-better'));
    }
  };
  named('spinsPerRow', 'spins per row', 'spins/row', a.spinsPerRow, b.spinsPerRow);
  named('backoffsPerRow', 'backoffs per row', 'backoffs/row', a.backoffsPerRow, b.backoffsPerRow);
  named('waitMsPerRow', 'wait ms per row', 'ms/row', a.waitMsPerRow, b.waitMsPerRow);
  named('latchMsPerRow', 'latch ms per row', 'ms/row', a.latchMsPerRow, b.latchMsPerRow);
  return { figures, summary: summarizeComparison(figures) };
}

/** A change beyond this ratio is said as "over 100x": one side is next to nothing. */
export const FAR_RATIO = 100;

/** How much larger, as people say it: 4.3x higher, 38% lower. Null below 5%. */
function describeChange(a: number, b: number): string | null {
  if (a === 0 && b === 0) return null;
  if (a === 0) return 'appears only';
  if (b === 0) return 'disappears';
  const ratio = b / a;
  // Against a side that is next to nothing the ratio says nothing ("151064585.0x higher"): past 100x it is capped.
  if (ratio > FAR_RATIO) return `over ${FAR_RATIO}x higher`;
  if (ratio < 1 / FAR_RATIO) return `over ${FAR_RATIO}x lower`;
  if (ratio >= 2) return `${ratio.toFixed(1)}x higher`;
  if (ratio <= 0.5) return `${(1 / ratio).toFixed(1)}x lower`;
  const pct = (ratio - 1) * 100;
  if (Math.abs(pct) < 5) return null;
  return `${Math.abs(pct).toFixed(0)}% ${pct > 0 ? 'higher' : 'lower'}`;
}

/** Weight of a change for ordering the summary: log of the ratio, with throughput always first. */
function weight(f: ComparedFigure): number {
  if (f.a === null || f.b === null) return 0;
  const a = Math.abs(f.a);
  const b = Math.abs(f.b);
  if (a === 0 && b === 0) return 0;
  const w = a === 0 || b === 0 ? 5 : Math.abs(Math.log(b / a));
  return f.key === 'rowsPerSec' ? w + 100 : w;
}

/** Sentences from the numbers, e.g. "LOGCACHE_ACCESS spins per row 4.3x higher in run B (12.1 vs 2.8)". */
export function summarizeComparison(figures: readonly ComparedFigure[], max = 5): string[] {
  const out: string[] = [];
  // Largest change first; changes within ~10% of each other count as equal and keep the figures' own order (the
  // throughput, then the names with the largest totals), so a uniform rise names the biggest contributors.
  const candidates = figures
    .map((f, i) => ({ f, i, w: weight(f) }))
    .filter((x) => x.f.key !== 'threads' && x.f.a !== null && x.f.b !== null && x.w > Math.log(1.05))
    .sort((x, y) => Math.round(y.w * 10) - Math.round(x.w * 10) || x.i - y.i);
  const named = new Set<string>();
  const threads = figures.find((f) => f.key === 'threads');
  if (threads && threads.a !== threads.b && threads.a !== null && threads.b !== null) {
    out.push(`Run A used ${threads.a} thread${threads.a === 1 ? '' : 's'}, run B ${threads.b}.`);
  }
  for (const { f } of candidates) {
    if (out.length >= max) break;
    // One sentence per spinlock: its backoffs follow its spins, so they add nothing once the spins are said.
    const name = f.key.includes(':') ? f.key.slice(f.key.indexOf(':') + 1) : null;
    if (f.key.startsWith('backoffsPerRow:') && name && named.has(name)) continue;
    if (name) named.add(name);
    // SQL Server's Transactions/sec counter leaves out the transactions of natively compiled procedures: none counted
    // in a run that wrote rows means they were not counted, not that there were none.
    if (f.key === 'transactionsPerSec' && (f.a === 0) !== (f.b === 0)) {
      const run = f.a === 0 ? 'A' : 'B';
      const rows = figures.find((x) => x.key === 'rowsPerSec');
      const wrote = rows ? (run === 'A' ? rows.a : rows.b) : null;
      if (wrote !== null && wrote > 0) {
        out.push(
          `Transactions: none counted in run ${run}, which wrote ${formatNumber(wrote)} rows/s: SQL Server's Transactions/sec counter leaves out natively compiled procedures' transactions.`,
        );
        continue;
      }
    }
    const change = describeChange(f.a as number, f.b as number);
    if (!change) continue;
    const unit = f.unit && !f.label.includes('per row') ? ` ${f.unit}` : '';
    // A time or a size per row in the unit that reads best ("2.9 ns vs 1.2 µs"), not "0.0000029 vs 0.0000012".
    const kind = quantityKind(f.unit);
    const perRow = !unit && (kind === 'duration' || kind === 'bytes');
    const one = (v: number) => (perRow ? quantityText(v, f.unit, { inTable: true }) : formatNumber(v));
    // The run named first: "only in run A (0.000038 vs 0)", "higher in run B (25,567 vs 12,857)".
    const nums =
      change === 'disappears'
        ? `(${one(f.a as number)} vs ${one(f.b as number)}${unit})`
        : `(${one(f.b as number)} vs ${one(f.a as number)}${unit})`;
    const label = perRow ? timeLabel(f.label) : f.label;
    if (change === 'appears only') out.push(`${label}: only in run B ${nums}.`);
    else if (change === 'disappears') out.push(`${label}: only in run A ${nums}.`);
    else out.push(`${label} ${change} in run B ${nums}.`);
  }
  const threadsSaid = threads && threads.a !== threads.b ? 1 : 0;
  if (out.length === threadsSaid) out.push('No figure differs by more than 5% between the two runs.');
  // A figure that does not apply to a run (null there) gets no verdict: it says why instead, once.
  for (const f of figures.filter((x) => x.note && (x.a === null || x.b === null))) {
    const runs = [f.a === null ? 'A' : '', f.b === null ? 'B' : ''].filter(Boolean);
    out.push(`${f.label} ${f.unit}, run${runs.length > 1 ? 's' : ''} ${runs.join(' and ')}: ${f.note}.`);
  }
  return out;
}

export interface ScalingPoint {
  threads: number;
  rowsPerSec: number;
  /** Spins per row summed over every spinlock. */
  spinsPerRow: number;
  /** Spins per row of the named spinlocks (the experiment's top ones). */
  bySpinlock: Record<string, number>;
  status: string;
}

export interface ScalingCurve {
  experimentId: string;
  title: string;
  points: ScalingPoint[];
  /** The spinlocks with the most spins over the sweep. */
  topSpinlocks: string[];
  /** rows/s at the best thread count, and that count. */
  peak: { threads: number; rowsPerSec: number } | null;
  /** Throughput of each repetition by thread count, when the curve folds repeated runs into one point. */
  rowsPerSecValues?: Record<number, number[]>;
}

/** The scaling curve of a sweep: throughput and spins per row against thread count, sorted by threads. */
export function scalingCurve(experiment: { id: string; title: string; runs: readonly RunInput[] }, topN = 3): ScalingCurve {
  const figs = experiment.runs.map((r) => runFigures(r));
  const top = topNames(
    figs.map((f) => f.spins),
    topN,
  );
  const points = figs
    .filter((f) => f.rows > 0)
    .map((f) => ({
      threads: f.threads,
      rowsPerSec: f.rowsPerSec,
      spinsPerRow: Object.values(f.spinsPerRow).reduce((s, v) => s + v, 0),
      bySpinlock: Object.fromEntries(top.map((n) => [n, f.spinsPerRow[n] ?? 0])),
      status: f.status,
    }))
    .sort((x, y) => x.threads - y.threads);
  const best = points.reduce<ScalingPoint | null>((m, p) => (m === null || p.rowsPerSec > m.rowsPerSec ? p : m), null);
  return {
    experimentId: experiment.id,
    title: experiment.title,
    points,
    topSpinlocks: top,
    peak: best && { threads: best.threads, rowsPerSec: best.rowsPerSec },
  };
}

/** One line on a sweep: where throughput peaks and how much it gains from the fewest to the most threads. */
export function summarizeScaling(curve: ScalingCurve): string {
  const pts = curve.points;
  if (pts.length === 0) return 'No completed runs with rows yet.';
  if (pts.length === 1)
    return `One run: ${formatNumber(pts[0].rowsPerSec)} rows/s at ${pts[0].threads} thread${pts[0].threads === 1 ? '' : 's'}.`;
  const first = pts[0];
  const last = pts[pts.length - 1];
  const peak = curve.peak as { threads: number; rowsPerSec: number };
  const parts = [`Throughput peaks at ${plural(peak.threads, 'thread')} (${formatNumber(peak.rowsPerSec)} rows/s)`];
  // Each end's repetitions (folded into one point, or one point per run), so the gain carries its interval.
  const valuesAt = (t: number) => curve.rowsPerSecValues?.[t] ?? pts.filter((p) => p.threads === t).map((p) => p.rowsPerSec);
  const gain =
    first.rowsPerSec > 0 && first.threads !== last.threads
      ? scalingGainText(
          { threads: first.threads, values: valuesAt(first.threads) },
          { threads: last.threads, values: valuesAt(last.threads) },
          'rows',
        )
      : null;
  if (gain) parts.push(gain);
  if (first.spinsPerRow > 0 && last.spinsPerRow > 0) {
    const r = last.spinsPerRow / first.spinsPerRow;
    if (r >= 1.05 || r <= 0.95)
      parts.push(`spins per row ${r >= 1 ? `${r.toFixed(1)}x higher` : `${(1 / r).toFixed(1)}x lower`} at ${last.threads}`);
  }
  return `${parts.join('; ')}.`;
}
