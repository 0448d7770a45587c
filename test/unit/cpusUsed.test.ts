// "Doing the math" counts the CPUs the run used: the run's threads, at most the online schedulers its
// affinity leaves, with the physical cores and a second, measured basis (total_cpu_usage_ms) beside it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { migrateExperiment } from '../../src/engine/migrate';
import { computeDerived, emptyTotals } from '../../src/engine/totals';
import { runCycleMath } from '../../src/shared/cycleMath';

const CLOCK = {
  first: { msTicks: 1_000, cpuTicks: 2_400_000, startTime: 's' },
  last: { msTicks: 7_000, cpuTicks: 14_402_400_000, startTime: 's' },
};

function run(rows: number, cpuMs: number) {
  return {
    ...emptyTotals(),
    elapsedMs: 6_000,
    rows,
    cpuMs,
    spinlocks: { LOGCACHE_ACCESS: { spins: 1_000, collisions: 0, sleepTime: 0, backoffs: 0 } },
  };
}

it('a 1-thread run on 40 online schedulers uses 1 CPU: cycles per row are those of one CPU', () => {
  const d = computeDerived(run(12_000, 5_800), { cpusUsed: 40, threads: 1, threadsPerCore: 2, ...CLOCK });
  assert.equal(d.cpusUsed, 1);
  assert.deepEqual(d.cpuCount, { threads: 1, onlineSchedulers: 40, threadsPerCore: 2, physicalCores: 1 });
  assert.equal(d.clockHz, 2.4e9);
  assert.equal(d.cyclesAvailable, 6 * 1 * 2.4e9);
  assert.equal(d.cyclesPerRow, (6 * 2.4e9) / 12_000);
  // The measured basis: the schedulers' busy ms over the run at the same clock rate.
  assert.equal(d.measuredCpu.cpuMs, 5_800);
  assert.equal(d.measuredCpu.cycles, 5.8 * 2.4e9);
  assert.ok(Math.abs(d.measuredCpu.busyCpus - 5_800 / 6_000) < 1e-12);
  const m = runCycleMath(d, { LOGCACHE_ACCESS: 1_000 }, 12_000);
  assert.match(m.formula, /^6 s x 1 logical CPU \(1 thread; 40 online schedulers\) x 2\.40 GHz = 14,400,000,000 cycles$/);
  assert.match(
    m.measured!.formula,
    /^5,800 ms of scheduler CPU \(total_cpu_usage_ms\) \(0\.97 CPUs busy on average\) x 2\.40 GHz = 13,920,000,000 cycles$/,
  );
});

it('more sessions than schedulers: the CPUs the affinity leaves, and half as many physical cores with hyperthreads', () => {
  const d = computeDerived(run(1, 0), { cpusUsed: 10, threads: 64, threadsPerCore: 2, ...CLOCK });
  assert.equal(d.cpusUsed, 10);
  assert.equal(d.cpuCount.physicalCores, 5); // the posts: 10 threads will use 5 physical cores
});

it('records of version 2 and before: CPUs used become the threads at most the schedulers, cycles recomputed, valid', () => {
  const raw = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../test/fixtures/experiment-v1.json'), 'utf8'));
  const e = migrateExperiment(raw, 'fixture');
  for (const [i, r] of e.runs.entries()) {
    const old = raw.runs[i].derived;
    assert.equal(r.derived.cpusUsed, Math.min(r.threads, old.cpusUsed));
    assert.equal(r.derived.cpuCount.onlineSchedulers, old.cpusUsed);
    assert.equal(r.derived.cpuCount.threadsPerCore, 2);
    assert.ok(Math.abs(r.derived.cyclesAvailable! - old.elapsedSec * r.derived.cpusUsed * old.clockHz) < 1);
    assert.equal(r.derived.measuredCpu.cpuMs, raw.runs[i].totals.cpuMs);
  }
  assert.equal(e.runs[0].derived.cpusUsed, 1, 'the 1-thread run used one CPU, not 38');
});
