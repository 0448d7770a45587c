// spinlab tune end to end against the simulator, on narrowed spaces so each search is short: the record it saves
// (kind 'tune', every trial a run, the explained result), the server's settings put back after every trial, the budget
// kept; a busy server refused unless --shared-server; --apply leaving the winner set; and a SIGKILL during a trial
// put right by `spinlab restore` (read back over another connection). The 10-minute acceptance search is in the load
// tier (test/load/tuneAcceptance.test.ts); the search's statistics are measured in the unit tier.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { spinlabChild } from '../helpers/cliChild';
import { readExperiment, sleep, tmp } from '../helpers/common';
import { knobsNow, startFromNode0Allowed } from '../helpers/simTarget';
import type { KnobState } from '../../src/shared/experiment';
import type { Simulator } from '../../tools/sim/simulator';
import Ajv2020 from 'ajv/dist/2020';

const schema = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../schema/experiment.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

const LAB = 'SpinlockLab';
const QUICK = ['--trial', '2s', '--warmup', '0s', '--set', 'seed_rows=0'];
const env = (sim: Simulator, state = tmp('state')) => ({
  SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
  SPINLAB_PASSWORD: SIM_PASSWORD,
  SPINLAB_STATE_DIR: state,
});

describe('spinlab tune against the simulator', function () {
  this.timeout(300_000);

  it('searches a narrowed space within its budget, saves kind tune with every trial, explains the winner, puts the settings back', () =>
    withSim({ seed: 7, noise: 0.1 }, async (sim) => {
      const before = await knobsNow(sim);
      // Every affinity statement the simulator executes, in order.
      const set: string[] = [];
      const setAffinity = sim.model.setAffinity.bind(sim.model);
      sim.model.setAffinity = (spec: string) => (set.push(spec), setAffinity(spec));
      const dir = path.join(tmp('tune'), 'out');
      const r = await mainCli(
        [
          'tune',
          '--scenario',
          'disk-insert',
          '--budget',
          '2m',
          '--affinity',
          'numa:1',
          '--batch-size',
          '1,10',
          '--sessions',
          '4,8',
          ...QUICK,
          '--out',
          dir,
        ],
        env(sim),
      );
      assert.equal(r.code, 0, r.output);
      const e = readExperiment(dir);
      assert.ok(validate(e), `the tune record matches the schema: ${JSON.stringify(validate.errors)}`);
      assert.equal(e.kind, 'tune');
      assert.equal(e.design?.order, 'adaptive');
      const t = e.tune!;
      assert.deepEqual(
        t.configs.map((c) => c.label),
        ['current affinity · 1 row/tx', 'current affinity · 10 rows/tx', 'numa:1 · 1 row/tx', 'numa:1 · 10 rows/tx'],
      );
      assert.ok(e.runs.length >= 8, `${e.runs.length} trials`);
      assert.deepEqual(e.design!.sequence.length, e.runs.length, 'the design records every trial in order');
      assert.ok(e.runs.every((x) => t.configs.some((c) => c.id === x.arm.id) && [4, 8].includes(x.threads)));
      // 10 rows per transaction is several times faster in the model: the winner, against the current settings.
      const w = t.configs.find((c) => c.id === t.result!.winner.config)!;
      assert.equal(w.batchSize, 10);
      assert.match(
        t.result!.verdict,
        /^Confirmed on \d+ fresh pairs of trials .*: against the current settings, the winner \(.*10 rows\/tx, \d sessions\) is [\d.]+x faster \(95% interval/,
      );
      assert.ok(t.result!.confirmation!.pairs >= 5, `${t.result!.confirmation!.pairs} confirmation pairs`);
      assert.ok(t.result!.applySql.some((l) => l.startsWith('-- Rows per transaction: 10')));
      assert.equal(t.result!.applied, false);
      assert.ok(t.elapsedMs! <= 120_000 * 1.05, `the search took ${t.elapsedMs} ms of a 120000 ms budget`);
      assert.equal(t.stopReason, 'the budget is spent');
      assert.ok(
        e.runs.every((x) => x.arm.knobs.delayedDurability === undefined),
        'never FORCED without --allow forced',
      );
      // Each trial on numa:1 changed the affinity and put it back before the next trial: set, AUTO, set, AUTO, ...
      const moved = e.runs.filter((x) => x.arm.knobs.affinity).length;
      assert.ok(moved >= 2, `${moved} trials on numa:1`);
      assert.equal(set.length, 2 * moved, set.join(' | '));
      assert.ok(
        set.every((x, i) => (i % 2 ? /CPU = AUTO/i.test(x) : !/AUTO/i.test(x))),
        set.join(' | '),
      );
      const after = await knobsNow(sim);
      assert.deepEqual(after.affinity, before.affinity, 'the affinity is as it was');
      assert.equal(after.delayedDurability, 'DISABLED', 'the new lab database keeps its default');
      // How sure the search is of the winner: against its runner-up, or every other configuration ruled out (which
      // one depends on how many trials the machine's speed allowed).
      assert.match(r.stdout, /^(The winner beats the runner-up|The winner and the runner-up|Every other configuration was ruled out)/m);
      assert.match(r.stderr, /round 1 \(screen\) done/);
    }));

  it('refuses a budget below what the space needs, saying the minimum, before any knob moves', () =>
    withSim({ seed: 7 }, async (sim) => {
      const set: string[] = [];
      const setAffinity = sim.model.setAffinity.bind(sim.model);
      sim.model.setAffinity = (spec: string) => (set.push(spec), setAffinity(spec));
      const args = [
        'tune',
        '--scenario',
        'disk-insert',
        '--budget',
        '1m',
        '--affinity',
        'numa:1',
        '--batch-size',
        '1,10',
        '--sessions',
        '4,8',
      ];
      const r = await mainCli([...args, ...QUICK, '--out', path.join(tmp('short'), 'out')], env(sim));
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /--budget 1m is below the 2m this space needs: screening its 4 configurations once \(4 trials\) and 12 pairs/);
      assert.match(r.stderr, /give --budget 2m or more/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual(set, [], 'no affinity was set');
    }));

  it('refuses a server with other sessions at work, naming --shared-server; with it, runs and says the intervals are widened', () =>
    withSim({ seed: 3, background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      await sleep(1500);
      const args = [
        'tune',
        '--scenario',
        'disk-insert',
        '--budget',
        '4m',
        '--affinity',
        'numa:1',
        '--batch-size',
        '1',
        '--sessions',
        '4',
        ...QUICK,
      ];
      const refused = await mainCli([...args, '--out', path.join(tmp('busy'), 'out')], env(sim));
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /Other sessions are working on this server \(\d+ running a request/);
      assert.match(refused.stderr, /--shared-server/);
      assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
      const dir = path.join(tmp('shared'), 'out');
      const ran = await mainCli([...args, '--shared-server', '--out', dir], env(sim));
      assert.equal(ran.code, 0, ran.output);
      const e = readExperiment(dir);
      assert.equal(e.tune!.sharedServer, true);
      assert.ok(e.tune!.otherActivity!.sessions > 0);
      assert.ok(e.events.some((x) => /intervals were widened/.test(x.message)));
    }));

  it('--apply leaves the winner applied (FORCED allowed, so it wins) and no journal to undo it', () =>
    withSim({ seed: 11 }, async (sim) => {
      const state = tmp('state');
      const dir = path.join(tmp('apply'), 'out');
      const r = await mainCli(
        [
          'tune',
          '--scenario',
          'disk-insert',
          '--budget',
          '2m',
          '--affinity',
          'numa:0',
          '--allow',
          'forced',
          '--batch-size',
          '1',
          '--sessions',
          '8',
          ...QUICK,
          '--apply',
          '--out',
          dir,
        ],
        env(sim, state),
      );
      assert.equal(r.code, 0, r.output);
      const t = readExperiment(dir).tune!;
      const w = t.configs.find((c) => c.id === t.result!.winner.config)!;
      assert.equal(w.delayedDurability, 'FORCED');
      assert.equal(t.result!.applied, true);
      const now = await knobsNow(sim);
      assert.equal(now.delayedDurability, 'FORCED');
      assert.equal(now.affinity.cpus.length, w.affinity === 'numa:0' ? 20 : 40);
      const journals = path.join(state, 'journal');
      assert.deepEqual(fs.existsSync(journals) ? fs.readdirSync(journals) : [], [], 'no journal left to restore');
    }));

  it('SIGKILL during a trial with affinity and FORCED changed: spinlab restore puts both back, read from another connection', () =>
    withSim({ seed: 5 }, async (sim) => {
      const original: KnobState = await startFromNode0Allowed(sim, LAB);
      const state = tmp('state');
      const child = spinlabChild(sim, state, [
        'tune',
        '--scenario',
        'disk-insert',
        '--budget',
        '5m',
        '--affinity',
        'exclude-core0',
        '--allow',
        'forced',
        '--batch-size',
        '1',
        '--sessions',
        '4',
        '--trial',
        '3s',
        '--warmup',
        '0s',
        '--set',
        'seed_rows=0',
        '--no-deploy',
        '--out',
        path.join(tmp('kill'), 'out'),
      ]);
      try {
        const end = Date.now() + 120_000;
        for (;;) {
          const lab = sim.model.databases.get(LAB.toLowerCase());
          if (lab?.delayedDurability === 'FORCED' && sim.model.affinity.cpus.includes(39) && !sim.model.affinity.cpus.includes(0)) break;
          if (child.proc.exitCode !== null) assert.fail(`spinlab tune ended before the kill:\n${child.out()}`);
          if (Date.now() > end) assert.fail(`no trial with both knobs changed within 120 s:\n${child.out()}`);
          await sleep(100);
        }
        child.proc.kill('SIGKILL');
        assert.equal((await child.exited).signal, 'SIGKILL');
      } finally {
        if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
      }
      assert.notDeepEqual(await knobsNow(sim), original, 'the kill left the server changed');
      const restore = spinlabChild(sim, state, ['restore']);
      const { code } = await restore.exited;
      assert.equal(code, 0, restore.out());
      assert.deepEqual(await knobsNow(sim), original, 'affinity (NUMANODE 0) and delayed durability (ALLOWED) are back');
    }));
});
