// Two windows of a watch (before and after a mark, or any two), compared with the A/B code experiments use: the same
// figure records and the same summary sentences, per second instead of per row (a watched server's workload has no
// rows of ours to divide by). Pure.
import {
  addTickToTotals,
  emptyRunTotals,
  summarizeComparison,
  topNames,
  percentChange,
  type ComparedFigure,
  type FigureDirection,
} from './analysis';
import { isBenignWait } from './benign';
import { MINOR_SPIN_SHARE, MINOR_WAIT_SHARE } from './armAnalysis';
import type { RunTotals } from './experiment';
import type { WatchMark, WatchTick } from './watch';

export interface WindowFigures {
  label: string;
  fromT: number;
  toT: number;
  ticks: number;
  seconds: number;
  totals: RunTotals;
  batchRequestsPerSec: number;
  cpuPct: number;
}

/** A window's figures built tick by tick, so a reader of samples.jsonl never holds the window's ticks. */
export class WindowAccumulator {
  private readonly totals = emptyRunTotals();
  private batches = 0;
  private cpu = 0;
  private first: WatchTick | null = null;
  private last: WatchTick | null = null;
  private count = 0;

  constructor(readonly label: string) {}

  add(t: WatchTick): void {
    addTickToTotals(this.totals, t);
    this.batches += t.batchRequestsPerSec * (t.intervalMs / 1000);
    const nodes = Object.values(t.cpuByNode);
    this.cpu += (nodes.length ? nodes.reduce((a, b) => a + b, 0) / nodes.length : 0) * t.intervalMs;
    this.first ??= t;
    this.last = t;
    this.count++;
  }

  get ticks(): number {
    return this.count;
  }

  figures(): WindowFigures {
    const { totals, first, last } = this;
    const seconds = totals.elapsedMs / 1000;
    return {
      label: this.label,
      fromT: first ? first.t - first.intervalMs : 0,
      toT: last?.t ?? 0,
      ticks: this.count,
      seconds,
      totals,
      batchRequestsPerSec: seconds > 0 ? this.batches / seconds : 0,
      cpuPct: totals.elapsedMs > 0 ? this.cpu / totals.elapsedMs : 0,
    };
  }
}

export function windowFigures(label: string, ticks: readonly WatchTick[]): WindowFigures {
  const acc = new WindowAccumulator(label);
  for (const t of ticks) acc.add(t);
  return acc.figures();
}

function fig(
  key: string,
  label: string,
  unit: string,
  a: number | null,
  b: number | null,
  direction: FigureDirection = 'lower-better',
): ComparedFigure {
  return { key, label, unit, a, b, changePct: percentChange(a, b), direction };
}

export interface WindowComparison {
  a: WindowFigures;
  b: WindowFigures;
  figures: ComparedFigure[];
  summary: string[];
}

