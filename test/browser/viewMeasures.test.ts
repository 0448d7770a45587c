// The panel as a set of views, measured at 1280x720 after a 9-run sweep with 6 experiments in the history: for each
// view its page height, whether its headline is above the fold, the Tab stops from the top to its first action, and
// its tables' widths (none clipped at 1280 px). Prints the figures as a table (README and docs/panel.md quote it).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as b from '../helpers/builders';
import type { PanelView } from '../../src/shared/panelViews';
import { usePanels } from './harness';
import { hotView } from './nowScenes';

/** Each view's headline (what it answers, to be seen without scrolling) and its first action (a button). */
const VIEWS: readonly { view: PanelView; headline: string; action: string }[] = [
  // The top three findings in words, and the first one's first next step.
  { view: 'now', headline: '#now .now-finding:nth-child(3)', action: '#now [data-step]' },
  { view: 'experiment', headline: '[data-chart="throughput"]', action: '#btn-run' },
  { view: 'results', headline: '#results-cells', action: '#btn-copy-results' },
  { view: 'watch', headline: '#watch-status', action: '#btn-watch-start' },
  { view: 'stacks', headline: '#section-stacks', action: '#view-stacks .why-spinning' },
  { view: 'tune', headline: '#tune-form', action: '#btn-tune-start' },
  { view: 'history', headline: '#history li:nth-child(3)', action: '#history button' },
];

interface Measure {
  view: PanelView;
  height: number;
  headlineBottom: number;
  tabStops: number;
  tables: number;
  widestTable: number;
  clipped: number;
}

/** A 9-run sweep live (finished) and 6 experiments in the history, the sweep among them. */
function sweepState() {
  const sweep = b.experiment('exp-sweep', [1, 2, 4, 8, 16, 24, 32, 48, 64], { ticks: 12, latency: true });
  const others = [1, 2, 3, 4, 5].map((i) => b.experiment(`exp-${i}`, [1, 2, 4], { title: `earlier sweep ${i}` }));
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
    history: [sweep, ...others].map((e) => b.summaryOf(e)),
  });
}

async function measure(page: Page, v: (typeof VIEWS)[number]): Promise<Measure> {
  await page.click(`#tab-${v.view}`);
  await page.waitForSelector(`#view-${v.view}:not([hidden])`);
  await page.waitForSelector(v.headline, { state: 'visible' });
  await page.waitForSelector(v.action, { state: 'visible' });
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  const box = await page.evaluate(
    ({ headline, view }) => {
      const g = globalThis as unknown as {
        document: {
          documentElement: { scrollHeight: number };
          querySelector(s: string): { getBoundingClientRect(): { bottom: number } } | null;
          querySelectorAll(s: string): ArrayLike<{
            offsetParent: unknown;
            scrollWidth: number;
            getBoundingClientRect(): { right: number; width: number };
            closest(s: string): { scrollWidth: number; clientWidth: number } | null;
          }>;
        };
      };
      const d = g.document;
      const tables = Array.from(d.querySelectorAll(`#view-${view} table`)).filter((t) => t.offsetParent !== null);
      const clipped = tables.filter((t) => {
        const wrap = t.closest('.table-wrap');
        return t.getBoundingClientRect().right > 1280 || (wrap !== null && wrap.scrollWidth > wrap.clientWidth + 1);
      });
      return {
        height: d.documentElement.scrollHeight,
        headlineBottom: d.querySelector(headline)?.getBoundingClientRect().bottom ?? -1,
        tables: tables.length,
        widestTable: Math.max(0, ...tables.map((t) => Math.round(t.getBoundingClientRect().width))),
        clipped: clipped.length,
      };
    },
    { headline: v.headline, view: v.view },
  );
  // VIEW_SHOTS=<folder>: a screenshot of each view as it opens, to look at.
  if (process.env.VIEW_SHOTS) await page.screenshot({ path: `${process.env.VIEW_SHOTS}/view-${v.view}.png` });
  // Tab stops from the top of the view (a click on the title, which takes no focus) to its first action.
  await page.click('.panel-title h1');
  let tabStops = 0;
  for (; tabStops < 80;) {
    await page.keyboard.press('Tab');
    tabStops++;
    const at = await page.evaluate(
      (sel) =>
        (globalThis as unknown as { document: { activeElement: { matches(s: string): boolean } | null } }).document.activeElement?.matches(
          sel,
        ) ?? false,
      v.action,
    );
    if (at) break;
  }
  return { view: v.view, ...box, headlineBottom: Math.round(box.headlineBottom), tabStops };
}

describe('every view at 1280x720 after a 9-run sweep with 6 experiments in the history', () => {
  const { withPanel } = usePanels();

  it('headline above the fold, at most 40 Tab stops before the first action, no table clipped', () =>
    withPanel(sweepState(), async (p) => {
      await p.page.setViewportSize({ width: 1280, height: 720 });
      await p.page.waitForSelector('#tab-now');
      // The Now view as a busy server gives it: findings in words with their next steps.
      await p.send({ type: 'nowUpdate', payload: { now: hotView() } });
      const rows: Measure[] = [];
      for (const v of VIEWS) rows.push(await measure(p.page, v));
      console.log('      view         height  headline ends  Tab stops  tables  widest  clipped');
      for (const r of rows)
        console.log(
          `      ${r.view.padEnd(12)} ${String(r.height).padStart(6)}  ${String(r.headlineBottom).padStart(13)}  ${String(r.tabStops).padStart(9)}  ${String(r.tables).padStart(6)}  ${String(r.widestTable).padStart(6)}  ${String(r.clipped).padStart(7)}`,
        );
      for (const r of rows) {
        assert.ok(
          r.headlineBottom > 0 && r.headlineBottom <= 720,
          `${r.view}: the headline ends at ${r.headlineBottom} px, above the fold (720)`,
        );
        assert.ok(r.tabStops <= 40, `${r.view}: ${r.tabStops} Tab stops before the first action`);
        assert.equal(r.clipped, 0, `${r.view}: ${r.clipped} table(s) wider than the panel`);
      }
    }));
});
