// A custom read-only workload's own share of the server's work, end to end through the CLI: beside eight busy
// writers (the simulator's --background disk-insert:8) its sessions did a small part of the server's CPU, the run says
// others were busy and labels the per-call figures server-wide; the same workload on an idle simulator did nearly all.
// The monitor's own ticks are CPU of the server too (as on SQL Server), so the workload reads a whole view per call:
// heavier than the ticks, as a workload worth measuring is. Beside the writers it is paced (a light workload on a busy
// server); alone it runs back to back.
import assert from 'node:assert/strict';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { tmp, readExperiment } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { othersBusy } from '../../src/shared/ownShare';

const QUERY = 'SELECT name, spins, collisions FROM sys.dm_os_spinlock_stats';

/** thinkMs: a pause after each call, so the workload's call rate (and its CPU) does not follow this machine's speed. */
async function runQuery(port: number, thinkMs?: number) {
  const dir = tmp('share');
  const args = ['run', '-c', connString({ port }), '--sql', QUERY, '--threads', '4', '--duration', '3s', '--warmup', '0s'];
  if (thinkMs !== undefined) args.push('--think-time', `${thinkMs}ms`);
  const r = await programCli([...args, '--interval', '500ms', '--out', dir]);
  assert.equal(r.code, 0, r.err);
  return { out: r.out, run: readExperiment(dir).runs[0] };
}

describe("a custom workload's own share of the server's work (simulator)", function () {
  this.timeout(120_000);

  it('beside eight busy writers: a small share, others busy, server-wide figures labelled and per call', () =>
    withSim({ seed: 5, background: [{ scenario: 'disk-insert', sessions: 8 }] }, async (sim) => {
      // Paced (10 ms between calls): back to back, four readers' share of the CPU grows with how fast this machine
      // answers them (53-59% on a quiet 2-core machine once the simulator parsed faster), not with the writers' work.
      const { out, run } = await runQuery(sim.port, 10);
      assert.ok(run.timeline.length > 0 && run.timeline.every((t) => t.own), 'every tick carries the sessions’ own figures');
      assert.ok(run.share && run.share.cpu !== null, 'the share was read');
      assert.ok(run.share.cpu < 0.5, `own CPU share ${run.share.cpu}`);
      assert.ok(run.share.otherRequests >= 7, `other requests ${run.share.otherRequests}`);
      assert.equal(othersBusy(run.share), true);
      assert.ok(
        run.events.some((e) => e.level === 'warning' && /other sessions did a meaningful part/.test(e.message)),
        'the run carries the warning',
      );
      assert.match(out, /own share of server CPU, waits/);
      assert.match(out, /\d+%, \d+% \(others busy\)/);
      // Server-wide figures per second only: the workload did too little of the server's work for them per call.
      assert.match(out, /Top spinlocks, server-wide \(every session on the server\): spins per second\n/);
      assert.match(out, /per call: n\/a: the workload did \d+% of the server's CPU/);
      assert.match(out, /Others busy: other sessions did a meaningful part of the server's work in 1 of 1 run/);
    }));

  it('a pasted ostress line on an idle simulator (SELECT 1, a fraction of a second): nothing warns of others', () =>
    withSim({ seed: 5 }, async (sim) => {
      const dir = tmp('share-ostress');
      const r = await programCli([
        'ostress',
        `-S127.0.0.1,${sim.port}`,
        '-Usa',
        `-P${SIM_PASSWORD}`,
        '-QSELECT 1',
        '-n1',
        '-r100',
        '-o',
        dir,
      ]);
      assert.equal(r.code, 0, r.err);
      const run = readExperiment(dir).runs[0];
      assert.ok(run.share, 'the share was read');
      assert.equal(othersBusy(run.share), false, JSON.stringify(run.share));
      assert.doesNotMatch(r.out + r.err, /others busy|Others busy|other sessions did a meaningful part/);
    }));

  it('on an idle simulator: nearly all of the server’s CPU is the workload’s own, and nothing warns', () =>
    withSim({ seed: 5 }, async (sim) => {
      const { out, run } = await runQuery(sim.port);
      assert.ok(run.share && run.share.cpu !== null, 'the share was read');
      assert.ok(run.share.cpu >= 0.75, `own CPU share ${run.share.cpu}`);
      assert.equal(run.share.otherRequests, 0);
      assert.equal(othersBusy(run.share), false);
      assert.doesNotMatch(out, /others busy|Others busy/);
    }));
});
