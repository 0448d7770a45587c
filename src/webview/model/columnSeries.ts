// A chart's series fed from a run's ticks, reading a snapshot's columns directly: the chart's source (metrics.ts)
// evaluated on column i, with the same arithmetic extract() does on a Tick, so no Tick object is built for a loaded
// history. Ticks past the columns (live ones) go through extract() as they always did.
import type { TickColumn, TickColumns } from '../../shared/tickColumns';
import { appendTick, type ChartSource, type ChartSpec, type ChartToggles, perSecFactor } from './metrics';
import type { RunTicks } from './runTicks';
import type { SeriesSet } from './series';

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
 * null reads as that number instead). One loop over the typed arrays: a loaded history reads tens of thousands of
 * ticks per series, and a call per tick was most of a first draw.
 */
function leafValues(c: TickColumn | undefined, from: number, to: number, nullAs = NaN): Float64Array {
  const out = new Float64Array(to - from);
  if (!c) return out.fill(NaN);
  const { values, state } = c;
  if (!state) {
    out.set(values.subarray(from, to));
    return out;
  }
  for (let i = from; i < to; i++) {
    const s = state[i];
    out[i - from] = s === 1 ? values[i] : s === 2 ? nullAs : NaN;
  }
  return out;
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

/**
 * A group entry's values over ticks from..to-1, as extract() reads each Tick: NaN where the entry has no value or is
 * not shown, a null leaf times the per-second factor 0. One loop over the typed arrays, without a count array.
 */
function entryValues(
  e: GroupEntry,
  from: number,
  to: number,
  perSec: Float64Array | null,
  shown: ((count: number) => boolean) | null,
): Float64Array {
  const out = leafValues(e.leaf, from, to, perSec ? 0 : NaN);
  if (!perSec && !shown) return out;
  const cv = e.count?.values;
  const cs = e.count?.state;
  for (let k = 0; k < out.length; k++) {
    if (Number.isNaN(out[k])) continue;
    if (shown) {
      const i = from + k;
      // An absent or null count reads as NaN, as leafValues gives it.
      const count = !cv ? NaN : !cs || cs[i] === 1 ? cv[i] : NaN;
      if (!shown(count)) {
        out[k] = NaN;
        continue;
      }
    }
    if (perSec) out[k] *= perSec[k];
  }
  return out;
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
  const n = to - from;
  // Each series' values over the batch, NaN where a sample has none (absent, null, not finite: append() skips those).
  const entries: { name: string; values: Float64Array }[] = [];
  if (p.fields) for (const f of p.fields) entries.push({ name: f.name, values: leafValues(f.col, from, to) });
  else if (p.entries && 'group' in src) {
    const g = src;
    // Each tick's per-second factor, once for every entry.
    let perSec: Float64Array | null = null;
    if (g.perSec) {
      perSec = leafValues(p.intervalMs, from, to);
      for (let k = 0; k < n; k++) perSec[k] = perSecFactor(perSec[k]);
    }
    const countOf = { count: 0 };
    for (const e of p.entries) {
      const shown = g.shown;
      const test = shown
        ? (count: number) => {
            countOf.count = count;
            return shown(e.key, countOf, t);
          }
        : null;
      entries.push({ name: g.label ? g.label(e.key) : e.key, values: entryValues(e, from, to, perSec, test) });
    }
  }
  const all = seconds(cols, to);
  series.appendRows(from === 0 && to === all.length ? all : all.subarray(from, to), entries, rank);
}
