// Call-stack capture against the simulator with its own background load (disk-insert x 8): `spinlab stacks` prints
// bucketised stacks and leaves no SpinlockLab_ event session (checked from another connection); a capture SIGKILLed
// mid-way leaves its session journaled and `spinlab restore` drops it; a login without the permission gets the
// GRANT and leaves nothing; a cancelled capture returns what it counted and drops its session.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ourEventSessions, SIM_PASSWORD } from '../helpers/simClient';
import { spinlabChild } from '../helpers/cliChild';
import { readJournal, serverKey } from '../../src/engine/journal';
import { captureStacks } from '../../src/engine/stacks';
import { tmp, sleep } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

const WEAK = 'Weak-Pw1!';

const spinlab = spinlabChild;

describe('spinlab stacks against the simulator under load', function () {
  this.timeout(180_000);
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({
      password: SIM_PASSWORD,
      log: () => {},
      background: [{ scenario: 'disk-insert', sessions: 8 }],
      logins: [{ name: 'weak', password: WEAK, permissions: ['VIEW SERVER STATE'] }],
    });
  });
  after(async () => {
    await sim?.close();
  });
  const key = () => serverKey(`127.0.0.1,${sim.port}`, sim.model.serverName);

  it('prints bucketised LOGCACHE_ACCESS stacks, and afterwards no SpinlockLab_ session exists', async () => {
    const stateDir = tmp('stacks-state');
    const child = spinlab(sim, stateDir, ['stacks', '--spinlock', 'LOGCACHE_ACCESS', '--duration', '5s', '--top', '3']);
    const { code } = await child.exited;
    const out = child.out();
    assert.equal(code, 0, out);
    assert.match(out, /^SIMULATED:/m);
    assert.match(
      out,
      /LOGCACHE_ACCESS \(spinlock_types map_key \d+\): [1-9]\d* sqlos\.spinlock_backoff events in \d+\.\d s; sys\.dm_os_spinlock_stats backoffs over the same window: \d+/,
    );
    assert.match(out, /^#1 +\d+\.\d% +\d+ events\n +SIMULATED!sqldk!XeSosPkg::spinlock_backoff::Publish/m);
    assert.match(out, /SIMULATED!sqlmin!SQLServerLogMgr::AppendLogRequest/);
    assert.match(out, /every eighth backoff/);
    assert.deepEqual(await ourEventSessions(sim), []);
    assert.equal(readJournal(stateDir, key()), null, 'the journal entry is gone once the session is dropped');
  });

  it('spinlab run --stacks captures during the last run, prints it after the results and keeps it with that run and its notebook', async () => {
    const stateDir = tmp('run-stacks-state');
    const dir = tmp('run-stacks');
    const child = spinlab(sim, stateDir, [
      'run',
      '--scenario',
      'disk-insert',
      '--threads',
      '1,4',
      '--duration',
      '4s',
      '--warmup',
      '1s',
      '--set',
      'seed_rows=0',
      '--stacks',
      'LOGCACHE_ACCESS',
      '--stacks-duration',
      '2s',
      '--out',
      path.join(dir, 'exp'),
      '--notebook',
      path.join(dir, 'exp.ipynb'),
    ]);
    const { code } = await child.exited;
    const out = child.out();
    assert.equal(code, 0, out);
    assert.match(out, /stacks: capturing LOGCACHE_ACCESS during run 2 for 2 s/);
    assert.match(out, /^#1 +\d+\.\d% +\d+ events$/m, 'the stacks are printed');
    assert.ok(out.indexOf('Event session SpinlockLab_') < out.indexOf('Saved '), 'before the files it saved');
    const e = JSON.parse(fs.readFileSync(path.join(dir, 'exp', 'experiment.json'), 'utf8')) as {
      runs: { index: number; stacks?: { spinlock: string; events: number; notes: string[] }[] }[];
    };
    assert.deepEqual(
      e.runs.map((r) => (r.stacks ?? []).map((c) => c.spinlock)),
      [[], ['LOGCACHE_ACCESS']],
      'kept with the last run only',
    );
    assert.ok(e.runs[1].stacks![0].events > 0);
    assert.ok(e.runs[1].stacks![0].notes.some((n) => /Captured during run 2 .* include the event session's cost/.test(n)));
    assert.match(
      fs.readFileSync(path.join(dir, 'exp.ipynb'), 'utf8'),
      /SpinToAcquireWithExponentialBackoff/,
      'the notebook shows the stacks',
    );
    assert.deepEqual(await ourEventSessions(sim), []);
    assert.equal(readJournal(stateDir, key()), null);
    // Presets plan their own arms: --stacks is refused there with what to do instead.
    const preset = spinlab(sim, stateDir, ['run', '--preset', 'writelog', '--stacks', 'LOGCACHE_ACCESS']);
    assert.equal((await preset.exited).code, 2);
    assert.match(preset.out(), /--stacks goes with --scenario or a custom workload/);
  });

  it('SIGKILL mid-capture leaves the session journaled; `spinlab restore` drops it', async () => {
    const stateDir = tmp('stacks-kill');
    const child = spinlab(sim, stateDir, ['stacks', '--spinlock', 'XDESMGR', '--duration', '120s']);
    try {
      const end = Date.now() + 60_000;
      while (!/capturing 1 \//.test(child.out())) {
        if (child.proc.exitCode !== null) assert.fail(`spinlab stacks ended before the kill:\n${child.out()}`);
        if (Date.now() > end) assert.fail(`no capture within 60 s:\n${child.out()}`);
        await sleep(50);
      }
      const live = await ourEventSessions(sim);
      assert.equal(live.length, 1, "the capture's session exists while it runs");
      child.proc.kill('SIGKILL');
      assert.equal((await child.exited).signal, 'SIGKILL');
      assert.deepEqual(await ourEventSessions(sim), live, 'a kill leaves the session on the server');
      assert.deepEqual(
        readJournal(stateDir, key())?.eventSessions?.map((s) => s.name),
        live,
        'and in the journal',
      );
      const restore = spinlab(sim, stateDir, ['restore']);
      const { code } = await restore.exited;
      assert.equal(code, 0, restore.out());
      assert.match(restore.out(), new RegExp(`event session ${live[0]} \\(left by process ${child.proc.pid}\\) dropped`));
      assert.deepEqual(await ourEventSessions(sim), []);
      assert.equal(readJournal(stateDir, key()), null);
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    }
  });

  it('a login without ALTER ANY EVENT SESSION is told the GRANT, and nothing is left behind', async () => {
    const stateDir = tmp('stacks-weak');
    const target = targetFor(sim, { user: 'weak', password: WEAK });
    const before = await ourEventSessions(sim);
    await assert.rejects(
      captureStacks(target, { spinlock: 'LOGCACHE_ACCESS', durationMs: 2000, top: 5, signal: new AbortController().signal, stateDir }),
      (e: Error & { original?: { number?: number } }) =>
        e.original?.number === 297 &&
        /GRANT ALTER ANY EVENT SESSION TO \[weak\]/.test(e.message) &&
        /CREATE ANY EVENT SESSION, ALTER ANY EVENT SESSION ENABLE, DROP ANY EVENT SESSION/.test(e.message),
    );
    assert.deepEqual(await ourEventSessions(sim), before);
    assert.equal(readJournal(stateDir, key()), null);
  });

  it('a cancelled capture returns the stacks counted so far and drops its session', async () => {
    const stateDir = tmp('stacks-cancel');
    const target = targetFor(sim);
    const ac = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    const pending = captureStacks(target, {
      spinlock: 'LOGCACHE_ACCESS',
      durationMs: 120_000,
      top: 5,
      signal: ac.signal,
      stateDir,
      onProgress: (p) => {
        if (p.kind !== 'tick' || ac.signal.aborted) return;
        seen.push('tick');
        if (seen.length >= 2) {
          abortedAt = p.elapsedMs;
          ac.abort();
        }
      },
    });
    const c = await pending;
    assert.match(c.notes[0], /^Cancelled after \d+\.\d s of the 120\.0 s asked/);
    // The wait ends at the abort (not at the next second, nor at the end of the 120 s).
    assert.ok(c.durationMs <= abortedAt + 1500, `captured ${c.durationMs} ms; aborted at ${abortedAt} ms`);
    assert.ok(c.session.startsWith('SpinlockLab_LOGCACHE_ACCESS_'));
    assert.ok(!(await ourEventSessions(sim)).includes(c.session), 'its session is dropped');
    assert.equal(readJournal(stateDir, key()), null);
  });
});
