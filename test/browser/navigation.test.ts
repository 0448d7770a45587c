// Finding one's way in the panel, by keyboard, in Chromium: the outline at the top is one Tab stop whose arrow keys
// move along the sections and whose Enter opens a section and puts the focus on it; the CPU tiles are one Tab stop
// (arrow keys move, Space toggles); and "Start watch" is a small number of Tab stops from the top of a populated panel.
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
  await page.click('.panel-header h1');
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

  it('the outline: one Tab stop, arrow keys along it, Enter opens the section and focuses it', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#outline button[data-section="watch"]');
      // Close the Results section first: going there must open it.
      await p.page.click('#section-results > summary');
      await p.page.waitForSelector('#section-results:not([open])', { state: 'attached' });
      await fromTop(p.page);
      await p.page.keyboard.press('Tab');
      assert.equal((await focused(p.page)).text, 'Connection', 'the outline is the first Tab stop');
      assert.equal(await p.page.locator('#outline button[tabindex="0"]').count(), 1, 'one Tab stop in the outline');
      await p.page.keyboard.press('End');
      assert.equal((await focused(p.page)).text, 'Scaling');
      for (let i = 0; i < 4; i++) await p.page.keyboard.press('ArrowLeft');
      assert.equal((await focused(p.page)).text, 'Results');
      await p.page.keyboard.press('Enter');
      await p.page.waitForSelector('#section-results[open] #results-table', { state: 'attached' });
      assert.equal((await focused(p.page)).section, 'section-results', 'the focus is on the section heading');
      const { top, bar } = await p.page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: { getElementById(id: string): { getBoundingClientRect(): { top: number; bottom: number } } };
          }
        ).document;
        return {
          top: d.getElementById('section-results').getBoundingClientRect().top,
          bar: d.getElementById('outline').getBoundingClientRect().bottom,
        };
      });
      assert.ok(top >= bar - 1 && top < bar + 40, `the section starts just under the sticky outline (top ${top}, outline ends at ${bar})`);
      assert.equal(await p.page.getAttribute('#outline button[data-section="results"]', 'aria-current'), 'location');
      // Back to the outline from the top of the page: its Tab stop is now Results.
      await fromTop(p.page);
      await p.page.keyboard.press('Tab');
      assert.equal((await focused(p.page)).text, 'Results');
    }));

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

  it('"Start watch" is under 90 Tab stops from the top of a populated panel, and 5 through the outline', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#btn-watch-start');
      await fromTop(p.page);
      let stops = 0;
      for (; stops < 300; stops++) {
        await p.page.keyboard.press('Tab');
        if ((await focused(p.page)).id === 'btn-watch-start') break;
      }
      console.log(`      Tab stops from the top to "Start watch": ${stops + 1}`);
      // 40 CPU tiles, the affinity shortcuts, the chart tools and every legend entry used to be a stop each (well over
      // 150 here); now each group is one. The connection and tune forms' fields are the most of what is left.
      assert.ok(stops + 1 < 90, `${stops + 1} Tab stops before Start watch`);
      // Through the outline it is the outline's stop, the arrows, Enter, and the Watch section's own controls.
      await fromTop(p.page);
      await p.page.keyboard.press('Tab');
      await p.page.keyboard.press('Home');
      for (let i = 0; i < 8; i++) await p.page.keyboard.press('ArrowRight');
      assert.equal((await focused(p.page)).text, 'Watch');
      await p.page.keyboard.press('Enter');
      let more = 0;
      for (; more < 20; more++) {
        await p.page.keyboard.press('Tab');
        if ((await focused(p.page)).id === 'btn-watch-start') break;
      }
      assert.ok(more + 1 <= 5, `${more + 1} Tab stops from the Watch heading to Start watch`);
    }));
});
