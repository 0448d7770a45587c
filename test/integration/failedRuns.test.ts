// A run whose work failed is not a success, through the CLI against the simulator: every call failing with a syntax
// error, every call timing out, no call completing in the measured time, and a scenario whose every call fails each
// exit 1 with the run and the experiment failed and the reason said; their latencies are "-" in the table and null in
// experiment.json; a gate on them fails; calls still in flight at the end are counted and reported.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { tmp, readExperiment } from '../helpers/common';
import { connString } from '../helpers/simTarget';

const cli = (args: string[]) => programCli(args);

const NO_LATENCY = { count: 0, meanUs: null, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null };

/** The cells of the results table's row for `threads` (the first table of the report). */
function tableRow(out: string, threads: number): string[] {
  const line = out.split('\n').find((l) => l.startsWith(`${threads} (failed)`) || new RegExp(`^${threads}\\s`).test(l));
  assert.ok(line, `a row for ${threads} threads in\n${out}`);
  return line
    .replace(/^\d+ \(\w+\)/, String(threads))
    .trim()
    .split(/\s{2,}/);
}

describe('a run where the work failed is not a success', function () {
  this.timeout(120_000);

  it('every call a syntax error: exit 1, run and experiment failed with Msg 102 and the count, latencies "-" and null, a p99 gate fails', () =>
    withSim({}, async (sim) => {
      const dir = tmp('failed');
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        'SELECT 1 FROM ,',
        '--threads',
        '2',
        '--iterations',
        '5',
        '--warmup',
        '0s',
        '--out',
        dir,
        '--assert',
        'p99<5ms',
      ]);
      assert.equal(r.code, 1, r.out + r.err);
      const e = readExperiment(dir);
      assert.equal(e.status, 'failed');
      assert.equal(e.runs[0].status, 'failed');
      assert.match(e.runs[0].failedReason ?? '', /^every call failed: Msg 102 Incorrect syntax near ','\. \(10 of 10 calls\)$/);
      assert.deepEqual(e.runs[0].latency, NO_LATENCY);
      assert.match(r.out, /error: run 1 \(2 threads\): the run failed: every call failed: Msg 102/);
      const [, , , , p50, p99] = tableRow(r.out, 2);
      assert.deepEqual([p50, p99], ['-', '-'], 'p50 and p99 of the results table');
      assert.match(r.out, /2 +0 +0 +- +- +- +- +10 /, 'the custom table: 0 calls, 0 calls/s, every latency "-", 10 failed');
      assert.match(r.out, /FAIL {2}p99<5ms {2}at 2 threads: the run failed \(every call failed/);
    }));

  it('every call timed out: exit 1, failed, "every call timed out after 200 ms"', () =>
    withSim({}, async (sim) => {
      const dir = tmp('failed');
      const r = await cli([
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
        '--out',
        dir,
      ]);
      assert.equal(r.code, 1, r.out + r.err);
      const e = readExperiment(dir);
      assert.equal(e.status, 'failed');
      assert.equal(e.runs[0].failedReason, 'every call timed out after 200 ms (2 of 2 calls)');
      assert.deepEqual(e.runs[0].latency, NO_LATENCY);
    }));

  it('no call completed in the measured time: exit 1, failed, and the calls cancelled at the end counted and reported', () =>
    withSim({}, async (sim) => {
      const dir = tmp('failed');
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        "WAITFOR DELAY '00:00:30'",
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
      assert.equal(r.code, 1, r.out + r.err);
      const run = readExperiment(dir).runs[0];
      assert.equal(run.status, 'failed');
      assert.equal(run.cancelledCalls, 2);
      assert.equal(run.failedReason, 'no call completed in the measured time; 2 calls in flight at the end were cancelled and not counted');
      assert.deepEqual(run.latency, NO_LATENCY);
      assert.deepEqual(tableRow(r.out, 2).slice(4, 6), ['-', '-']);
    }));

  it('a scenario whose every client-loop call fails: exit 1, failed with the error, no latency', () =>
    withSim({}, async (sim) => {
      const dir = tmp('failed');
      sim.faults.failStatement('dbo.spinlab_disk_insert_batch', { number: 1205, message: 'Transaction was deadlocked (injected).' });
      const r = await cli([
        'run',
        '-c',
        connString(sim),
        '--scenario',
        'disk-insert',
        '--mode',
        'client-loop',
        '--set',
        'seed_rows=0',
        '--threads',
        '2',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--out',
        dir,
        '--lab-db',
        'SpinlabFailedRuns',
      ]);
      assert.equal(r.code, 1, r.out + r.err);
      const e = readExperiment(dir);
      assert.equal(e.status, 'failed');
      assert.match(e.runs[0].failedReason ?? '', /^every session failed: Transaction was deadlocked \(injected\)\. \(2 sessions of 2\)$/);
      assert.deepEqual(e.runs[0].latency, NO_LATENCY);
      assert.deepEqual(tableRow(r.out, 2).slice(4, 6), ['-', '-']);
    }));

  it('a few failed calls among many: completed, exit 0, with a warning naming the count and the first error', () =>
    withSim({}, async (sim) => {
      const dir = tmp('failed');
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
      assert.equal(r.code, 0, r.out + r.err);
      assert.equal(readExperiment(dir).runs[0].status, 'completed');
      assert.match(
        r.out,
        /warning: run 1 \(4 threads\): 1 of 40 calls failed \(2\.5%\); the figures are the 39 that completed; first: Msg 50123 injected failure/,
      );
    }));
});
