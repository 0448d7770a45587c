// Gates that never decide on one run, and --repeat auto, end to end against `spinlab sim --noise 10%`: a floor whose
// truth is 10% on the good side (0.9 x the simulator's throughput at these settings under that noise, calibrated on
// seeds apart from the test's) passes under --repeat auto within its maximum in at least 80% of 20 seeded experiments, and the same gate on
// one run (--repeat 1) never exits 0 or 1. Short runs (1 s, 4 threads) keep the whole file to a few minutes.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli, type MainResult } from '../helpers/cliInProcess';
import { readExperiment, tmp } from '../helpers/common';
import type { Experiment } from '../../src/shared/experiment';
import { DEFAULT_MAX_REPEAT } from '../../src/shared/sequential';

const RUN = ['run', '--scenario', 'disk-insert', '--threads', '4', '--duration', '1s', '--warmup', '0s', '--set', 'seed_rows=0'];
const SEEDS = Array.from({ length: 20 }, (_, i) => 101 + i);

/** `spinlab run` on a fresh simulator (seeded; `noise` 0.1 is --noise 10%), into a new folder. */
function simRun(seed: number, noise: number | undefined, args: string[]): Promise<MainResult & { e: Experiment }> {
  return withSim({ seed, noise }, async (sim) => {
    const dir = path.join(tmp('gateseq'), 'out');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    const r = await mainCli([...RUN, '--out', dir, ...args], env);
    return { ...r, e: readExperiment(dir) };
  });
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

describe('gates against spinlab sim --noise 10%: never on one run, and --repeat auto', function () {
  this.timeout(1_200_000);
  let limit = 0;
  before(async () => {
    // The first experiment in a process runs its first repetition slow (the JIT warming up): one to warm up. Then the
    // truth: the simulator's throughput at these settings under the same noise (its bursts, dips and drift lower the
    // geometric mean by about 5% from the quiet figure), over 40 runs of seeds apart from the test's.
    await simRun(1, undefined, ['--repeat', '2']);
    const all: number[] = [];
    for (const seed of [201, 202, 203, 204])
      all.push(...(await simRun(seed, 0.1, ['--repeat', '10'])).e.runs.map((r) => r.derived.rowsPerSec));
    const truth = geomean(all);
    const sd = Math.sqrt(all.reduce((a, x) => a + Math.log(x / truth) ** 2, 0) / (all.length - 1));
    limit = Math.round(0.9 * truth);
    console.log(
      `      calibration under --noise 10%: ${Math.round(truth)} rows/s over ${all.length} runs (spread ${(100 * sd).toFixed(1)}% on the log scale); the floor: ${limit}`,
    );
  });

  it('a gate on one run (--repeat 1) never exits 0 or 1: 7, saying it needs repetitions', async () => {
    const codes: number[] = [];
    let above = 0;
    for (const seed of SEEDS) {
      const r = await simRun(seed, 0.1, ['--repeat', '1', '--assert', `rows_per_sec>=${limit}`]);
      codes.push(r.code);
      above += +(r.e.runs[0].derived.rowsPerSec >= limit);
      assert.match(
        r.stdout,
        /INCONCLUSIVE {2}rows_per_sec>=\d+ {2}at 4 threads: [\d,]+ \(1 run: no interval\): one run has no interval, so a gate needs 2 repetitions or more: use --repeat auto/,
      );
    }
    console.log(`      --repeat 1: exit codes ${codes.join(' ')}; the one run was above the floor in ${above} of ${SEEDS.length}`);
    assert.deepEqual(
      codes.filter((c) => c === 0 || c === 1),
      [],
    );
    assert.ok(codes.every((c) => c === 7));
  });

  it(`--repeat auto (the default with --assert) passes a floor 10% below the truth in 80% or more, within ${DEFAULT_MAX_REPEAT} repetitions`, async () => {
    const outcomes: { seed: number; code: number; reps: number; reason: string }[] = [];
    for (const seed of SEEDS) {
      const r = await simRun(seed, 0.1, ['--assert', `rows_per_sec>=${limit}`]);
      const s = r.e.design?.sequential;
      assert.ok(s, 'the design records the sequential design');
      assert.equal(s.maxRepeat, DEFAULT_MAX_REPEAT);
      assert.equal(r.e.runs.length, r.e.design!.repeat);
      assert.equal(r.e.design!.sequence.length, r.e.runs.length, 'the sequence is what ran');
      assert.match(
        r.stderr,
        new RegExp(
          `This experiment: up to ${DEFAULT_MAX_REPEAT} runs \\(1 thread count x up to ${DEFAULT_MAX_REPEAT} repetitions, until every gate is decided\\): at most about`,
        ),
      );
      outcomes.push({ seed, code: r.code, reps: r.e.runs.length, reason: s.stops[0]?.reason ?? '-' });
    }
    const passed = outcomes.filter((o) => o.code === 0).length;
    const failed = outcomes.filter((o) => o.code === 1).length;
    const mean = outcomes.reduce((a, o) => a + o.reps, 0) / outcomes.length;
    console.log(
      `      --repeat auto: passed ${passed} of ${outcomes.length} (${(100 * passed) / outcomes.length}%), failed ${failed}, mean ${mean.toFixed(1)} repetitions; ` +
        outcomes.map((o) => `${o.seed}:${o.code}/${o.reps}${o.reason === 'max' ? 'max' : ''}`).join(' '),
    );
    assert.ok(passed >= 0.8 * outcomes.length, `passed ${passed} of ${outcomes.length}`);
    assert.equal(failed, 0, 'a floor 10% below the truth never fails');
    for (const o of outcomes) assert.ok(o.reps <= DEFAULT_MAX_REPEAT);
    // It stops when decided, not at the maximum.
    assert.ok(mean < DEFAULT_MAX_REPEAT - 2 && outcomes.some((o) => o.reason === 'decided' && o.reps < DEFAULT_MAX_REPEAT));
  });
});
