// Noise reported, not hidden: a cell's spread, and the runs that drifted or dipped inside their own ticks, each
// warning naming its run; gap ticks (a reconnect) and the part-ticks at a run's ends are not taken for dips.
import assert from 'node:assert/strict';
import { cellSpread, cellsOf, noiseWarnings, runName, runNoise } from '../../src/shared/repeats';
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
    const rising = runNoise({ index: 1, threads: 4, repetition: 1, arm, timeline: timeline([100, 104, 108, 112, 116, 120, 124, 128]) });
    assert.ok(rising.trend! > 0.2);
    assert.equal(rising.warnings.length, 1);
    assert.match(
      rising.warnings[0],
      /^run 2 \(other node 1, without its first core, 4 threads, repetition 1\) drifted: its throughput rose about \d+%/,
    );
    const flat = runNoise({ index: 1, threads: 4, arm, timeline: timeline([100, 103, 98, 101, 99, 102, 100, 97]) });
    assert.deepEqual(flat.warnings, []);
  });

  it('warns of a checkpoint-sized dip, not of the part-ticks at the ends nor of a gap tick', () => {
    const dip = runNoise({ index: 0, threads: 4, arm, timeline: timeline([40, 100, 101, 35, 99, 100, 102, 30]) });
    assert.deepEqual(
      dip.dips.map((d) => d[0]),
      [4],
    );
    assert.match(dip.warnings.at(-1)!, /stepped: throughput dipped to 35% of its median at 4 s/);
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
