// shared/analysis: figures of a run (from totals or ticks), % change, comparison summaries built from the numbers,
// and the scaling curve of a sweep.
import assert from 'node:assert/strict';
import {
  addTickToTotals,
  compareRuns,
  emptyRunTotals,
  formatNumber,
  percentChange,
  runFigures,
  scalingCurve,
  summarizeComparison,
  summarizeScaling,
  topNames,
} from '../../src/shared/analysis';
import * as b from '../helpers/builders';

it('figures from a finished record equal the figures from its ticks', () => {
  const r = b.runRecord(0, 4, { ticks: 20 });
  const fromRecord = runFigures(r);
  const fromTicks = runFigures({ threads: 4, status: 'completed', ticks: r.timeline });
  assert.deepEqual(fromTicks, fromRecord);
  assert.equal(fromRecord.rows, r.rows);
  assert.equal(fromRecord.elapsedSec, 20);
  assert.ok(Math.abs(fromRecord.rowsPerSec - r.derived.rowsPerSec) < 1e-9, 'rows/s as the engine derives it');
  assert.ok(Math.abs(fromRecord.spinsPerRow.LOGCACHE_ACCESS - r.derived.spinsPerRow.LOGCACHE_ACCESS) < 1e-12);
  assert.ok(!('LAZYWRITER_SLEEP' in fromRecord.waitMsPerRow), 'benign waits are not per-row figures');
  assert.ok(fromRecord.waitMsPerRow.WRITELOG > 0);
  assert.equal(fromRecord.p99Us, null, 'no latency in a server-loop run');
});

it("a finished run's rows and rows/s are its record's, however its ticks counted: one figure for every view", () => {
  // The sessions' exact count is in rows; the ticks left out the closing sliver's rows, so their sum is lower.
  const r = b.runRecord(0, 4, { ticks: 10 });
  const rec = { ...r, rows: r.totals.rows + 190, derived: { ...r.derived, rowsPerSec: (r.totals.rows + 190) / 10 } };
  const f = runFigures(rec);
  assert.equal(f.rowsPerSec, rec.derived.rowsPerSec);
  assert.equal(f.rows, rec.rows);
  assert.equal(f.spinsPerRow.LOGCACHE_ACCESS, r.totals.spinlocks.LOGCACHE_ACCESS.spins / rec.rows, 'per row over the same rows');
  // While it runs there is no record: the ticks so far, by the same definition (count over the server-timed span).
  const live = runFigures({ threads: 4, status: 'running', totals: r.totals });
  assert.equal(live.rowsPerSec, r.totals.rows / (r.totals.elapsedMs / 1000));
});

it('transactions per second does not apply to natively compiled procedures: null, n/a in the comparison, no verdict', () => {
  const a = runFigures({ ...b.runRecord(0, 4, { ticks: 10 }), nativeProcedures: true });
  const bb = runFigures(b.runRecord(1, 4, { ticks: 10 }));
  assert.equal(a.transactionsPerSec, null);
  assert.ok(bb.transactionsPerSec !== null && bb.transactionsPerSec > 0);
  const c = compareRuns(a, bb);
  const tx = c.figures.find((x) => x.key === 'transactionsPerSec')!;
  assert.equal(tx.changePct, null);
  assert.match(tx.note ?? '', /natively compiled/);
  assert.ok(!c.summary.some((s) => /^Transactions .*(higher|lower)/.test(s)), c.summary.join('\n'));
  assert.ok(
    c.summary.some((s) => /Transactions tx\/s, run A: n\/a: natively compiled/.test(s)),
    c.summary.join('\n'),
  );
});

it('running totals fold tick by tick', () => {
  const ticks = b.ticks(3);
  const t = ticks.reduce(addTickToTotals, emptyRunTotals());
  assert.equal(t.rows, ticks[0].rows + ticks[1].rows + ticks[2].rows);
  assert.equal(
    t.spinlocks.XDESMGR.spins,
    ticks.reduce((s, x) => s + x.spinlocks.XDESMGR.spins, 0),
  );
  assert.equal(t.elapsedMs, 3000);
});

