// The live charts' series store: columns, backfill, and a top-N set that stays put.
import assert from 'node:assert/strict';
import { cleanValues, Column, SeriesSet } from '../../../src/webview/model/series';
import { ColorAssigner } from '../../../src/webview/model/colors';
import { buildSeries, CHART_SPECS, DEFAULT_TOGGLES, WATCH_THROUGHPUT } from '../../../src/webview/model/metrics';
import * as b from '../../helpers/builders';

it('a column grows past its initial size and keeps its values', () => {
  const c = new Column(2);
  for (let i = 0; i < 1000; i++) c.push(i);
  assert.equal(c.length, 1000);
  assert.equal(c.at(999), 999);
  assert.deepEqual([...c.view().subarray(0, 3)], [0, 1, 2]);
});

it('a name seen late is backfilled with zeros, and missing names get zeros', () => {
  const s = new SeriesSet({ maxShown: 5 });
  s.append(1, { a: 1 });
  s.append(2, { a: 2, b: 5 });
  s.append(3, { b: 1 });
  assert.deepEqual([...s.column('a')!.view()], [1, 2, 0]);
  assert.deepEqual([...s.column('b')!.view()], [0, 5, 1]);
  assert.deepEqual([...s.xs.view()], [1, 2, 3]);
  assert.deepEqual(s.shownNames(), ['b', 'a']);
});

it('top-N by cumulative total, stable against near ties', () => {
  const s = new SeriesSet({ maxShown: 2, hysteresis: 1.2 });
  s.append(1, { a: 10, b: 9, c: 8 });
  assert.deepEqual(s.shownNames(), ['a', 'b']);
  s.append(2, { c: 2 }); // c = 10 > b = 9, but not by 20%: b stays
  assert.deepEqual(new Set(s.shownNames()), new Set(['a', 'b']));
  assert.deepEqual(s.hiddenNames(), ['c']);
  s.append(3, { c: 5 }); // c = 15 > 9 * 1.2: c replaces b
  assert.deepEqual(s.shownNames(), ['c', 'a']);
});

it('a loaded history is ranked once, over all of it; live samples after it keep the hysteresis', () => {
  const s = new SeriesSet({ maxShown: 2, hysteresis: 1.2 });
  s.append(1, { a: 10, b: 9, c: 8 }, false);
  s.append(2, { c: 2 }, false); // c = 10 > b = 9: not by 20%, but a batch takes the largest totals of the whole history
  assert.deepEqual(s.shownNames(), [], 'nothing is ranked until the batch ends');
  s.rank();
  assert.deepEqual(s.shownNames(), ['a', 'c']);
  s.append(3, { b: 2 }); // b = 11 > c = 10, not by 20%: c stays
  assert.deepEqual(s.shownNames(), ['a', 'c']);
  // buildSeries is such a batch, so loading the same ticks gives the same set however the shown set moved live.
  const ticks = b.ticks(120, { threads: 16 });
  const live = new SeriesSet({ maxShown: CHART_SPECS.spinlocks.maxShown });
  const built = buildSeries(CHART_SPECS.spinlocks, ticks, DEFAULT_TOGGLES);
  for (const t of ticks) live.append(t.t / 1000, CHART_SPECS.spinlocks.extract(t, DEFAULT_TOGGLES));
  const top = built
    .hiddenNames()
    .concat(built.shownNames())
    .sort((x, y) => built.total(y) - built.total(x))
    .slice(0, CHART_SPECS.spinlocks.maxShown);
  assert.deepEqual(new Set(built.shownNames()), new Set(top));
  assert.equal(built.length, live.length);
  for (const n of top) assert.deepEqual([...(built.column(n)?.view() ?? [])], [...(live.column(n)?.view() ?? [])]);
});

it('fixed series are always shown, in order, whatever their totals', () => {
  const s = new SeriesSet({ maxShown: 2, fixed: ['rows/s', 'transactions/s'] });
  s.append(1, { 'transactions/s': 5, 'rows/s': 1, other: 100 });
  assert.deepEqual(s.shownNames(), ['rows/s', 'transactions/s']);
  assert.equal(s.column('other'), undefined);
});

it('colours: a name keeps its slot while shown; slots stay distinct as names come and go', () => {
  const c = new ColorAssigner(4);
  const first = c.assign(['a', 'b', 'c']);
  assert.equal(new Set(first.values()).size, 3);
  const second = c.assign(['c', 'a', 'd']);
  assert.equal(second.get('a'), first.get('a'));
  assert.equal(second.get('c'), first.get('c'));
  assert.equal(new Set(second.values()).size, 3, 'the newcomer takes a free slot');
});

