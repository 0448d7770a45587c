// A custom SELECT beside eight busy writers (the simulator's --background disk-insert:8), end to end through the CLI:
// its headline is its own sessions' work (calls/s, latency, their CPU, reads and waits); the server's spinlocks and
// WRITELOG waits are printed per second under a server-wide heading and never divided by its calls (it did a small
// share of the server's work); and no WRITELOG diagnosis of a query that committed nothing. The figures the panel and
// the notebook show come from the same record through the same definitions (shared/customHeadline.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { tmp, readExperiment } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { customHeadline } from '../../src/shared/customHeadline';
import { experimentRows, resultColumns } from '../../src/webview/model/results';
import { shownExperimentOf } from '../../src/webview/model/panelRuns';
import { showsWritelog, writelogRows } from '../../src/webview/model/armViews';
import { LiveRuns } from '../../src/webview/model/liveRuns';
import { resultsRows } from '../../src/engine/notebook/tables';

const QUERY = 'SELECT name, spins, collisions FROM sys.dm_os_spinlock_stats';

describe('a custom SELECT beside background writers: its own headline, the server apart (simulator)', function () {
  this.timeout(120_000);

  it('own calls/s, latency and session waits; no spin or WRITELOG figure per call; no WRITELOG diagnosis', () =>
    withSim({ seed: 5, background: [{ scenario: 'disk-insert', sessions: 8 }] }, async (sim) => {
      const dir = tmp('custom-headline');
      const nb = path.join(dir, 'custom.ipynb');
      // Paced, so the readers' share of the CPU does not follow this machine's speed (as ownShare.test.ts).
      const r = await programCli([
        ...['run', '-c', connString(sim), '--sql', QUERY, '--threads', '4', '--duration', '3s', '--warmup', '0s'],
        ...['--think-time', '10ms', '--interval', '500ms', '--out', dir, '--notebook', nb],
      ]);
      assert.equal(r.code, 0, r.err);
      const e = readExperiment(dir);
      const run = e.runs[0];
      assert.ok((run.totals.waits.WRITELOG?.waitMs ?? 0) > 0, 'the writers made the server wait on WRITELOG');
      assert.equal(run.sessionWaits?.WRITELOG, undefined, 'the SELECT did not');

      // The CLI: the own headline first, then the server-wide section per second with the share.
      const own = r.out.indexOf("The workload's own sessions");
      const server = r.out.indexOf('Server-wide (every session on the server), per second');
      assert.ok(own >= 0 && server > own, r.out);
      assert.match(r.out, /threads +calls +calls\/s +p50 ms +p90 ms +p99 ms .* CPU µs\/call +logical reads\/call +own waits \(ms\/s\)/);
      assert.match(r.out, /per call: n\/a: the workload did \d+% of the server's CPU, \d+% of its waits \(per call needs 90%\)/);
      assert.match(r.out, /Top spinlocks, server-wide \(every session on the server\): spins per second\n/);
      assert.doesNotMatch(r.out, /spins per call|spins\/call|cycles per call|wait\/call|WRITELOG diagnosis/i);

      // The figures the panel shows: its own headline, and a results table with nothing server-wide per call.
      const h = customHeadline(run);
      assert.equal(h.owned, false, JSON.stringify(run.share));
      assert.ok(h.callsPerSec > 0 && h.p50Us !== null && h.p99Us !== null);
      assert.ok(h.cpuUsPerCall !== null && h.logicalReadsPerCall !== null, 'its CPU and reads from its own sessions');
      assert.ok(h.waits !== null, "its sessions' waits were read");
      const heads = resultColumns(experimentRows(e), 3, 3, 'call').map((c) => c.label);
      assert.ok(heads.includes('Calls/s') && heads.includes('Own waits') && heads.includes('XDESMGR spins/s'), heads.join(' | '));
      assert.ok(!heads.some((x) => /\/call$/.test(x) && !/\(own\)$/.test(x)), heads.join(' | '));
      assert.ok(!heads.some((x) => /^Rows/.test(x)), 'calls, never rows');

      // No WRITELOG diagnosis in the panel's analysis of the opened record.
      const shown = shownExperimentOf(
        { state: null, live: new LiveRuns(), experiments: new Map([[e.id, e]]), experimentPresets: new Map() },
        e.id,
      )!;
      assert.equal(showsWritelog(shown), false);
      assert.deepEqual(writelogRows(shown), []);

      // The notebook: the same table, nothing server-wide per call.
      const t = resultsRows(e);
      assert.ok(!t.headers.some((x) => /\/call \(server-wide\)|ms\/call/.test(x)), t.headers.join(' | '));
      assert.doesNotMatch(fs.readFileSync(nb, 'utf8'), /spins per call|spins\/call \(server-wide\)/);
    }));
});
