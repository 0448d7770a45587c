// Arms of a preset compared at the thread counts both ran, the summary kept to figures that matter, and the arms'
// scaling curves overlaid with wait ms per row.
import assert from 'node:assert/strict';
import { compareArms, figuresThatMatter, overlayScaling, type ArmRun } from '../../src/shared/armAnalysis';
import { compareRuns, emptyRunTotals, runFigures } from '../../src/shared/analysis';
import type { RunTotals } from '../../src/shared/experiment';

function run(
  arm: string,
  threads: number,
  o: { rows: number; ms?: number; spins?: Record<string, number>; waits?: Record<string, number>; status?: string },
): ArmRun {
  const totals: RunTotals = { ...emptyRunTotals(), elapsedMs: o.ms ?? 1000, rows: o.rows, transactions: o.rows / 2 };
  for (const [k, v] of Object.entries(o.spins ?? {}))
    totals.spinlocks[k] = { spins: v, collisions: v / 100, backoffs: v / 1000, sleepTime: 0 };
  for (const [k, v] of Object.entries(o.waits ?? {})) totals.waits[k] = { waitMs: v, count: v, signalMs: 0 };
  return { arm: { id: arm, label: arm }, threads, status: o.status ?? 'completed', totals, latency: null };
}

it('compareArms pairs the thread counts both arms completed, fewest first, with a summary from the numbers', () => {
  const runs = [
    run('lw', 10, { rows: 1000, spins: { LOGCACHE_ACCESS: 10_000 } }),
    run('lw', 20, { rows: 1000, spins: { LOGCACHE_ACCESS: 20_000 } }),
    run('other', 10, { rows: 600, ms: 1000, spins: { LOGCACHE_ACCESS: 27_000 } }),
    run('other', 20, { rows: 0 }),
    run('other', 30, { rows: 500 }),
  ];
  const at = compareArms(runs, 'lw', 'other');
  assert.deepEqual(
    at.map((x) => x.threads),
    [10],
  );
  const f = at[0].comparison.figures.find((x) => x.key === 'spinsPerRow:LOGCACHE_ACCESS')!;
  assert.deepEqual([f.a, f.b, f.changePct], [10, 45, 350]);
  assert.ok(
    at[0].summary.some((s) => /LOGCACHE_ACCESS spins per row 4.5x higher in run B \(45 vs 10\)/.test(s)),
    at[0].summary.join(' | '),
  );
  assert.ok(at[0].summary.some((s) => /Throughput 40% lower in run B/.test(s)));
  assert.ok(!at[0].summary.some((s) => /backoffs/.test(s)), 'backoffs are left to the table');
});

it("figuresThatMatter drops a spinlock far below the leader and a wait that is a negligible share of the sessions' time", () => {
  const a = runFigures(run('a', 4, { rows: 1000, spins: { XDESMGR: 100_000 }, waits: { WRITELOG: 2000 } }));
  const b = runFigures(
    run('b', 4, { rows: 1000, spins: { XDESMGR: 100_000, LOGFLUSHQ: 50 }, waits: { WRITELOG: 1, SOS_SCHEDULER_YIELD: 1 } }),
  );
  const keys = figuresThatMatter(compareRuns(a, b).figures, a, b).map((f) => f.key);
  assert.ok(keys.includes('spinsPerRow:XDESMGR'));
  assert.ok(!keys.includes('spinsPerRow:LOGFLUSHQ'), 'LOGFLUSHQ is 0.05% of XDESMGR');
  assert.ok(keys.includes('waitMsPerRow:WRITELOG'), "WRITELOG is half the sessions' time in A");
  assert.ok(!keys.includes('waitMsPerRow:SOS_SCHEDULER_YIELD'), '1 ms of 4,000');
  assert.ok(keys.includes('rowsPerSec'));
});

it('overlayScaling: one curve per arm on a shared thread axis, with wait ms per row', () => {
  const runs = [
    run('seq', 1, { rows: 100, waits: { LATCH_SH: 10 }, spins: { X: 5 } }),
    run('seq', 4, { rows: 200, waits: { LATCH_SH: 100 }, spins: { X: 50 } }),
    run('id', 1, { rows: 150, spins: { Y: 3 } }),
    run('id', 8, { rows: 900, spins: { Y: 90 } }),
  ];
  const ov = overlayScaling(
    'e1',
    [
      { id: 'seq', label: 'sequence' },
      { id: 'id', label: 'identity' },
    ],
    runs,
  );
  assert.deepEqual(ov.threads, [1, 4, 8]);
  assert.deepEqual(
    ov.arms.map((a) => a.curve.points.map((p) => p.threads)),
    [
      [1, 4],
      [1, 8],
    ],
  );
  assert.deepEqual(ov.arms[0].waitMsPerRow, { 1: 0.1, 4: 0.5 });
  assert.deepEqual(ov.arms[1].waitMsPerRow, { 1: 0, 8: 0 });
  assert.equal(ov.arms[1].curve.peak?.threads, 8);
  assert.match(ov.arms[1].summary, /Throughput peaks at 8 threads \(900 rows\/s\)/);
  assert.deepEqual(ov.spinlocks.sort(), ['X', 'Y']);
});