export function compareWindows(a: WindowFigures, b: WindowFigures, topN = 5): WindowComparison {
  const per = (w: WindowFigures, v: number) => (w.seconds > 0 ? v / w.seconds : 0);
  const figures: ComparedFigure[] = [
    fig('batchRequestsPerSec', 'Batch requests', '/s', a.batchRequestsPerSec, b.batchRequestsPerSec, 'higher-better'),
    fig('transactionsPerSec', 'Transactions', 'tx/s', per(a, a.totals.transactions), per(b, b.totals.transactions), 'higher-better'),
    fig('cpuPct', 'CPU', '%', a.cpuPct, b.cpuPct),
    fig('logFlushesPerSec', 'Log flushes', '/s', per(a, a.totals.logFlushes), per(b, b.totals.logFlushes)),
    fig('logBytesPerSec', 'Log bytes', 'B/s', per(a, a.totals.logBytesFlushed), per(b, b.totals.logBytesFlushed)),
  ];
  const rates = (w: WindowFigures, pick: (t: RunTotals) => Record<string, number>) =>
    Object.fromEntries(Object.entries(pick(w.totals)).map(([k, v]) => [k, per(w, v)]));
  const named = (prefix: string, what: string, unit: string, ra: Record<string, number>, rb: Record<string, number>) => {
    for (const name of topNames([ra, rb], topN))
      figures.push(fig(`${prefix}:${name}`, `${name} ${what}`, unit, ra[name] ?? 0, rb[name] ?? 0));
  };
  const spins = (t: RunTotals) => Object.fromEntries(Object.entries(t.spinlocks).map(([k, s]) => [k, s.spins]));
  const backoffs = (t: RunTotals) => Object.fromEntries(Object.entries(t.spinlocks).map(([k, s]) => [k, s.backoffs]));
  const waits = (t: RunTotals) =>
    Object.fromEntries(
      Object.entries(t.waits)
        .filter(([k]) => !isBenignWait(k))
        .map(([k, w]) => [k, w.waitMs]),
    );
  const latches = (t: RunTotals) => Object.fromEntries(Object.entries(t.latches).map(([k, l]) => [k, l.waitMs]));
  named('spinsPerSec', 'spins', 'spins/s', rates(a, spins), rates(b, spins));
  named('backoffsPerSec', 'backoffs', 'backoffs/s', rates(a, backoffs), rates(b, backoffs));
  const waitA = rates(a, waits),
    waitB = rates(b, waits);
  named('waitMsPerSec', 'wait', 'ms/s', waitA, waitB);
  for (const name of topNames([waitA, waitB], topN)) {
    const avg = (t: RunTotals) => (t.waits[name]?.count ? t.waits[name].waitMs / t.waits[name].count : null);
    figures.push(fig(`avgWaitMs:${name}`, `${name} ms per wait`, 'ms', avg(a.totals), avg(b.totals)));
  }
  named('latchMsPerSec', 'latch wait', 'ms/s', rates(a, latches), rates(b, latches));
  // The experiments' sentences say "run A" and "run B"; here the two are windows of one watch. As in the arms' view
  // (armAnalysis.ts), backoffs are left to the table, and a name far below the leader of its kind in both windows
  // would read as news ("only after the mark") while being noise.
  const lead = (prefix: string) =>
    Math.max(0, ...figures.filter((f) => f.key.startsWith(`${prefix}:`)).flatMap((f) => [f.a ?? 0, f.b ?? 0]));
  const leads: Record<string, number> = {
    spinsPerSec: lead('spinsPerSec'),
    waitMsPerSec: lead('waitMsPerSec'),
    latchMsPerSec: lead('latchMsPerSec'),
  };
  const share: Record<string, number> = { spinsPerSec: MINOR_SPIN_SHARE, waitMsPerSec: MINOR_WAIT_SHARE, latchMsPerSec: MINOR_WAIT_SHARE };
  const kept = new Set(
    figures
      .filter((f) => {
        const kind = f.key.split(':')[0];
        return !(kind in leads) || Math.max(f.a ?? 0, f.b ?? 0) >= leads[kind] * share[kind];
      })
      .map((f) => f.key),
  );
  const matters = figures.filter((f) => {
    const [kind, name] = f.key.split(':');
    if (kind === 'backoffsPerSec') return false;
    if (kind === 'avgWaitMs') return kept.has(`waitMsPerSec:${name}`);
    return kept.has(f.key);
  });
  const summary = summarizeComparison(matters).map((s) =>
    s
      .replace(/\bin run A\b/g, a.label)
      .replace(/\bin run B\b/g, b.label)
      .replace('between the two runs', 'between the two windows'),
  );
  return { a, b, figures, summary };
}

/**
 * The windows around a mark: from the previous mark (or the start) to the mark, and from the mark to the next mark
 * (or the end), each cut to `maxMs` nearest the mark when given. Ticks are split by their end time t.
 */
export function windowsAroundMark(
  ticks: readonly WatchTick[],
  marks: readonly WatchMark[],
  mark: WatchMark,
  maxMs: number | null,
): [WatchTick[], WatchTick[]] {
  const sorted = [...marks].sort((x, y) => x.t - y.t);
  const i = sorted.findIndex((m) => m.id === mark.id);
  const prevT = i > 0 ? sorted[i - 1].t : -Infinity;
  const nextT = i >= 0 && i + 1 < sorted.length ? sorted[i + 1].t : Infinity;
  // The tick a mark falls in belongs to neither: it holds some of each side.
  const before = ticks.filter((t) => t.t < mark.t && t.t >= prevT && (maxMs === null || t.t >= mark.t - maxMs));
  const after = ticks.filter((t) => t.t > mark.t && t.t < nextT && (maxMs === null || t.t <= mark.t + maxMs));
  return [before, after];
}
