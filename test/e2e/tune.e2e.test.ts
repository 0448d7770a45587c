// "Find the best settings" end to end: the VSIX in a real VS Code (code-server), the panel connected to the TDS
// simulator, disk-insert deployed; a two-minute search (this space's minimum: its screening and confirmation pairs)
// with short trials started from the panel's form, confirmed in VS Code's modal (the affinity, server-wide), its leaderboard updating as trials run, its explained result (verdict,
// certainty, T-SQL, not applied) and the server's settings as they were; then a second search cancelled from the
// panel, the settings put back again. Screenshots: test-artifacts/e2e/tune-{running,result-light,result-dark,
// result-hc,cancelled}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ARTIFACTS, CodeServer, DARK_THEME, HC_THEME, LIGHT_THEME, VSIX, waitFor } from './codeServer';
import { clickDialogButton, dialogText, editorTab, launchBrowser, openWorkbench, screenshot, setColorTheme } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';
const LAB_DB = 'SpinlockLab';
/** Not the defaults, so a restore that merely resets to AUTO would be caught. */
const START_AFFINITY = 'CPU = 0 TO 13';

describe('Find the best settings in VS Code (code-server) against the simulator', function () {
  this.timeout(360_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let panel: PanelDriver;
  let failed = false;
  const knobs = () => ({
    affinity: `${sim.model.affinity.type}:${sim.model.affinity.cpus.join(',')}`,
    dd: sim.model.database(LAB_DB)?.delayedDurability ?? null,
  });

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, topology: '2x4x2', log: () => {} });
    sim.model.setAffinity(START_AFFINITY);
    cs = new CodeServer({});
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
  });

  after(async () => {
    if (failed) {
      await screenshot(page, path.join(ARTIFACTS, 'tune-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'tune-failure');
    }
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (!failed) cs?.remove();
    else console.error(`e2e: kept ${cs?.dir} for inspection`);
  });

  /** The form filled for a short search: two affinity candidates, two session counts, one-second trials. */
  async function startSearch(): Promise<string> {
    await panel.view('tune');
    await panel.el('#section-tune').scrollIntoViewIfNeeded();
    await panel.fill('#tune-budget', '2m');
    await panel.fill('#tune-trial', '1s');
    await panel.fill('#tune-sessions', '2,4');
    await panel.fill('#tune-affinity', 'numa:0; exclude-core0');
    await panel.fill('#tune-batchSizes', '1,4');
    await waitFor('the plan to say two minutes', async () => /about 2 minutes \(the budget\)/.test(await panel.text('#tune-plan')), 5_000);
    await panel.click('#btn-tune-start');
    const question = await dialogText(page!);
    await clickDialogButton(page!, 'Start the Search');
    return question;
  }

  const rows = async () => (await panel.text('#tune-board tbody')).replace(/\s+/g, ' ');

  it('a two-minute search from the panel: confirmed, the leaderboard updates, the explained result, the settings put back', async () => {
    try {
      assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run package first`);
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
      await panel.select('#scenario', 'disk-insert');
      await panel.fill('#param-seed_rows', '1000');
      await panel.click('#btn-deploy');
      await panel.waitStatus('#deploy-status', 'deployed', 45_000);
      const before = knobs();

      const question = await startSearch();
      assert.match(question, /CPU affinity \(server-wide, affects everyone on the server\)/, question);
      assert.match(question, /about 2 minutes/, question);
      assert.match(question, /put back after each trial/, question);
      assert.doesNotMatch(question, /FORCED/, 'FORCED is never tried unless ticked');

      await panel.visible('#tune-board tbody tr', 60_000);
      const first = await rows();
      await waitFor('the leaderboard to change as trials run', async () => (await rows()) !== first, 60_000);
      await screenshot(page, path.join(ARTIFACTS, 'tune-running.png'));
      await panel.visible('#tune-result', 180_000);
      assert.match(await panel.text('#tune-verdict'), /current settings|winner/i);
      assert.ok((await panel.text('#tune-certainty')).length > 0, 'says how sure it is');
      assert.match(await panel.text('#tune-applied'), /Not applied|nothing to change/);
      assert.ok((await panel.frame.locator('#tune-board tbody tr[data-state="winner"]').count()) === 1, 'one winner');
      assert.deepEqual(knobs(), before, "the server's settings as they were: nothing left applied");
      for (const [theme, kind, file] of [
        [LIGHT_THEME, 'light', 'tune-result-light.png'],
        [DARK_THEME, 'dark', 'tune-result-dark.png'],
        [HC_THEME, 'hc-dark', 'tune-result-hc.png'],
      ] as const) {
        await setColorTheme(page, theme, kind);
        await page.waitForTimeout(300);
        await panel.view('tune');
        await panel.el('#tune-result').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(ARTIFACTS, file) });
      }
      const saved = fs
        .readdirSync(path.join(cs.dir, 'results'))
        .map((d) => JSON.parse(fs.readFileSync(path.join(cs.dir, 'results', d, 'experiment.json'), 'utf8')));
      assert.equal(saved.length, 1);
      assert.equal(saved[0].kind, 'tune');
      assert.ok(saved[0].tune.result, 'saved with its result');
    } catch (e) {
      failed = true;
      throw e;
    }
  });

  it('a second search cancelled from the panel: the leaderboard stays, the settings are put back', async () => {
    try {
      const before = knobs();
      await startSearch();
      await panel.visible('#tune-board tbody tr', 60_000);
      await panel.click('#btn-tune-cancel');
      await waitFor('the search to end', async () => (await panel.attr('#tune-progress', 'data-state')) !== 'running', 60_000);
      await panel.waitStatus('#run-status', 'cancelled', 30_000);
      assert.ok((await panel.frame.locator('#btn-tune-cancel').count()) === 0);
      await waitFor('the settings to be put back', async () => JSON.stringify(knobs()) === JSON.stringify(before), 20_000);
      await panel.view('tune');
      await panel.el('#section-tune').scrollIntoViewIfNeeded();
      await page!.screenshot({ path: path.join(ARTIFACTS, 'tune-cancelled.png') });
    } catch (e) {
      failed = true;
      throw e;
    }
  });
});
