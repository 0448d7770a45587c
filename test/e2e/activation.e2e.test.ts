// Light activation in a real VS Code (code-server) with the packaged VSIX: the extension activates when its Activity
// Bar view opens, with the heavy half (dist/lab.js: the panel, the engine, the driver) loaded only when the panel opens; the
// panel then connects to the simulator through the driver in that chunk. VS Code's own activation figure (code
// loading + activate call, what "Developer: Show Running Extensions" shows; the extension host writes no timing to its
// logs) is read from that view and written to test-artifacts/e2e/activation.json. The figure is recorded, not
// asserted: speed targets belong in `npm run bench`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ARTIFACTS, CodeServer, VSIX, waitFor } from './codeServer';
import { editorTab, launchBrowser, openWorkbench, runCommand, screenshot } from './workbench';
import { PanelDriver } from './panelDriver';

const PASSWORD = 'Sim-E2e-Pw1!';

/** Our row in the Running Extensions editor. */
function runningRow(page: Page): Locator {
  return page
    .locator('.runtime-extensions-editor .extension', {
      has: page.locator('.name', { hasText: /^(Spinlock Lab|spinlock-lab\.spinlock-lab)$/ }),
    })
    .first();
}

/** Opens "Developer: Show Running Extensions" and returns our row's activation text and messages once it has a time. */
async function runningExtension(page: Page): Promise<{ activation: string; ms: number; messages: string }> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = runningRow(page);
  const activation = await waitFor(
    'Spinlock Lab to show an activation time in Running Extensions',
    async () => {
      const t = (
        await row
          .locator('.activation-time')
          .innerText({ timeout: 2_000 })
          .catch(() => '')
      ).trim();
      return /Activation: \d+\s*ms/.test(t) ? t : '';
    },
    30_000,
  );
  const messages = (
    await row
      .locator('.msg')
      .innerText()
      .catch(() => '')
  ).trim();
  return { activation, ms: Number(/(\d+)\s*ms/.exec(activation)![1]), messages };
}

describe('activation in VS Code (code-server): light at activation, the panel and driver on first use', function () {
  this.timeout(240_000);
  let sim: Simulator;
  let cs: CodeServer;
  let browser: Browser | null = null;
  let page: Page | null = null;
  let ok = false;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator({ password: PASSWORD, log: () => {} });
    cs = new CodeServer({});
    cs.writeSettings({ 'spinlab.resultsFolder': path.join(cs.dir, 'results') });
  });

  after(async () => {
    if (!ok) {
      await screenshot(page, path.join(ARTIFACTS, 'activation-failure.png'));
      cs?.saveLogs(ARTIFACTS, 'activation-failure');
    }
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await sim?.close();
    if (ok) cs?.remove();
  });

  it("activates on its view, records VS Code's activation time, then opens the panel and connects", async () => {
    assert.ok(fs.existsSync(VSIX), `expected ${VSIX}: run npm run build && node scripts/package.js first`);
    cs.installExtension(VSIX);
    const installed = path.join(
      cs.extensionsDir,
      fs.readdirSync(cs.extensionsDir).find((d) => d.startsWith('spinlock-lab.spinlock-lab'))!,
    );
    for (const chunk of ['extension.js', 'lab.js']) {
      assert.ok(fs.existsSync(path.join(installed, 'dist', chunk)), `the installed extension has no dist/${chunk}`);
    }
    await cs.start();
    browser = await launchBrowser();
    page = await openWorkbench(browser, cs.workbenchUrl);

    // Opening the view activates the extension (onView:spinlab.home); its welcome content offers the panel.
    await page.locator('.activitybar [aria-label^="Spinlock Lab"]').first().click({ timeout: 30_000 });
    const connect = page.locator('.welcome-view-content .monaco-button', { hasText: 'Connect to a Server' });
    await connect.waitFor({ state: 'visible', timeout: 20_000 });
    const atActivation = await runningExtension(page);
    await page.screenshot({ path: path.join(ARTIFACTS, 'activation-running-extensions.png') });

    // First use: the panel (and with it dist/lab.js) loads, and connects through the driver in that chunk.
    // (The view is still open in the side bar: clicking its icon again would close it.)
    await connect.click({ timeout: 20_000 });
    await editorTab(page, 'Spinlock Lab').waitFor({ state: 'visible', timeout: 20_000 });
    const panel = new PanelDriver(page);
    await panel.visible('#scenario', 30_000);
    await panel.connectWithForm(sim.host, sim.port, PASSWORD);
    const afterUse = await runningExtension(page);

    const record = {
      what: 'VS Code\'s activation time for spinlock-lab (code loading + activate call), read from "Developer: Show Running Extensions" in code-server',
      vsix: path.relative(process.cwd(), VSIX),
      vsixBytes: fs.statSync(VSIX).size,
      activationMs: atActivation.ms,
      shown: atActivation.activation,
      afterFirstUse: afterUse.activation,
      date: new Date().toISOString(),
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
    };
    fs.writeFileSync(path.join(ARTIFACTS, 'activation.json'), `${JSON.stringify(record, null, 2)}\n`);
    console.log(`      VS Code (code-server) activation: ${atActivation.activation} (load average ${record.loadAverage.join(' ')})`);
    assert.doesNotMatch(
      `${atActivation.messages} ${afterUse.messages}`,
      /error|unresponsive/i,
      'Running Extensions shows errors for Spinlock Lab',
    );
    const exthost = cs.extensionHostLogs();
    assert.match(
      exthost,
      /ExtensionService#_doActivateExtension spinlock-lab\.spinlock-lab/,
      'the extension host log does not show the activation',
    );
    ok = true;
  });
});
