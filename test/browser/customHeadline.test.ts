// A custom SELECT's record from beside eight busy writers, opened from the history (Chromium, real CSP): the Results
// headline is its own sessions' work (calls/s, latency, CPU, reads and session waits), the server's spinlocks and
// waits sit in a section labelled server-wide, per second, with per call "n/a" and the share; no per-call spin or
// WRITELOG column; and the Analysis offers no WRITELOG diagnosis of a query that committed nothing.
// Screenshot: test-artifacts/browser/custom-headline-{dark,light,hc}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CustomWorkload, Experiment } from '../../src/shared/experiment';
import * as b from '../helpers/builders';
import { answer, root, showView, waitForRequest, type Theme, usePanels } from './harness';

describe("a custom workload's own headline in the panel, in Chromium", () => {
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  const panels = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  function record(): Experiment {
    const e = b.experiment('exp-own', [4], { ticks: 6, latency: true });
    e.title = 'Custom workload in [master]';
    e.scenario = { ...e.scenario, id: 'custom' };
    e.load = { ...e.load, mode: 'client-loop' };
    e.custom = {
      statements: [{ source: '--sql', text: 'SELECT name, spins FROM sys.dm_os_spinlock_stats' }],
      database: 'master',
      params: null,
      iterations: null,
      thinkTimeMs: 0,
      queryTimeoutMs: null,
      stopOnError: false,
      writes: null,
    } as CustomWorkload;
    const r = e.runs[0];
    r.totals.spinlocks = { XDESMGR: { spins: 27_000_000, collisions: 10, backoffs: 5, sleepTime: 0 } };
    r.totals.waits = { WRITELOG: { waitMs: 24_000, count: 6_000, signalMs: 10 } };
    r.custom = { calls: 1000, failedCalls: 0, errors: [], perCall: { clientSec: 0.002, serverCpuSec: 0.00106, logicalReads: 7 } } as never;
    r.sessionWaits = { SOS_SCHEDULER_YIELD: { waitMs: 60, count: 90, signalMs: 60 } };
    r.share = { cpu: 0.13, waits: 0.01, otherRequests: 8, othersCpuMsPerSec: 870, ticks: 6, of: 6 };
    return e;
  }

  const check = (theme: Theme) =>
    panels.withPanel(
      b.connectedState({ history: [b.summaryOf(record())] }),
      async (p) => {
        await showView(p.page, 'history');
        await p.page.click('[data-open="exp-own"]');
        const open = await waitForRequest(p, 'experimentOpen');
        await answer(p, open, { experiment: record(), preset: null });
        await showView(p.page, 'results');
        await p.page.waitForSelector('#results-experiment option[value="exp-own"]', { state: 'attached' });
        await p.page.selectOption('#results-experiment', 'exp-own');
        await p.page.waitForSelector('#custom-headline');
        const heads = await p.page.$$eval('#custom-headline thead th', (hs) => hs.map((h) => h.textContent?.trim() ?? ''));
        assert.deepEqual(heads, ['Threads', 'Runs', 'Calls/s', 'p50', 'p99', 'CPU/call', 'Reads/call', 'Session waits']);
        const cell = (f: string) => p.page.textContent(`#custom-headline [data-figure="${f}"]`).then((t) => t?.trim() ?? '');
        assert.match(await cell('callsPerSec'), /^[\d,.]+$/);
        assert.equal(await cell('p50'), '1 ms');
        assert.equal(await cell('cpuPerCall'), '1.06 ms');
        assert.equal(await cell('readsPerCall'), '7');
        assert.match(await cell('sessionWaits'), /^SOS_SCHEDULER_YIELD [\d.]+ ms\/s$/);
        const server = (await p.page.textContent('#custom-server-wide')) ?? '';
        assert.match(server, /Server-wide \(every session on the server\), per second/);
        assert.match(
          server,
          /XDESMGR [\d,.]+[KM]? spins\/s, WRITELOG [\d,.]+ ms\/s; per call: n\/a: the workload did 13% of the server's CPU, 1% of its waits/,
        );
        const results = (await p.page.textContent('#section-results')) ?? '';
        assert.doesNotMatch(results, /spins\/call|wait\/call|Rows/);
        assert.equal(await p.page.locator('#section-results [data-sort="cpuMsPerRow"]').count(), 0, 'no server CPU per call');
        // The analysis of the same record: no WRITELOG diagnosis, and why.
        await p.page.selectOption('#analysis-experiment', 'exp-own');
        await p.page.waitForSelector('#writelog-others');
        assert.equal(await p.page.locator('#writelog-diagnosis').count(), 0);
        assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
        assert.deepEqual(p.errors, [], 'no console error');
        await p.page.locator('#section-results').screenshot({ path: path.join(ARTIFACTS, `custom-headline-${theme}.png`) });
      },
      theme,
    );

  it('own calls/s, latency, CPU, reads and session waits; server-wide per second with the share; no WRITELOG diagnosis', () =>
    check('dark'));
  it('the same in the light theme', () => check('light'));
  it('the same in high contrast', () => check('hc'));
});
