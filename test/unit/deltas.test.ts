import assert from 'node:assert/strict';
import fc from 'fast-check';
import { closingActiveMs, computeTick, type TickContext, type TickResult } from '../../src/engine/deltas';
import type { Tick } from '../../src/shared/experiment';
import { counter, DB, sample, type SampleSpec } from './samples';

const ctx: TickContext = { labDatabase: DB, progressTables: ['dbo.MyBigTable'], runStartMsTicks: 10_000 };

function tickOf(r: TickResult): Tick {
  assert.equal(r.kind, 'tick', r.kind === 'tick' ? '' : r.message);
  return (r as Extract<TickResult, { kind: 'tick' }>).tick;
}

it('deltas and rates over the server interval, only entries that moved', () => {
  const prev = sample({
    msTicks: 11_000,
    spins: { LOGCACHE_ACCESS: 1000, LOCK_HASH: 50, IDLE: 7 },
    waits: { WRITELOG: [10, 100], LAZYWRITER_SLEEP: [5, 5000] },
    latches: { ACCESS_METHODS_HOBT_VIRTUAL_ROOT: [1, 1] },
    transactions: 5000,
    writeTransactions: 4000,
    batches: 7000,
    flushes: 300,
    bytesFlushed: 1_000_000,
    flushWaits: 20,
    flushWaitTime: 40,
    logFile: { writes: 100, bytesWritten: 1_000_000, ioStallWriteMs: 50 },
    cpu: [
      [0, 1000],
      [0, 1000],
      [1, 500],
      [1, 500],
    ],
    rows: { 'dbo.MyBigTable': [1000, 10], 'dbo.Other': [5, 5] },
  });
  const cur = sample({
    msTicks: 13_000, // 2 s later on the server
    spins: { LOGCACHE_ACCESS: 21_000, LOCK_HASH: 50, IDLE: 7, XDESMGR: 300 },
    waits: { WRITELOG: [30, 160], LAZYWRITER_SLEEP: [7, 7000] },
    latches: { ACCESS_METHODS_HOBT_VIRTUAL_ROOT: [1, 1] },
    transactions: 7000,
    writeTransactions: 5000,
    batches: 9000,
    flushes: 500,
    bytesFlushed: 3_000_000,
    flushWaits: 60,
    flushWaitTime: 100,
    logFile: { writes: 140, bytesWritten: 3_000_000, ioStallWriteMs: 70 },
    cpu: [
      [0, 3000],
      [0, 2000],
      [1, 600],
      [1, 500],
    ],
    rows: { 'dbo.MyBigTable': [5000, 30], 'dbo.Other': [500, 5] },
    pendingLog: 3,
  });
  cur.clientTime = prev.clientTime + 5000; // a slow round trip: must not matter
  const t = tickOf(computeTick(prev, cur, ctx));
  assert.equal(t.t, 3000);
  assert.equal(t.intervalMs, 2000);
  assert.deepEqual(t.spinlocks, {
    LOGCACHE_ACCESS: { spins: 20_000, collisions: 2000, backoffs: 200, sleepTime: 0 },
    XDESMGR: { spins: 300, collisions: 30, backoffs: 3, sleepTime: 0 }, // new row: counted from 0
  });
  assert.deepEqual(t.waits, {
    WRITELOG: { count: 20, waitMs: 60, signalMs: 6 },
    LAZYWRITER_SLEEP: { count: 2, waitMs: 2000, signalMs: 200 }, // benign waits are kept; views filter
  });
  assert.deepEqual(t.latches, {}, 'a latch that did not move is dropped');
  assert.equal(t.rows, 4020, 'only the scenario table counts');
  assert.equal(t.rowsPerSec, 2010);
  assert.equal(t.transactions, 2000);
  assert.equal(t.transactionsPerSec, 1000, 'not the tempdb instance of the same counter');
  assert.equal(t.writeTransactionsPerSec, 500);
  assert.equal(t.batchRequestsPerSec, 1000);
  assert.deepEqual(t.log, {
    flushes: 200,
    bytesFlushed: 2_000_000,
    flushesPerSec: 100,
    bytesFlushedPerSec: 1_000_000,
    flushWaitsPerSec: 20,
    flushWaitTimeMs: 60,
    avgWriteStallMs: 0.5,
  });
  // node 0: 3000 ms busy over 2 schedulers x 2000 ms; node 1: 100 ms over 2 x 2000 ms
  assert.deepEqual(t.cpuByNode, { '0': 75, '1': 2.5 });
  assert.equal(t.cpuMs, 3100);
  assert.equal(t.onlineSchedulers, 4);
  assert.equal(t.runnableTasks, 4);
  assert.equal(t.pendingLogIo, 3);
  assert.equal(t.gap, undefined);
});

