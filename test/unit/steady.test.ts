// The steady-state rule (shared/repeats/steady.ts) on seeded synthetic ticks: a warm-up ramp is found where it ends,
// a steady run loses nothing beyond the fixed warm-up, the cap of a third of the ticks holds, and the record's window
// counts what it dropped. The measured rates are printed.
import assert from 'node:assert/strict';
import normalFactory from '@stdlib/random-base-normal';
import { mserCurve, steadyStart, steadyText, steadyWindow, STEADY_CAP_SHARE } from '../../src/shared/repeats/steady';
import type { Tick } from '../../src/shared/experiment';

/** `n` tick rates: a linear ramp from `start` (share of the level) over `ramp` ticks, then the level; noise `cv`. */
function ticks(seed: number, n: number, ramp: number, start: number, cv: number): number[] {
  const normal = normalFactory.factory({ seed });
  return Array.from({ length: n }, (_, i) => 10_000 * (i < ramp ? start + ((1 - start) * i) / ramp : 1) * (1 + normal(0, cv)));
}
const timeline = (rates: number[]): Pick<Tick, 'rowsPerSec' | 'rows' | 'intervalMs' | 'gap'>[] =>
  rates.map((r) => ({ rowsPerSec: r, rows: Math.round(r), intervalMs: 1000 }));
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('steady state: MSER over the ticks, gated by a permutation test, capped at a third', function () {
  this.timeout(60_000);

  it('MSER(d) is the squared standard error of the mean of the ticks kept', () => {
    const x = [1, 2, 3, 10, 10];
    const c = mserCurve(x, 2);
    // d = 2: 3, 10, 10 -> mean 7.67, sum of squares 32.67, over 3^2.
    assert.ok(Math.abs(c[2] - 32.666666 / 9) < 1e-5);
    assert.ok(Math.abs(c[0] - 78.8 / 25) < 1e-9);
  });

  it('a warm-up ramp (30 ticks, 50% to the level over 6, 3% noise) is found within ±1 tick', () => {
    const r = steadyStart(ticks(7, 30, 6, 0.5, 0.03));
    assert.ok(Math.abs(r.d - 6) <= 1, `found ${r.d}`);
    assert.ok(r.p !== null && r.p <= 0.01);
    assert.equal(r.capped, false);
    // Over 200 seeds: the share found within ±1 tick.
    let within = 0;
    for (let s = 1; s <= 200; s++) if (Math.abs(steadyStart(ticks(s, 30, 6, 0.5, 0.03)).d - 6) <= 1) within++;
    console.log(`      ramp of 6 ticks found within ±1 tick in ${pct(within / 200)} of 200 seeds`);
    assert.ok(within / 200 >= 0.75);
  });

  it('a steady run loses nothing beyond the fixed warm-up (3% and 10% tick noise)', () => {
    for (const cv of [0.03, 0.1]) {
      assert.equal(steadyStart(ticks(11, 30, 0, 1, cv)).d, 0);
      let kept = 0;
      for (let s = 1; s <= 200; s++) if (steadyStart(ticks(s, 30, 0, 1, cv)).d === 0) kept++;
      console.log(`      steady run (${cv * 100}% noise) kept whole in ${pct(kept / 200)} of 200 seeds`);
      assert.ok(kept / 200 >= 0.97);
    }
    // Too few ticks to say: nothing is dropped.
    assert.deepEqual(steadyStart([1, 5, 10, 10, 10]), { d: 0, p: null, capped: false });
  });

  it('the cap holds: a ramp over half the run drops a third of its ticks and says it had not settled', () => {
    const r = steadyStart(ticks(3, 30, 15, 0.3, 0.03));
    assert.equal(r.d, Math.floor(30 * STEADY_CAP_SHARE));
    assert.equal(r.capped, true);
    const long = steadyStart(ticks(4, 90, 80, 0.2, 0.02));
    assert.equal(long.d, 30);
    assert.equal(long.capped, true);
  });

  it('a long run (8 hours of 1 s ticks) is read in batch means: its ramp found within a batch (29 s), the cap held, in time', () => {
    const t0 = Date.now();
    const r = steadyStart(ticks(5, 28_800, 300, 0.5, 0.03));
    assert.ok(Math.abs(r.d - 300) <= 29, `found ${r.d}`);
    const never = steadyStart(ticks(6, 28_800, 20_000, 0.3, 0.03));
    assert.ok(never.capped && never.d <= 9600 && never.d > 9500, `dropped ${never.d}`);
    assert.ok(Date.now() - t0 < 2000, `${Date.now() - t0} ms`);
  });

  it("the record's window: the ticks dropped, their time and rows; gap ticks are not in the series", () => {
    const rates = ticks(7, 30, 6, 0.5, 0.03);
    const tl = timeline(rates);
    tl.splice(2, 0, { rowsPerSec: 0, rows: 0, intervalMs: 4000, gap: true });
    const s = steadyWindow(tl, 5000);
    const d = steadyStart(rates).d;
    assert.equal(s.rule, 'mser');
    assert.equal(s.warmupMs, 5000);
    assert.equal(s.fromTick, d + 1);
    assert.equal(s.droppedTicks, d + 1);
    assert.equal(s.droppedMs, d * 1000 + 4000);
    assert.equal(
      s.droppedRows,
      rates.slice(0, d).reduce((a, r) => a + Math.round(r), 0),
    );
    assert.match(steadyText(s), new RegExp(`^its first ${d + 1} ticks \\(${d + 4} s\\) after the 5 s warm-up were still settling \\(MSER`));
    const steady = steadyWindow(timeline(ticks(11, 30, 0, 1, 0.03)), 5000);
    assert.deepEqual(
      { ...steady, p: null },
      {
        rule: 'mser',
        warmupMs: 5000,
        fromTick: 0,
        droppedTicks: 0,
        droppedMs: 0,
        droppedRows: 0,
        p: null,
        capped: false,
      },
    );
  });
});
