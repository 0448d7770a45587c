// "Load Test This Query" end to end: a .sql file of the code-server workspace opened in the editor, the command run
// from the palette, the panel opened on the Custom workload filled in with the file's T-SQL, connected to the
// simulator, run for a duration by 2 sessions with live charts filling, saved as a custom experiment, and nothing
// deployed (no lab database); beside the simulator's eight busy writers, the results give the run its own share of
// the server's work and say others were busy. Screenshots: test-artifacts/e2e/custom-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { observedCalls } from '../../tools/sim/model/custom';
import { ARTIFACTS, CodeServer, VSIX, waitFor } from './codeServer';
import { editorTab, launchBrowser, openWorkbench, runCommand, screenshot, webview } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';
const SPINS = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';

describe('Load Test This Query in VS Code (code-server) against the simulator', function () {
  this.timeout(240_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let failed = false;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    // Eight busy writers of the simulator's own beside the user's query: the run must not count their work as its own.
    sim = await startSimulator({ password: PASSWORD, log: () => {}, background: [{ scenario: 'disk-insert', sessions: 8 }] });
    cs = new CodeServer({});
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
    fs.writeFileSync(path.join(cs.workspace, 'spins.sql'), `-- the busiest spinlocks\n${SPINS}\n`);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (!failed) cs?.remove();
    else console.error(`e2e: kept ${cs?.dir} for inspection`);
  });

  it('opens spins.sql, Load Test This Query fills the panel, the run shows live charts and is saved; nothing deployed', async () => {
    try {
      assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run package first`);
      cs.installExtension(VSIX);
      await cs.start();
      browser = await launchBrowser();
      page = await openWorkbench(browser, cs.workbenchUrl);

      // Quick Open the file, as a user would.
      const quick = page.locator('.quick-input-widget .quick-input-box input');
      await waitFor(
        'Quick Open to take the file name',
        async () => {
          await page!.keyboard.press('Control+P');
          await quick.waitFor({ state: 'visible', timeout: 5_000 });
          await quick.fill('spins.sql');
          await page!
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'spins.sql' })
            .first()
            .waitFor({ state: 'visible', timeout: 5_000 });
          return true;
        },
        60_000,
      );
      await page.keyboard.press('Enter');
      await editorTab(page, 'spins.sql').waitFor({ state: 'visible', timeout: 20_000 });
      await page
        .locator('.monaco-editor .view-lines', { hasText: 'dm_os_spinlock_stats' })
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });

      await runCommand(page, 'Spinlock Lab: Load Test This Query');
      await editorTab(page, 'Spinlock Lab')
        .waitFor({ state: 'visible', timeout: 30_000 })
        .catch(() => {
          throw new Error('expected the Spinlock Lab panel to open after Load Test This Query');
        });
      const panel = new PanelDriver(page);
      await panel.visible('#custom-sql', 30_000);
      await waitFor('the T-SQL editor to hold the file', async () => (await panel.value('#custom-sql')).includes(SPINS), 15_000).catch(
        async () => {
          throw new Error(`expected #custom-sql to hold the file's T-SQL; it holds ${JSON.stringify(await panel.value('#custom-sql'))}`);
        },
      );
      assert.equal(await panel.value('#scenario'), 'custom');
      assert.match(await panel.text('#custom-source'), /spins\.sql/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'custom-filled.png') });

      await panel.connectWithForm(sim.host, sim.port, PASSWORD);

      await panel.fill('#run-warmup', '0s');
      await panel.fill('#run-interval', '250ms');
      await panel.select('#custom-stopBy', 'duration');
      await panel.fill('#custom-duration', '3s');
      await panel.fill('#custom-threads', '2');
      await panel.click('#btn-run-custom');
      await panel.showCharts();
      let live: Record<string, number> = {};
      await waitFor(
        'the live throughput and spinlock charts to fill while the workload runs',
        async () => {
          live = await panel.allChartPoints();
          return live.throughput > 0 && live.spinlocks > 0;
        },
        30_000,
      ).catch(async () => {
        throw new Error(
          `expected live chart points during the custom run; data-points: ${JSON.stringify(live)}; error banner: ${await panel.errorBanner()}`,
        );
      });
      await page.screenshot({ path: path.join(ARTIFACTS, 'custom-running.png') });
      await panel.waitStatus('#run-status', 'completed', 40_000);
      await page.screenshot({ path: path.join(ARTIFACTS, 'custom-done.png') });
      // Its own share of the server's work beside the server-wide figures per call, and the others named as busy.
      await waitFor(
        'the results to give the run its own share',
        async () => /others busy/.test(await panel.text('#results-share')),
        20_000,
      );
      assert.match(await panel.text('#results-share'), /are server-wide: every session on the server adds to them/);
      assert.equal(await panel.attr('#results-share li', 'data-others-busy'), 'yes');
      await panel.view('results');
      await webview(page).locator('#results-share').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, 'custom-share.png') });

      const results = path.join(cs.dir, 'results');
      const saved = fs.readdirSync(results).map((d) => JSON.parse(fs.readFileSync(path.join(results, d, 'experiment.json'), 'utf8')));
      assert.equal(saved.length, 1);
      assert.equal(saved[0].scenario.id, 'custom');
      assert.equal(saved[0].status, 'completed');
      assert.ok(saved[0].runs[0].custom.calls > 0);
      assert.ok(saved[0].runs[0].share.cpu < 0.5, `the query's own share of the server's CPU: ${saved[0].runs[0].share.cpu}`);
      assert.ok(
        observedCalls(sim.model).some((c) => c.text.includes(SPINS)),
        "the simulator saw the file's statement",
      );
      assert.ok(!sim.model.database('SpinlockLab'), 'nothing deployed: no lab database');
    } catch (e) {
      failed = true;
      await screenshot(page, path.join(ARTIFACTS, 'custom-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'custom-failure');
      throw e;
    }
  });
});