it('percentChange: relative to A, null from zero', () => {
  assert.equal(percentChange(100, 150), 50);
  assert.equal(percentChange(200, 50), -75);
  assert.equal(percentChange(0, 5), null);
  assert.equal(percentChange(null, 5), null);
});

it('topNames ranks by the sum over records and drops zeros', () => {
  assert.deepEqual(
    topNames(
      [
        { a: 1, b: 5 },
        { a: 10, c: 0 },
      ],
      5,
    ),
    ['a', 'b'],
  );
  assert.deepEqual(topNames([{ a: 1, b: 5 }], 1), ['b']);
});

it('a comparison says which figure changed most, with the numbers behind it', () => {
  const a = runFigures(b.runRecord(0, 8, { ticks: 10, contention: 1 }));
  const bb = runFigures(b.runRecord(1, 8, { ticks: 10, contention: 4.3 }));
  const cmp = compareRuns(a, bb);
  const spins = cmp.figures.find((f) => f.key === 'spinsPerRow:LOGCACHE_ACCESS');
  assert.ok(spins && spins.changePct !== null && spins.changePct > 200);
  const line = cmp.summary.find((s) => s.startsWith('LOGCACHE_ACCESS spins per row'));
  assert.ok(line, cmp.summary.join('\n'));
  const m = /LOGCACHE_ACCESS spins per row ([\d.]+)x higher in run B \(([\d.,]+) vs ([\d.,]+)\)/.exec(line);
  assert.ok(m, line);
  const ratio = (spins.b as number) / (spins.a as number);
  assert.equal(m[1], ratio.toFixed(1), 'the ratio in words is the ratio of the numbers');
  assert.ok(!cmp.summary.some((s) => s.startsWith('Run A used')), 'same thread count: not mentioned');
});

it('a comparison of identical runs says nothing changed', () => {
  const a = runFigures(b.runRecord(0, 2));
  assert.deepEqual(compareRuns(a, a).summary, ['No figure differs by more than 5% between the two runs.']);
});

it('summaries name throughput first and say when a figure appears only in one run', () => {
  const lines = summarizeComparison([
    { key: 'threads', label: 'Threads', unit: '', a: 1, b: 8, changePct: 700, direction: 'higher-better' },
    { key: 'spinsPerRow:X', label: 'X spins per row', unit: 'spins/row', a: 0, b: 2, changePct: null, direction: 'lower-better' },
    { key: 'rowsPerSec', label: 'Throughput', unit: 'rows/s', a: 1000, b: 620, changePct: -38, direction: 'higher-better' },
  ]);
  assert.deepEqual(lines, [
    'Run A used 1 thread, run B 8.',
    'Throughput 38% lower in run B (620 vs 1,000 rows/s).',
    'X spins per row: only in run B (2 vs 0).',
  ]);
});

it('the scaling curve is sorted by threads, names the peak and the top spinlocks', () => {
  const e = b.experiment('e', [8, 1, 4, 2]);
  const c = scalingCurve(e);
  assert.deepEqual(
    c.points.map((p) => p.threads),
    [1, 2, 4, 8],
  );
  assert.equal(c.topSpinlocks[0], 'LOGCACHE_ACCESS');
  assert.equal(c.peak?.threads, 8);
  assert.ok(c.points[3].spinsPerRow > c.points[0].spinsPerRow, 'spins per row grow with threads in the builder');
  const text = summarizeScaling(c);
  assert.match(
    text,
    /^Throughput peaks at 8 threads \([\d,]+ rows\/s\); 1 → 8 threads gives [\d.]+x the rows\/s for 8\.0x the threads \(1 run per thread count: no interval\); spins per row [\d.]+x higher at 8\.$/,
  );
  assert.equal(summarizeScaling({ ...c, points: [] }), 'No completed runs with rows yet.');
});

it('formatNumber: grouped above 1000, 3 significant digits below', () => {
  assert.equal(formatNumber(12345.6), '12,346');
  assert.equal(formatNumber(4.2567), '4.26');
  assert.equal(formatNumber(0.012345), '0.012');
  assert.equal(formatNumber(0), '0');
});
