// A custom workload's headline is its own sessions' work; server-wide figures are divided by its calls only when it
// owned the server (OWNED_SHARE), and the WRITELOG diagnosis is offered only for work its sessions did. The rule, and
// the CLI's report, the panel's table and analysis model and the notebook's table that read it.
import assert from 'node:assert/strict';
import type { CustomWorkload, Experiment } from '../../src/shared/experiment';
import type { OwnShare } from '../../src/shared/ownShare';
import { customHeadline, offersWritelogDiagnosis, ownedServer, OWNED_SHARE, perCallNa } from '../../src/shared/customHeadline';
import { resultsReport } from '../../src/engine/report';
import { resultsRows } from '../../src/engine/notebook/tables';
import { experimentRows, resultColumns } from '../../src/webview/model/results';
import { mathRows, showsWritelog, writelogRows, type ShownExperiment } from '../../src/webview/model/armViews';
import * as b from '../helpers/builders';

const share = (cpu: number | null, waits: number | null): OwnShare => ({
  cpu,
  waits,
  otherRequests: 8,
  othersCpuMsPerSec: 500,
  ticks: 4,
  of: 4,
});

const CUSTOM = {
  statements: [{ source: '--sql', text: 'SELECT name FROM sys.dm_os_spinlock_stats' }],
  database: 'master',
  params: null,
  iterations: null,
  thinkTimeMs: 0,
  queryTimeoutMs: null,
  stopOnError: false,
  writes: null,
} as CustomWorkload;

/** A custom SELECT's record beside busy writers: the server spun and waited on WRITELOG, its sessions did not. */
function custom(s: OwnShare | null): Experiment {
  const e = b.experiment('exp-custom', [4], { ticks: 4, latency: true });
  e.title = 'Custom workload in [master]';
  e.scenario = { ...e.scenario, id: 'custom' };
  e.load = { ...e.load, mode: 'client-loop' };
  e.custom = CUSTOM;
  const r = e.runs[0];
  r.totals.spinlocks = { XDESMGR: { spins: 8_000_000, collisions: 10, backoffs: 5, sleepTime: 0 } };
  r.totals.waits = { WRITELOG: { waitMs: 20_000, count: 5_000, signalMs: 10 } };
  r.custom = { calls: 1000, failedCalls: 0, errors: [], perCall: { clientSec: 0.002, serverCpuSec: 0.001, logicalReads: 7 } } as never;
  r.sessionWaits = { ASYNC_NETWORK_IO: { waitMs: 400, count: 900, signalMs: 1 }, SLEEP_TASK: { waitMs: 9000, count: 9, signalMs: 0 } };
  r.share = s;
  return e;
}

