// The Now view in the panel's bundle (Chromium), fed the host's nowUpdate as the Now feature builds it (shared
// nowWords.ts over a fed NowHistory): the first read, findings with their one-click next steps, and the quiet
// server, in light, dark and high contrast, with axe; a malformed update keeps the last good one and says so.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as b from '../helpers/builders';
import { axeFindings, describeFindings } from './axe';
import { root, showView, useBrowser, waitForPosted, type Panel, type Theme } from './harness';
import type { NowView } from '../../src/shared/nowMessages';
import { firstRead, hotView, quietView } from './nowScenes';

describe('the Now view (Chromium)', () => {
  const ui = useBrowser();
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  async function show(p: Panel, now: NowView): Promise<void> {
    await p.send({ type: 'state', payload: { state: b.connectedState() } });
    await p.send({ type: 'nowUpdate', payload: { now } });
    await p.page.waitForFunction(
      (h) =>
        (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById(
          'now-headline',
        )?.textContent === h,
      now.headline,
    );
  }

  for (const theme of ['light', 'dark', 'hc'] as Theme[]) {
    it(`first read, findings and quiet in the ${theme} theme, with axe`, async () => {
      const p = await ui.open(theme, { width: 1280, height: 720 });
      try {
        await show(p, firstRead());
        assert.equal(await p.page.textContent('#now-headline'), 'Reading the server (first figures in about 1 s)');
        assert.equal(await p.page.$('#now-ranks'), null, 'no empty tables before the first figures');

        const hot = hotView();
        await show(p, hot);
        const texts = await p.page.$$eval('.now-finding-text', (els) => els.map((e) => e.textContent));
        assert.equal(
          texts[0],
          "LOGCACHE_ACCESS: 1,200,000 spins/s (3,000 backoffs/s), 4x its hour's median; the log writer's node 0 is busy (93% CPU)",
        );
        assert.ok(
          texts.some((x) => x?.startsWith('WRITELOG: 450 ms/s')),
          texts.join('\n'),
        );
        assert.equal(await p.page.$$eval('[data-finding="spinlock:LOGCACHE_ACCESS"] [data-step]', (els) => els.length), 4);
        const box = await p.page.$eval('[data-finding="spinlock:LOGCACHE_ACCESS"]', (e) => e.getBoundingClientRect().bottom);
        assert.ok(box <= 720, `the first finding and its steps are above the fold (${box} px)`);
        assert.deepEqual(
          await p.page.$$eval('#now-waits tbody th', (els) => els.map((e) => e.textContent)),
          ['WRITELOG', 'PAGEIOLATCH_SH'],
          'benign waits left out',
        );
        await p.page.locator('#now').screenshot({ path: path.join(ARTIFACTS, `now-findings-${theme}.png`) });
        let findings = await axeFindings(p.page, '#now');
        assert.deepEqual(findings, [], describeFindings(findings));

        const quiet = quietView();
        await show(p, quiet);
        assert.match((await p.page.textContent('#now-headline'))!, /^The server is quiet: no spinlock above 100,000 spins\/s/);
        assert.equal(await p.page.$('.now-finding'), null);
        await p.page.locator('#now').screenshot({ path: path.join(ARTIFACTS, `now-quiet-${theme}.png`) });
        findings = await axeFindings(p.page, '#now');
        assert.deepEqual(findings, [], describeFindings(findings));
        assert.deepEqual(await p.violations(), []);
        assert.deepEqual(p.errors, []);
      } finally {
        await p.close();
      }
    });
  }

  it('next steps are one click: watch, stacks, the preset, the post; a malformed update keeps the last good one; a GRANT', async () => {
    const p = await ui.open('dark', { width: 1280, height: 720 });
    try {
      await show(p, hotView());
      const steps = '[data-finding="spinlock:LOGCACHE_ACCESS"]';
      await p.page.focus(`${steps} [data-step="watch"]`);
      await p.page.keyboard.press('Enter');
      const w = await waitForPosted(p, 'watchStart');
      assert.deepEqual(w.payload, { intervalMs: 1000, showBenign: false });
      await p.page.waitForSelector('#view-watch:not([hidden])', { state: 'attached' });

      // Each step shows the view that does it; back to Now for the next.
      await showView(p.page, 'now');
      await p.page.click(`${steps} [data-step="stacks"]`);
      await p.page.waitForSelector('#stacks-confirm');
      assert.match((await p.page.textContent('#stacks-confirm-title'))!, /Why is LOGCACHE_ACCESS spinning\?/);
      assert.match((await p.page.textContent('#stacks-confirm'))!, /Asked from the Now view/);

      await p.page.waitForSelector('#view-stacks:not([hidden])', { state: 'attached' });
      await showView(p.page, 'now');
      await p.page.click(`${steps} [data-step="preset"]`);
      await p.page.waitForSelector('#view-experiment:not([hidden])', { state: 'attached' });
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('#preset')
            ?.value === 'numa-logwriter',
      );

      await showView(p.page, 'now');
      const href = await p.page.getAttribute(`${steps} [data-step="post"]`, 'href');
      assert.match(href!, /^https:\/\/chrisadkin\.io\/\?s=NUMA%2C%20The%20LOGCACHE_ACCESS%20Spinlock/);

      const good = await p.page.textContent('#now-headline');
      await p.send({ type: 'nowUpdate', payload: { now: { ...hotView(), findings: 'broken' } as unknown as NowView } });
      await p.page.waitForSelector('#now-dropped');
      assert.equal(await p.page.textContent('#now-headline'), good, 'the last good reading stays');

      // A missing permission: said with its GRANT and a Copy button.
      const grant = 'USE master; GRANT VIEW SERVER PERFORMANCE STATE TO [reader];  -- SQL Server 2022+ (or VIEW SERVER STATE)';
      const denied: NowView = {
        ...quietView(),
        status: 'error',
        headline: 'The Now view needs a permission the login lacks.',
        error: { message: 'Reading the server for the Now view failed: the login reader lacks VIEW SERVER STATE.', grant },
      };
      await show(p, denied);
      assert.equal(await p.page.textContent('#now-grant'), grant);
      await p.page.click('#btn-now-copy-grant');
      assert.deepEqual((await waitForPosted(p, 'clipboardCopy')).payload, { text: grant });
      const findings = await axeFindings(p.page, '#now');
      assert.deepEqual(findings, [], describeFindings(findings));
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
