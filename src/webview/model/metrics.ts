// What each live chart plots, as a pure function of a tick: rates per second over the server-measured interval.
import { isWaitShown } from '../../shared/benign';
import type { Tick } from '../../shared/experiment';
import { SeriesSet } from './series';

export type ChartKind = 'throughput' | 'spinlocks' | 'waits' | 'latches' | 'log' | 'cpu';
export const CHART_KINDS: readonly ChartKind[] = ['throughput', 'spinlocks', 'waits', 'latches', 'log', 'cpu'];

export interface ChartToggles {
  /** Spinlock chart: spins/s or backoffs/s. */
  spinMetric: 'spins' | 'backoffs';
  /** Wait chart: include benign waits and waits that never completed. */
  showAllWaits: boolean;
}

export const DEFAULT_TOGGLES: ChartToggles = { spinMetric: 'spins', showAllWaits: false };

export interface ChartSpec {
  kind: ChartKind;
  title: string;
  yTitle: (t: ChartToggles) => string;
  /** Second y axis title (log chart: bytes/s on the right). */
  y1Title?: string;
  /** Series on the right-hand axis. */
  rightAxis?: readonly string[];
  fixed?: readonly string[];
  maxShown: number;
  extract: (tick: Tick, t: ChartToggles) => Record<string, number>;
}

const perSec = (tick: Tick) => (tick.intervalMs > 0 ? 1000 / tick.intervalMs : 0);

// The extracts loop with for...in: a loaded hour runs each 3,600 times on cold code, and Object.entries' arrays were
// most of its garbage.
export const CHART_SPECS: Readonly<Record<ChartKind, ChartSpec>> = {
  throughput: {
    kind: 'throughput',
    title: 'Throughput',
    yTitle: () => 'per second',
    fixed: ['rows/s', 'transactions/s'],
    maxShown: 2,
    extract: (tick) => ({ 'rows/s': tick.rowsPerSec, 'transactions/s': tick.transactionsPerSec }),
  },
  spinlocks: {
    kind: 'spinlocks',
    title: 'Top spinlocks',
    yTitle: (t) => (t.spinMetric === 'spins' ? 'spins/s' : 'backoffs/s'),
    maxShown: 6,
    extract: (tick, t) => {
      const f = perSec(tick);
      const out: Record<string, number> = {};
      for (const k in tick.spinlocks) out[k] = (t.spinMetric === 'spins' ? tick.spinlocks[k].spins : tick.spinlocks[k].backoffs) * f;
      return out;
    },
  },
  waits: {
    kind: 'waits',
    title: 'Top waits',
    yTitle: () => 'wait ms/s',
    maxShown: 6,
    extract: (tick, t) => {
      const f = perSec(tick);
      const out: Record<string, number> = {};
      const all = { showAll: t.showAllWaits };
      for (const k in tick.waits) if (isWaitShown(k, tick.waits[k], all)) out[k] = tick.waits[k].waitMs * f;
      return out;
    },
  },
  latches: {
    kind: 'latches',
    title: 'Top latches',
    yTitle: () => 'wait ms/s',
    maxShown: 6,
    extract: (tick) => {
      const f = perSec(tick);
      const out: Record<string, number> = {};
      for (const k in tick.latches) out[k] = tick.latches[k].waitMs * f;
      return out;
    },
  },
  log: {
    kind: 'log',
    title: 'Log flushes',
    yTitle: () => 'flushes/s',
    y1Title: 'bytes/s',
    rightAxis: ['log bytes/s'],
    fixed: ['log flushes/s', 'log bytes/s'],
    maxShown: 2,
    extract: (tick) => ({ 'log flushes/s': tick.log.flushesPerSec, 'log bytes/s': tick.log.bytesFlushedPerSec }),
  },
  cpu: {
    kind: 'cpu',
    title: 'CPU by NUMA node',
    yTitle: () => 'CPU %',
    maxShown: 8,
    extract: (tick) => {
      const out: Record<string, number> = {};
      for (const node in tick.cpuByNode) out[`node ${node}`] = tick.cpuByNode[node];
      return out;
    },
  },
};

/** The Watch's throughput: a watch has no rows/s of its own (no lab tables); the server's batch requests and transactions. */
export const WATCH_THROUGHPUT: ChartSpec = {
  kind: 'throughput',
  title: 'Throughput',
  yTitle: () => 'per second',
  fixed: ['batch requests/s', 'transactions/s'],
  maxShown: 2,
  extract: (tick) => ({ 'batch requests/s': tick.batchRequestsPerSec, 'transactions/s': tick.transactionsPerSec }),
};

export function newSeries(spec: ChartSpec, maxBuckets?: number): SeriesSet {
  return new SeriesSet({ maxShown: spec.maxShown, fixed: spec.fixed, maxBuckets });
}

/** The x of a tick: seconds from the run's measured start. */
export function tickX(tick: Tick): number {
  return tick.t / 1000;
}

/** rank false: part of a batch, ranked once at its end (SeriesSet.rank). */
export function appendTick(series: SeriesSet, spec: ChartSpec, tick: Tick, toggles: ChartToggles, rank = true): void {
  series.append(tickX(tick), spec.extract(tick, toggles), rank);
}

/** maxBuckets: the chart's, when known (else the series rebuckets once the chart knows its width). */
export function buildSeries(spec: ChartSpec, ticks: readonly Tick[], toggles: ChartToggles, maxBuckets?: number): SeriesSet {
  const s = newSeries(spec, maxBuckets);
  for (const t of ticks) appendTick(s, spec, t, toggles, false);
  s.rank();
  return s;
}
