// The Activity Bar tree's items end to end: the VSIX in a real VS Code (code-server), connected to the simulator, with
// two experiments of this server already saved. The preset item opens the panel on that preset, the Watch item on
// the Watch section, an experiment item (a click, and its inline action, which VS Code runs with the tree element)
// on that experiment; an experiment deleted since the tree listed it is named in the error, not blamed on the panel.
// Screenshots and logs on failure: test-artifacts/e2e/tree-*.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { experiment } from '../helpers/builders';
import { ARTIFACTS, CodeServer, VSIX, waitFor } from './codeServer';
import { editorTab, inEachThemeKind, launchBrowser, notifications, openWorkbench, screenshot, waitForNotification } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';
/** The preset the test opens from the tree: not the panel's first (the one it shows unasked). */
const PRESET = { id: 'writelog', label: 'Preset WRITELOG' };

describe('the Activity Bar tree opens exactly what its items name (code-server)', function () {
  this.timeout(240_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let panel: PanelDriver;
  let ok = false;
  const results = () => path.join(cs.dir, 'results');
  const saved = [
    experiment('2026-11-20T10-00-00-000Z-disk-insert', [1, 2], { title: 'an earlier disk-insert sweep' }),
    experiment('2026-11-21T10-00-00-000Z-disk-insert', [1, 4], { title: 'the later disk-insert sweep' }),
  ];

  /** A row of the Spinlock Lab tree, by the start of its screen-reader label. */
  const treeRow = (label: string): Locator => page!.locator(`.pane-body .monaco-list-row[aria-label^="${label}"]`).first();
  /** Whether an element of the panel is open and its top inside the panel's view. */
  const shown = (selector: string) =>
    panel.el(selector).evaluate((e) => {
      const r = e.getBoundingClientRect();
      return (
        (e as unknown as { open?: boolean }).open !== false &&
        r.top >= -1 &&
        r.top < (globalThis as unknown as { innerHeight: number }).innerHeight
      );
    });
  const focusedIn = () =>
    panel.frame.locator(':root').evaluate(() => {
      const a = (
        globalThis as unknown as {
          document: {
            activeElement: {
              id: string;
              tagName: string;
              parentElement: { id: string } | null;
              getAttribute(n: string): string | null;
            } | null;
          };
        }
      ).document.activeElement;
      return a
        ? `${a.tagName.toLowerCase()}#${a.id}${a.parentElement?.id ? ` in #${a.parentElement.id}` : ''}${a.getAttribute('data-experiment') ? ` [${a.getAttribute('data-experiment')}]` : ''}`
        : '(none)';
    });
  /** Scrolls the panel back to its top, so a reveal has to bring its target into view. */
  const toTop = () => panel.el('#app').evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, log: () => {} });
    cs = new CodeServer({});
    cs.writeSettings({ 'spinlab.resultsFolder': results() });
    // Two experiments this server ran before (the tree lists the connected server's, by @@SERVERNAME).
    for (const e of saved) {
      e.server = { ...e.server, serverName: sim.model.serverName };
      fs.mkdirSync(path.join(results(), e.id), { recursive: true });
      fs.writeFileSync(path.join(results(), e.id, 'experiment.json'), JSON.stringify(e, null, 2));
    }
  });

  after(async () => {
    if (!ok) {
      await screenshot(page, path.join(ARTIFACTS, 'tree-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'tree-failure');
    }
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (ok) cs?.remove();
  });

  it('connects, then the preset, Watch and experiment items each open the panel on what they name', async () => {
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
    await treeRow('Experiments on ')
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(() => {
        throw new Error('expected the tree to list "Experiments on" this server once connected');
      });
    assert.match((await treeRow('Experiments on ').getAttribute('aria-label')) ?? '', /2 items/);
    /** The preset the panel's picker shows ('(not drawn)' while the Presets section is closed). */
    const presetShown = () =>
      panel
        .el('#preset')
        .evaluate((e) => String((e as unknown as { value?: unknown }).value ?? ''), undefined, { timeout: 1_000 })
        .catch(() => '(not drawn)');
    const firstPreset = await presetShown();
    assert.notEqual(firstPreset, PRESET.id, `the panel must not show ${PRESET.id} unasked, or the preset item proves nothing`);

    // The preset item: the Presets section on that preset, its picker focused, and its plan for this server.
    await toTop();
    await panel.click('#section-presets > summary'); // closed by the user earlier: the item opens it again
    await waitFor(
      'the Presets section to close',
      async () => (await panel.el('#section-presets').evaluate((e) => (e as unknown as { open: boolean }).open)) === false,
      5_000,
    );
    await treeRow(PRESET.label).click();
    await waitFor(`#preset to show ${PRESET.id}`, async () => (await presetShown()) === PRESET.id, 15_000).catch(async () => {
      throw new Error(`expected the preset item to open the panel on ${PRESET.id}; #preset shows ${await presetShown()}`);
    });
    await waitFor('the Presets section open and in view', () => shown('#section-presets'), 10_000);
    await waitFor('the preset picker focused', async () => /^select#preset( |$)/.test(await focusedIn()), 10_000).catch(async () => {
      throw new Error(`expected #preset focused; focus is on ${await focusedIn()}`);
    });
    await waitFor(
      'the writelog plan for this server',
      async () => /delayed durability FORCED/.test(await panel.text('#preset-plan')),
      15_000,
    );
    await panel.el('#section-presets').screenshot({ path: path.join(ARTIFACTS, 'tree-preset.png') });

    // The Watch item: the Watch section open, in view, its heading focused.
    await panel.click('#section-watch > summary');
    await waitFor(
      'the Watch section to close',
      async () => (await panel.el('#section-watch').evaluate((e) => (e as unknown as { open: boolean }).open)) === false,
      5_000,
    );
    await toTop();
    await treeRow(`Watch ${sim.model.serverName}`).click();
    await waitFor('the Watch section open and in view', () => shown('#section-watch'), 15_000).catch(async () => {
      throw new Error(`expected the Watch item to open the Watch section in view; focus is on ${await focusedIn()}`);
    });
    await panel.visible('#btn-watch-start');
    await waitFor('the Watch heading focused', async () => (await focusedIn()) === 'summary# in #section-watch', 10_000).catch(async () => {
      throw new Error(`expected the Watch section's heading focused; focus is on ${await focusedIn()}`);
    });

    // An experiment item, clicked: that experiment opened (the host read it) and its results shown, the picker focused.
    const [earlier, later] = saved;
    await toTop();
    await treeRow(`Experiment ${later.title}`).click();
    const current = (id: string) =>
      `#history li[data-experiment="${id}"][aria-current="true"] [data-analysis="${id}"][aria-pressed="true"]`;
    const showsResults = async (id: string) =>
      (await panel.frame.locator('#view-results:not([hidden]) #results-experiment').count()) === 1 &&
      (await panel.value('#results-experiment')) === id;
    await waitFor(`the Results view on ${later.id}`, () => showsResults(later.id), 15_000).catch(async () => {
      throw new Error(`expected the panel to show ${later.id}'s results; error banner: ${await panel.errorBanner()}`);
    });
    await waitFor('the results picker focused', async () => /^select#results-experiment( |$)/.test(await focusedIn()), 10_000).catch(
      async () => {
        throw new Error(`expected #results-experiment focused; focus is on ${await focusedIn()}`);
      },
    );
    assert.equal(await panel.frame.locator(current(later.id)).count(), 1, 'its history row is the current one');

    // Its inline action (VS Code hands the command the tree element, not the id): the other experiment.
    const row = treeRow(`Experiment ${earlier.title}`);
    await row.hover();
    await row.locator('.action-label[aria-label="Open Experiment in the Panel"]').click({ timeout: 10_000 });
    await waitFor(`the Results view on ${earlier.id}`, () => showsResults(earlier.id), 15_000).catch(async () => {
      throw new Error(
        `expected the inline action to open ${earlier.id}; notifications: ${JSON.stringify(await notifications(page!))}; error banner: ${await panel.errorBanner()}`,
      );
    });
    assert.equal(await panel.attr(`#history li[data-experiment="${later.id}"]`, 'aria-current'), 'false');
    await inEachThemeKind(page!, async (suffix) => {
      const file = path.join(ARTIFACTS, `tree-experiment-${suffix}.png`);
      await page!.screenshot({ path: file });
      return [file];
    });

    // An experiment deleted since the tree listed it: the error names it, and the panel is not blamed.
    fs.rmSync(path.join(results(), later.id), { recursive: true });
    await treeRow(`Experiment ${later.title}`).click();
    const said = await waitForNotification(page, new RegExp(`The experiment "${later.id}" is not in the results folder`), 15_000);
    assert.match(said, /deleted or moved/);
    assert.doesNotMatch(await panel.errorBanner(), /does not accept/);
    ok = true;
  });
});
