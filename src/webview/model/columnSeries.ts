// A chart's series fed from a run's ticks, reading a snapshot's columns directly: the chart's source (metrics.ts)
// evaluated on column i, with the same arithmetic extract() does on a Tick, so no Tick object is built for a loaded
// history. Ticks past the columns (live ones) go through extract() as they always did.
import type { TickColumn, TickColumns } from '../../shared/tickColumns';
import { appendTick, type ChartSource, type ChartSpec, type ChartToggles, perSecFactor } from './metrics';
import type { RunTicks } from './runTicks';
import type { SeriesSet } from './series';

/** A leaf's value at tick i as the tick held it: a number (boolean), null, or undefined when absent. */
function leafAt(c: TickColumn | undefined, i: number): number | null | undefined {
  if (!c) return undefined;
  const s = c.state ? c.state[i] : 1;
  return s === 1 ? c.values[i] : s === 2 ? null : undefined;
}

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

function present(e: GroupEntry, i: number): boolean {
  for (const c of e.parts) if (!c.state || c.state[i] !== 0) return true;
  return false;
}

/** Ticks from..to-1 of a run appended to a chart's series; the last one ranks (one batch, as buildSeries ranks). */
export function appendRange(series: SeriesSet, spec: ChartSpec, ticks: RunTicks, from: number, to: number, toggles: ChartToggles): void {
  const cols = ticks.columns;
  const inCols = cols ? Math.min(to, cols.length) : 0;
  if (cols && from < inCols) appendColumns(series, spec.source, cols, from, inCols, toggles, inCols === to);
  for (let i = Math.max(from, inCols); i < to; i++) appendTick(series, spec, ticks.at(i)!, toggles, i === to - 1);
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
  const values = (fill: (i: number) => number): Float64Array => {
    const out = new Float64Array(n);
    for (let i = from; i < to; i++) out[i - from] = fill(i);
    return out;
  };
  const num = (v: number | null | undefined) => (typeof v === 'number' ? v : NaN);
  const entries: { name: string; values: Float64Array }[] = [];
  if (p.fields) for (const f of p.fields) entries.push({ name: f.name, values: values((i) => num(leafAt(f.col, i))) });
  else if (p.entries && 'group' in src) {
    const g = src;
    const countOf = { count: 0 };
    // Each tick's per-second factor, once for every entry.
    const perSec = g.perSec ? values((i) => perSecFactor(leafAt(p.intervalMs, i) as number)) : null;
    for (const e of p.entries)
      entries.push({
        name: g.label ? g.label(e.key) : e.key,
        values: values((i) => {
          if (!present(e, i)) return NaN;
          if (g.shown) {
            countOf.count = leafAt(e.count, i) as number;
            if (!g.shown(e.key, countOf, t)) return NaN;
          }
          const v = leafAt(e.leaf, i) as number;
          return num(perSec ? v * perSec[i - from] : v);
        }),
      });
  }
  const tCol = cols.columns.find((c) => c.path.length === 1 && c.path[0] === 't');
  series.appendRows(
    values((i) => (leafAt(tCol, i) as number) / 1000),
    entries,
    rank,
  );
}
