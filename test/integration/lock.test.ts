// One experiment per lab database and per server-wide knob: `spinlab run` as a child process holds its application
// locks for its life; a second run, `restore`, `drop-lab` and `deploy` are refused while it runs, naming it (its
// process id); a knob changed under a run by another connection makes the run invalid; a killed holder's locks go
// with its connection, and the next run proceeds. Against a simulator in this process.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { spinlabChild, type Child } from '../helpers/cliChild';
import type { Simulator } from '../../tools/sim/simulator';
import { DbSession } from '../../src/db/client';
import { deployCommand } from '../../src/cli/commands';
import { readJournal, serverKey } from '../../src/engine/journal';
import { validateExperiment } from '../../src/engine/migrate';
import type { Experiment } from '../../src/shared/experiment';
import { LabController } from '../../src/host/labController';
import { defaultProfile } from '../../src/host/profiles';
import { fakePorts } from '../unit/host/fakePorts';
import { tmp, sleep } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

const LAB = 'SpinlockLab';

const spinlab = spinlabChild;

function ticks(outDir: string): number {
  const file = path.join(outDir, 'samples.jsonl');
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length
    : 0;
}

/** A long `spinlab run` on the lab, once its ticks flow (its knobs, if any, are in place by then). */
async function startRun(
  sim: Simulator,
  stateDir: string,
  extra: string[] = [],
  duration = '120s',
): Promise<{ child: Child; outDir: string }> {
  const outDir = tmp('lock-out');
  const child = spinlab(sim, stateDir, [
    'run',
    '--scenario',
    'disk-insert',
    '--threads',
    '2',
    '--duration',
    duration,
    '--warmup',
    '0s',
    '--interval',
    '250ms',
    '--no-deploy',
    '--set',
    'seed_rows=0',
    '--out',
    outDir,
    ...extra,
  ]);
  const end = Date.now() + 60_000;
  while (ticks(outDir) < 2) {
    if (child.proc.exitCode !== null) assert.fail(`the first run ended early (exit ${child.proc.exitCode}):\n${child.out()}`);
    if (Date.now() > end) assert.fail(`no ticks within 60 s:\n${child.out()}`);
    await sleep(50);
  }
  return { child, outDir };
}

async function stop(child: Child): Promise<void> {
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  await child.exited;
}

/** Runs a command to its end; its exit code and output. */
async function finish(child: Child): Promise<{ code: number | null; out: string }> {
  const { code } = await child.exited;
  return { code, out: child.out() };
}

const holderNamed = (out: string, pid: number) => new RegExp(`process ${pid} on host \\S+ \\(session \\d+, login sa`).test(out);