describe("a custom workload's headline: its own sessions' work, server-wide figures apart", () => {
  it(`the workload owned the server at ${OWNED_SHARE * 100}% of its CPU and waits; below, or unread, it did not`, () => {
    assert.equal(OWNED_SHARE, 0.9);
    assert.equal(ownedServer(share(0.9, 0.95)), true);
    assert.equal(ownedServer(share(0.97, null)), true, 'a server that waited on nothing: the CPU decides');
    assert.equal(ownedServer(share(0.89, 1)), false);
    assert.equal(ownedServer(share(0.99, 0.5)), false, "half the waits were others'");
    assert.equal(ownedServer(share(null, 1)), false);
    assert.equal(ownedServer(null), false, 'never assumed when the share was not read');
    assert.equal(perCallNa(share(0.26, 0)), "n/a: the workload did 26% of the server's CPU, 0% of its waits (per call needs 90%)");
  });

  it('the headline: calls, calls/s, latency, its own CPU, reads and waits (benign left out), per second and per call', () => {
    const h = customHeadline(custom(share(0.26, 0)).runs[0]);
    assert.equal(h.calls, 1000);
    assert.equal(h.cpuUsPerCall, 1000);
    assert.equal(h.logicalReadsPerCall, 7);
    assert.equal(h.p50Us, 1000);
    assert.deepEqual(
      h.waits?.map((w) => [w.type, w.msPerCall]),
      [['ASYNC_NETWORK_IO', 0.4]],
    );
    assert.equal(h.owned, false);
  });

  it('the WRITELOG diagnosis is offered only when its own sessions waited on WRITELOG or it owned the server', () => {
    assert.equal(
      offersWritelogDiagnosis({ sessionWaits: { ASYNC_NETWORK_IO: { waitMs: 4, count: 1, signalMs: 0 } }, share: share(0.3, 0) }),
      false,
    );
    assert.equal(
      offersWritelogDiagnosis({ sessionWaits: { WRITELOG: { waitMs: 4, count: 1, signalMs: 0 } }, share: share(0.3, 0.1) }),
      true,
    );
    assert.equal(offersWritelogDiagnosis({ sessionWaits: {}, share: share(0.95, 0.95) }), true);
  });

  it('the CLI report: the own headline first, server-wide per second, per call n/a with the share', () => {
    const out = resultsReport(custom(share(0.26, 0)), 'calls');
    assert.match(out, /The workload's own sessions/);
    assert.match(out, /ASYNC_NETWORK_IO/);
    assert.match(out, /Server-wide \(every session on the server\), per second/);
    assert.match(out, /per call: n\/a: the workload did 26% of the server's CPU, 0% of its waits \(per call needs 90%\)/);
    assert.doesNotMatch(out, /spins per call|cycles per call/);
    assert.ok(out.indexOf("The workload's own sessions") < out.indexOf('Server-wide'), 'the own figures come first');
    const owned = resultsReport(custom(share(0.95, 0.96)), 'calls');
    assert.match(owned, /spins per second \(spins per call\)/, 'a workload that owned the server gets its per-call figures');
  });

  it("the panel's results table: own columns, server-wide per second; per call only for a run that owned the server", () => {
    const heads = (e: Experiment) => resultColumns(experimentRows(e), 3, 3, 'call').map((c) => c.label);
    const h = heads(custom(share(0.26, 0)));
    assert.ok(
      h.includes('Calls/s') && h.includes('CPU/call (own)') && h.includes('Reads/call (own)') && h.includes('Own waits'),
      h.join(' | '),
    );
    assert.ok(h.includes('XDESMGR spins/s'), h.join(' | '));
    assert.ok(!h.some((x) => /spins\/call|wait\/call|backoffs\/call|^CPU\/call$|^Log\/call$/.test(x)), h.join(' | '));
    const owned = heads(custom(share(0.95, 0.95)));
    assert.ok(owned.includes('XDESMGR spins/call'), owned.join(' | '));
  });

  it('the notebook table: no server-wide figure per call below the threshold', () => {
    const { headers, rows } = resultsRows(custom(share(0.26, 0)));
    assert.ok(!headers.some((x) => /spins\/call|ms\/call \(server-wide\)|CPU ms\/call/.test(x)), headers.join(' | '));
    assert.ok(headers.includes('own waits'), headers.join(' | '));
    assert.match(rows[0].join(' | '), /ASYNC_NETWORK_IO/);
  });

  it('the analysis model: no WRITELOG diagnosis of a read-only workload beside writers', () => {
    const e = custom(share(0.26, 0));
    const shown: ShownExperiment = {
      key: e.id,
      title: e.title,
      preset: null,
      custom: true,
      majorVersion: 16,
      threadsPerCore: 1,
      runs: e.runs.map((r) => ({ ...r, arm: r.arm, derived: r.derived, sessionWaits: r.sessionWaits, share: r.share })),
    };
    assert.equal(showsWritelog(shown), false);
    assert.deepEqual(writelogRows(shown), []);
    assert.ok(shown.runs[0].derived, 'the run has its derived figures');
    assert.deepEqual(mathRows(shown), [], "no cycles per call from the server's cycles beside others' work");
    shown.runs[0].share = share(0.95, 0.95);
    assert.equal(showsWritelog(shown), true, 'a workload that owned the server is diagnosed');
    assert.equal(mathRows(shown).length, 1, 'and its cycles per call are done');
  });
});