it('chart specs: rates per second over the interval; benign waits only with show all', () => {
  const ticks = b.ticks(4, { intervalMs: 250 });
  const spins = buildSeries(CHART_SPECS.spinlocks, ticks, DEFAULT_TOGGLES);
  assert.equal(spins.column('XDESMGR')!.at(0), ticks[0].spinlocks.XDESMGR.spins * 4);
  const backoffs = buildSeries(CHART_SPECS.spinlocks, ticks, { ...DEFAULT_TOGGLES, spinMetric: 'backoffs' });
  assert.equal(backoffs.column('XDESMGR')!.at(1), ticks[1].spinlocks.XDESMGR.backoffs * 4);
  const waits = buildSeries(CHART_SPECS.waits, ticks, DEFAULT_TOGGLES);
  assert.equal(waits.column('LAZYWRITER_SLEEP'), undefined);
  const all = buildSeries(CHART_SPECS.waits, ticks, { ...DEFAULT_TOGGLES, showAllWaits: true });
  assert.ok(all.column('LAZYWRITER_SLEEP'));
  const log = buildSeries(CHART_SPECS.log, ticks, DEFAULT_TOGGLES);
  assert.deepEqual(log.shownNames(), ['log flushes/s', 'log bytes/s']);
  const cpu = buildSeries(CHART_SPECS.cpu, ticks, DEFAULT_TOGGLES);
  assert.deepEqual(new Set(cpu.shownNames()), new Set(['node 0', 'node 1']));
  assert.equal(spins.xs.at(0), 0.25, 'x in seconds from the run start');
});

it('the Watch throughput chart: batch requests/s and transactions/s (a watch has no rows/s of its own)', () => {
  const tick = { ...b.tick(0), rowsPerSec: 0, batchRequestsPerSec: 1234, transactionsPerSec: 567 };
  assert.deepEqual(WATCH_THROUGHPUT.extract(tick, DEFAULT_TOGGLES), { 'batch requests/s': 1234, 'transactions/s': 567 });
  const s = buildSeries(WATCH_THROUGHPUT, [tick], DEFAULT_TOGGLES);
  assert.deepEqual(s.shownNames(), ['batch requests/s', 'transactions/s']);
  assert.equal(s.column('rows/s'), undefined);
});

it('cleanValues writes no value as 0 and counts the first sample with one and the total, in sample order', () => {
  const v = Float64Array.from([NaN, Infinity, 2, NaN, 0.1, 0.2, -Infinity]);
  assert.deepEqual(cleanValues(v), { first: 2, total: 2 + 0.1 + 0.2 });
  assert.deepEqual([...v], [0, 0, 2, 0, 0.1, 0.2, 0]);
  assert.deepEqual(cleanValues(Float64Array.from([NaN, NaN])), { first: 2, total: 0 });
});

it('fill() with cleaned values leaves what appending the same samples one by one leaves', () => {
  const xs = [1, 2, 3, 4, 5];
  const rows = { late: [NaN, NaN, 3, 1, 2], early: [1, NaN, 1, 1, 1], never: [NaN, NaN, NaN, NaN, NaN], big: [NaN, 9, 9, 9, 9] };
  const one = new SeriesSet({ maxShown: 2, maxBuckets: 2 });
  xs.forEach((x, i) => {
    const sample: Record<string, number> = {};
    for (const [n, vals] of Object.entries(rows)) if (Number.isFinite(vals[i])) sample[n] = vals[i];
    one.append(x, sample, false);
  });
  one.rank();
  const filled = new SeriesSet({ maxShown: 2, maxBuckets: 2 });
  filled.fill(
    Float64Array.from(xs),
    Object.entries(rows).map(([name, vals]) => {
      const values = Float64Array.from(vals);
      return { name, values, ...cleanValues(values) };
    }),
    true,
  );
  const seen = (s: SeriesSet) => ({
    shown: s.shownNames(),
    hidden: s.hiddenNames().sort(),
    columns: ['late', 'early', 'big', 'never'].map((n) => (s.column(n) ? [...s.column(n)!.view()] : null)),
    totals: ['late', 'early', 'big'].map((n) => s.total(n)),
    buckets: ['late', 'early', 'big'].map((n) => {
      const out: { x: number; y: number }[] = [];
      s.buckets.writePoints(s.bucketColumn(n)!, 0, out);
      return out;
    }),
  });
  assert.deepEqual(seen(filled), seen(one));
  assert.throws(() => filled.fill([6], [], false), /empty/);
});
