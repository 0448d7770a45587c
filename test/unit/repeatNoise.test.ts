// Noise reported, not hidden: a cell's spread, and the runs that drifted, dipped or shifted level inside their own
// ticks (over their steady window), each warning naming its run; gap ticks (a reconnect) and the part-ticks at a
// run's ends are not taken for dips; the runs still settling after the warm-up are said in one line.
import assert from 'node:assert/strict';
import { cellSpread, cellsOf, noiseWarnings, runName, runNoise, runWarnings } from '../../src/shared/repeats';
import { kolmogorovP, levelShift } from '../../src/shared/repeats/tickNoise';
import { repeatedRuns } from '../helpers/repeatedRuns';

const arm = { id: 'other-node', label: 'other node 1, without its first core' };
const timeline = (rates: number[]) => rates.map((rowsPerSec, i) => ({ t: (i + 1) * 1000, rowsPerSec }));

describe('repeated runs: noise warnings', () => {
  it('names a run by its arm, threads and repetition', () => {
    assert.equal(
      runName({ index: 3, threads: 10, repetition: 2, arm }),
      'run 4 (other node 1, without its first core, 10 threads, repetition 2)',
    );
    assert.equal(runName({ index: 0, threads: 1, arm: { id: 'main', label: 'disk-insert' } }), 'run 1 (1 thread)');
  });

  it('warns of a run whose throughput trends 15% or more over its ticks, and not of a flat one', () => {
    const run = { index: 1, threads: 4, repetition: 1, arm, timeline: timeline([100, 104, 108, 112, 116, 120, 124, 128]) };
    assert.ok(runNoise(run).trend! > 0.2);
    const rising = runWarnings(run);
    assert.equal(rising.length, 1, rising.join('\n'));
    assert.match(
      rising[0],
      /^run 2 \(other node 1, without its first core, 4 threads, repetition 1\) drifted: its throughput rose about \d+%/,
    );
    assert.deepEqual(runWarnings({ index: 1, threads: 4, arm, timeline: timeline([100, 103, 98, 101, 99, 102, 100, 97]) }), []);
  });

  // 20 ticks about 100 (±2), the part-ticks at the ends low.
  const steadyRates = (): number[] => Array.from({ length: 20 }, (_, i) => 100 + ((i * 7) % 5) - 2);

  it('warns of a checkpoint-sized dip (beyond the far fence of its ticks and 20% under the median), not of the part-ticks at the ends nor of a gap tick', () => {
    const rates = steadyRates();
    rates[0] = 40;
    rates[6] = 35;
    rates[19] = 30;
    const dip = runNoise({ index: 0, threads: 4, arm, timeline: timeline(rates) });
    assert.deepEqual(
      dip.dips.map((d) => d[0]),
      [7],
    );
    assert.equal(dip.shift, null, 'a dip that came back is no level shift');
    assert.match(
      runWarnings({ index: 0, threads: 4, arm, timeline: timeline(rates) }).at(-1)!,
      /stepped: throughput dipped to 35% of its median at 7 s \(the size of a checkpoint/,
    );
    // Far out but small (a 10% wobble in a quiet run) is no checkpoint; the old rule's three low ticks of eight are no dip of the run either.
    const small = steadyRates();
    small[6] = 90;
    assert.deepEqual(runNoise({ index: 0, threads: 4, arm, timeline: timeline(small) }).dips, []);
    const gap = runNoise({
      index: 0,
      threads: 4,
      arm,
      timeline: [
        ...timeline([100, 101, 99, 100]),
        { t: 5000, rowsPerSec: 10, gap: true },
        ...timeline([100, 102]).map((x) => ({ ...x, t: x.t + 5000 })),
      ],
    });
    assert.deepEqual(gap.dips, []);
  });

  it('warns of a level shift (a change point inside the steady window: OLS-CUSUM p < 1%, 10% or more), not of a drift nor of a steady run', () => {
    const rates = steadyRates().map((v, i) => (i >= 12 ? v * 0.8 : v));
    const r = { index: 2, threads: 8, arm, timeline: timeline(rates) };
    const n = runNoise(r);
    assert.ok(n.shift, 'a 20% step is found');
    assert.equal(n.shift!.atSec, 13);
    assert.ok(n.shift!.p < 0.01);
    assert.equal(runWarnings(r).length, 1, 'the step, not also a drift');
    assert.match(runWarnings(r)[0], /^run 3 \(.*\) shifted level: its throughput moved from 99.8\/s to 80.2\/s \(-20%\) at 13 s/);
    // A linear drift: a trend, not a step.
    const drift = runNoise({ ...r, timeline: timeline(Array.from({ length: 20 }, (_, i) => 100 - i * 1.5)) });
    assert.equal(drift.shift, null);
    assert.ok(drift.trend! < -0.15);
    assert.equal(runNoise({ ...r, timeline: timeline(steadyRates()) }).shift, null);
    // The step inside the dropped warm-up is not in the steady window.
    const settled = { ...r, steady: { fromTick: 12, droppedTicks: 12, droppedMs: 12_000, warmupMs: 5000, capped: false, p: 0.001 } };
    assert.equal(runNoise({ ...settled, timeline: timeline(steadyRates().map((v, i) => (i < 12 ? v * 0.8 : v))) }).shift, null);
    // The test's distribution: Kolmogorov's, 1% at 1.628.
    assert.ok(Math.abs(kolmogorovP(1.628) - 0.01) < 0.0005);
    assert.equal(levelShift([1, 2]), null);
  });

  it('says in one line which runs were still settling after the warm-up, and warns of one that never settled', () => {
    const steady = (droppedTicks: number, capped = false) => ({
      fromTick: droppedTicks,
      droppedTicks,
      droppedMs: droppedTicks * 1000,
      warmupMs: 5000,
      capped,
      p: droppedTicks ? 0.001 : null,
    });
    const runs = [
      { index: 0, threads: 4, arm, timeline: timeline(steadyRates()), steady: steady(3) },
      { index: 1, threads: 4, arm, timeline: timeline(steadyRates()), steady: steady(0) },
      { index: 2, threads: 4, arm, timeline: timeline(steadyRates()), steady: steady(6, true) },
    ];
    const w = noiseWarnings([], runs);
    assert.match(
      w[0],
      /^run 3 \(.*\) had not settled within a third of its ticks: its figures are over the last two thirds, 11 s after its sessions started/,
    );
    assert.match(
      w[1],
      /^Steady state: 2 of 3 runs were still settling after the fixed warm-up \(run 1 \(.*\) \+3 s, run 3 \(.*\) \+6 s\); their figures start where they settled, by MSER truncation/,
    );
    assert.deepEqual(noiseWarnings([], [runs[1]]), []);
  });

  it("reports each cell's spread, and warns when a cell's repetitions spread more than 10%", () => {
    const spread = [1, 1.3, 0.75];
    let i = 0;
    const runs = repeatedRuns(() => spread[i++ % 3], [{ id: 'A', rowsPerSec: 1000 }], 3);
    const [s] = cellSpread(cellsOf(runs));
    assert.equal(s.n, 3);
    assert.ok(s.cv! > 0.25 && s.cv! < 0.3, String(s.cv));
    const w = noiseWarnings(cellsOf(runs), []);
    assert.equal(w.length, 1);
    assert.match(w[0], /^arm A, 8 threads: its 3 repetitions spread 2\d% \(coefficient of variation\)/);
    i = 0;
    const quiet = repeatedRuns(() => [1, 1.02, 0.99][i++ % 3], [{ id: 'A', rowsPerSec: 1000 }], 3);
    assert.deepEqual(noiseWarnings(cellsOf(quiet), []), []);
  });
});
