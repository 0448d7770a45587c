import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeTick } from '../../src/engine/deltas';
import { addTick, computeDerived, cpusUsedFromTicks, emptyTotals, foldTicks, measureClock } from '../../src/engine/totals';
import type { Tick } from '../../src/shared/experiment';
import { DB, sample } from './samples';

function ticks(): Tick[] {
  const s = [
    sample({
      msTicks: 1000,
      spins: { LOGCACHE_ACCESS: 100 },
      transactions: 0,
      flushes: 0,
      bytesFlushed: 0,
      cpu: [
        [0, 0],
        [0, 0],
      ],
      rows: { T: [0, 0] },
    }),
    sample({
      msTicks: 2000,
      spins: { LOGCACHE_ACCESS: 1100, LOCK_HASH: 20 },
      waits: { WRITELOG: [10, 40], LAZYWRITER_SLEEP: [1, 1000] },
      transactions: 500,
      flushes: 10,
      bytesFlushed: 4096,
      cpu: [
        [0, 900],
        [0, 800],
      ],
      rows: { T: [1000, 0] },
    }),
    sample({
      msTicks: 3000,
      spins: { LOGCACHE_ACCESS: 3100, LOCK_HASH: 20 },
      waits: { WRITELOG: [30, 100], LAZYWRITER_SLEEP: [2, 2000] },
      latches: { LOG_MANAGER: [2, 4] },
      transactions: 1000,
      flushes: 30,
      bytesFlushed: 8192,
      cpu: [
        [0, 1900],
        [0, 1700],
      ],
      rows: { T: [2000, 0] },
    }),
  ];
  const ctx = { labDatabase: DB, progressTables: ['T'], runStartMsTicks: 1000 };
  return [1, 2].map((i) => {
    const r = computeTick(s[i - 1], s[i], ctx);
    assert.equal(r.kind, 'tick');
    return (r as { tick: Tick }).tick;
  });
}

it('fold: counts add up across ticks', () => {
  const totals = foldTicks(ticks());
  assert.equal(totals.elapsedMs, 2000);
  assert.equal(totals.rows, 2000);
  assert.equal(totals.transactions, 1000);
  assert.equal(totals.logFlushes, 30);
  assert.equal(totals.logBytesFlushed, 8192);
  assert.equal(totals.cpuMs, 3600);
  assert.deepEqual(totals.spinlocks.LOGCACHE_ACCESS, { spins: 3000, collisions: 300, backoffs: 30, sleepTime: 0 });
  assert.deepEqual(totals.spinlocks.LOCK_HASH, { spins: 20, collisions: 2, backoffs: 0, sleepTime: 0 });
  assert.deepEqual(totals.waits.WRITELOG, { count: 30, waitMs: 100, signalMs: 10 });
  assert.deepEqual(totals.latches, { LOG_MANAGER: { count: 2, waitMs: 4 } });
  assert.equal(cpusUsedFromTicks(ticks()), 2);
});

it('addTick accumulates the same as foldTicks', () => {
  const acc = emptyTotals();
  for (const t of ticks()) addTick(acc, t);
  assert.deepEqual(acc, foldTicks(ticks()));
});

it('derived: per-row figures, benign waits excluded', () => {
  const d = computeDerived(foldTicks(ticks()), { cpusUsed: 2 });
  assert.equal(d.rowsPerSec, 1000);
  assert.deepEqual(d.spinsPerRow, { LOGCACHE_ACCESS: 1.5, LOCK_HASH: 0.01 });
  assert.deepEqual(d.backoffsPerRow, { LOGCACHE_ACCESS: 0.015, LOCK_HASH: 0 });
  assert.deepEqual(d.waitMsPerRow, { WRITELOG: 0.05 });
  assert.equal(d.clockHz, null, 'no raw samples given: no clock rate');
  assert.equal(d.cyclesAvailable, null);
  assert.deepEqual(d.cyclesPerSpin, {});
  assert.equal(d.cyclesPerRow, null);
});

