// An error raised during a run is said once (it was said as "error: ..." by the live progress and again as
// "spinlab: ..." on the way out, each with its fix), and sessions that fail the same way are one line with a count,
// not one line per session.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { tmp, readExperiment } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { failFile } from '../helpers/simFaults';

const count = (text: string, what: string) => text.split(what).length - 1;

describe('errors said once', function () {
  this.timeout(120_000);

  for (const [what, file, flags] of [
    ['a deploy', 'scenarios/disk-insert/deploy', []],
    ['a knob change', 'knobs/delayed-durability', ['--delayed-durability', 'forced']],
  ] as const)
    it(`${what} that fails after connecting: its message once, with its exit code`, () =>
      withSim({}, async (sim) => {
        failFile(sim, file, { number: 262, message: 'Injected permission denied in database.' });
        const dir = tmp('errors-once');
        const args = ['run', '-c', connString(sim), '--scenario', 'disk-insert', '--set', 'seed_rows=0', '--threads', '1'];
        const r = await mainCli([...args, ...flags, '--duration', '1s', '--out', dir]);
        assert.notEqual(r.code, 0);
        assert.equal(count(r.output, 'Injected permission denied'), 1, r.output);
        assert.match(r.stderr, /^spinlab: .*Injected permission denied/m);
      }));

  it('a watch whose first tick fails: its message once', () =>
    withSim({}, async (sim) => {
      for (const f of ['watch/tick-delta', 'watch/tick']) failFile(sim, f, { number: 297, message: 'Injected: no VIEW SERVER STATE.' });
      const r = await mainCli(['watch', '-c', connString(sim), '--duration', '3s', '--out', tmp('errors-watch')]);
      assert.equal(r.code, 4, r.output);
      assert.equal(count(r.output, 'lacks VIEW SERVER STATE'), 1, r.output);
    }));

  it('sixteen sessions failing the same way: one line with the count, live and in the record', () =>
    withSim({}, async (sim) => {
      sim.faults.failStatement('dbo.spinlab_disk_insert_loop', { number: 1205, message: 'Transaction was deadlocked (injected).' });
      const dir = tmp('errors-sessions');
      const args = ['run', '-c', connString(sim), '--scenario', 'disk-insert', '--set', 'seed_rows=0', '--threads', '16'];
      const r = await mainCli([...args, '--duration', '1s', '--warmup', '0s', '--out', dir]);
      assert.equal(r.code, 1, r.output);
      assert.doesNotMatch(r.output, /session \d+ failed/, 'no line per session');
      assert.equal(count(r.stderr, 'Transaction was deadlocked (injected)'), 1, r.stderr);
      assert.match(r.stderr, /every session failed: Transaction was deadlocked \(injected\)\. \(16 sessions of 16\)/);
      const events = readExperiment(dir).events.filter((e) => /session/.test(e.message) && /deadlocked/.test(e.message));
      assert.ok(events.length <= 2, JSON.stringify(events, null, 1));
      assert.equal(readExperiment(dir).runs[0].sessionFailures.length, 16, 'each failure stays in the record');
    }));

  it('three sessions of four failing the same way: one line naming the three', () =>
    withSim({}, async (sim) => {
      sim.faults.failStatement('dbo.spinlab_disk_insert_loop', {
        number: 1205,
        message: 'Transaction was deadlocked (injected).',
        times: 3,
      });
      const args = ['run', '-c', connString(sim), '--scenario', 'disk-insert', '--set', 'seed_rows=0', '--threads', '4'];
      const r = await mainCli([...args, '--duration', '1s', '--warmup', '0s', '--out', tmp('errors-three')]);
      assert.doesNotMatch(r.stderr, /session \d+ failed/, r.stderr);
      assert.match(r.stderr, /^warning: run 1 \(4 threads\): 3 sessions failed \([\d, -]+\): Transaction was deadlocked \(injected\)\.$/m);
    }));
});
