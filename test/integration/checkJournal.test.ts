// `spinlab check` reports this machine's restore journal for the server: an earlier experiment's settings not put
// back (whose, and what `spinlab restore` will put back), a journal that cannot be read (what to check by hand, where
// the file is, to delete it after), or an experiment running now (whose, what it changed). None of them leaves it
// saying "Everything asked for can run". And `run` with a damaged journal says once that it changed nothing.
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import schema from '../../schema/check-report.schema.json';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { spinlabChild } from '../helpers/cliChild';
import { mainCli } from '../helpers/cliInProcess';
import { tmp, sleep } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';
import { runExperiment } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import type { Simulator } from '../../tools/sim/simulator';
import type { CheckReport } from '../../src/engine/check';

const env = (sim: Simulator, state: string) => ({
  SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
  SPINLAB_PASSWORD: SIM_PASSWORD,
  SPINLAB_STATE_DIR: state,
});

const journalFile = (state: string) => {
  const dir = path.join(state, 'journal');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  assert.equal(files.length, 1, `one journal in ${dir}`);
  return path.join(dir, files[0]);
};

/** `spinlab run` with affinity changed, SIGKILLed once its knobs are in place and a tick is written. */
async function killedRun(sim: Simulator, state: string): Promise<{ pid: number; out: string }> {
  const out = tmp('killed');
  const child = spinlabChild(sim, state, [
    'run',
    '--scenario',
    'disk-insert',
    '--threads',
    '2',
    '--duration',
    '120s',
    '--warmup',
    '0s',
    '--affinity',
    'exclude-core0',
    '--set',
    'seed_rows=0',
    '--out',
    out,
  ]);
  const end = Date.now() + 60_000;
  while (!(sim.model.affinity.cpus.length && !sim.model.affinity.cpus.includes(0) && fs.existsSync(path.join(out, 'samples.jsonl')))) {
    if (child.proc.exitCode !== null) assert.fail(`the run ended before the kill:\n${child.out()}`);
    if (Date.now() > end) assert.fail(`no affinity change within 60 s:\n${child.out()}`);
    await sleep(50);
  }
  child.proc.kill('SIGKILL');
  await child.exited;
  return { pid: child.proc.pid!, out };
}

describe('spinlab check and the restore journal', function () {
  this.timeout(180_000);

  it('after a SIGKILL: says whose journal it is and what restore puts back, exit 1; after restore, exit 0', () =>
    withSim({}, async (sim) => {
      const state = tmp('state');
      const { pid, out } = await killedRun(sim, state);
      const r = await mainCli(['check'], env(sim, state));
      assert.equal(r.code, 1, r.output);
      assert.doesNotMatch(r.stdout, /Everything asked for can run/);
      assert.match(
        r.stdout,
        new RegExp(
          `Restore journal: an earlier experiment \\(process ${pid} on [^,]+, started [0-9T:.-]+Z, lab database \\[SpinlockLab\\]\\) changed settings and did not put them back`,
        ),
      );
      assert.match(r.stdout, /process affinity: now CPUs 2-39 \(MANUAL\); restore puts back AUTO/);
      assert.match(r.stdout, new RegExp(`completes the record in ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(r.stdout, /fix: spinlab restore/);
      assert.match(r.stdout, /Not everything asked for can run now: .*not put back/);
      const json = JSON.parse((await mainCli(['check', '--json'], env(sim, state))).stdout) as CheckReport;
      const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile<CheckReport>(schema);
      assert.ok(validate(json), JSON.stringify(validate.errors));
      assert.equal(json.journal?.state, 'pending');
      assert.equal(json.journal?.pid, pid);
      assert.equal(json.ok, false);
      // Only watch asked: a watch changes nothing and takes no lock, so the journal does not stand in its way.
      assert.equal((await mainCli(['check', '--feature', 'watch'], env(sim, state))).code, 0);
      assert.equal((await mainCli(['restore'], env(sim, state))).code, 0);
      const after = await mainCli(['check'], env(sim, state));
      assert.equal(after.code, 0, after.output);
      assert.doesNotMatch(after.stdout, /Restore journal/);
    }));

  it('a damaged journal: check says it cannot be read, what to check by hand and where the file is; run says once it changed nothing', () =>
    withSim({}, async (sim) => {
      const state = tmp('state');
      await killedRun(sim, state);
      const file = journalFile(state);
      fs.writeFileSync(file, '{"version":1, "serverKey": trunc');
      const r = await mainCli(['check'], env(sim, state));
      assert.equal(r.code, 1, r.output);
      assert.match(r.stdout, new RegExp(`Restore journal: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read`));
      assert.match(r.stdout, /process affinity: now CPUs 2-39 \(MANUAL\)/);
      assert.match(r.stdout, /ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;/);
      assert.match(r.stdout, /delete the file/);
      for (const args of [
        ['run', '--scenario', 'disk-insert', '--threads', '1', '--duration', '1s', '--warmup', '0s', '--out', tmp('dmg')],
        ['run', '--preset', 'numa-logwriter', '--duration', '1s', '--warmup', '0s', '--out', tmp('dmgp')],
      ]) {
        const run = await mainCli(args, env(sim, state));
        assert.equal(run.code, 5, run.output);
        assert.match(run.stderr, /This run changed nothing: the restore journal .* cannot be read/);
        assert.doesNotMatch(run.output, /Could not restore|spinlab restore` to retry/);
        assert.equal(run.output.match(/cannot be read/g)?.length, 1, `said once:\n${run.output}`);
      }
    }));

  it('during a live experiment: says an experiment is running, whose, and what it changed; exit 1', () =>
    withSim({}, async (sim) => {
      const state = tmp('state');
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const ac = new AbortController();
      const live = runExperiment(
        {
          scenarioId: 'disk-insert',
          target: targetFor(sim),
          parameters: { ...defaultParameters(getScenario('disk-insert')), seed_rows: 0 },
          labDatabase: 'SpinlockLab',
          load: { mode: 'server-loop', threads: [2], durationMs: 60_000, rows: null, warmupMs: 0, intervalMs: 500 },
          knobs: { affinity: 'exclude-core0' },
          outDir: tmp('live'),
          stateDir: state,
        },
        ac.signal,
        (p) => p.kind === 'run-start' && started(),
      );
      try {
        await running;
        const r = await mainCli(['check'], env(sim, state));
        assert.equal(r.code, 1, r.output);
        assert.match(r.stdout, new RegExp(`Running now: an experiment of process ${process.pid} on host`));
        assert.match(r.stdout, /it changed process affinity \(now CPUs 2-39 \(MANUAL\); it was AUTO\) and puts it back when it ends/);
        assert.match(r.stdout, /Not everything asked for can run now: an experiment is running/);
      } finally {
        ac.abort();
        await live.catch(() => undefined);
      }
    }));

  it('a journal folder that cannot be written: the settings a run changes cannot run, saying SPINLAB_STATE_DIR; exit 1', () =>
    withSim({}, async (sim) => {
      const file = path.join(tmp('state'), 'a-file');
      fs.writeFileSync(file, 'not a folder');
      const r = await mainCli(['check'], env(sim, file));
      assert.equal(r.code, 1, r.output);
      assert.match(r.stdout, /NO {2}affinity[^\n]*\n {8}the restore journal's folder .* cannot be written .*SPINLAB_STATE_DIR/);
      assert.match(r.stdout, /NO {2}delayed-durability/);
      assert.match(r.stdout, /ok {2}watch/);
      assert.equal((await mainCli(['check', '--feature', 'sample,watch'], env(sim, file))).code, 0);
    }));
});
