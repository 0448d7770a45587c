// Ctrl+C twice: the second quits at once, without the clean-up, and says what that leaves and how to finish it; the
// journal it wrote first is what `spinlab restore` then uses. A next run is refused until then, naming restore.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { spinlabChild } from '../helpers/cliChild';
import { deployCommand } from '../../src/cli/commands';
import { tmp, sleep } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

const LAB = 'SpinlockLab';

it('Ctrl+C twice: exit 130 at once, the message names spinlab restore, which puts delayed durability back', () =>
  withSim({}, async (sim) => {
    await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
    const stateDir = tmp('int-state');
    const outDir = tmp('int-out');
    const run = spinlabChild(sim, stateDir, [
      'run',
      '--scenario',
      'disk-insert',
      '--threads',
      '2',
      '--duration',
      '120s',
      '--warmup',
      '0s',
      '--interval',
      '250ms',
      '--no-deploy',
      '--set',
      'seed_rows=0',
      '--delayed-durability',
      'forced',
      '--out',
      outDir,
    ]);
    const end = Date.now() + 60_000;
    // Ticks flowing (the file itself is made when the run claims its folder): the knob is in place by then.
    const ticks = () => {
      try {
        return fs.readFileSync(path.join(outDir, 'samples.jsonl'), 'utf8').trim().length > 0;
      } catch {
        return false;
      }
    };
    while (!ticks()) {
      if (run.proc.exitCode !== null || Date.now() > end) assert.fail(`no ticks:\n${run.out()}`);
      await sleep(50);
    }
    assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'FORCED');
    // The first interrupt starts the clean-up; every reply held back keeps it going while the second one arrives.
    await sim.faults.setResponseDelay(3000);
    run.proc.kill('SIGINT');
    while (!/Cancelling:/.test(run.out())) {
      if (run.proc.exitCode !== null) assert.fail(`ended before the second interrupt:\n${run.out()}`);
      await sleep(20);
    }
    run.proc.kill('SIGINT');
    const { code } = await run.exited;
    await sim.faults.setResponseDelay(0);
    assert.equal(code, 130, run.out());
    assert.match(
      run.out(),
      /Quit at once: anything this command changed on the server .* stays changed until `spinlab restore` puts it back/,
    );
    const next = spinlabChild(sim, stateDir, [
      'run',
      '--scenario',
      'disk-insert',
      '--threads',
      '1',
      '--duration',
      '1s',
      '--warmup',
      '0s',
      '--no-deploy',
      '--set',
      'seed_rows=0',
      '--out',
      tmp('int-next'),
    ]);
    assert.equal((await next.exited).code, 1, next.out());
    assert.match(next.out(), /did not put it back[\s\S]*spinlab restore/);
    const restore = spinlabChild(sim, stateDir, ['restore']);
    assert.equal((await restore.exited).code, 0, restore.out());
    assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'DISABLED', restore.out());
  })).timeout(180_000);
