// "Doing the math": cycles = elapsed s x CPUs x clock rate, divided by spins and rows, with the inputs returned.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { coresFor, cycleMath } from '../../src/shared/cycleMath';

it("seed 000's arithmetic: 10.434 s x 5 cores x 2.4 GHz, divided by the LOGCACHE_ACCESS spins", () => {
  const m = cycleMath({
    elapsedSec: 10.434,
    cpus: 5,
    cpuBasis: 'physical cores',
    clockHz: 2.4e9,
    spins: { LOGCACHE_ACCESS: 113_246_628, XDESMGR: 0 },
    rows: 25_000_000,
  });
  assert.equal(Math.round(m.cycles!), 125_208_000_000);
  assert.equal(m.perSpinlock.length, 1, 'spinlocks that did not spin are left out');
  assert.equal(m.perSpinlock[0].name, 'LOGCACHE_ACCESS');
  assert.equal(Math.round(m.perSpinlock[0].cyclesPerSpin!), 1106);
  assert.equal(Math.round(m.cyclesPerRow!), 5008);
  assert.equal(m.perSpinlock[0].spinsPerRow, 113_246_628 / 25_000_000);
  assert.equal(m.formula, '10.434 s x 5 physical cores x 2.40 GHz = 125,208,000,000 cycles');
  assert.equal(m.inputs.clockHz, 2.4e9, 'the inputs come back with the results');
});

it('without a measured clock rate there are no cycles, and the formula says why', () => {
  const m = cycleMath({ elapsedSec: 3, cpus: 8, cpuBasis: 'logical CPUs', clockHz: null, spins: { XDESMGR: 10 }, rows: 5 });
  assert.equal(m.cycles, null);
  assert.equal(m.cyclesPerRow, null);
  assert.equal(m.perSpinlock[0].cyclesPerSpin, null);
  assert.equal(m.perSpinlock[0].spinsPerRow, 2);
  assert.match(m.formula, /clock rate not measured/);
});

it('no rows: no per-row figures; spinlocks sorted by spins', () => {
  const m = cycleMath({ elapsedSec: 1, cpus: 2, cpuBasis: 'logical CPUs', clockHz: 1e9, spins: { A: 5, B: 50 }, rows: 0 });
  assert.deepEqual(
    m.perSpinlock.map((s) => s.name),
    ['B', 'A'],
  );
  assert.equal(m.cyclesPerRow, null);
  assert.equal(m.perSpinlock[0].spinsPerRow, null);
  assert.equal(m.perSpinlock[1].cyclesPerSpin, 2e9 / 5);
});

it('property: cycles per spin x spins = cycles; doubling the CPUs doubles the cycles', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.1, max: 1000, noNaN: true }),
      fc.integer({ min: 1, max: 256 }),
      fc.double({ min: 1e8, max: 5e9, noNaN: true }),
      fc.integer({ min: 1, max: 1e9 }),
      (sec, cpus, hz, spins) => {
        const a = cycleMath({ elapsedSec: sec, cpus, cpuBasis: 'logical CPUs', clockHz: hz, spins: { S: spins }, rows: 1 });
        const b = cycleMath({ elapsedSec: sec, cpus: cpus * 2, cpuBasis: 'logical CPUs', clockHz: hz, spins: { S: spins }, rows: 1 });
        assert.ok(Math.abs(a.perSpinlock[0].cyclesPerSpin! * spins - a.cycles!) <= a.cycles! * 1e-9);
        assert.ok(Math.abs(b.cycles! - 2 * a.cycles!) <= a.cycles! * 1e-9);
      },
    ),
  );
});

it('cores behind logical CPUs: 10 hyperthreads are 5 cores; without hyperthreading they are the same', () => {
  assert.equal(coresFor(10, 2), 5);
  assert.equal(coresFor(11, 2), 6);
  assert.equal(coresFor(7, 1), 7);
});
