// The blank-panel repro of issue #46 in a real VS Code (code-server): after the writelog preset (six runs, each with
// its own tick columns) a .sql file is opened in the editor, which hides the panel's webview (VS Code drops a hidden
// webview), and the Spinlock Lab tab is clicked again. The reloaded panel must show the connected server and the
// preset's charts, not "not connected" / "Loading...", and the webview must not have dropped a state message (before
// the fix, VS Code's RPC lost the tick columns past 255 buffers and the panel refused every state after the switch).
// SPINLAB_E2E_VSIX runs it against another build (e.g. the commit before the fix). Screenshots: tab-switch-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ARTIFACTS, CodeServer, VSIX, waitFor } from './codeServer';
import { editorTab, launchBrowser, openWorkbench, runCommand, screenshot } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';
const QUERY = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';

describe('the panel after a tab switch in VS Code (code-server), after a preset', function () {
  this.timeout(300_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let failed = false;
  /** What the pages' frames (the webview's among them) logged as warnings or errors. */
  const logged: string[] = [];
  const dropped = () => logged.filter((t) => /dropped a state message/.test(t));

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, log: () => {} });
    // No modal: the preset's server-wide changes are confirmed elsewhere (panel.e2e); this test is about the switch.
    cs = new CodeServer({ settings: { 'spinlab.confirmServerChanges': false } });
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
    fs.writeFileSync(path.join(cs.workspace, 'query.sql'), `-- the busiest spinlocks\n${QUERY}\n`);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (!failed) cs?.remove();
    else console.error(`e2e: kept ${cs?.dir} for inspection`);
  });

  it('a .sql file opened and the Spinlock Lab tab clicked again: the server and the charts, no dropped state', async () => {
    try {
      assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run package first`);
      cs.installExtension(VSIX);
      await cs.start();
      browser = await launchBrowser();
      page = await openWorkbench(browser, cs.workbenchUrl);
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'warning' || m.type() === 'error') logged.push(m.text());
      });

      await runCommand(page, 'Spinlock Lab: Open');
      await editorTab(page, 'Spinlock Lab').waitFor({ state: 'visible', timeout: 30_000 });
      const panel = new PanelDriver(page);
      await panel.visible('#scenario', 30_000);
      await panel.connectWithForm(sim.host, sim.port, PASSWORD);
      await waitFor('#server-badge to say SIMULATOR', async () => /SIMULATOR/.test(await panel.text('#server-badge')), 30_000);

      // The preset: writelog, seed_rows 1000, 2 threads, warm-up 0 s (shorter runs: the columns, not the
      // ticks, are what overflowed), 250 ms ticks; six runs (two arms, three repetitions).
      await panel.el('#section-presets').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await panel.select('#preset', 'writelog');
      await panel.click('#preset-settings > summary');
      await panel.fill('[data-preset-setting="seed_rows"]', '1000');
      await panel.fill('#preset-threads', '2');
      await panel.fill('#preset-duration', '2s');
      await panel.fill('#preset-warmup', '0s');
      await panel.fill('#preset-interval', '250ms');
      await waitFor(
        'the plan made with these settings',
        async () => (await panel.attr('#preset-plan', 'data-state')) === 'current',
        20_000,
      );
      await panel.click('#btn-run-preset');
      await panel.waitStatus('#run-status', 'completed', 150_000);
      await panel.showCharts();
      const before = await waitFor(
        'the throughput chart to have points',
        async () => (await panel.chartPoints('throughput')) || null,
        20_000,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'tab-switch-before.png') });

      // Quick Open the .sql file: its editor takes the tab group, the panel's webview is hidden.
      const quick = page.locator('.quick-input-widget .quick-input-box input');
      await waitFor(
        'Quick Open to take the file name',
        async () => {
          await page!.keyboard.press('Control+P');
          await quick.waitFor({ state: 'visible', timeout: 5_000 });
          await quick.fill('query.sql');
          await page!
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'query.sql' })
            .first()
            .waitFor({ state: 'visible', timeout: 5_000 });
          return true;
        },
        60_000,
      );
      await page.keyboard.press('Enter');
      await page
        .locator('.monaco-editor .view-lines', { hasText: 'dm_os_spinlock_stats' })
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });
      await page.locator('iframe.webview').first().waitFor({ state: 'hidden', timeout: 20_000 });

      // Back to Spinlock Lab, as a user does: a click on its tab.
      await editorTab(page, 'Spinlock Lab').click();
      await panel.visible('#section-charts', 30_000);
      // The panel draws its state: the header names the server (not "not connected"), the simulator's badge.
      const header = () => panel.text('.panel-header .muted').catch(() => '');
      const shown = await waitFor(
        'the panel to show the connected server again',
        async () => !/not connected/.test(await header()) && /SIMULATOR/.test(await panel.text('#server-badge').catch(() => '')),
        30_000,
      ).catch(() => false);
      await page.screenshot({ path: path.join(ARTIFACTS, 'tab-switch-after.png') });
      assert.ok(
        shown,
        `expected the connected server after the switch; the header says ${JSON.stringify(await header())}; the webview logged: ${JSON.stringify(dropped())}`,
      );
      assert.equal(await panel.frame.locator('#app p.empty', { hasText: 'Loading' }).count(), 0, 'no section says Loading');
      await panel.showCharts();
      await waitFor(
        "the preset's ticks on the throughput chart again",
        async () => (await panel.chartPoints('throughput')) === before,
        30_000,
      ).catch(async () =>
        assert.fail(`expected ${before} throughput points after the switch; it shows ${await panel.chartPoints('throughput')}`),
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'tab-switch-charts.png') });
      assert.equal(await panel.frame.locator('#state-notice').count(), 0, 'no notice of a refused state');
      assert.deepEqual(dropped(), [], 'the webview dropped no state message');
    } catch (e) {
      failed = true;
      await screenshot(page, path.join(ARTIFACTS, 'tab-switch-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'tab-switch-failure');
      throw e;
    }
  });
});
