// The panel's views in Chromium: one tab panel per question (shared/panelViews.ts), switched by a click on the
// header's tabs, by the keyboard (the tabs' arrows; Ctrl+Alt+PageDown / PageUp anywhere) and by a host reveal; a
// reveal or an error in a hidden view shows that view first; the view shown, each view's scroll and the sections'
// open states survive a reload (the webview's saved state); the live charts' canvases survive a switch.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as b from '../helpers/builders';
import type { RevealMessage } from '../../src/shared/reveal';
import { answer, type Panel, usePanels, waitForRequest } from './harness';

interface Doc {
  document: {
    activeElement: { id: string } | null;
    querySelector(s: string): { hidden: boolean; open?: boolean; __mark?: string } | null;
    querySelectorAll(s: string): ArrayLike<{ id: string; hidden: boolean }>;
  };
  scrollY: number;
  scrollTo(x: number, y: number): void;
}

/** The id of the one tab panel not hidden. */
function shown(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from((globalThis as unknown as Doc).document.querySelectorAll('[role="tabpanel"]'))
      .filter((e) => !e.hidden)
      .map((e) => e.id),
  );
}
const focusedId = (page: Page) => page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.id ?? '');
const reveal = (p: Panel, m: RevealMessage) => p.send({ type: 'reveal', payload: m });

