// Verdicts a performance engineer can defend, end to end against `spinlab sim --noise 10%`: a preset runs its arms
// repeatedly and alternately by default, and its A/B says what the intervals allow. Arms the model makes equal (core 0
// in or out of the affinity at 4 sessions: nothing there contends for core 0) read "no difference detectable", with the
// repetitions a 5% change would need; arms the model separates by about 30% (the log writer's NUMA node against the
// other, the NUMA post's experiment) read as a difference whose interval leaves out 1. The terminal and the notebook
// quote the same verdict. The seed fixes the bursts' factors; the statistics' error rates are measured in the unit tier
// (repeatStats.test.ts), so this checks the wiring, on draws that are not borderline.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli, type MainResult } from '../helpers/cliInProcess';
import { readExperiment, tmp } from '../helpers/common';
import { compareArmCells } from '../../src/shared/repeats';
import type { Experiment } from '../../src/shared/experiment';

const SHORT = ['--duration', '2s', '--warmup', '1s', '--set', 'seed_rows=0'];

async function noisyPreset(args: string[]): Promise<MainResult & { e: Experiment; notebook: string }> {
  return withSim({ seed: 5, noise: 0.1 }, async (sim) => {
    const work = tmp('verdict');
    const dir = path.join(work, 'out');
    const notebook = path.join(work, 'e.ipynb');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    const r = await mainCli(['run', ...args, ...SHORT, '--out', dir, '--notebook', notebook], env);
    assert.equal(r.code, 0, r.output);
    return { ...r, e: readExperiment(dir), notebook: fs.readFileSync(notebook, 'utf8') };
  });
}

describe('preset verdicts with intervals, against spinlab sim --noise 10%', function () {
  this.timeout(240_000);

  it('equal arms: a preset repeats 3 times by default, alternating, and says no difference is detectable', async () => {
    const r = await noisyPreset(['--preset', 'isolate-core0', '--threads', '4']);
    assert.equal(r.e.design?.repeat, 3);
    assert.deepEqual(
      r.e.runs.map((x) => `${x.arm.id}#${x.repetition}`),
      ['with-core0#1', 'without-core0#1', 'without-core0#2', 'with-core0#2', 'with-core0#3', 'without-core0#3'],
    );
    assert.match(r.stderr, /This experiment: 6 runs \(2 arms x 1 thread count x 3 repetitions\)/);
    const [c] = compareArmCells(r.e.runs, 'with-core0', 'without-core0');
    assert.equal(c.verdict.kind, 'same', c.verdict.text);
    assert.match(
      c.verdict.text,
      /^No difference in throughput detectable at this noise .*, nor shown to be within ±5%: detecting a 5% change would take about \d+ to \d+ repetitions of each arm/,
    );
    assert.ok(r.stdout.includes(c.verdict.text), r.stdout);
    assert.ok(
      r.notebook.includes(JSON.stringify(c.verdict.text).slice(1, -1)) || r.notebook.includes(c.verdict.text),
      'the notebook quotes it',
    );
  });

  it('arms 30% apart: the difference is found, with an interval that leaves out 1, in the terminal and the notebook', async () => {
    const r = await noisyPreset(['--preset', 'numa-logwriter', '--set', 'in_memory=false', '--repeat', '5']);
    assert.equal(r.e.runs.length, 10);
    const [c] = compareArmCells(r.e.runs, 'lw-node', 'other-node');
    const tp = c.figures[0].ratio;
    assert.equal(c.verdict.kind, 'lower', c.verdict.text);
    assert.ok(tp.interval!.high < 1, `interval ${JSON.stringify(tp.interval)}`);
    assert.ok(tp.ratio! > 0.6 && tp.ratio! < 0.8, `B/A ${tp.ratio}`);
    assert.match(c.verdict.text, /^B is slower by \d+% \(95% interval \d+(\.\d)?% to \d+(\.\d)?%\)\.$/);
    assert.ok(r.stdout.includes(c.verdict.text), r.stdout);
    assert.ok(r.notebook.includes(c.verdict.text), 'the notebook quotes it');
  });
});
