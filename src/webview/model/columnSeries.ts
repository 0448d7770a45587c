// A chart's series fed from a run's ticks, reading a snapshot's columns directly: the chart's source (metrics.ts)
// evaluated on column i, with the same arithmetic extract() does on a Tick, so no Tick object is built for a loaded
// history. Ticks past the columns (live ones) go through extract() as they always did.
import type { TickColumn, TickColumns } from '../../shared/tickColumns';
import { appendTick, type ChartSource, type ChartSpec, type ChartToggles, perSecFactor } from './metrics';
import type { RunTicks } from './runTicks';
import type { CleanedValues, SeriesSet } from './series';

/** One entry of a group: its columns, and whether it is there at a tick (any of its leaves is). */
interface GroupEntry {
  key: string;
  leaf: TickColumn | undefined;
  count: TickColumn | undefined;
  parts: TickColumn[];
}

/** The columns a source reads, found once per batch (not per tick). */
function plan(cols: TickColumns, src: ChartSource, t: ChartToggles) {
  const at = new Map(cols.columns.map((c) => [c.path.join('\u0000'), c]));
  if ('fields' in src) return { fields: src.fields.map((f) => ({ name: f.name, col: at.get(f.path.join('\u0000')) })) };
  const leaf = src.leaf(t);
  const entries = new Map<string, GroupEntry>();
  for (const c of cols.columns) {
    if (c.path[0] !== src.group || c.path.length < 2) continue;
    const key = c.path[1];
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { key, leaf: undefined, count: undefined, parts: [] }));
    e.parts.push(c);
    if (leaf === null ? c.path.length === 2 : c.path[2] === leaf) e.leaf = c;
    if (c.path[2] === 'count') e.count = c;
  }
  return { entries: [...entries.values()], intervalMs: at.get('intervalMs') };
}

/** Ticks from..to-1 of a run appended to a chart's series; the last one ranks (one batch, as buildSeries ranks). */
export function appendRange(series: SeriesSet, spec: ChartSpec, ticks: RunTicks, from: number, to: number, toggles: ChartToggles): void {
  const cols = ticks.columns;
  const inCols = cols ? Math.min(to, cols.length) : 0;
  if (cols && from < inCols) appendColumns(series, spec.source, cols, from, inCols, toggles, inCols === to);
  for (let i = Math.max(from, inCols); i < to; i++) appendTick(series, spec, ticks.at(i)!, toggles, i === to - 1);
}

/**
 * A leaf's values over ticks from..to-1 as numbers, NaN where the tick has none (absent or null; with `nullAs`,
 * null reads as that number instead).
 */
function leafValues(c: TickColumn | undefined, from: number, to: number, nullAs = NaN): Float64Array {
  const out = new Float64Array(to - from);
  if (!c) return out.fill(NaN);
  const state = c.state;
  if (!state) {
    out.set(c.values.subarray(from, to));
    return out;
  }
  const values = float64s(c);
  for (let i = from; i < to; i++) {
    const s = state[i];
    out[i - from] = s === 1 ? values[i] : s === 2 ? nullAs : NaN;
  }
  return out;
}

/**
 * A column's values as float64s, converted once (natively, by set()) and kept in the column's place: a snapshot sends
 * each column in the narrowest array that holds it, and one loop reading five array types at one site runs several
 * times slower. The panel owns the snapshot it was posted, and the values are the same numbers.
 */
function float64s(c: TickColumn): Float64Array {
  const v = c.values;
  if (v instanceof Float64Array) return v;
  const f = new Float64Array(v.length);
  f.set(v);
  c.values = f;
  return f;
}

/** Seconds of ticks 0..to-1 (the t column / 1000), kept per snapshot: the six charts share one array (never written). */
const secondsOf = new WeakMap<TickColumns, Float64Array>();
function seconds(cols: TickColumns, to: number): Float64Array {
  let xs = secondsOf.get(cols);
  if (!xs || xs.length < to) {
    xs = leafValues(
      cols.columns.find((c) => c.path.length === 1 && c.path[0] === 't'),
      0,
      cols.length,
      0,
    );
    for (let k = 0; k < xs.length; k++) xs[k] /= 1000;
    secondsOf.set(cols, xs);
  }
  return xs;
}

