// Whose work the panel's per-row figures count (Chromium, real CSP): a custom read-only workload's record opened from
// the history shows calls (not rows), labels the per-call figures server-wide, gives each run's own share of the
// server's CPU and waits, and warns that others were busy; a run on a quiet server says its share without a warning.
// Screenshot: test-artifacts/browser/own-share-{light,dark,hc}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CustomWorkload, Experiment } from '../../src/shared/experiment';
import * as b from '../helpers/builders';
import { answer, root, waitForRequest, type Theme, usePanels, showView } from './harness';

describe("the workload's own share in the panel, in Chromium", () => {
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  const panels = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  const CUSTOM: CustomWorkload = {
    statements: [{ source: '--sql', text: 'SELECT cpu_count FROM sys.dm_os_sys_info' }],
    database: 'master',
    params: null,
    iterations: null,
    thinkTimeMs: 0,
    queryTimeoutMs: null,
    stopOnError: false,
    writes: null,
  } as CustomWorkload;

  /** A custom workload's record: run 1 beside eight busy writers, run 2 on a quiet server. */
  function record(): Experiment {
    const e = b.experiment('exp-share', [4, 8], { ticks: 6 });
    e.title = 'Custom workload in [master]';
    e.scenario = { ...e.scenario, id: 'custom' };
    e.custom = CUSTOM;
    e.runs[0].share = { cpu: 0.13, waits: 0.02, otherRequests: 8, othersCpuMsPerSec: 870, ticks: 6, of: 6 };
    e.runs[1].share = { cpu: 0.96, waits: 0.9, otherRequests: 0, othersCpuMsPerSec: 12, ticks: 6, of: 6 };
    return e;
  }

  const check = (theme: Theme) =>
    panels.withPanel(
      b.connectedState({ history: [b.summaryOf(record())] }),
      async (p) => {
        await showView(p.page, 'history');
        await p.page.click('[data-open="exp-share"]');
        const open = await waitForRequest(p, 'experimentOpen');
        await answer(p, open, { experiment: record(), preset: null });
        await showView(p.page, 'results');
        await p.page.waitForSelector('#results-experiment option[value="exp-share"]', { state: 'attached' });
        await p.page.selectOption('#results-experiment', 'exp-share');
        await p.page.waitForSelector('#results-share li');
        const share = (await p.page.textContent('#results-share')) ?? '';
        assert.match(share, /server-wide: every session on the server adds to them, so they are shown per second/);
        const items = await p.page.$$eval('#results-share li', (els) =>
          els.map((e) => ({ run: e.getAttribute('data-run'), busy: e.getAttribute('data-others-busy'), text: e.textContent ?? '' })),
        );
        assert.equal(items.length, 2);
        assert.deepEqual(
          items.map((i) => i.busy),
          ['yes', 'no'],
        );
        assert.match(items[0].text, /13% of the server's CPU, 2% of its waits\s*— others busy/);
        assert.match(items[1].text, /96% of the server's CPU, 90% of its waits$/);
        assert.match(
          (await p.page.textContent('#results-share-warning')) ?? '',
          /^Other sessions did a meaningful part of the server's work during this run \(8\.0 other requests running on average\)/,
        );
        // The table counts calls, names its server-wide columns per call, and has the share beside them.
        const heads = await p.page.$$eval('#results-cells thead th, #results-table thead th', (hs) =>
          hs.map((h) => h.textContent?.trim() ?? ''),
        );
        assert.ok(heads.includes('Calls/s') && heads.includes('Own CPU'), heads.join(' | '));
        assert.ok(!heads.some((h) => /\/row$/.test(h)), `no per-row column for a custom workload: ${heads.join(' | ')}`);
        const title = await p.page.getAttribute('#results-table thead th button[data-sort="cpuMsPerRow"]', 'title');
        assert.match(title ?? '', /server-wide/);
        const col = heads.slice(heads.indexOf('Run')).indexOf('Own CPU');
        const ownCpu = await p.page.$$eval(`#results-table tbody tr td:nth-child(${col + 1})`, (tds) =>
          tds.map((t) => t.textContent?.trim()),
        );
        assert.deepEqual(ownCpu, ['13.0%', '96.0%']);
        assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
        assert.deepEqual(p.errors, [], 'no console error');
        await p.page.locator('#section-results').screenshot({ path: path.join(ARTIFACTS, `own-share-${theme}.png`) });
      },
      theme,
    );

  it('a custom workload opened from the history: calls, server-wide per-call figures, each run’s share, others busy named', () =>
    check('dark'));
  it('the same in the light theme', () => check('light'));
  it('the same in high contrast', () => check('hc'));
});
