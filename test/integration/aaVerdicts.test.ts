// A/A comparisons against `spinlab sim --noise 10%`, as a user meets them: disk-insert at 4 sessions, a saved baseline
// run again beside the same settings with `spinlab run --baseline DIR --interleave` (two arms, taking turns A B, B A,
// 3 repetitions each), on 20 seeds. The arms are the same settings, so every difference is noise. Throughput carries
// the verdict; the other figures (spinlocks, waits, latches per row) are one family under Holm's adjustment, so an A/A
// comparison should name none of them as different in at least 95% of pairs. The rates are printed. Also: what
// --interleave refuses before connecting.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { readExperiment, tmp } from '../helpers/common';
import { compareArmCells } from '../../src/shared/repeats';

const SEEDS = Array.from({ length: 20 }, (_, i) => 101 + i);
const SHORT = ['--scenario', 'disk-insert', '--threads', '4', '--duration', '2s', '--warmup', '1s', '--set', 'seed_rows=0'];

describe('A/A verdicts against spinlab sim --noise 10% (20 seeds), run with --baseline --interleave', function () {
  this.timeout(1_800_000);

  it('no secondary figure is called different in at least 95% of A/A pairs; every pair is analysed by block', async () => {
    let anySecondary = 0;
    let primary = 0;
    const named: string[] = [];
    const baseline = path.join(tmp('aa-base'), 'out');
    for (const seed of SEEDS) {
      const e = await withSim({ seed, noise: 0.1 }, async (sim) => {
        const env = {
          SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
          SPINLAB_PASSWORD: SIM_PASSWORD,
          SPINLAB_STATE_DIR: tmp('state'),
        };
        if (seed === SEEDS[0]) {
          const b = await mainCli(['run', ...SHORT, '--out', baseline], env);
          assert.equal(b.code, 0, b.output);
        }
        const dir = path.join(tmp('aa'), 'out');
        const r = await mainCli(['run', ...SHORT, '--baseline', baseline, '--interleave', '--out', dir], env);
        assert.equal(r.code, 0, r.output);
        if (seed === SEEDS[0]) {
          assert.match(r.stderr, /the baseline's settings \(A\) and this run's \(B\) take turns/);
          assert.match(r.stdout, /^Against the baseline's settings \(.*\), run again interleaved in this experiment/m);
        }
        return readExperiment(dir);
      });
      assert.deepEqual(
        e.runs.map((x) => x.arm.id),
        ['baseline', 'current', 'current', 'baseline', 'baseline', 'current'],
      );
      const [c] = compareArmCells(e.runs, 'baseline', 'current');
      assert.equal(c.layout.design, 'paired', `seed ${seed}: the arms took turns, so they pair`);
      const called = c.figures.filter((f) => f.differs && !f.primary);
      if (called.length) {
        anySecondary++;
        named.push(`seed ${seed}: ${called.map((f) => f.label).join(', ')}`);
      }
      if (c.figures[0].differs) primary++;
    }
    console.log(
      `      A/A pairs naming a secondary figure as different: ${anySecondary} of ${SEEDS.length}; throughput called different: ${primary} of ${SEEDS.length}${named.length ? ` (${named.join('; ')})` : ''}`,
    );
    assert.ok(anySecondary <= SEEDS.length * 0.05, `${anySecondary} of ${SEEDS.length} named a secondary figure: ${named.join('; ')}`);
  });

  it('--interleave is refused before connecting without --baseline, with --repeat 1, and for a preset', async () => {
    const env = { SPINLAB_CONNECTION: 'Server=127.0.0.1,1;User ID=sa;Encrypt=false', SPINLAB_PASSWORD: 'x' };
    const none = await mainCli(['run', ...SHORT, '--interleave'], env);
    assert.equal(none.code, 2, none.output);
    assert.match(none.stderr, /--interleave runs a saved baseline again beside this run: give --baseline DIR too/);
    const base = path.join(tmp('aa-none'), 'missing');
    const one = await mainCli(['run', ...SHORT, '--interleave', '--baseline', base, '--repeat', '1'], env);
    assert.equal(one.code, 2, one.output);
    assert.match(one.stderr, /give --repeat 2 or more/);
    const preset = await mainCli(['run', '--preset', 'isolate-core0', '--interleave', '--baseline', base], env);
    assert.equal(preset.code, 2, preset.output);
  });
});