it("doing the math reproduces seed 000's arithmetic", () => {
  // Seed 000, Hekaton test on NUMA node 0: 10.434 s x 5 cores x 240,000,000 cycles/s = 12,520,800,000 cycles;
  // 113,246,628 LOGCACHE_ACCESS spins -> 111 cycles per spin "to the nearest whole spin".
  const totals = emptyTotals();
  totals.rows = 2_500_000 * 10;
  totals.spinlocks.LOGCACHE_ACCESS = { spins: 113_246_628, collisions: 0, backoffs: 0, sleepTime: 0 };
  const first = { msTicks: 50_000, cpuTicks: 50_000 * 240_000, startTime: 's' };
  const last = { msTicks: 60_434, cpuTicks: 60_434 * 240_000, startTime: 's' };
  const d = computeDerived(totals, { cpusUsed: 5, elapsedMs: 10_434, first, last });
  assert.equal(d.clockHz, 240_000_000);
  assert.deepEqual(d.clock, { cpuTicksDelta: 10_434 * 240_000, msTicksDelta: 10_434 });
  assert.equal(d.elapsedSec, 10.434);
  assert.equal(d.cyclesAvailable, 12_520_800_000);
  assert.equal(Math.round(d.cyclesPerSpin.LOGCACHE_ACCESS), 111);
  assert.equal(d.cyclesPerRow, 12_520_800_000 / 25_000_000);
});

it('no clock rate across a restart or without movement', () => {
  assert.equal(measureClock({ msTicks: 1, cpuTicks: 1, startTime: 'a' }, { msTicks: 9, cpuTicks: 9, startTime: 'b' }), null);
  assert.equal(measureClock({ msTicks: 5, cpuTicks: 1, startTime: 'a' }, { msTicks: 5, cpuTicks: 9, startTime: 'a' }), null);
});

it('zero rows and zero elapsed give zeros and empty maps, never NaN or Infinity', () => {
  const d = computeDerived(emptyTotals(), { cpusUsed: 4 });
  assert.equal(d.rowsPerSec, 0);
  assert.deepEqual(d.spinsPerRow, {});
  assert.equal(d.cyclesPerRow, null);
  assert.ok(JSON.stringify(d).indexOf('null') >= 0 && !/NaN|Infinity/.test(JSON.stringify(d)));
});

it('property: fold is additive (fold(a ++ b) = fold(a) + fold(b))', () => {
  const tick = fc.record({
    intervalMs: fc.integer({ min: 1, max: 5000 }),
    rows: fc.nat(1e6),
    spins: fc.dictionary(fc.constantFrom('A', 'B', 'C'), fc.nat(1e6)),
  });
  const toTick = (x: { intervalMs: number; rows: number; spins: Record<string, number> }): Tick => ({
    ...ticks()[0],
    intervalMs: x.intervalMs,
    rows: x.rows,
    spinlocks: Object.fromEntries(Object.entries(x.spins).map(([k, v]) => [k, { spins: v, collisions: 0, backoffs: 0, sleepTime: 0 }])),
  });
  fc.assert(
    fc.property(fc.array(tick, { maxLength: 10 }), fc.array(tick, { maxLength: 10 }), (a, b) => {
      const all = foldTicks([...a, ...b].map(toTick));
      const fa = foldTicks(a.map(toTick));
      const fb = foldTicks(b.map(toTick));
      assert.equal(all.elapsedMs, fa.elapsedMs + fb.elapsedMs);
      assert.equal(all.rows, fa.rows + fb.rows);
      for (const k of ['A', 'B', 'C']) {
        assert.equal(all.spinlocks[k]?.spins ?? 0, (fa.spinlocks[k]?.spins ?? 0) + (fb.spinlocks[k]?.spins ?? 0));
      }
    }),
  );
});
