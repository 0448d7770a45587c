// The outlier rule (shared/repeats/outliers.ts): a run is left out of its cell's estimate only when it is beyond
// Tukey's far fences on the cell's log throughput (5 runs or more) and its own ticks show its conditions changed;
// the cell keeps it under `excluded` with the reason the report prints. Why both: the fences alone, measured here on
// plain lognormal noise, put a run outside them in about 14% of 5-run cells.
import assert from 'node:assert/strict';
import normalFactory from '@stdlib/random-base-normal';
import { cellsOf, classifyOutliers, excludedRuns, noiseWarnings, OUTLIER_MIN_RUNS, type CellRun } from '../../src/shared/repeats';
import { quantileSorted } from '../../src/shared/repeats/quantile';
import type { Tick } from '../../src/shared/experiment';
import { lognormalFactors } from '../helpers/repeatedRuns';

type Timed = CellRun & { timeline: Pick<Tick, 't' | 'rowsPerSec' | 'gap'>[] };

/** A completed run at `rowsPerSec` over 20 one-second ticks; `shape` bends its ticks (a step, a dip). */
function run(index: number, rowsPerSec: number, shape: (i: number) => number = () => 1): Timed {
  const rows = Math.round(rowsPerSec * 20);
  return {
    index,
    repetition: index + 1,
    threads: 8,
    status: 'completed',
    arm: { id: 'A', label: 'arm A' },
    rows,
    derived: { rowsPerSec },
    latency: null,
    totals: {
      elapsedMs: 20_000,
      rows,
      transactions: rows,
      spinlocks: {},
      waits: {},
      latches: {},
      logFlushes: 0,
      logBytesFlushed: 0,
      cpuMs: 0,
    },
    timeline: Array.from({ length: 20 }, (_, i) => ({
      t: (i + 1) * 1000,
      rowsPerSec: rowsPerSec * shape(i) * (1 + (((i * 7) % 5) - 2) / 100),
    })),
  };
}
const step = (i: number) => (i < 10 ? 1.25 : 0.75);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('outliers: which runs a cell leaves out, and why', function () {
  this.timeout(60_000);

  it("quartiles by linear interpolation (criterion's percentiles); Tukey's near and far fences on logs", () => {
    assert.equal(quantileSorted([1, 2, 3, 4, 5], 0.25), 2);
    assert.equal(quantileSorted([1, 2, 3, 4], 0.75), 3.25);
    const values = [100, 101, 99, 102, 98, 100, 100, 101, 60, 93];
    const { labels, far } = classifyOutliers(values);
    assert.deepEqual(labels, [null, null, null, null, null, null, null, null, 'low severe', 'low mild']);
    assert.ok(far![0] > 60 && far![0] < 93);
    assert.deepEqual(classifyOutliers([100, 101, 99, 50]).labels, [null, null, null, null], 'fewer than 5 runs: no classification');
  });

  it('leaves out a far outlier whose ticks shifted level, names it and says why; the cell is over the others', () => {
    const runs = [run(0, 1000), run(1, 1010), run(2, 990), run(3, 1005), run(4, 995), run(5, 600, step)];
    const ex = excludedRuns({ runs, figures: runs.map((r) => ({ rowsPerSec: r.derived!.rowsPerSec })) });
    assert.equal(ex.length, 1);
    assert.equal(ex[0].at, 5);
    assert.equal(ex[0].side, 'low');
    assert.match(
      ex[0].reason,
      /^run 6 \(arm A, 8 threads, repetition 6\) is left out of its cell's estimate: its throughput 600\/s is below the far fence of [\d.]+\/s \(3 x IQR below the lower quartile of the cell's 6 runs, on logs: Tukey's rule, criterion.rs's "severe" outliers\), and its own ticks show its conditions changed .*the cell's figures are over the other 5\.$/,
    );
    const [cell] = cellsOf(runs);
    assert.deepEqual(
      cell.runs.map((r) => r.index),
      [0, 1, 2, 3, 4],
    );
    assert.equal(cell.figures.length, 5);
    assert.equal(cell.excluded![0].run.index, 5);
    const w = noiseWarnings(cellsOf(runs), runs);
    assert.ok(w.includes(ex[0].reason), 'the report states the exclusion');
    assert.ok(
      w.some((x) => /^run 6 .* shifted level/.test(x)),
      'and the run is flagged for its shift',
    );
  });

  it('keeps a far outlier whose ticks look ordinary, a run of a cell under 5 runs, and a run without ticks', () => {
    const flat = [run(0, 1000), run(1, 1010), run(2, 990), run(3, 1005), run(4, 995), run(5, 600)];
    assert.deepEqual(excludedRuns({ runs: flat, figures: flat.map((r) => ({ rowsPerSec: r.derived!.rowsPerSec })) }), []);
    assert.equal(cellsOf(flat)[0].runs.length, 6);
    const four = [run(0, 1000), run(1, 1010), run(2, 990), run(3, 600, step)];
    assert.equal(four.length, OUTLIER_MIN_RUNS - 1);
    assert.equal(cellsOf(four)[0].runs.length, 4);
    const bare = [run(0, 1000), run(1, 1010), run(2, 990), run(3, 1005), run(4, 995), run(5, 600, step)].map(({ timeline: _, ...r }) => r);
    assert.equal(cellsOf(bare)[0].runs.length, 6);
  });

  it('measured: the far fences alone would exclude in many 5-run cells of plain noise; the rule excludes in none', () => {
    const normal = normalFactory.factory({ seed: 44 });
    const draws = 4000;
    for (const n of [5, 10]) {
      let fences = 0;
      let rule = 0;
      const factor = lognormalFactors(100 + n, 0.1);
      for (let d = 0; d < draws; d++) {
        // Each run's ticks: its level with 3% tick noise (no drift, dip or shift).
        const runs = Array.from({ length: n }, (_, i) => {
          const r = run(i, 1000 * factor());
          r.timeline = r.timeline.map((t) => ({ ...t, rowsPerSec: r.derived!.rowsPerSec * (1 + normal(0, 0.03)) }));
          return r;
        });
        if (classifyOutliers(runs.map((r) => r.derived!.rowsPerSec)).labels.some((l) => l?.endsWith('severe'))) fences++;
        if (cellsOf(runs)[0].excluded) rule++;
      }
      console.log(`      ${n} runs, 10% noise: far fences alone in ${pct(fences / draws)} of cells, the rule in ${pct(rule / draws)}`);
      if (n === 5) assert.ok(fences / draws > 0.1);
      assert.ok(rule / draws < 0.005);
    }
  });
});
