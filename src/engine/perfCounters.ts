// Reading sys.dm_os_performance_counters rows by their cntr_type, which is read at run time, never assumed:
//   65792      PERF_COUNTER_LARGE_RAWCOUNT  point-in-time value
//   272696576  PERF_COUNTER_BULK_COUNT      running total: rate = delta / seconds
//   272696320  PERF_COUNTER_COUNTER         running total: rate = delta / seconds
//   1073874176 PERF_AVERAGE_BULK            average over the interval: delta value / delta base
//   537003264  PERF_LARGE_RAW_FRACTION      ratio: value / base (point-in-time)
//   1073939712 PERF_LARGE_RAW_BASE          the base row of the two above
// object_name, counter_name and instance_name are nchar(128): space padded, so every comparison trims.
import type { CounterRow } from '../shared/types';

export const CNTR_TYPE = {
  rawCount: 65792,
  bulkCount: 272696576,
  counter: 272696320,
  averageBulk: 1073874176,
  rawFraction: 537003264,
  rawBase: 1073939712,
} as const;

export interface CounterKey {
  /** Object name without its instance prefix (SQLServer: / MSSQL$NAME:), e.g. 'Databases'. */
  objectSuffix: string;
  counter: string;
  /** instance_name; '' for objects without instances. Compared case-insensitively. */
  instance: string;
}

export type CounterReading =
  /** A running total: how much it moved and that over the interval. */
  | { kind: 'rate'; delta: number; perSec: number }
  | { kind: 'point'; value: number }
  /** delta value / delta base; null when the base did not move (nothing was averaged). */
  | { kind: 'average'; value: number | null }
  /** value / base as a fraction (0..1 for hit ratios); null when the base is 0. */
  | { kind: 'fraction'; value: number | null }
  | { kind: 'missing'; message: string }
  | { kind: 'unsupported'; message: string }
  /** A running total (or an average's base) went backwards: the counters were reset. */
  | { kind: 'reset'; message: string };

const norm = (s: string) => s.trim().toLowerCase();

function matches(row: CounterRow, key: CounterKey): boolean {
  const object = norm(row.object);
  const suffix = norm(key.objectSuffix);
  return (
    (object === suffix || object.endsWith(`:${suffix}`)) &&
    norm(row.counter) === norm(key.counter) &&
    norm(row.instance) === norm(key.instance)
  );
}

/** The part of an object name after its instance prefix ('SQLServer:Databases' -> 'databases'), normalised. */
const objectSuffixOf = (object: string) => {
  const o = norm(object);
  return o.slice(o.lastIndexOf(':') + 1);
};
const indexKey = (suffix: string, counter: string, instance: string) => `${suffix}\u0000${norm(counter)}\u0000${norm(instance)}`;

/**
 * The index keys made so far, by the three names as given (a row's object name, or a lookup's suffix; the counter; the
 * instance): a watch looks up the same few counters of the same databases in every tick's rows, and making each key
 * anew (three trims, three lower-casings and a join, per row and per lookup) was a twentieth of a fleet's allocation.
 * Bounded by the names the server has; emptied if it ever passes KEYS_KEPT (names that keep changing).
 */
const KEYS_KEPT = 20_000;
const madeKeys = {
  rows: new Map<string, Map<string, Map<string, string>>>(),
  lookups: new Map<string, Map<string, Map<string, string>>>(),
};
let keysMade = 0;

function keyOf(kind: keyof typeof madeKeys, object: string, counter: string, instance: string): string {
  if (keysMade >= KEYS_KEPT) {
    keysMade = 0;
    madeKeys.rows.clear();
    madeKeys.lookups.clear();
  }
  let byCounter = madeKeys[kind].get(object);
  if (!byCounter) madeKeys[kind].set(object, (byCounter = new Map()));
  let byInstance = byCounter.get(counter);
  if (!byInstance) byCounter.set(counter, (byInstance = new Map()));
  let key = byInstance.get(instance);
  if (key === undefined) {
    keysMade++;
    key = indexKey(kind === 'rows' ? objectSuffixOf(object) : norm(object), counter, instance);
    byInstance.set(instance, key);
  }
  return key;
}

/**
 * Each sample's rows by (object suffix, counter, instance), built on the first lookup: a watch tick looks up a few
 * counters per database in two samples, which scanning (and trimming every row's names) made O(databases x rows).
 */
const indexes = new WeakMap<readonly CounterRow[], Map<string, CounterRow>>();

