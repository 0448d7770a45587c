// Finding one's way in the panel, by keyboard, in Chromium: the views' tabs at the top are one Tab stop whose arrow
// keys show each view (views.test.ts tests them fully); the CPU tiles are one Tab stop (arrow keys move, Space
// toggles); and "Start watch" is a small number of Tab stops from the top of a populated panel.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as b from '../helpers/builders';
import { usePanels } from './harness';

/** What has the keyboard focus: its id, classes, text and (for a section heading) its section's id. */
function focused(page: Page) {
  return page.evaluate(() => {
    const e = (globalThis as unknown as { document: { activeElement: HTMLElementLike | null } }).document.activeElement;
    interface HTMLElementLike {
      id: string;
      className: string;
      textContent: string | null;
      dataset: Record<string, string>;
      parentElement: HTMLElementLike | null;
      tagName: string;
    }
    return {
      id: e?.id ?? '',
      cls: String(e?.className ?? ''),
      text: (e?.textContent ?? '').trim(),
      cpu: e?.dataset.cpu ?? null,
      section: e?.tagName === 'SUMMARY' ? (e.parentElement?.id ?? '') : '',
    };
  });
}

/** Starts keyboard navigation from the top of the page (a click on the panel's title, which takes no focus). */
async function fromTop(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.click('.panel-title h1');
}

describe('finding one’s way in the panel by keyboard, in Chromium', () => {
  const { withPanel } = usePanels();
  /** Connected to a server of 40 CPUs on two nodes, with a finished sweep and a saved experiment in the history. */
  function populated() {
    const sweep = b.experiment('exp-2', [1, 2, 4, 8], { ticks: 6 });
    const topology = b.topology({ sockets: 2, coresPerSocket: 10, threadsPerCore: 2 });
    const server = b.connectedState().server!;
    return b.connectedState({
      server: {
        ...server,
        topology,
        knobs: { ...server.knobs, affinity: { type: 'AUTO', cpus: topology.schedulers.map((s) => s.cpuId) } },
      },
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
      history: [b.summaryOf(sweep)],
    });
  }

  it('the CPU tiles: one Tab stop, arrow keys move (across and down), Space toggles the CPU', () =>
    withPanel(populated(), async (p) => {
      const tiles = p.page.locator('#topology button.cpu');
      await tiles.first().waitFor();
      assert.equal(await tiles.count(), 40);
      assert.equal(await p.page.locator('#topology button.cpu[tabindex="0"]').count(), 1);
      // Tab into the grid from the node toggle before it, and out of it to the next node's toggle.
      await p.page.focus('#topology button[data-node-toggle="0"]');
      await p.page.keyboard.press('Tab');
      assert.equal((await focused(p.page)).cpu, '0');
      await p.page.keyboard.press('ArrowRight');
      await p.page.keyboard.press('ArrowRight');
      assert.equal((await focused(p.page)).cpu, '2');
      const y2 = await p.page.$eval('#topology button.cpu[data-cpu="2"]', (e) => e.getBoundingClientRect().top);
      await p.page.keyboard.press('ArrowDown');
      const down = await focused(p.page);
      const yDown = await p.page.$eval(`#topology button.cpu[data-cpu="${down.cpu}"]`, (e) => e.getBoundingClientRect().top);
      assert.ok(yDown > y2, `ArrowDown goes to the row below (CPU ${down.cpu})`);
      await p.page.keyboard.press('Home');
      assert.equal((await focused(p.page)).cpu, '0');
      await p.page.keyboard.press('ArrowRight');
      // Every CPU is in the affinity (AUTO): Space takes CPU 1 out.
      assert.equal(await p.page.getAttribute('#topology button.cpu[data-cpu="1"]', 'aria-pressed'), 'true');
      await p.page.keyboard.press('Space');
      await p.page.waitForSelector('#topology button.cpu[data-cpu="1"][aria-pressed="false"]');
      assert.equal((await focused(p.page)).cpu, '1', 'the focus stays on the CPU toggled');
      assert.equal(await p.page.locator('#topology button.cpu[tabindex="0"]').count(), 1);
      await p.page.keyboard.press('Tab');
      const after = await focused(p.page);
      assert.equal(after.cpu, null, 'Tab leaves the grid');
      assert.match(after.text, /NUMA node 1/);
    }));

  it('"Start watch": the tab bar is the first Tab stop, its arrows go to Watch, and Start watch is a few stops on', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#tab-now');
      await fromTop(p.page);
      await p.page.keyboard.press('Tab');
      assert.equal((await focused(p.page)).id, 'tab-now', 'the shown view’s tab is the first Tab stop');
      for (let i = 0; i < 3; i++) await p.page.keyboard.press('ArrowRight');
      assert.equal((await focused(p.page)).id, 'tab-watch');
      await p.page.waitForSelector('#view-watch:not([hidden]) #btn-watch-start');
      let more = 0;
      for (; more < 20; more++) {
        await p.page.keyboard.press('Tab');
        if ((await focused(p.page)).id === 'btn-watch-start') break;
      }
      console.log(`      Tab stops from the Watch tab to "Start watch": ${more + 1}`);
      assert.ok(more + 1 <= 5, `${more + 1} Tab stops from the Watch tab to Start watch`);
    }));
});
