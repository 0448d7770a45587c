// The panel in the light, dark and high-contrast themes, with a finished sweep, its results and analysis, for a look
// (test-artifacts/browser/panel-{light,dark,hc}.png); and a theme switch while open (the charts re-read their colours).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as b from '../helpers/builders';
import { axeFindings, describeFindings } from './axe';
import { answer, root, showCharts, showView, useBrowser, waitForPoints, waitForRequest, type Panel, type Theme } from './harness';
import { PANEL_VIEWS } from '../../src/shared/panelViews';

// One suite per file: its before/after hooks start and stop this file's browser and harness only.
describe('the panel in light, dark and high-contrast themes (Chromium)', () => {
  const ui = useBrowser();
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');

  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  const sweep = b.experiment('exp-7', [1, 2, 4, 8], { ticks: 30, latency: true, title: 'disk-insert, batch 1: 1-8 threads' });
  const earlier = b.experiment('exp-6', [1, 2, 4, 8], { ticks: 30, contention: 0.4, title: 'disk-insert, batch 2' });

  async function showSweep(p: Panel): Promise<void> {
    const state = b.connectedState({
      active: {
        experimentId: sweep.id,
        title: sweep.title,
        scenarioId: 'disk-insert',
        simulated: true,
        status: 'completed',
        message: '',
        events: [],
        runs: sweep.runs.map((r) => ({ index: r.index, threads: r.threads, status: r.status, ticks: r.timeline })),
      },
      history: [b.summaryOf(sweep), b.summaryOf(earlier)],
      selection: { ...b.connectedState().selection, knobs: { delayedDurability: 'FORCED', affinity: 'exclude-core0' } },
    });
    await p.send({ type: 'state', payload: { state } });
    for (const record of sweep.runs) await p.send({ type: 'runEnd', payload: { experimentId: sweep.id, record } });
    // The earlier experiment opened from the history: the panel asks, the host answers with it.
    await showView(p.page, 'history');
    await p.page.click(`[data-open="${earlier.id}"]`);
    await answer(p, await waitForRequest(p, 'experimentOpen'), { experiment: earlier, preset: null });
    await showCharts(p.page);
    await waitForPoints(p.page, 'throughput', 30);
  }

  for (const theme of ['light', 'dark', 'hc'] as Theme[]) {
    it(`screenshot in the ${theme} theme`, async () => {
      const p = await ui.open(theme, { width: 1280, height: 900 });
      try {
        await showSweep(p);
        await showView(p.page, 'history');
        await p.page.click('[data-experiment="exp-6"] button[aria-pressed]:has-text("Scaling")');
        // Every view, each checked by axe (a hidden view is not: each is shown in turn).
        for (const view of PANEL_VIEWS) {
          await showView(p.page, view);
          await p.page.waitForTimeout(300);
          const file = path.join(ARTIFACTS, `panel-${theme}-${view}.png`);
          await p.page.screenshot({ path: file, fullPage: true });
          assert.ok(fs.statSync(file).size > 20_000, `${file} is a real screenshot`);
          const findings = await axeFindings(p.page);
          assert.deepEqual(findings, [], `${view}: ${describeFindings(findings)}`);
        }
        assert.deepEqual(await p.violations(), []);
        assert.deepEqual(p.errors, []);
      } finally {
        await p.close();
      }
    });
  }

  it('switching the theme while open re-reads the chart colours', async () => {
    const p = await ui.open('dark');
    try {
      await showSweep(p);
      const colour = () =>
        p.page.evaluate(() => {
          const g = globalThis as unknown as { document: { body: { className: string } } };
          return g.document.body.className;
        });
      assert.equal(await colour(), 'vscode-dark');
      // As VS Code does: new variables and a new body class.
      await p.page.evaluate((href) => {
        const g = globalThis as unknown as {
          document: { querySelector(s: string): { setAttribute(n: string, v: string): void }; body: { className: string } };
        };
        g.document.querySelector('link[href$="/themes/dark.css"]').setAttribute('href', href);
        g.document.body.className = 'vscode-light';
      }, `${ui.origin()}/themes/light.css`);
      await p.page.waitForTimeout(300);
      const file = path.join(ARTIFACTS, 'panel-switched-to-light.png');
      await p.page.locator('#section-charts').screenshot({ path: file });
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