/** A connected panel with a finished 4-run sweep (its live charts drawn) and it in the history. */
function populated() {
  const sweep = b.experiment('exp-2', [1, 2, 4, 8], { ticks: 6 });
  return b.connectedState({
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

describe('the panel’s views: one question each, switched from the header, the keyboard and the host', () => {
  const { withPanel } = usePanels();

  it('opens on Now; a click on a tab shows its view alone (ARIA tabs, one Tab stop)', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#view-tabs [role="tab"]');
      assert.deepEqual(await shown(p.page), ['view-now']);
      assert.equal(await p.page.getAttribute('#tab-now', 'aria-selected'), 'true');
      assert.equal(await p.page.locator('#view-tabs [role="tab"][tabindex="0"]').count(), 1, 'one Tab stop in the tab bar');
      assert.equal(await p.page.locator('#view-tabs [role="tab"]').count(), 7);
      await p.page.click('#tab-watch');
      await p.page.waitForSelector('#btn-watch-start', { state: 'visible' });
      assert.deepEqual(await shown(p.page), ['view-watch']);
      assert.equal(await p.page.getAttribute('#tab-watch', 'aria-selected'), 'true');
      assert.equal(await p.page.getAttribute('#tab-now', 'aria-selected'), 'false');
      assert.equal(await p.page.getAttribute('#view-watch', 'aria-labelledby'), 'tab-watch');
      assert.equal(await p.page.isVisible('#btn-connect, #btn-disconnect'), false, 'the Now view is hidden');
    }));

  it('the keyboard: arrows along the tabs, Ctrl+Alt+PageDown / PageUp from anywhere in the panel', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#tab-now');
      await p.page.focus('#tab-now');
      await p.page.keyboard.press('ArrowRight');
      await p.page.waitForSelector('#view-experiment:not([hidden])');
      assert.equal(await focusedId(p.page), 'tab-experiment');
      await p.page.keyboard.press('End');
      await p.page.waitForSelector('#view-history:not([hidden])');
      assert.equal(await focusedId(p.page), 'tab-history');
      await p.page.keyboard.press('ArrowRight');
      await p.page.waitForSelector('#view-now:not([hidden])');
      // The shortcut from a control inside a view.
      await p.page.click('#tab-results');
      await p.page.focus('#btn-copy-results');
      await p.page.keyboard.press('Control+Alt+PageDown');
      await p.page.waitForSelector('#view-watch:not([hidden])');
      assert.equal(await focusedId(p.page), 'tab-watch', 'the new view’s tab has the focus');
      await p.page.keyboard.press('Control+Alt+PageUp');
      await p.page.keyboard.press('Control+Alt+PageUp');
      await p.page.waitForSelector('#view-experiment:not([hidden])');
      assert.deepEqual(await shown(p.page), ['view-experiment']);
    }));

  it('History: Open, then Results on an experiment shows it in Results and compare', () => {
    const earlier = b.experiment('exp-1', [1, 2], { title: 'an earlier sweep' });
    const s = populated();
    return withPanel({ ...s, history: [...s.history, b.summaryOf(earlier)] }, async (p) => {
      await p.page.click('#tab-history');
      await p.page.click('[data-open="exp-1"]');
      await answer(p, await waitForRequest(p, 'experimentOpen'), { experiment: earlier, preset: null });
      await p.page.click('#history li[data-experiment="exp-1"] button:has-text("Results")');
      await p.page.waitForSelector('#view-results:not([hidden]) #results-experiment');
      assert.equal(await p.page.$eval('#results-experiment', (e) => (e as unknown as { value: string }).value), 'exp-1');
      assert.equal(await p.page.getAttribute('#tab-results', 'aria-selected'), 'true');
    });
  });

  it('a host reveal shows its view first: a view, a preset, the Watch; an error beside a control in a hidden view', () =>
    withPanel(populated(), async (p) => {
      await p.page.waitForSelector('#tab-now');
      await reveal(p, { seq: 'v-1', reveal: { target: 'view', view: 'history' } });
      await p.page.waitForSelector('#view-history:not([hidden])');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'tab-history');
      await reveal(p, { seq: 'v-2', reveal: { target: 'preset', id: 'writelog' } });
      await p.page.waitForSelector('#view-experiment:not([hidden])');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'preset');
      await reveal(p, { seq: 'v-3', reveal: { target: 'watch' } });
      await p.page.waitForSelector('#view-watch:not([hidden]) #btn-watch-start');
      // A connection error arrives while the Watch is shown: the Now view, its field focused.
      const s = populated();
      await p.send({
        type: 'state',
        payload: { state: { ...s, connection: { ...s.connection, error: { message: 'Login failed for user.', control: 'password' } } } },
      });
      await p.page.waitForSelector('#view-now:not([hidden])');
      await p.page.waitForFunction(() => (globalThis as unknown as Doc).document.activeElement?.id === 'conn-password');
    }));

  it('the view, its scroll and the sections’ open states survive a reload; the live charts survive a switch', () =>
    withPanel(populated(), async (p) => {
      await p.page.click('#tab-experiment');
      await p.page.waitForSelector('#view-experiment:not([hidden]) [data-chart="throughput"] canvas');
      await p.page.evaluate(() => {
        (globalThis as unknown as Doc).document.querySelector('[data-chart="throughput"] canvas')!.__mark = 'kept';
      });
      await p.page.click('#tab-results');
      await p.page.click('#tab-experiment');
      assert.equal(
        await p.page.evaluate(() => (globalThis as unknown as Doc).document.querySelector('[data-chart="throughput"] canvas')?.__mark),
        'kept',
        'the same canvas, not a new one',
      );
      // Results: the Compare section closed, the view scrolled down.
      await p.page.click('#tab-results');
      await p.page.click('#section-compare > summary');
      await p.page.waitForSelector('#section-compare:not([open])', { state: 'attached' });
      await p.page.setViewportSize({ width: 1280, height: 500 });
      await p.page.evaluate(() => (globalThis as unknown as Doc).scrollTo(0, 300));
      const y = await p.page.evaluate(() => (globalThis as unknown as Doc).scrollY);
      assert.ok(y > 100, `the Results view scrolls (${y})`);
      await p.page.click('#tab-now');
      await p.page.waitForSelector('#view-now:not([hidden])');
      // Hidden and shown again: VS Code reloads the webview; its saved state comes back through getState.
      await new Promise((r) => setTimeout(r, 400)); // the scroll is saved after a pause in scrolling
      await p.page.click('#tab-results');
      await p.page.waitForFunction((want) => Math.abs((globalThis as unknown as Doc).scrollY - want) < 2, y);
      await new Promise((r) => setTimeout(r, 400));
      await p.page.reload();
      await p.send({ type: 'state', payload: { state: populated() } });
      await p.page.waitForSelector('#view-results:not([hidden]) #results-table');
      assert.equal(await p.page.getAttribute('#tab-results', 'aria-selected'), 'true');
      assert.equal(await p.page.$eval('#section-compare', (e) => (e as unknown as { open: boolean }).open), false, 'Compare stays closed');
      await p.page.waitForFunction((want) => Math.abs((globalThis as unknown as Doc).scrollY - want) < 2, y);
    }));
});
