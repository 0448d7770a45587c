// What a watch keeps in memory, bounded for hours: the last `windowTicks` ticks at full resolution (the window on
// screen), a downsampled history of at most `maxPoints` points for the whole watch (when full, neighbours merge in
// pairs and each point covers twice the time; none with maxPoints 0), and the running totals (bounded by the DMVs' own name lists). Every
// tick is on disk in samples.jsonl; nothing here grows with the watch's length.
import { addTickToTotals, emptyRunTotals } from '../../shared/analysis';
import type { RunTotals } from '../../shared/experiment';
import type { WatchTick } from '../../shared/watch';

/** One downsampled point: time-weighted means over the ticks it covers. */
export interface WatchPoint {
  t: number;
  intervalMs: number;
  batchRequestsPerSec: number;
  transactionsPerSec: number;
  spinsPerSec: number;
  backoffsPerSec: number;
  waitMsPerSec: number;
  latchMsPerSec: number;
  logBytesPerSec: number;
  logFlushesPerSec: number;
  cpuPct: number;
  runnableTasks: number;
  /** Spins per second of the spinlocks that led the first tick of the point (at most POINT_NAMES). */
  spinlocks: Record<string, number>;
  /** Wait ms per second (non-benign), likewise. */
  waits: Record<string, number>;
}

const POINT_NAMES = 5;
const FIGURES = [
  'batchRequestsPerSec',
  'transactionsPerSec',
  'spinsPerSec',
  'backoffsPerSec',
  'waitMsPerSec',
  'latchMsPerSec',
  'logBytesPerSec',
  'logFlushesPerSec',
  'cpuPct',
  'runnableTasks',
] as const;

export function pointOf(t: WatchTick): WatchPoint {
  const s = t.intervalMs / 1000 || 1;
  const nodes = Object.values(t.cpuByNode);
  const top = <T>(rec: Record<string, T>, v: (x: T) => number) =>
    Object.fromEntries(
      Object.entries(rec)
        .map(([k, x]) => [k, v(x) / s] as [string, number])
        .filter(([, x]) => x > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, POINT_NAMES),
    );
  return {
    t: t.t,
    intervalMs: t.intervalMs,
    batchRequestsPerSec: t.batchRequestsPerSec,
    transactionsPerSec: t.transactionsPerSec,
    spinsPerSec: t.all.spins / s,
    backoffsPerSec: t.all.backoffs / s,
    waitMsPerSec: t.all.waitMs / s,
    latchMsPerSec: t.all.latchMs / s,
    logBytesPerSec: t.log.bytesFlushedPerSec,
    logFlushesPerSec: t.log.flushesPerSec,
    cpuPct: nodes.length ? nodes.reduce((a, b) => a + b, 0) / nodes.length : 0,
    runnableTasks: t.runnableTasks,
    spinlocks: top(t.spinlocks, (x) => x.spins),
    waits: top(t.waits, (x) => x.waitMs),
  };
}

/** Two neighbouring points as one: means weighted by the time each covers; named series summed by time. */
export function mergePoints(a: WatchPoint, b: WatchPoint): WatchPoint {
  const w = a.intervalMs + b.intervalMs || 1;
  const out = { ...a, t: b.t, intervalMs: a.intervalMs + b.intervalMs } as WatchPoint;
  for (const f of FIGURES) out[f] = (a[f] * a.intervalMs + b[f] * b.intervalMs) / w;
  const named = (x: Record<string, number>, y: Record<string, number>) => {
    const m: Record<string, number> = {};
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) m[k] = ((x[k] ?? 0) * a.intervalMs + (y[k] ?? 0) * b.intervalMs) / w;
    return Object.fromEntries(
      Object.entries(m)
        .sort((p, q) => q[1] - p[1])
        .slice(0, POINT_NAMES),
    );
  };
  out.spinlocks = named(a.spinlocks, b.spinlocks);
  out.waits = named(a.waits, b.waits);
  return out;
}

export class WatchHistory {
  /** The window's ticks. */
  private readonly recent: WatchTick[] = [];
  private points: WatchPoint[] = [];
  /** Ticks per point now (doubles each time the history is halved). */
  private span = 1;
  private pending: WatchPoint | null = null;
  private pendingCount = 0;
  private count = 0;
  readonly totals: RunTotals = emptyRunTotals();

  constructor(
    readonly windowTicks = 600,
    readonly maxPoints = 1200,
  ) {
    if (maxPoints !== 0 && (maxPoints < 2 || maxPoints % 2 !== 0))
      throw new RangeError('maxPoints must be 0 (no downsampled history) or an even number of at least 2');
  }

  add(t: WatchTick): void {
    this.count++;
    addTickToTotals(this.totals, t);
    this.recent.push(t);
    if (this.recent.length > this.windowTicks) this.recent.shift();
    if (this.maxPoints === 0) return;
    const p = pointOf(t);
    this.pending = this.pending ? mergePoints(this.pending, p) : p;
    if (++this.pendingCount < this.span) return;
    this.points.push(this.pending);
    this.pending = null;
    this.pendingCount = 0;
    if (this.points.length >= this.maxPoints) {
      const halved: WatchPoint[] = [];
      for (let i = 0; i + 1 < this.points.length; i += 2) halved.push(mergePoints(this.points[i], this.points[i + 1]));
      this.points = halved;
      this.span *= 2;
    }
  }

  /** The ticks of the window on screen, oldest first. */
  window(): readonly WatchTick[] {
    return this.recent;
  }
  /** The whole watch, downsampled (the point being filled included). */
  history(): WatchPoint[] {
    return this.pending ? [...this.points, this.pending] : [...this.points];
  }
  get ticks(): number {
    return this.count;
  }
  get ticksPerPoint(): number {
    return this.span;
  }
}