/** Each tick's per-second factor (the intervalMs column), kept per snapshot: the group charts share one array. */
const perSecOf = new WeakMap<TickColumns, Float64Array>();
function perSecFactors(cols: TickColumns, interval: TickColumn | undefined): Float64Array {
  let f = perSecOf.get(cols);
  if (!f) {
    f = leafValues(interval, 0, cols.length);
    for (let k = 0; k < f.length; k++) f[k] = perSecFactor(f[k]);
    perSecOf.set(cols, f);
  }
  return f;
}

/** How a series' value at tick i is read from its columns (see valuesOf). */
interface Reading {
  leaf: TickColumn | undefined;
  /** What a null leaf reads as (NaN: no value). */
  nullAs: number;
  /** The entry's count column, for `shown`. */
  count?: TickColumn;
  /** Whether the value is plotted at every tick (true), none (false), or at the ticks whose count passes. */
  shown: boolean | ((count: number) => boolean);
  /** Each tick's per-second factor over the whole snapshot (indexed by tick), or null. */
  perSec: Float64Array | null;
}

/**
 * A series' values over ticks from..to-1 as extract() reads each Tick, in one loop over the typed arrays (a loaded
 * history reads tens of thousands of ticks per series on cold code, where every pass and call per tick counts).
 * clean: for an empty series set (SeriesSet.fill), no value is written as 0 and the first tick with a value and the
 * total are counted in the same loop; otherwise no value is NaN, as appendRows takes it.
 */
function valuesOf(name: string, r: Reading, from: number, to: number, clean: boolean): CleanedValues {
  const n = to - from;
  const out = new Float64Array(n);
  const none = clean ? 0 : NaN;
  if (!r.leaf || r.shown === false) return { name, values: out.fill(none), first: n, total: 0 };
  const values = float64s(r.leaf);
  const state = r.leaf.state;
  const test = r.shown === true ? null : r.shown;
  const cv = r.count ? float64s(r.count) : undefined;
  const cs = r.count?.state;
  const perSec = r.perSec;
  const nullAs = r.nullAs;
  let first = n;
  let total = 0;
  for (let k = 0; k < n; k++) {
    const i = from + k;
    const s = state ? state[i] : 1;
    let v = s === 1 ? values[i] : s === 2 ? nullAs : NaN;
    // An absent or null count reads as NaN, as extract() sees it on a Tick.
    if (test && v === v && !test(!cv ? NaN : !cs || cs[i] === 1 ? cv[i] : NaN)) v = NaN;
    if (perSec) v *= perSec[i];
    if (v - v === 0) {
      // finite
      total += v;
      if (first === n) first = k;
    } else if (clean) v = 0;
    out[k] = v;
  }
  return { name, values: out, first, total };
}

function appendColumns(
  series: SeriesSet,
  src: ChartSource,
  cols: TickColumns,
  from: number,
  to: number,
  t: ChartToggles,
  rank: boolean,
): void {
  const p = plan(cols, src, t);
  const clean = series.length === 0;
  const entries: CleanedValues[] = [];
  if (p.fields)
    for (const f of p.fields) entries.push(valuesOf(f.name, { leaf: f.col, nullAs: NaN, shown: true, perSec: null }, from, to, clean));
  else if (p.entries && 'group' in src) {
    const g = src;
    const perSec = g.perSec ? perSecFactors(cols, p.intervalMs) : null;
    for (const e of p.entries) {
      const r: Reading = { leaf: e.leaf, nullAs: perSec ? 0 : NaN, count: e.count, shown: g.shown ? g.shown(e.key, t) : true, perSec };
      entries.push(valuesOf(g.label ? g.label(e.key) : e.key, r, from, to, clean));
    }
  }
  const all = seconds(cols, to);
  const xs = from === 0 && to === all.length ? all : all.subarray(from, to);
  if (clean) series.fill(xs, entries, rank);
  else series.appendRows(xs, entries, rank);
}
