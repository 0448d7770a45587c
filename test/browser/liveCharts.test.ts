// The live charts with an hour loaded: a tick re-renders only what it changed (not the whole panel template), and a
// chart off screen is not drawn until it scrolls into view, then catches up.
import assert from 'node:assert/strict';
import type { ActiveExperimentView } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { points, showCharts, waitForPoints, type Panel, usePanels, showView } from './harness';

describe('the live charts with an hour loaded', () => {
  const panels = usePanels();

  const HOUR = 3600;
  const hourState = () => {
    const active: ActiveExperimentView = {
      experimentId: 'exp-1',
      title: 'disk-insert sweep',
      scenarioId: 'disk-insert',
      simulated: true,
      status: 'running',
      message: '',
      events: [],
      runs: [{ index: 0, threads: 16, status: 'running', ticks: b.ticks(HOUR, { threads: 16 }) }],
    };
    return b.connectedState({ active });
  };
  const tick = (p: Panel, i: number) =>
    p.send({ type: 'runTick', payload: { experimentId: 'exp-1', index: 0, tick: b.tick(i, { threads: 16 }) } });
  const renders = async (p: Panel) => Number(await p.page.getAttribute('#app', 'data-renders'));

  const withPanel = (fn: (p: Panel) => Promise<void>) => panels.withPanel(null, fn);

  it('a tick draws on every chart and updates the run status, without rendering the whole panel again', () =>
    withPanel(async (p) => {
      await showCharts(p.page);
      await p.send({ type: 'state', payload: { state: hourState() } });
      await waitForPoints(p.page, 'cpu', HOUR);
      await p.page.waitForFunction(() =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document
          .querySelector('#run-status')
          ?.textContent.includes('1:00:00'),
      );
      const before = await renders(p);
      assert.ok(before >= 1, 'the state message rendered the panel');
      const topBackoffs = () => p.page.locator('#live-spin-rows tbody tr').first().locator('td').first().textContent();
      const backoffsBefore = await topBackoffs();
      const runButton = await p.page.$('#btn-run');
      for (let i = 0; i < 3; i++) {
        await tick(p, HOUR + i);
        await waitForPoints(p.page, 'cpu', HOUR + i + 1);
      }
      // The run status is in a region a tick renders: it shows the last tick's time.
      await p.page.locator('#run-status', { hasText: '1:00:03' }).waitFor();
      await p.page.waitForTimeout(100);
      assert.equal(await renders(p), before, 'three ticks rendered no whole-panel template');
      assert.notEqual(await topBackoffs(), backoffsBefore, 'the spinlock rows under the charts follow the ticks');
      assert.ok(
        await runButton?.evaluate((el) => el.isConnected && el === el.ownerDocument.getElementById('btn-run')),
        'the Run button is the same node',
      );
      for (const c of ['throughput', 'spinlocks', 'waits', 'latches', 'log', 'cpu']) assert.equal(await points(p.page, c), HOUR + 3, c);
    }));

  it('a chart off screen is not drawn as ticks arrive, and catches up when scrolled into view', () =>
    withPanel(async (p) => {
      await p.send({ type: 'state', payload: { state: hourState() } });
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('[data-chart="cpu"]');
      await p.page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      const below = await p.page
        .locator('#section-charts [data-chart="cpu"]')
        .evaluate((el) => el.getBoundingClientRect().top - el.ownerDocument.defaultView!.innerHeight);
      assert.ok(below > 400, `the cpu chart starts ${below} px below the viewport (the test needs it well off screen)`);
      // Whether the first draw caught it (it may have been in view before the form above it filled in), no tick now.
      await p.page.waitForTimeout(300);
      const held = await points(p.page, 'cpu');
      assert.ok(held === 0 || held === HOUR, `${held}`);
      await tick(p, HOUR);
      await tick(p, HOUR + 1);
      await p.page.waitForTimeout(300);
      assert.equal(await points(p.page, 'cpu'), held, 'off screen: not drawn');
      await p.page.locator('#section-charts [data-chart="cpu"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await waitForPoints(p.page, 'cpu', HOUR + 2);
      await tick(p, HOUR + 2);
      await waitForPoints(p.page, 'cpu', HOUR + 3);
    }));
  it('the HTML legend hides a series by keyboard (Enter) and shows it again (Space), as the canvas legend did', () =>
    withPanel(async (p) => {
      await showCharts(p.page);
      await p.send({ type: 'state', payload: { state: hourState() } });
      await waitForPoints(p.page, 'throughput', HOUR);
      const canvas = p.page.locator('#section-charts [data-chart="throughput"] canvas');
      const pixels = () => canvas.evaluate((c) => (c as unknown as { toDataURL(): string }).toDataURL());
      const items = p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button');
      assert.ok((await items.count()) >= 1, 'the legend lists the series');
      const first = items.first();
      assert.equal(await first.getAttribute('aria-pressed'), 'true', 'shown at first');
      const shown = await pixels();
      await first.focus();
      await p.page.keyboard.press('Enter');
      await p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button[aria-pressed="false"]').waitFor();
      const hidden = await pixels();
      assert.notEqual(hidden, shown, 'hiding the series changed the drawing');
      // The legend was written again: focus the entry (the same series) anew and show it with Space.
      await items.first().focus();
      await p.page.keyboard.press('Space');
      await p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button[aria-pressed="true"]').first().waitFor();
      assert.equal(await items.first().getAttribute('aria-pressed'), 'true');
      assert.equal(await pixels(), shown, 'showing it again drew the chart as before');
    }));
  it("ticks drawn without chart.js's full update (axes held) look exactly as a full redraw draws them", () =>
    withPanel(async (p) => {
      await showCharts(p.page);
      await p.send({ type: 'state', payload: { state: hourState() } });
      await waitForPoints(p.page, 'throughput', HOUR);
      // Enough ticks to fill a new min/max bucket (new points, not only the last ones rewritten), all within the x headroom.
      for (let i = 0; i < 50; i++) {
        await tick(p, HOUR + i);
        await waitForPoints(p.page, 'throughput', HOUR + i + 1);
      }
      const canvas = p.page.locator('#section-charts [data-chart="throughput"] canvas');
      const pixels = () => canvas.evaluate((c) => (c as unknown as { toDataURL(): string }).toDataURL());
      const ticked = await pixels();
      // Hiding and showing a series redraws the chart with chart.js's full update.
      const first = p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button').first();
      await first.click();
      await p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button[aria-pressed="false"]').waitFor();
      await p.page.locator('#section-charts [data-chart="throughput"] .chart-legend button').first().click();
      await p.page.waitForFunction(
        () =>
          !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
            '#section-charts [data-chart="throughput"] .chart-legend button[aria-pressed="false"]',
          ),
      );
      assert.equal(await pixels(), ticked, 'the same drawing');
    }));
});
