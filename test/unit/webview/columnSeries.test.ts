// The live charts read a snapshot's tick columns directly (model/columnSeries.ts): every chart's series must be the
// very series extract() builds from the same ticks as objects, toggles included, and a run loaded from columns must
// hold the same ticks and totals as one loaded from objects.
import assert from 'node:assert/strict';
import type { Tick } from '../../../src/shared/experiment';
import { encodeTicks } from '../../../src/shared/tickColumns';
import { fullStatePayload } from '../../../src/shared/stateSnapshot';
import { appendRange } from '../../../src/webview/model/columnSeries';
import { LiveRuns } from '../../../src/webview/model/liveRuns';
import { RunTicks } from '../../../src/webview/model/runTicks';
import {
  buildSeries,
  CHART_KINDS,
  CHART_SPECS,
  newSeries,
  WATCH_THROUGHPUT,
  type ChartSpec,
  type ChartToggles,
} from '../../../src/webview/model/metrics';
import type { SeriesSet } from '../../../src/webview/model/series';
import * as b from '../../helpers/builders';

/** What a chart draws from a series: its shown names, every column, the totals and the live view's buckets. */
function drawn(s: SeriesSet) {
  const names = s.shownNames();
  const points = (n: string) => {
    const out: { x: number; y: number }[] = [];
    s.buckets.writePoints(s.bucketColumn(n)!, 0, out);
    return out;
  };
  return {
    names,
    hidden: s.hiddenNames().sort(),
    xs: [...s.xs.view()],
    columns: names.map((n) => [...s.column(n)!.view()]),
    totals: names.map((n) => s.total(n)),
    points: names.map(points),
  };
}

/** Ticks whose entries come and go, with an empty interval and a wait that never completed. */
function ticks(): Tick[] {
  return b.ticks(700, { threads: 12 }).map((t, i) => ({
    ...t,
    ...(i === 50 ? { intervalMs: 0 } : {}),
    waits: { ...t.waits, ...(i % 9 === 0 ? { CXPACKET: { waitMs: 40, count: 0, signalMs: 0 } } : {}) },
  }));
}

const TOGGLES: ChartToggles[] = [
  { spinMetric: 'spins', showAllWaits: false },
  { spinMetric: 'backoffs', showAllWaits: true },
];

it('every chart built from columns draws what it draws from Tick objects, with either toggle', () => {
  const ts = ticks();
  const store = new RunTicks();
  store.load(encodeTicks(ts));
  const specs: ChartSpec[] = [...CHART_KINDS.map((k) => CHART_SPECS[k]), WATCH_THROUGHPUT];
  for (const t of TOGGLES)
    for (const spec of specs) {
      const fromCols = newSeries(spec, 64);
      appendRange(fromCols, spec, store, 0, ts.length, t);
      assert.deepEqual(drawn(fromCols), drawn(buildSeries(spec, ts, t, 64)), `${spec.kind} ${JSON.stringify(t)}`);
    }
});

it('columns then live ticks, appended in parts, draw what the whole run as objects draws', () => {
  const ts = ticks();
  const store = new RunTicks();
  store.load(encodeTicks(ts.slice(0, 500)));
  for (const t of ts.slice(500)) store.push(t);
  const spec = CHART_SPECS.spinlocks;
  const s = newSeries(spec, 64);
  appendRange(s, spec, store, 0, 300, TOGGLES[0]);
  appendRange(s, spec, store, 300, 600, TOGGLES[0]);
  appendRange(s, spec, store, 600, ts.length, TOGGLES[0]);
  const whole = newSeries(spec, 64);
  appendRange(whole, spec, { columns: null, at: (i: number) => ts[i] } as unknown as RunTicks, 0, 300, TOGGLES[0]);
  appendRange(whole, spec, { columns: null, at: (i: number) => ts[i] } as unknown as RunTicks, 300, 600, TOGGLES[0]);
  appendRange(whole, spec, { columns: null, at: (i: number) => ts[i] } as unknown as RunTicks, 600, ts.length, TOGGLES[0]);
  assert.deepEqual(drawn(s), drawn(whole));
  assert.deepEqual(store.all(), ts);
  assert.deepEqual(store.last(), ts.at(-1));
});

it('a run loaded from a full snapshot holds the ticks and totals a snapshot of objects gives', () => {
  const ts = ticks();
  const active = {
    experimentId: 'e1',
    title: 'x',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'running' as const,
    message: '',
    events: [],
    runs: [{ index: 0, threads: 12, status: 'running' as const, ticks: ts }],
  };
  const objects = new LiveRuns();
  objects.loadSnapshot(active);
  const p = fullStatePayload(b.connectedState({ active }));
  const columns = new LiveRuns();
  assert.deepEqual(columns.loadSnapshot(p.state.active, p.ticks), [
    { kind: 'reset' },
    { kind: 'run', index: 0 },
    { kind: 'ticks', index: 0, from: 0 },
  ]);
  const [a, c] = [objects.runs.get(0)!, columns.runs.get(0)!];
  assert.deepEqual(c.totals, a.totals);
  assert.equal(c.store.length, ts.length);
  assert.ok(c.store.columns, 'held as columns until a view reads the ticks');
  assert.deepEqual(c.ticks, a.ticks);
  // A live tick after it, and the same snapshot again, as they would come.
  const next = b.tick(ts.length, { threads: 12 });
  assert.ok(columns.tick('e1', 0, next));
  assert.equal(c.store.length, ts.length + 1);
  assert.deepEqual(columns.loadSnapshot(p.state.active, p.ticks), []);
  assert.equal(c.ticks.length, ts.length + 1);
});
