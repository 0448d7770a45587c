// Each seed finding, as a direction (and rough size) of the simulator's contention model.
import assert from 'node:assert/strict';
import { disk, inmem, ratesFor, ring, rows, spins, spinsPerRow } from '../helpers/simModel';

it('R1 (seeds 000/002): throughput rises with sessions, then flattens and dips', () => {
  const curve = [1, 2, 4, 8, 12, 16, 20, 24, 32, 40].map((n) => rows(ratesFor(disk(2), n, null, 'DISABLED')));
  for (let i = 1; i < 6; i++) assert.ok(curve[i] > curve[i - 1] * 1.2, `rises at step ${i}: ${curve}`);
  const peak = Math.max(...curve);
  assert.ok(curve[curve.length - 1] < peak, 'dips after the peak');
  assert.ok(curve[curve.length - 1] > peak * 0.6, 'a dip, not a collapse');
});

it('R2 (seed 000): LOGCACHE_ACCESS spins ~4.5x per row when workers sit on the other node from the log writer', () => {
  const local = ratesFor(disk(2), 10, 'CPU = 2 TO 11', 'FORCED');
  const remote = ratesFor(disk(2), 10, 'CPU = 22 TO 31', 'FORCED');
  const ratio = spinsPerRow(remote, 'LOGCACHE_ACCESS') / spinsPerRow(local, 'LOGCACHE_ACCESS');
  assert.ok(ratio > 3.5 && ratio < 5.5, `ratio ${ratio}`);
  const slower = rows(local) / rows(remote); // seed: 85 s vs 55 s
  assert.ok(slower > 1.2 && slower < 2, `remote takes longer: ${slower}`);
});

it('R2 (seed 000): in-memory native inserts show a far larger (~59x) remote penalty on LOGCACHE_ACCESS', () => {
  const local = ratesFor(inmem('native'), 10, 'CPU = 2 TO 11', 'FORCED');
  const remote = ratesFor(inmem('native'), 10, 'CPU = 22 TO 31', 'FORCED');
  const ratio = spinsPerRow(remote, 'LOGCACHE_ACCESS') / spinsPerRow(local, 'LOGCACHE_ACCESS');
  assert.ok(ratio > 40 && ratio < 80, `ratio ${ratio}`);
  const slower = rows(local) / rows(remote); // seed: 18.4 s vs 10.4 s
  assert.ok(slower > 1.3 && slower < 2.2, `remote takes longer: ${slower}`);
});

it('R3 (seed 001): keeping core 0 free for the log writer cuts LOGCACHE_ACCESS spins by an order of magnitude', () => {
  const withCore0 = ratesFor(disk(2), 22, null, 'FORCED');
  const without = ratesFor(disk(2), 22, 'CPU = 2 TO 39', 'FORCED');
  const ratio = spinsPerRow(withCore0, 'LOGCACHE_ACCESS') / spinsPerRow(without, 'LOGCACHE_ACCESS');
  assert.ok(ratio >= 7, `ratio ${ratio}`);
  // ...and XDESMGR becomes the top spinlock (seed 002: whack-a-mole).
  const top = [...without.spinlocks.entries()].sort((a, b) => b[1].spins - a[1].spins).map((e) => e[0]);
  assert.deepEqual(top.slice(0, 3), ['XDESMGR', 'LOGCACHE_ACCESS', 'LOGFLUSHQ']);
});

it('R4 (seed 002): XDESMGR tracks transactions: 2 rows per transaction relieve it and raise throughput', () => {
  const one = ratesFor(disk(1), 20, null, 'DISABLED');
  const two = ratesFor(disk(2), 20, null, 'DISABLED');
  assert.ok(rows(two) > rows(one) * 1.3, `${rows(two)} vs ${rows(one)}`);
  assert.ok(spinsPerRow(two, 'XDESMGR') < spinsPerRow(one, 'XDESMGR') * 0.6);
  assert.equal(spins(ratesFor(inmem('native'), 20, null, 'DISABLED'), 'XDESMGR'), 0, 'in-memory engine takes no XDESMGR');
  assert.equal(spins(ratesFor(inmem('interpreted'), 20, null, 'DISABLED'), 'XDESMGR'), 0);
});