it('a closing interval is rated over the part with load in it, not the idle tail after the sessions stopped', () => {
  // 1000 rows and 5000 spins in the 250 ms the load still ran; the final sample came 1000 ms after the last tick.
  const prev = sample({ msTicks: 11_000, spins: { LOGCACHE_ACCESS: 0 }, transactions: 0, rows: { 'dbo.MyBigTable': [0, 0] } });
  const cur = sample({ msTicks: 12_000, spins: { LOGCACHE_ACCESS: 5000 }, transactions: 500, rows: { 'dbo.MyBigTable': [1000, 0] } });
  const t = tickOf(computeTick(prev, cur, { ...ctx, activeMs: 250 }));
  assert.equal(t.intervalMs, 250);
  assert.equal(t.t, 1250, 'the tick ends where the load ended');
  assert.equal(t.rowsPerSec, 4000, 'not 1000/s over the whole second');
  assert.equal(t.transactionsPerSec, 2000);
  assert.equal(t.rows, 1000, 'the deltas themselves are unchanged');
  // An active part longer than the server's interval (clock skew) never stretches it.
  assert.equal(tickOf(computeTick(prev, cur, { ...ctx, activeMs: 5000 })).intervalMs, 1000);
});

it('a closing sliver too short to rate is left out; a real partial interval is kept', () => {
  assert.equal(closingActiveMs(10_000, 10_020, 1000), null, '20 ms of a 1 s interval');
  assert.equal(closingActiveMs(10_000, 9_990, 1000), null, 'the load ended before the last tick');
  assert.equal(closingActiveMs(10_000, 10_400, 1000), 400);
  assert.equal(closingActiveMs(10_000, 10_250, 1000), 250);
});

it('the gap flag is carried; no log file means no write stall', () => {
  const t = tickOf(computeTick(sample({ msTicks: 11_000 }), sample({ msTicks: 12_000 }), { ...ctx, gap: true }));
  assert.equal(t.gap, true);
  assert.equal(t.log.avgWriteStallMs, null);
  assert.equal(t.rowsPerSec, 0);
});

it('an interval with log file but no writes has no average stall rather than 0/0', () => {
  const lf = { writes: 10, bytesWritten: 100, ioStallWriteMs: 5 };
  const t = tickOf(computeTick(sample({ msTicks: 11_000, logFile: lf }), sample({ msTicks: 12_000, logFile: lf }), ctx));
  assert.equal(t.log.avgWriteStallMs, null);
});

it('missing counters are warned about, not invented', () => {
  const r = computeTick(sample({ msTicks: 11_000 }), sample({ msTicks: 12_000 }), ctx);
  assert.equal(r.kind, 'tick');
  if (r.kind !== 'tick') return;
  assert.equal(r.tick.transactionsPerSec, 0);
  assert.ok(
    r.warnings.some((w) => w.includes("'Transactions/sec'") && w.includes(DB)),
    r.warnings.join('\n'),
  );
});

it('a changed start time is a server restart', () => {
  const r = computeTick(
    sample({ msTicks: 11_000, spins: { A: 10 } }),
    sample({ msTicks: 900_000, spins: { A: 20 }, startTime: '2024-02-02T00:00:00.000Z' }),
    ctx,
  );
  assert.equal(r.kind, 'restart');
  if (r.kind !== 'restart') return;
  assert.equal(r.cause, 'server-restart');
  assert.match(r.message, /restarted/);
  assert.match(r.message, /2024-02-02/);
});

it('ms_ticks going backwards is a server restart', () => {
  const r = computeTick(sample({ msTicks: 11_000 }), sample({ msTicks: 500 }), ctx);
  assert.equal(r.kind, 'restart');
  assert.equal(r.kind === 'restart' && r.cause, 'server-restart');
});

it('the same ms_ticks twice is skipped, not divided by zero', () => {
  const r = computeTick(sample({ msTicks: 11_000 }), sample({ msTicks: 11_000 }), ctx);
  assert.equal(r.kind, 'skip');
});

it('a spinlock going backwards is a counter reset naming it, never a negative delta', () => {
  const r = computeTick(
    sample({ msTicks: 11_000, spins: { LOGCACHE_ACCESS: 1000, B: 5 } }),
    sample({ msTicks: 12_000, spins: { LOGCACHE_ACCESS: 10, B: 6 } }),
    ctx,
  );
  assert.equal(r.kind, 'restart');
  if (r.kind !== 'restart') return;
  assert.equal(r.cause, 'counter-reset');
  assert.ok(
    r.counters.some((c) => c.includes('LOGCACHE_ACCESS.spins 1000 -> 10')),
    r.counters.join('; '),
  );
  assert.match(r.message, /DBCC SQLPERF/);
});

it('a wait row that disappears fell to zero: a reset', () => {
  const r = computeTick(sample({ msTicks: 11_000, waits: { WRITELOG: [3, 3] } }), sample({ msTicks: 12_000, waits: {} }), ctx);
  assert.equal(r.kind === 'restart' && r.cause, 'counter-reset');
  assert.ok(r.kind === 'restart' && r.counters[0].includes('WRITELOG'));
});

it('a perf counter or table counter going backwards is a reset', () => {
  const r1 = computeTick(sample({ msTicks: 11_000, transactions: 50 }), sample({ msTicks: 12_000, transactions: 3 }), ctx);
  assert.equal(r1.kind === 'restart' && r1.cause, 'counter-reset');
  const r2 = computeTick(
    sample({ msTicks: 11_000, rows: { MyBigTable: [100, 0] } }),
    sample({ msTicks: 12_000, rows: { MyBigTable: [2, 0] } }),
    ctx,
  );
  assert.equal(r2.kind === 'restart' && r2.cause, 'counter-reset');
});

