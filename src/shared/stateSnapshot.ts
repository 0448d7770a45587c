// The state message's payload. A full snapshot (the webview loaded, or was shown again) carries the active
// experiment's ticks as columns (tickColumns.ts), each run's totals folded beside them so the panel need not fold
// hours of ticks again; the runs in `state` then carry no ticks. Other snapshots carry no ticks at all: the webview
// has them from runTick messages.
import { addTickToTotals, emptyRunTotals } from './analysis';
import { checkTickColumns, TickColumnsBuilder, type ColumnValues, type TickColumns } from './tickColumns';
import type { RunTotals, Tick } from './experiment';
import type { PanelState } from './panelState';

/** One run's ticks in a full snapshot. */
export interface RunTickColumns {
  /** The run's index (LiveRunView.index). */
  index: number;
  columns: TickColumns;
}

export interface StatePayload {
  state: PanelState;
  /** Full snapshots only: the active experiment's ticks, by run. */
  ticks?: RunTickColumns[];
}

/**
 * Each live run's ticks encoded so far, by the ticks array itself: the host only appends to it (or replaces it), so
 * a snapshot after an hour more encodes and folds only that hour, and a panel shown again encodes nothing new.
 */
const encoded = new WeakMap<readonly Tick[], { builder: TickColumnsBuilder; totals: RunTotals }>();

function encodedRun(ticks: readonly Tick[]): { columns: TickColumns; totals: RunTotals } {
  let e = encoded.get(ticks);
  if (!e || e.builder.length > ticks.length)
    encoded.set(ticks, (e = { builder: new TickColumnsBuilder(ticks.length), totals: emptyRunTotals() }));
  for (let i = e.builder.length; i < ticks.length; i++) {
    e.builder.append(ticks[i]);
    e.totals = addTickToTotals(e.totals, ticks[i]);
  }
  // A copy: the cached totals go on folding, and a payload already handed out must not change under its reader.
  return { columns: e.builder.snapshot(), totals: structuredClone(e.totals) };
}

/**
 * How a full snapshot carries the active runs' ticks, plainest last: as columns (the usual), as the tick objects in
 * the runs (slower, but nothing to check on arrival), or not at all (each run's totals only; the charts start empty).
 */
export const STATE_TICKS = ['columns', 'plain', 'none'] as const;
export type StateTicks = (typeof STATE_TICKS)[number];

/** The payload of a full snapshot: the active runs' ticks moved into columns (or as `how` says), with their totals. */
export function fullStatePayload(state: PanelState, how: StateTicks = 'columns'): StatePayload {
  const active = state.active;
  if (how === 'plain' || !active || active.runs.every((r) => r.ticks.length === 0)) return { state };
  const ticks: RunTickColumns[] = [];
  const runs = active.runs.map((r) => {
    if (r.ticks.length === 0) return r;
    const { columns, totals } = encodedRun(r.ticks);
    ticks.push({ index: r.index, columns });
    return { ...r, ticks: [], totals };
  });
  return { state: { ...state, active: { ...active, runs } }, ...(how === 'none' ? {} : { ticks: packRuns(ticks) }) };
}

/**
 * The runs' columns as views onto ONE ArrayBuffer. VS Code sends each distinct buffer of a webview message as an RPC
 * argument whose count travels in one byte: past 253 buffers (a few runs of ~80 columns) the rest were dropped on
 * the way, the typed arrays after them arrived empty, and the webview refused the state. One buffer per message,
 * whatever the runs and columns. Offsets are 8-aligned so a Float64Array view is valid wherever it starts.
 */
export function packRuns(runs: RunTickColumns[]): RunTickColumns[] {
  const arrays = runs.flatMap((r) => r.columns.columns.flatMap((c) => (c.state ? [c.values, c.state] : [c.values])));
  const at = (n: number) => Math.ceil(n / 8) * 8;
  const buffer = new ArrayBuffer(arrays.reduce((n, a) => n + at(a.byteLength), 0));
  let offset = 0;
  const place = <A extends ColumnValues>(a: A): A => {
    const view = new (a.constructor as new (b: ArrayBuffer, o: number, n: number) => A)(buffer, offset, a.length);
    view.set(a as never);
    offset += at(a.byteLength);
    return view;
  };
  return runs.map((r) => ({
    index: r.index,
    columns: {
      length: r.columns.length,
      columns: r.columns.columns.map((c) => ({ ...c, values: place(c.values), ...(c.state ? { state: place(c.state) } : {}) })),
    },
  }));
}

/** Checks a state message's ticks on arrival (the webview's side): a malformed list throws, and the message is dropped. */
export function checkStateTicks(raw: unknown): RunTickColumns[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > 10_000) throw new Error('ticks must be a list of runs');
  const seen = new Set<number>();
  return raw.map((r: unknown, j) => {
    const { index, columns } = (r ?? {}) as { index?: unknown; columns?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || seen.has(index))
      throw new Error(`ticks ${j}: a bad run index`);
    seen.add(index);
    return { index, columns: checkTickColumns(columns) };
  });
}