describe('one experiment per lab (application locks)', () => {
  it('a second run on the same lab is refused, naming the first (its process), and changes nothing', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir, ['--delayed-durability', 'forced']);
      try {
        const second = await finish(
          spinlab(sim, stateDir, [
            'run',
            '--scenario',
            'disk-insert',
            '--threads',
            '1',
            '--duration',
            '2s',
            '--warmup',
            '0s',
            '--set',
            'seed_rows=0',
            '--out',
            tmp('lock-second'),
          ]),
        );
        assert.equal(second.code, 1, second.out);
        assert.match(second.out, /another experiment is running now and holds the lab database \[SpinlockLab\]/);
        assert.ok(holderNamed(second.out, first.child.proc.pid!), second.out);
        assert.doesNotMatch(second.out, /did not put it back|run `spinlab restore`/);
        assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'FORCED', "the first run's knob is untouched");
        assert.equal(first.child.proc.exitCode, null, 'the first run goes on');
      } finally {
        await stop(first.child);
      }
    })).timeout(180_000);

  it('a run on another lab while one changed delayed durability is refused as running now, not as a leftover', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir, ['--delayed-durability', 'forced']);
      try {
        const other = await finish(
          spinlab(sim, stateDir, [
            'run',
            '--scenario',
            'disk-insert',
            '--threads',
            '1',
            '--duration',
            '2s',
            '--warmup',
            '0s',
            '--set',
            'seed_rows=0',
            '--lab-db',
            'SpinlockLabOther',
            '--out',
            tmp('lock-other'),
          ]),
        );
        assert.equal(other.code, 1, other.out);
        assert.match(other.out, /another experiment is running on this server now/);
        assert.ok(holderNamed(other.out, first.child.proc.pid!), other.out);
        assert.doesNotMatch(other.out, /did not put it back/);
      } finally {
        await stop(first.child);
      }
    })).timeout(180_000);

  it('a run on another lab that changes no knob, ending while a second one has changed delayed durability, leaves that change alone', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], 'SpinlockLabB');
      const stateDir = tmp('lock-state');
      const plain = await startRun(sim, stateDir, ['--lab-db', 'SpinlockLabB']);
      const forced = await startRun(sim, stateDir, ['--delayed-durability', 'forced']);
      try {
        plain.child.proc.kill('SIGINT');
        const r = await finish(plain.child);
        assert.equal(r.code, 130, r.out);
        assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'FORCED', "the other experiment's knob is untouched");
        assert.ok(readJournal(stateDir, serverKey(`127.0.0.1,${sim.port}`, sim.model.serverName)), 'its journal is kept for it');
      } finally {
        await stop(plain.child);
        await stop(forced.child);
      }
    })).timeout(180_000);

  it('a run that would change affinity (server-wide) is refused while an experiment runs on another lab, naming it', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir);
      try {
        const r = await finish(
          spinlab(sim, stateDir, [
            'run',
            '--scenario',
            'disk-insert',
            '--threads',
            '1',
            '--duration',
            '2s',
            '--warmup',
            '0s',
            '--set',
            'seed_rows=0',
            '--lab-db',
            'SpinlockLabB',
            '--affinity',
            'exclude-core0',
            '--out',
            tmp('lock-aff'),
          ]),
        );
        assert.equal(r.code, 1, r.out);
        assert.match(r.out, /This run is refused: another experiment is running now and holds the server's process affinity/);
        assert.ok(holderNamed(r.out, first.child.proc.pid!), r.out);
        assert.equal(sim.model.affinity.type, 'AUTO', 'affinity never changed');
        assert.equal(sim.model.databases.get('spinlocklabb'), undefined, 'nothing was created for the refused run');
      } finally {
        await stop(first.child);
      }
    })).timeout(180_000);

  it('`spinlab restore` during a live run is refused (another experiment is running now) and leaves its knob alone; --force overrides', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir, ['--delayed-durability', 'forced']);
      const key = serverKey(`127.0.0.1,${sim.port}`, sim.model.serverName);
      try {
        const restore = await finish(spinlab(sim, stateDir, ['restore']));
        assert.equal(restore.code, 1, restore.out);
        assert.match(restore.out, /the journal is not restored under a live experiment; another experiment is running now/);
        assert.ok(holderNamed(restore.out, first.child.proc.pid!), restore.out);
        assert.match(restore.out, /--force/);
        assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'FORCED', 'delayed durability stays as the run set it');
        assert.ok(readJournal(stateDir, key), 'the journal is kept for its owner');
        const forced = await finish(spinlab(sim, stateDir, ['restore', '--force']));
        assert.equal(forced.code, 0, forced.out);
        assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'DISABLED');
      } finally {
        await stop(first.child);
      }
    })).timeout(180_000);

  it("the panel's Restore during a live run is refused the same way and leaves its knob alone", () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir, ['--delayed-durability', 'forced']);
      const ports = fakePorts();
      const c = new LabController(ports, { editor: 'vscode', stateDir });
      try {
        await c.start();
        const profile = defaultProfile({
          id: 'sim',
          label: 'simulator',
          server: '127.0.0.1',
          port: sim.port,
          user: 'sa',
          encrypt: 'optional',
          trustServerCertificate: true,
        });
        await c.receive({ type: 'connectionOpen', payload: { profile, password: SIM_PASSWORD, savePassword: false } });
        await c.receive({ type: 'serverRestore', payload: {} });
        const s = ports.lastState();
        assert.match(
          s.lastError?.message ?? '',
          /is refused: the journal is not restored under a live experiment; another experiment is running now/,
        );
        assert.ok(holderNamed(s.lastError?.message ?? '', first.child.proc.pid!), JSON.stringify(s.lastError));
        assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'FORCED');
      } finally {
        await c.dispose();
        await stop(first.child);
      }
    })).timeout(180_000);

  it('`spinlab drop-lab`, `cleanup` and `deploy` during a run are refused, naming it; the lab is still there', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir);
      try {
        for (const args of [
          ['drop-lab'],
          ['cleanup', '--scenario', 'disk-insert'],
          ['deploy', '--scenario', 'disk-insert', '--set', 'seed_rows=0'],
        ]) {
          const r = await finish(spinlab(sim, stateDir, args));
          assert.equal(r.code, 1, `${args[0]}: ${r.out}`);
          assert.match(r.out, /is refused: another experiment is running now and holds the lab database \[SpinlockLab\]/, args[0]);
          assert.ok(holderNamed(r.out, first.child.proc.pid!), r.out);
        }
        const lab = sim.model.databases.get(LAB.toLowerCase());
        assert.ok(lab, 'the lab database is still there');
        assert.ok(sim.model.findObject(lab, 'dbo.spinlab_disk_insert'), "the scenario's table is still there");
      } finally {
        await stop(first.child);
      }
    })).timeout(180_000);

  it("a killed holder's lock goes with its connection: the next run on the lab proceeds", () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const first = await startRun(sim, stateDir);
      first.child.proc.kill('SIGKILL');
      await first.child.exited;
      const end = Date.now() + 30_000;
      // The server notices the closed socket on its own time, as SQL Server does.
      while (sim.model.sessions.size > 0 && Date.now() < end) await sleep(50);
      const next = await finish(
        spinlab(sim, stateDir, [
          'run',
          '--scenario',
          'disk-insert',
          '--threads',
          '1',
          '--duration',
          '1s',
          '--warmup',
          '0s',
          '--interval',
          '250ms',
          '--no-deploy',
          '--set',
          'seed_rows=0',
          '--out',
          tmp('lock-next'),
        ]),
      );
      assert.equal(next.code, 0, next.out);
    })).timeout(180_000);

  it('a run whose knob another connection changes is marked invalid (status, reason, event), exits 1, and its notebook says so', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const stateDir = tmp('lock-state');
      const notebook = path.join(tmp('lock-nb'), 'run.ipynb');
      const { child, outDir } = await startRun(sim, stateDir, ['--delayed-durability', 'forced', '--notebook', notebook], '4s');
      const other = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        await other.runFile('knobs/delayed-durability', { db: LAB, mode: 'DISABLED' });
      } finally {
        await other.close();
      }
      const r = await finish(child);
      assert.equal(r.code, 1, r.out);
      const e = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as Experiment;
      assert.equal(validateExperiment(e), null, 'the record matches the schema');
      assert.equal(e.status, 'failed');
      assert.equal(e.runs[0].status, 'invalid');
      assert.match(e.runs[0].invalidReason ?? '', /delayed durability on \[SpinlockLab\] is DISABLED, not FORCED/);
      assert.ok(
        e.events.some((x) => x.level === 'error' && /Run 1 \(2 threads\) is invalid/.test(x.message)),
        JSON.stringify(e.events),
      );
      assert.match(r.out, /is invalid: another connection changed the server's settings during the run/);
      const nb = fs.readFileSync(notebook, 'utf8');
      assert.match(nb, /invalid/);
      assert.match(nb, /another connection changed the server's settings/);
    })).timeout(180_000);
});