it('R5 (seed 002): one socket peaks a little below both (~475k vs ~500k rows/s)', () => {
  const ns = [8, 12, 16, 18, 20, 24, 28, 32, 36, 40];
  const both = Math.max(...ns.map((n) => rows(ratesFor(disk(2), n, null, 'DISABLED'))));
  const single = Math.max(...ns.map((n) => rows(ratesFor(disk(2), n, 'NUMANODE = 0', 'DISABLED'))));
  assert.ok(single < both, `${single} vs ${both}`);
  assert.ok(single / both > 0.85, `ratio ${single / both}`);
  assert.ok(both > 400_000 && both < 600_000, `both sockets peak ${both}`);
});

it('R6 (seed 003): WRITELOG and log flushes follow commits, unless delayed durability is FORCED', () => {
  const full = ratesFor(disk(2), 20, null, 'DISABLED');
  const forced = ratesFor(disk(2), 20, null, 'FORCED');
  const f = full.databases.get('lab')!,
    d = forced.databases.get('lab')!;
  assert.ok(full.waits.get('WRITELOG')!.count > f.transactions * 0.9, 'every commit waits');
  assert.ok((forced.waits.get('WRITELOG')?.count ?? 0) < d.transactions * 0.001, 'forced: commits do not wait');
  assert.ok(d.logFlushes / d.transactions < f.logFlushes / f.transactions / 5, 'fewer flushes per transaction');
  assert.ok(d.bytesPerFlush > f.bytesPerFlush * 5, 'larger flushes');
  assert.ok(rows(forced) > rows(full) * 2, 'and much more throughput');
  assert.ok(f.logFlushes > 8_000 && f.logFlushes < 25_000, `~15k flushes/s: ${f.logFlushes}`);
});

it('R7 (seed 002): interpreted access to memory tables shows BLOCKER_ENUM, native procedures do not', () => {
  const interp = ratesFor(inmem('interpreted'), 16, null, 'FORCED');
  const native = ratesFor(inmem('native'), 16, null, 'FORCED');
  assert.ok(spins(interp, 'BLOCKER_ENUM') > 1e6);
  assert.equal(spins(native, 'BLOCKER_ENUM'), 0);
  assert.equal(spins(ratesFor(disk(1), 16, null, 'FORCED'), 'BLOCKER_ENUM'), 0);
});

it('R8 (seed 004): a sequence-fed ring buffer waits on METADATA_SEQUENCE_GENERATOR (LATCH_SH); the identity generator removes it', () => {
  const seqDisk = ratesFor(ring('disk', 'sequence'), 24, null, 'FORCED');
  const seqMem = ratesFor(ring('xtp', 'sequence'), 24, null, 'FORCED');
  const ident = ratesFor(ring('xtp', 'identity'), 24, null, 'FORCED');
  assert.ok(seqDisk.latches.get('METADATA_SEQUENCE_GENERATOR')!.ms > 0);
  assert.ok(seqDisk.waits.get('LATCH_SH')!.ms > 0);
  assert.ok(
    seqMem.latches.get('METADATA_SEQUENCE_GENERATOR')!.ms > seqDisk.latches.get('METADATA_SEQUENCE_GENERATOR')!.ms,
    'worse in memory',
  );
  assert.ok(rows(seqMem) < rows(seqDisk), 'in-memory with a sequence does not even match the disk engine');
  assert.equal(ident.latches.get('METADATA_SEQUENCE_GENERATOR'), undefined);
  assert.ok(rows(ident) > rows(seqMem) * 3, 'the latch-free generator raises throughput');
});

it('R8 (seed 004): SCHEMA_ONLY buys nothing over SCHEMA_AND_DATA; LOCK_RW_CMED_HASH_SET and SOS_SCHEDULER_YIELD lead', () => {
  const durable = ratesFor(ring('xtp', 'identity', 'SCHEMA_AND_DATA'), 16, null, 'FORCED');
  const schemaOnly = ratesFor(ring('xtp', 'identity', 'SCHEMA_ONLY'), 16, null, 'FORCED');
  const ratio = rows(schemaOnly) / rows(durable);
  assert.ok(ratio > 0.95 && ratio < 1.05, `ratio ${ratio}`);
  const topSpin = [...durable.spinlocks.entries()].sort((a, b) => b[1].spins - a[1].spins)[0][0];
  const topWait = [...durable.waits.entries()].sort((a, b) => b[1].ms - a[1].ms)[0][0];
  assert.equal(topSpin, 'LOCK_RW_CMED_HASH_SET');
  assert.equal(topWait, 'SOS_SCHEDULER_YIELD');
});
