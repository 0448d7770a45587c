// The Now view's memory of the server: per-second deltas of the last two minutes (the last minute's ranks and the
// minute before it), and per-minute sums for the last hour (each name's median minute). Bounded whatever the uptime:
// 120 seconds and 60 minutes. Pure: the host feeds it the engine's ticks (deltas computed client-side, never on
// the server) and asks for the figures; the words are nowWords.ts's.
import type { Tick } from './experiment';
import { isBenignWait } from './benign';

export type NowKind = 'spinlock' | 'wait' | 'latch';

/** What a tick holds that the Now view reads. */
export type NowTick = Pick<Tick, 'intervalMs' | 'spinlocks' | 'waits' | 'latches' | 'cpuByNode'>;

/** One name's amount in a stretch of time: spins (spinlocks) or ms waited (waits, latches). */
type Sums = Record<string, number>;

interface Stretch {
  /** Client time (epoch ms) at its start and its end. */
  from: number;
  to: number;
  /** Server seconds measured in it (the ticks' intervals). */
  sec: number;
  spins: Sums;
  backoffs: Sums;
  waits: Sums;
  latches: Sums;
  cpuByNode: Record<string, number>;
}

export const WINDOW_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Completed minutes needed before a median means something ("its median since ..."). */
export const MIN_MEDIAN_MINUTES = 5;
/** Seconds of the minute before needed to compare with it. */
export const MIN_PREVIOUS_SEC = 20;
/** Trend against the median: this ratio up is rising, its inverse down is falling. */
export const MEDIAN_RISE = 2;
/** Trend against the minute before (noisier, so a smaller ratio would be noise). */
export const MINUTE_RISE = 1.5;

export type Trend = 'rising' | 'falling' | 'steady' | 'new' | 'unknown';

export interface RankedItem {
  kind: NowKind;
  name: string;
  /** Spins/s (spinlocks) or ms waited per second (waits, latches), server-wide, over the window. */
  perSec: number;
  /** Backoffs/s (spinlocks only). */
  backoffsPerSec: number | null;
  trend: Trend;
  /** What the trend was measured against. */
  basis: 'median' | 'previous-minute' | 'none';
  /** perSec / the basis's rate (null without a basis or when the basis is 0). */
  ratio: number | null;
  /** The basis's rate (per second). */
  basisPerSec: number | null;
}

export interface NowFigures {
  /** Seconds of server time in the window (up to 60). */
  windowSec: number;
  /** When the history starts (client epoch ms), and whether it covers the whole hour. */
  since: number | null;
  fullHour: boolean;
  /** Completed minutes behind the medians. */
  minutes: number;
  spinlocks: RankedItem[];
  waits: RankedItem[];
  latches: RankedItem[];
  /** CPU busy % per NUMA node over the window (online schedulers). */
  cpuByNode: Record<string, number>;
}

const empty = (from: number): Stretch => ({ from, to: from, sec: 0, spins: {}, backoffs: {}, waits: {}, latches: {}, cpuByNode: {} });

function addInto(into: Sums, name: string, v: number): void {
  if (v > 0) into[name] = (into[name] ?? 0) + v;
}