it('table names match with or without schema and brackets', () => {
  const t = tickOf(
    computeTick(
      sample({ msTicks: 11_000, rows: { '[dbo].[MyBigTable]': [0, 0] } }),
      sample({ msTicks: 12_000, rows: { '[dbo].[MyBigTable]': [10, 5] } }),
      { ...ctx, progressTables: ['MYBIGTABLE'] },
    ),
  );
  assert.equal(t.rows, 15);
});

it('cntr_type is read at run time: point-in-time Log Flush Wait Time is taken as is', () => {
  const mk = (ms: number, v: number) => {
    const s = sample({ msTicks: ms });
    s.counters.push(counter('SQLServer:Databases', 'Log Flush Wait Time', DB, v, 65792));
    return s;
  };
  const t = tickOf(computeTick(mk(11_000, 40), mk(12_000, 7), ctx));
  assert.equal(t.log.flushWaitTimeMs, 7, 'a point value may go down and is not a reset');
});

it('CPU: offline schedulers and schedulers without a baseline are left out; a node is at most 100 %', () => {
  const prev = sample({
    msTicks: 11_000,
    cpu: [
      [0, 100],
      [0, 100],
      [1, 100],
    ],
  });
  const cur = sample({
    msTicks: 12_000,
    cpu: [
      [0, 1110],
      [0, 600, false],
      [1, 150],
      [1, 999_999],
    ],
  });
  const t = tickOf(computeTick(prev, cur, ctx));
  assert.deepEqual(t.cpuByNode, { '0': 100, '1': 5 });
  assert.equal(t.cpuMs, 1060);
  assert.equal(t.onlineSchedulers, 3);
});

it('property: monotone counters give non-negative deltas that add up to last - first', () => {
  const names = ['LOGCACHE_ACCESS', 'LOCK_HASH', 'SOS_CACHESTORE', 'XDESMGR'];
  const step = fc.record({
    dt: fc.integer({ min: 1, max: 5000 }),
    inc: fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 0, max: 1_000_000 })),
    tx: fc.integer({ min: 0, max: 100_000 }),
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
      let ms = 10_000;
      let tx = 0;
      const spins: Record<string, number> = {};
      const samples = [sample({ msTicks: ms, transactions: tx })];
      for (const s of steps) {
        ms += s.dt;
        tx += s.tx;
        for (const [n, v] of Object.entries(s.inc)) spins[n] = (spins[n] ?? 0) + v;
        // Rows with zero counters are not returned by the sampler.
        const nonZero = Object.fromEntries(Object.entries(spins).filter(([, v]) => v > 0));
        samples.push(sample({ msTicks: ms, spins: nonZero, transactions: tx }));
      }
      const sums: Record<string, number> = {};
      let txSum = 0;
      let elapsed = 0;
      for (let i = 1; i < samples.length; i++) {
        const t = tickOf(computeTick(samples[i - 1], samples[i], { ...ctx, runStartMsTicks: 10_000 }));
        elapsed += t.intervalMs;
        assert.equal(t.t, elapsed);
        txSum += t.transactions;
        assert.ok(t.transactionsPerSec >= 0);
        for (const [n, d] of Object.entries(t.spinlocks)) {
          assert.ok(d.spins >= 0 && d.collisions >= 0 && d.backoffs >= 0 && d.sleepTime >= 0);
          assert.ok(d.spins + d.collisions + d.backoffs + d.sleepTime > 0, 'only entries that moved');
          sums[n] = (sums[n] ?? 0) + d.spins;
        }
      }
      assert.equal(txSum, tx);
      assert.deepEqual(sums, Object.fromEntries(Object.entries(spins).filter(([, v]) => v > 0)));
    }),
  );
});

it('property: any counter lower in cur than in prev gives a verdict, never a tick', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 1e9 }),
      fc.integer({ min: 1, max: 1e9 }),
      fc.constantFrom('spin', 'wait', 'latch', 'tx', 'rows', 'cpu', 'log'),
      (a, drop, where) => {
        const hi = a + drop;
        const spec = (v: number): Omit<SampleSpec, 'msTicks'> => ({
          spins: where === 'spin' ? { X: v } : {},
          waits: where === 'wait' ? { W: [v, v] as [number, number] } : {},
          latches: where === 'latch' ? { L: [v, 1] as [number, number] } : {},
          transactions: where === 'tx' ? v : 0,
          rows: where === 'rows' ? { 'dbo.MyBigTable': [v, 0] as [number, number] } : {},
          cpu: where === 'cpu' ? [[0, v] as [number, number]] : [],
          logFile: where === 'log' ? { writes: v, bytesWritten: 1, ioStallWriteMs: 1 } : null,
        });
        const r = computeTick(sample({ msTicks: 11_000, ...spec(hi) }), sample({ msTicks: 12_000, ...spec(a) }), ctx);
        assert.equal(r.kind, 'restart');
      },
    ),
  );
});
