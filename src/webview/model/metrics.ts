// What each live chart plots, as a pure function of a tick: rates per second over the server-measured interval.
import { waitShownByCount } from '../../shared/benign';
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

/**
 * What a chart plots, said once: fixed fields of the tick (each a series), or one series per entry of one of its
 * records (spinlocks, waits, ...). Both ways of reading ticks derive from it: extract() from a Tick, and
 * columnSeries.ts from a snapshot's columns; so the charts show the same values whichever way the ticks came.
 */
export type ChartSource =
  | { fields: readonly { name: string; path: readonly [string] | readonly [string, string] }[] }
  | {
      group: 'spinlocks' | 'waits' | 'latches' | 'cpuByNode';
      /** The entry's field plotted (null: the entry is the number); per second over the interval when perSec. */
      leaf: (t: ChartToggles) => string | null;
      perSec: boolean;
      label?: (key: string) => string;
      /** Whether the entry is plotted: at every tick (true), at none (false), or at the ticks whose count passes the test. */
      shown?: (key: string, t: ChartToggles) => boolean | ((count: number) => boolean);
    };

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
  source: ChartSource;
  extract: (tick: Tick, t: ChartToggles) => Record<string, number>;
}

/** Per second over a tick's server-measured interval (0 for an empty interval). */
export const perSecFactor = (intervalMs: number) => (intervalMs > 0 ? 1000 / intervalMs : 0);

/** A spec with its extract() derived from its source. */
function spec(s: Omit<ChartSpec, 'extract'>): ChartSpec {
  return { ...s, extract: extractOf(s.source) };
}

// The extracts loop with for...in: a loaded hour runs each 3,600 times on cold code, and Object.entries' arrays were
// most of its garbage.
function extractOf(src: ChartSource): ChartSpec['extract'] {
  if ('fields' in src)
    return (tick) => {
      const out: Record<string, number> = {};
      const o = tick as unknown as Record<string, Record<string, number>>;
      for (const f of src.fields) out[f.name] = (f.path.length === 1 ? o[f.path[0]] : o[f.path[0]]?.[f.path[1]]) as unknown as number;
      return out;
    };
  const { group, perSec, label, shown } = src;
  return (tick, t) => {
    const f = perSec ? perSecFactor(tick.intervalMs) : 1;
    const leaf = src.leaf(t);
    const rec = tick[group] as Record<string, unknown>;
    const out: Record<string, number> = {};
    for (const k in rec) {
      const entry = rec[k] as Record<string, number>;
      const test = shown ? shown(k, t) : true;
      if (test === false || (test !== true && !test((entry as unknown as { count: number }).count))) continue;
      const v = leaf === null ? (entry as unknown as number) : entry[leaf];
      out[label ? label(k) : k] = perSec ? v * f : v;
    }
    return out;
  };
}

export const CHART_SPECS: Readonly<Record<ChartKind, ChartSpec>> = {
  throughput: spec({
    kind: 'throughput',
    title: 'Throughput',
    yTitle: () => 'per second',
    fixed: ['rows/s', 'transactions/s'],
    maxShown: 2,
    source: {
      fields: [
        { name: 'rows/s', path: ['rowsPerSec'] },
        { name: 'transactions/s', path: ['transactionsPerSec'] },
      ],
    },
  }),
  spinlocks: spec({
    kind: 'spinlocks',
    title: 'Top spinlocks',
    yTitle: (t) => (t.spinMetric === 'spins' ? 'spins/s' : 'backoffs/s'),
    maxShown: 6,
    source: { group: 'spinlocks', leaf: (t) => (t.spinMetric === 'spins' ? 'spins' : 'backoffs'), perSec: true },
  }),
  waits: spec({
    kind: 'waits',
    title: 'Top waits',
    yTitle: () => 'wait ms/s',
    maxShown: 6,
    source: { group: 'waits', leaf: () => 'waitMs', perSec: true, shown: (k, t) => waitShownByCount(k, { showAll: t.showAllWaits }) },
  }),
  latches: spec({
    kind: 'latches',
    title: 'Top latches',
    yTitle: () => 'wait ms/s',
    maxShown: 6,
    source: { group: 'latches', leaf: () => 'waitMs', perSec: true },
  }),
  log: spec({
    kind: 'log',
    title: 'Log flushes',
    yTitle: () => 'flushes/s',
    y1Title: 'bytes/s',
    rightAxis: ['log bytes/s'],
    fixed: ['log flushes/s', 'log bytes/s'],
    maxShown: 2,
    source: {
      fields: [
        { name: 'log flushes/s', path: ['log', 'flushesPerSec'] },
        { name: 'log bytes/s', path: ['log', 'bytesFlushedPerSec'] },
      ],
    },
  }),
  cpu: spec({
    kind: 'cpu',
    title: 'CPU by NUMA node',
    yTitle: () => 'CPU %',
    maxShown: 8,
    source: { group: 'cpuByNode', leaf: () => null, perSec: false, label: (node) => `node ${node}` },
  }),
};

/** The Watch's throughput: a watch has no rows/s of its own (no lab tables); the server's batch requests and transactions. */
export const WATCH_THROUGHPUT: ChartSpec = spec({
  kind: 'throughput',
  title: 'Throughput',
  yTitle: () => 'per second',
  fixed: ['batch requests/s', 'transactions/s'],
  maxShown: 2,
  source: {
    fields: [
      { name: 'batch requests/s', path: ['batchRequestsPerSec'] },
      { name: 'transactions/s', path: ['transactionsPerSec'] },
    ],
  },
});

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