function fold(into: Stretch, s: Stretch): void {
  into.to = Math.max(into.to, s.to);
  // CPU % is a level: weighted by seconds, kept as a running mean.
  for (const [node, pct] of Object.entries(s.cpuByNode)) {
    const before = into.cpuByNode[node] ?? 0;
    into.cpuByNode[node] = into.sec + s.sec > 0 ? (before * into.sec + pct * s.sec) / (into.sec + s.sec) : pct;
  }
  into.sec += s.sec;
  for (const k of ['spins', 'backoffs', 'waits', 'latches'] as const) for (const [n, v] of Object.entries(s[k])) addInto(into[k], n, v);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export class NowHistory {
  /** Per-tick stretches of the last two windows. */
  private seconds: Stretch[] = [];
  /** Minute sums, oldest first; the last one is still filling. */
  private minutes: Stretch[] = [];
  private first: number | null = null;

  /** A tick that ended at client time `at` (epoch ms). */
  add(at: number, t: NowTick): void {
    const sec = t.intervalMs / 1000;
    if (!(sec > 0)) return;
    const s = empty(at - t.intervalMs);
    s.to = at;
    s.sec = sec;
    s.cpuByNode = { ...t.cpuByNode };
    for (const [n, d] of Object.entries(t.spinlocks)) {
      addInto(s.spins, n, d.spins);
      addInto(s.backoffs, n, d.backoffs);
    }
    for (const [n, d] of Object.entries(t.waits)) if (!isBenignWait(n)) addInto(s.waits, n, d.waitMs);
    for (const [n, d] of Object.entries(t.latches)) addInto(s.latches, n, d.waitMs);
    this.first ??= s.from;
    this.seconds.push(s);
    while (this.seconds.length && this.seconds[0].to <= at - 2 * WINDOW_MS) this.seconds.shift();
    // Minutes from the first tick on: a new one each WINDOW_MS, the oldest dropped past the hour.
    const idx = Math.floor((s.to - this.first) / WINDOW_MS);
    let last = this.minutes[this.minutes.length - 1];
    if (!last || Math.floor((last.from - this.first) / WINDOW_MS) !== idx) {
      last = empty(this.first + idx * WINDOW_MS);
      this.minutes.push(last);
    }
    fold(last, s);
    while (this.minutes.length && this.minutes[0].from < at - HOUR_MS - WINDOW_MS) this.minutes.shift();
  }

  /** Forgets everything (a new connection, a restarted server). */
  clear(): void {
    this.seconds = [];
    this.minutes = [];
    this.first = null;
  }

  get since(): number | null {
    return this.first;
  }

  /** The last minute's ranks with their trends, as of client time `now`. */
  figures(now: number, top = 5): NowFigures {
    const win = empty(now - WINDOW_MS);
    const prev = empty(now - 2 * WINDOW_MS);
    for (const s of this.seconds) {
      if (s.to > now - WINDOW_MS) fold(win, s);
      else if (s.to > now - 2 * WINDOW_MS) fold(prev, s);
    }
    const done = this.minutes.slice(0, -1).filter((m) => m.sec > 0);
    const fullHour = this.first !== null && now - this.first >= HOUR_MS;
    const rank = (kind: NowKind, sums: Sums, prevSums: Sums, key: 'spins' | 'waits' | 'latches'): RankedItem[] =>
      Object.entries(sums)
        .filter(([, v]) => v > 0)
        .map(([name, v]) => {
          const perSec = win.sec > 0 ? v / win.sec : 0;
          const item: RankedItem = {
            kind,
            name,
            perSec,
            backoffsPerSec: kind === 'spinlock' && win.sec > 0 ? (win.backoffs[name] ?? 0) / win.sec : null,
            trend: 'unknown',
            basis: 'none',
            ratio: null,
            basisPerSec: null,
          };
          if (done.length >= MIN_MEDIAN_MINUTES) {
            const base = median(done.map((m) => (m[key][name] ?? 0) / m.sec));
            return withTrend(item, 'median', base, MEDIAN_RISE);
          }
          if (prev.sec >= MIN_PREVIOUS_SEC) return withTrend(item, 'previous-minute', (prevSums[name] ?? 0) / prev.sec, MINUTE_RISE);
          return item;
        })
        .sort((a, b) => b.perSec - a.perSec || (a.name < b.name ? -1 : 1))
        .slice(0, top);
    return {
      windowSec: win.sec,
      since: this.first,
      fullHour,
      minutes: done.length,
      spinlocks: rank('spinlock', win.spins, prev.spins, 'spins'),
      waits: rank('wait', win.waits, prev.waits, 'waits'),
      latches: rank('latch', win.latches, prev.latches, 'latches'),
      cpuByNode: win.cpuByNode,
    };
  }
}

function withTrend(item: RankedItem, basis: 'median' | 'previous-minute', base: number, rise: number): RankedItem {
  const ratio = base > 0 ? item.perSec / base : null;
  const trend: Trend = ratio === null ? 'new' : ratio >= rise ? 'rising' : ratio <= 1 / rise ? 'falling' : 'steady';
  return { ...item, basis, basisPerSec: base, ratio, trend };
}
