// Custom workloads end to end through the CLI against the simulator: a SELECT over a DMV by
// 4 sessions x 50 iterations, ostress's command line, CSV parameters arriving as RPC parameters, a failing call
// counted and named while the run completes, and --assert gates deciding the exit code.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { observedCalls } from '../../tools/sim/model/custom';
import { tmp, readExperiment } from '../helpers/common';
import { connString } from '../helpers/simTarget';

const cli = (args: string[]) => programCli(args);

const SPINS = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';

describe('custom workloads against the simulator', function () {
  this.timeout(120_000);

  it('--sql by 4 threads x 50 iterations makes 200 calls, reports calls/s and percentiles, saves experiment and notebook', () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      const nb = path.join(dir, 'custom.ipynb');
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        SPINS,
        '--threads',
        '4',
        '--iterations',
        '50',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--out',
        dir,
        '--notebook',
        nb,
      ]);
      assert.equal(r.code, 0, r.err);
      const e = readExperiment(dir);
      assert.equal(e.scenario.id, 'custom');
      assert.equal(e.status, 'completed');
      assert.equal(e.runs[0].custom?.calls, 200);
      assert.equal(e.runs[0].latency?.count, 200);
      // The live ticks count calls (a custom workload writes no lab table); the closing sliver may hold the rest.
      assert.ok(e.runs[0].timeline.length >= 1);
      assert.ok(e.runs[0].timeline.reduce((n, t) => n + t.rows, 0) <= 200);
      assert.ok(e.runs[0].derived.rowsPerSec > 0, 'calls/s from the client count');
      assert.match(r.out, /calls\/s/);
      assert.match(r.out, /p50 ms +p90 ms +p99 ms/);
      assert.match(r.out, /reads only/);
      assert.ok(fs.existsSync(nb));
      assert.ok(e.runs[0].custom!.perCall.logicalReads! > 0, "per-call logical reads from the sessions' own counters");
      assert.ok(e.runs[0].sessionWaits !== undefined);
      // Re-run from the notebook: the same workload again, appended beside the original.
      const again = await cli(['rerun', nb, '--yes', '-c', connString(sim), '--out', tmp('custom')]);
      assert.equal(again.code, 0, again.err);
      assert.match(again.out, /Added to .* \(2 experiments\)/);
      assert.match(again.out, /Custom workload in \[master\]: 1 statement/);
    }));

  it('spinlab ostress -Q -n4 -r25 makes 100 calls and prints the equivalent run line without the password; -m replay is refused by name', () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      const r = await cli(['ostress', `-S127.0.0.1,${sim.port}`, '-Usa', `-P${SIM_PASSWORD}`, '-QSELECT 1', '-n4', '-r25', `-o${dir}`]);
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.out,
        /Equivalent: spinlab run -c "Server=127\.0\.0\.1,\d+;User ID=sa;Encrypt=Optional" --sql "SELECT 1" --threads 4 --iterations 25/,
      );
      assert.ok(!r.out.includes(SIM_PASSWORD) && !r.err.includes(SIM_PASSWORD), 'the password is never printed');
      assert.equal(readExperiment(dir).runs[0].custom?.calls, 100);
      const refused = await cli(['ostress', `-S127.0.0.1,${sim.port}`, '-Usa', `-P${SIM_PASSWORD}`, '-QSELECT 1', '-m', 'replay']);
      assert.equal(refused.code, 2);
      assert.match(refused.err, /-m replay .*not supported/);
    }));

  it('a 3-row parameter CSV feeds 3 different values, sent as RPC parameters and not in the text', () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      const csv = path.join(tmp('custom'), 'p.csv'); // beside the output folder, not in it: an --out folder must be new or empty
      fs.writeFileSync(csv, 'id\n11\n22\n33\n');
      const text = 'SELECT name FROM sys.dm_os_spinlock_stats WHERE spins > @id';
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        text,
        '--params-csv',
        csv,
        '--threads',
        '1',
        '--iterations',
        '6',
        '--warmup',
        '0s',
        '--out',
        dir,
      ]);
      assert.equal(r.code, 0, r.err);
      const calls = observedCalls(sim.model).filter((c) => c.text === text);
      assert.equal(calls.length, 6);
      assert.deepEqual(new Set(calls.map((c) => c.params['@id'])), new Set([11, 22, 33]));
      assert.match(r.out, /3 rows from p\.csv \(@id int\)/);
    }));

  it('a call failing in 1 of 4 sessions is counted and named; the run completes', () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      sim.faults.failStatement('custom/SELECT 1', { number: 50123, message: 'injected failure', times: 1 });
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        'SELECT 1',
        '--threads',
        '4',
        '--iterations',
        '10',
        '--warmup',
        '0s',
        '--out',
        dir,
      ]);
      assert.equal(r.code, 0, r.err);
      const run = readExperiment(dir).runs[0];
      assert.equal(run.status, 'completed');
      assert.equal(run.custom?.calls, 39);
      assert.equal(run.custom?.failedCalls, 1);
      assert.equal(run.custom?.errors[0].number, 50123);
      assert.equal(Object.keys(run.custom!.errors[0].sessions).length, 1);
      assert.match(r.out, /error 50123 x1 in session \d: injected failure/);
    }));

  it('--assert "p99<1us" exits 1 naming the gate; "p99<10s" exits 0', () =>
    withSim({}, async (sim) => {
      const base = ['run', '-c', connString(sim), '--sql', 'SELECT 1', '--threads', '2', '--iterations', '5', '--warmup', '0s'];
      const bad = await cli([...base, '--out', tmp('custom'), '--assert', 'p99<1us']);
      assert.equal(bad.code, 1);
      assert.match(bad.err, /gate failed: "p99<1us"/);
      const good = await cli([...base, '--out', tmp('custom'), '--assert', 'p99<10s']);
      assert.equal(good.code, 0, good.err);
      assert.match(good.out, /pass {2}p99<10s/);
    }));

  it("a WAITFOR workload for a duration: live ticks count its calls, and the own sessions' WAITFOR waits are recorded", () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        "WAITFOR DELAY '00:00:00.050'",
        '--threads',
        '2',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--out',
        dir,
      ]);
      assert.equal(r.code, 0, r.err);
      const run = readExperiment(dir).runs[0];
      assert.ok(run.timeline.length >= 2);
      assert.ok(
        run.timeline.every((t) => t.rows > 0),
        `every tick counts calls: ${run.timeline.map((t) => t.rows).join(',')}`,
      );
      assert.ok((run.sessionWaits?.WAITFOR?.count ?? 0) >= run.custom!.calls, 'each call waited on WAITFOR in its own session');
    }));

  it('--query-timeout names timeouts and the run goes on; --stop-on-error ends the run at the first failure', () =>
    withSim({}, async (sim) => {
      const slow = [
        'run',
        '-c',
        connString(sim),
        '--sql',
        "WAITFOR DELAY '00:00:02'",
        '--threads',
        '1',
        '--iterations',
        '2',
        '--warmup',
        '0s',
        '--query-timeout',
        '200ms',
      ];
      const dir = tmp('custom');
      const r = await cli([...slow, '--out', dir]);
      const run = readExperiment(dir).runs[0];
      assert.equal(run.custom?.failedCalls, 2, r.err);
      assert.equal(run.custom?.errors[0].kind, 'timeout');
      assert.match(r.out, /timeout x2 in session 1/);
      const stopDir = tmp('custom');
      const stopped = await cli([...slow, '--out', stopDir, '--stop-on-error']);
      const s = readExperiment(stopDir).runs[0];
      assert.equal(s.custom?.failedCalls, 1);
      assert.equal(s.status, 'failed');
      assert.equal(stopped.code, 1);
    }));

  it('a statement the simulator cannot model fails each call with "not supported", counted, never run', () =>
    withSim({}, async (sim) => {
      const dir = tmp('custom');
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        'UPDATE dbo.t SET x = 1',
        '--threads',
        '1',
        '--iterations',
        '2',
        '--warmup',
        '0s',
        '--out',
        dir,
      ]);
      assert.match(r.err, /WRITES to \[master\]/);
      const run = readExperiment(dir).runs[0];
      assert.equal(run.custom?.failedCalls, 2);
      assert.match(run.custom!.errors[0].message, /simulator .*does not support/);
    }));
});
