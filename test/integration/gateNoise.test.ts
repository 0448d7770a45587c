// Gates that know noise, end to end: `spinlab run --repeat 3 --assert` against `spinlab sim --noise 10%` exits 0 for
// a floor far below the interval, 1 far above it and 7 inside it; --baseline judges against a saved experiment and
// prints how this run compares; `spinlab compare A B` says B against A. Each experiment runs on a fresh simulator with
// one seed, so its three runs draw the same burst factors (seed 27 at 10%: a spread of about 15%) and the interval
// learnt from the first experiment is the one the others see.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli, type MainResult } from '../helpers/cliInProcess';
import { readExperiment, tmp } from '../helpers/common';
import type { SimulatorOptions } from '../../tools/sim/simulator';

const NOISY = { seed: 27, noise: 0.1 } as SimulatorOptions;
const RUN = ['run', '--scenario', 'disk-insert', '--threads', '2', '--duration', '1s', '--warmup', '0s', '--set', 'seed_rows=0'];

/** `spinlab run` (three repetitions) on a fresh noisy simulator, into a new folder. */
function noisyRun(args: string[]): Promise<MainResult & { dir: string }> {
  return withSim(NOISY, async (sim) => {
    const dir = path.join(tmp('gate'), 'out');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    return { ...(await mainCli([...RUN, '--repeat', '3', '--out', dir, ...args], env)), dir };
  });
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

describe('gates that know noise, against spinlab sim --noise 10%', function () {
  this.timeout(180_000);
  let first: MainResult & { dir: string };
  before(async () => {
    first = await noisyRun(['--assert', 'rows_per_sec>=1']);
  });

  it('--repeat 3 --assert: a floor far below the interval passes (0), far above fails (1), inside it is inconclusive (7)', async () => {
    assert.equal(first.code, 0, first.output);
    assert.match(first.stdout, /^ {2}pass {2}rows_per_sec>=1 {2}at 2 threads: [\d,]+ \[[\d,]+, [\d,]+\] \(3 runs\)$/m);
    const fail = await noisyRun(['--assert', 'rows_per_sec>=1G']);
    assert.equal(fail.code, 1, fail.output);
    assert.match(fail.stderr, /gate failed: "rows_per_sec>=1G"/);
    // A floor inside the interval of the same draws (the first experiment gave it).
    const e = readExperiment(first.dir);
    assert.equal(e.runs.length, 3);
    // Below the middle, so the repetitions that would settle it are few enough to be said.
    const floor = Math.round(0.88 * geomean(e.runs.map((r) => r.derived.rowsPerSec)));
    const open = await noisyRun(['--assert', `rows_per_sec>=${floor}`]);
    assert.equal(open.code, 7, open.output);
    assert.match(
      open.stdout,
      new RegExp(
        // A range (the measured spread to its 80% upper bound), or the figure said to sit within its noise of the limit.
        `^ {2}INCONCLUSIVE {2}rows_per_sec>=${floor} {2}at 2 threads: .* \\(3 runs\\): (?:about \\d+(?: to \\d+ more repetitions?| more repetitions?| or more repetitions) \\(\\d+(?: to \\d+| or more)? in all\\) would settle it|the figure is within its noise of the limit .*)$`,
        'm',
      ),
    );
    assert.match(open.stderr, /gate inconclusive at this noise/);
  });

  it('--baseline: gates against a saved experiment, the "Against the baseline" section, and spinlab compare A B', async () => {
    const b = await noisyRun([
      '--baseline',
      first.dir,
      '--assert',
      'rows_per_sec >= baseline - 90%',
      '--assert',
      'rows_per_sec >= baseline',
    ]);
    assert.equal(b.code, 7, b.output);
    assert.match(
      b.stdout,
      /^ {2}pass {2}rows_per_sec >= baseline - 90% {2}at 2 threads: [\d,]+ against the baseline's [\d,]+: .* \(3 runs; the baseline 3\)$/m,
    );
    assert.match(b.stdout, /^ {2}INCONCLUSIVE {2}rows_per_sec >= baseline {2}at 2 threads: /m);
    assert.match(
      b.stdout,
      /^Against the baseline \(.*\)\n {2}at 2 threads: No difference in throughput detectable at this noise \(this experiment against the baseline, 95% interval/m,
    );
    const worse = await noisyRun(['--baseline', path.join(first.dir, 'experiment.json'), '--assert', 'rows_per_sec >= baseline + 300%']);
    assert.equal(worse.code, 1, worse.output);

    const cmp = await mainCli(['compare', first.dir, b.dir]);
    assert.equal(cmp.code, 0, cmp.output);
    assert.match(
      cmp.stdout,
      /^At 2 threads \(3 runs in A, 3 in B\)\n {2}No difference in throughput detectable at this noise \(B against A, /m,
    );
    assert.match(
      cmp.stdout,
      /^ {4}Throughput \(rows\/s\) +[\d,]+ \[[\d,]+, [\d,]+\] +[\d,]+ \[[\d,]+, [\d,]+\] +[\d.]+ \[[\d.]+, [\d.]+\]$/m,
    );
  });

  it('refuses, before connecting, a gate on the baseline without --baseline, a --baseline that is not an experiment, and a compare with nothing in common', async () => {
    const none = await mainCli([...RUN, '--assert', 'rows_per_sec >= baseline'], { SPINLAB_CONNECTION: 'Server=127.0.0.1,1;User ID=sa' });
    assert.equal(none.code, 2, none.output);
    assert.match(none.stderr, /--assert "rows_per_sec >= baseline" compares with a baseline: give --baseline DIR/);
    const missing = await mainCli([...RUN, '--baseline', path.join(tmp('gate'), 'nothing')], {
      SPINLAB_CONNECTION: 'Server=127.0.0.1,1;User ID=sa',
    });
    assert.equal(missing.code, 2, missing.output);
    assert.match(missing.stderr, /--baseline .*nothing: .*does not exist/);
    const one = path.join(tmp('gate'), 'one');
    const other = await withSim({}, async (sim) =>
      mainCli([...RUN, '--threads', '1', '--out', one], {
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
        SPINLAB_STATE_DIR: tmp('state'),
      }),
    );
    assert.equal(other.code, 0, other.output);
    const cmp = await mainCli(['compare', first.dir, one]);
    assert.equal(cmp.code, 2, cmp.output);
    assert.match(cmp.stderr, /have no arm at a thread count in common to compare \(A: 2 threads; B: 1 thread\)/);
  });
});
