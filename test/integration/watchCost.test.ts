// What the watch costs the server it watches, against the simulator (whose numbers are synthetic, charged by its
// model of SQL Server's rules): the watch reads its own session's row of sys.dm_exec_sessions and reports it beside
// the server's totals; over its budget it says so once and lengthens its interval; and the delta tick with OPTION
// (KEEPFIXED PLAN) makes no statistics-driven recompilations where the tick before it did.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import type { WatchRecord, WatchTick } from '../../src/shared/watch';
import { measureTickCost, type TickFile } from '../../bench/monitorCost';
import { tmp } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { mainCli as cli } from '../helpers/cliInProcess';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };
const conn = (sim: Simulator) => connString(sim, { user: WATCHER.name, password: WATCHER.password });

const read = (dir: string) => ({
  record: JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as WatchRecord,
  ticks: fs
    .readFileSync(path.join(dir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as WatchTick),
});
const budgetWarnings = (r: WatchRecord) => r.events.filter((e) => /over its budget/.test(e.message));

describe('what the watch costs the server', function () {
  this.timeout(120_000);
  const state = tmp('state');
  before(() => {
    process.env.SPINLAB_STATE_DIR = state;
  });
  after(() => {
    delete process.env.SPINLAB_STATE_DIR;
  });

  it("reports its own session's CPU, reads and writes per tick from sys.dm_exec_sessions, beside the server's totals, within budget", () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }], logins: [WATCHER], watcherCostMs: 4 }, async (sim) => {
      const out = tmp('out');
      const r = await cli(['watch', '-c', conn(sim), '--duration', '6s', '--out', out, '--quiet']);
      assert.equal(r.code, 0, r.stderr);
      const { record, ticks } = read(out);
      const c = record.cost;
      assert.ok(c, 'the watch saved its cost');
      // Each tick batch was charged 4 ms by the simulator's knob, on top of its statements: read back from the DMV.
      assert.ok(c.cpuMsPerTick >= 4, `cpu per tick ${c.cpuMsPerTick}`);
      assert.ok(c.logicalReadsPerTick > 0 && c.writesPerTick > 0 && c.scheduledMsPerTick >= c.cpuMsPerTick);
      assert.ok(c.serverCpuMsPerTick > 0 && c.batchRequestsPerTick > 0, "the server's totals beside it");
      assert.equal(c.recompilesPerTick, 0, 'KEEPFIXED PLAN: the tick recompiles nothing');
      assert.equal(c.budgetMsPerSec, 10);
      assert.ok(ticks.filter((t) => t.monitor).length === c.ticks && c.ticks >= 1);
      assert.equal(budgetWarnings(record).length, 0, 'under budget: nothing said');
      assert.ok(
        ticks.every((t) => t.intervalSetMs === undefined),
        'under budget: the interval kept',
      );
      assert.match(
        r.stdout,
        /Spinlock Lab's own session cost the server .* ms CPU, .* logical reads, .* page writes .* per tick .*synthetic/,
      );
    }));

  it('over its budget, says so once and doubles its interval, recording it on the ticks', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }], logins: [WATCHER], watcherCostMs: 50 }, async (sim) => {
      const out = tmp('out');
      const r = await cli([
        'watch',
        '-c',
        conn(sim),
        '--duration',
        '6s',
        '--interval',
        '250ms',
        '--cost-budget',
        '10',
        '--out',
        out,
        '--quiet',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const { record, ticks } = read(out);
      const warned = budgetWarnings(record);
      assert.equal(warned.length, 1, 'said once');
      assert.match(warned[0].message, /budget of 10 ms\/s .*every 0\.5 s/);
      const set = ticks.filter((t) => t.intervalSetMs !== undefined).map((t) => t.intervalSetMs);
      assert.deepEqual(set.slice(0, 2), [500, 1000].slice(0, set.length), 'doubled, and doubled again while still over');
      assert.ok(set.length >= 1);
      // Ticking on at 250 ms would give about 24 ticks in 6 s; the lengthened ones leave far fewer (a slow machine, fewer still).
      assert.ok(ticks.length < 18, `${ticks.length} ticks: the sampler kept its 250 ms interval`);
      assert.equal(record.cost?.finalIntervalMs, set.at(-1));
      assert.ok((record.cost?.cpuMsPerTick ?? 0) >= 50);
    }));

  for (const file of ['watch/tick-delta', 'dmv/sample-delta'] as TickFile[]) {
    it(`sql/${file}.sql with KEEPFIXED PLAN makes no statistics-driven recompilations; the tick before it did`, async function () {
      this.timeout(60_000);
      const before = await measureTickCost(file, 'before', 12);
      const after = await measureTickCost(file, 'after', 12);
      assert.ok(before.recompilesPerTick > 0, `before: ${before.recompilesPerTick} recompilations per tick`);
      assert.equal(after.recompilesPerTick, 0);
      assert.equal(after.compilationsPerTick, 0, 'its plans compiled once, on the first ticks');
      assert.ok(after.cpuMsPerTick < before.cpuMsPerTick);
    });
  }
});
