// The panel's Watch mode end to end: the VSIX in a real VS Code (code-server), connected to the simulator running a
// background workload of its own (--background disk-insert:4 as the CLI says it), a watch started from the panel's
// Watch section whose live charts fill, a mark dropped, the watch stopped and saved as a notebook through VS Code's
// save dialog; the server holds no new database afterwards. Screenshots: test-artifacts/e2e/watch-*.png (the stopped watch in the three theme kinds).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ARTIFACTS, CodeServer, VSIX, waitFor } from './codeServer';
import { editorTab, inEachThemeKind, launchBrowser, openWorkbench, screenshot } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';

describe('the Watch mode of the panel in VS Code (code-server) against the simulator', function () {
  this.timeout(240_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let panel: PanelDriver;
  let ok = false;
  const watchPoints = async (chart: string) =>
    Number(await panel.attr(`#watch-charts [data-chart="${chart}"]`, 'data-points').catch(() => '-1'));

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, background: [{ scenario: 'disk-insert', sessions: 4 }], log: () => {} });
    cs = new CodeServer({});
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
  });

  after(async () => {
    if (!ok) {
      await screenshot(page, path.join(ARTIFACTS, 'watch-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'watch-failure');
    }
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (ok) cs?.remove();
  });

  it('opens Watch from the panel, sees live charts, drops a mark, and saves a notebook', async () => {
    assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run build && node scripts/package.js first`);
    const databases = [...sim.model.databases.keys()].sort();
    cs.installExtension(VSIX);
    await cs.start();
    browser = await launchBrowser();
    page = await openWorkbench(browser, cs.workbenchUrl);
    await page.locator('.activitybar [aria-label^="Spinlock Lab"]').first().click({ timeout: 30_000 });
    await page.locator('.welcome-view-content .monaco-button', { hasText: 'Connect to a Server' }).click({ timeout: 20_000 });
    await editorTab(page, 'Spinlock Lab').waitFor({ state: 'visible', timeout: 20_000 });
    panel = new PanelDriver(page);
    await panel.visible('#scenario', 30_000);
    await panel.connectWithForm(sim.host, sim.port, PASSWORD);

    await panel.view('watch');
    await panel.el('#section-watch').scrollIntoViewIfNeeded();
    await panel.select('#watch-interval', '250');
    await panel.click('#btn-watch-start');
    const points: Record<string, number> = {};
    await waitFor(
      "the Watch section's charts to fill",
      async () => {
        // Charts draw only while on screen (IntersectionObserver): each is brought into view before it is read, as the
        // gap, coverage and warning lines above them may have pushed it below the fold.
        for (const c of ['spinlocks', 'waits', 'latches']) {
          await panel
            .el(`#watch-charts [data-chart="${c}"]`)
            .scrollIntoViewIfNeeded()
            .catch(() => undefined);
          points[c] = await watchPoints(c);
        }
        return Object.values(points).every((n) => n >= 4);
      },
      30_000,
    ).catch(async () => {
      throw new Error(
        `expected the watch charts to get points; data-points ${JSON.stringify(points)}; status: ${await panel.text('#watch-status').catch(() => '?')}; error banner: ${await panel.errorBanner()}`,
      );
    });
    await panel.el('#section-watch').screenshot({ path: path.join(ARTIFACTS, 'watch-live.png') });

    await panel.fill('#watch-mark-name', 'index rebuilt');
    await panel.click('#btn-watch-mark');
    await waitFor('the mark to show', async () => /index rebuilt/.test(await panel.text('#watch-marks').catch(() => '')), 15_000);
    await panel.click('#btn-watch-stop');
    await waitFor('the watch to say it stopped', async () => /: stopped,/.test(await panel.text('#watch-status')), 15_000);
    await inEachThemeKind(page!, async (suffix) => {
      const file = path.join(ARTIFACTS, `watch-stopped-${suffix}.png`);
      await panel.el('#section-watch').screenshot({ path: file });
      return [file];
    });

    // Save as notebook: VS Code asks where (its simple file dialog in code-server), offering the workspace folder and
    // the watch's name; accepted with Enter.
    await panel.click('#btn-watch-notebook');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor("the save dialog to offer the watch's name", async () => (await input.inputValue()).endsWith('-watch.ipynb'), 15_000);
    await input.press('Enter');
    const workspace = path.join(cs.dir, 'workspace');
    const saved = () => (fs.existsSync(workspace) ? fs.readdirSync(workspace) : []).find((f) => f.endsWith('-watch.ipynb'));
    const name = await waitFor('the notebook to be written in the workspace folder', saved, 20_000);
    await editorTab(page, name).waitFor({ state: 'visible', timeout: 20_000 });
    const file = path.join(workspace, name);
    const nb = JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: { source: string | string[] }[] };
    assert.match(nb.cells.map((c) => [c.source].flat().join('')).join('\n'), /index rebuilt/, 'the notebook shows the mark');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: path.join(ARTIFACTS, 'watch-notebook.png') });
    assert.deepEqual([...sim.model.databases.keys()].sort(), databases, 'the watch created no database');
    ok = true;
  });
});