function indexOf(rows: readonly CounterRow[]): Map<string, CounterRow> {
  let index = indexes.get(rows);
  if (!index) {
    index = new Map();
    for (const r of rows) {
      const k = keyOf('rows', r.object, r.counter, r.instance);
      if (!index.has(k)) index.set(k, r); // the first match, as a scan finds it
    }
    indexes.set(rows, index);
  }
  return index;
}

export function findCounter(rows: readonly CounterRow[], key: CounterKey): CounterRow | undefined {
  // A suffix naming its own prefix ('SQLServer:Databases') is matched by scanning, as before.
  if (key.objectSuffix.includes(':')) return rows.find((r) => matches(r, key));
  return indexOf(rows).get(keyOf('lookups', key.objectSuffix, key.counter, key.instance));
}

/** Counter names without punctuation, units and the Base/BS suffix, to pair a counter with its base row. */
function baseStem(name: string): string {
  return norm(name)
    .replace(/\(ms\)/g, '')
    .replace(/\b(base|bs)\s*$/, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The base row of an average or fraction counter: same object and instance, cntr_type 1073939712, and a name that is
 * the counter's name plus " Base" (or "BS"), give or take "(ms)" ('Average Wait Time (ms)' / 'Average Wait Time Base').
 */
export function findBase(rows: readonly CounterRow[], counter: CounterRow): CounterRow | undefined {
  const stem = baseStem(counter.counter);
  return rows.find(
    (r) =>
      r.type === CNTR_TYPE.rawBase &&
      norm(r.object) === norm(counter.object) &&
      norm(r.instance) === norm(counter.instance) &&
      baseStem(r.counter) === stem,
  );
}

function describe(key: CounterKey): string {
  return `'${key.counter}' (object *:${key.objectSuffix}${key.instance ? `, instance ${key.instance}` : ''})`;
}

/**
 * Reads one counter over an interval. A row absent from `prev` counts from 0 (the sampler may omit zero rows); a row
 * absent from `cur` is reported missing, not zero, so the caller can say so.
 */
export function readCounter(
  prevRows: readonly CounterRow[],
  curRows: readonly CounterRow[],
  key: CounterKey,
  seconds: number,
): CounterReading {
  const cur = findCounter(curRows, key);
  if (!cur) return { kind: 'missing', message: `performance counter ${describe(key)} was not in the sample` };
  const prev = findCounter(prevRows, key);
  switch (cur.type) {
    case CNTR_TYPE.rawCount:
      return { kind: 'point', value: cur.value };
    case CNTR_TYPE.bulkCount:
    case CNTR_TYPE.counter: {
      const delta = cur.value - (prev?.value ?? 0);
      if (delta < 0) return { kind: 'reset', message: `${describe(key)} went from ${prev?.value} to ${cur.value}` };
      return { kind: 'rate', delta, perSec: seconds > 0 ? delta / seconds : 0 };
    }
    case CNTR_TYPE.averageBulk: {
      const base = findBase(curRows, cur);
      if (!base) return { kind: 'missing', message: `the base row of ${describe(key)} was not in the sample` };
      const prevBase = prev ? findBase(prevRows, prev) : undefined;
      const delta = cur.value - (prev?.value ?? 0);
      const baseDelta = base.value - (prevBase?.value ?? 0);
      if (delta < 0 || baseDelta < 0) {
        return { kind: 'reset', message: `${describe(key)} or its base went backwards` };
      }
      return { kind: 'average', value: baseDelta > 0 ? delta / baseDelta : null };
    }
    case CNTR_TYPE.rawFraction: {
      const base = findBase(curRows, cur);
      if (!base) return { kind: 'missing', message: `the base row of ${describe(key)} was not in the sample` };
      return { kind: 'fraction', value: base.value > 0 ? cur.value / base.value : null };
    }
    default:
      return {
        kind: 'unsupported',
        message: `performance counter ${describe(key)} has cntr_type ${cur.type}, which Spinlock Lab does not know how to read`,
      };
  }
}

/** The number a chart shows: a rate per second, a point value, an average or a fraction; 0 when there is none. */
export function readingValue(r: CounterReading): number {
  switch (r.kind) {
    case 'rate':
      return r.perSec;
    case 'point':
      return r.value;
    case 'average':
    case 'fraction':
      return r.value ?? 0;
    default:
      return 0;
  }
}

/** How much a running total moved in the interval; a point-in-time counter contributes its value as is. */
export function readingAmount(r: CounterReading): number {
  if (r.kind === 'rate') return r.delta;
  if (r.kind === 'point') return r.value;
  return 0;
}

/** How much a running total moved in the interval; 0 for any other kind (there is no count to add up). */
export function readingDelta(r: CounterReading): number {
  return r.kind === 'rate' ? r.delta : 0;
}
