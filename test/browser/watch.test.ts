// The panel's Watch section in Chromium under the real CSP: fed the host's state and watchTick messages as the
// extension posts them, it charts the ticks, shows what stands out and who is waiting, and posts its intents.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import type { PanelState, WatchView } from '../../src/shared/protocol';
import type { WatchTick } from '../../src/shared/watch';
import * as b from '../helpers/builders';
import { launch, openPanel, root, showCharts, startHarness, waitForPoints, waitForPosted, type Harness, type Panel, type Theme } from './harness';

const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');

function watchTick(i: number): WatchTick {
  const t = b.tick(i);
  return {
    ...t, all: { spins: 5e5, backoffs: 200, collisions: 900, waitMs: 340, waitCount: 80, latchMs: 25, latchCount: 40 },
    logByDb: {}, cpuByScheduler: { 0: 40, 1: 55 }, pendingIo: 1,
    requests: [{ sessionId: 61, status: 'suspended', command: 'INSERT', database: 'Sales', waitType: 'WRITELOG', waitMs: 3, lastWaitType: 'WRITELOG',
      blockingSessionId: 0, schedulerId: 1, cpuMs: 10, elapsedMs: 12, queryHash: '0x1A2B3C4D5E6F7081', text: 'INSERT INTO dbo.Orders (', nodeId: 0 }],
    waitingNow: [{ waitType: 'WRITELOG', tasks: 8, maxWaitMs: 4, totalWaitMs: 20 }],
  };
}

function watchView(over: Partial<WatchView> = {}): WatchView {
  return { id: '2026-11-24T00-00-00-000Z-watch', title: 'Watch of SIM01', serverName: 'SIM01', simulated: true, status: 'running', intervalMs: 250,
    showBenign: false, ticks: 0, marks: [], diagnosis: ['WRITELOG 12 ms per wait is above the log write stall of 2 ms (threshold: 2x)'], requests: [],
    recent: [], message: 'watching SIM01 every 250 ms', ...over };
}

describe('the Watch section of the panel webview', () => {
  let browser: Browser;
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  async function withPanel(state: PanelState, fn: (p: Panel) => Promise<void>, theme: Theme = 'dark'): Promise<void> {
    const panel = await openPanel(browser, harness, theme);
    try {
      await panel.send({ type: 'state', payload: { state } });
      await fn(panel);
      assert.deepEqual(await panel.violations(), [], 'no Content-Security-Policy violation');
      assert.deepEqual(panel.errors, [], 'no console error');
    } finally {
      await panel.close();
    }
  }

  it('starts a watch with the interval picked', () =>
    withPanel(b.connectedState(), async (p) => {
      await p.page.waitForSelector('#section-watch');
      await p.page.selectOption('#watch-interval', '250');
      await p.page.click('#btn-watch-start');
      const m = await waitForPosted(p, 'watchStart');
      assert.deepEqual(m.payload, { intervalMs: 250, showBenign: false });
    }));

  it('charts the ticks, shows what stands out and who is waiting, and a mark posts its name', () =>
    withPanel(b.connectedState({ watch: watchView() }), async (p) => {
      const id = watchView().id;
      for (let i = 0; i < 6; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
      await showCharts(p.page, '#watch-charts');
      await waitForPoints(p.page, 'spinlocks', 6);
      assert.match(await p.page.textContent('#watch-diagnosis') ?? '', /WRITELOG 12 ms per wait/);
      assert.match(await p.page.textContent('#watch-requests') ?? '', /INSERT INTO dbo\.Orders/);
      await p.page.locator('#watch-mark-name input').fill('index rebuilt');
      await p.page.click('#btn-watch-mark');
      const m = await waitForPosted(p, 'watchMark');
      assert.deepEqual(m.payload, { name: 'index rebuilt' });
      await p.page.click('#btn-watch-stop');
      await waitForPosted(p, 'watchStop');
    }));

  it('a reloaded webview charts the recent ticks the host sends in its snapshot', () =>
    withPanel(b.connectedState({ watch: watchView({ recent: [0, 1, 2, 3].map(watchTick), ticks: 4 }) }), async (p) => {
      await showCharts(p.page, '#watch-charts');
      await waitForPoints(p.page, 'spinlocks', 4);
    }));

  for (const theme of ['light', 'dark'] as const) {
    it(`screenshot of the Watch section in the ${theme} theme`, () =>
      withPanel(b.connectedState({ watch: watchView({ marks: [{ id: 'm1', name: 'index rebuilt', t: 1000, at: '2026-11-24T00:00:01Z' }] }) }), async (p) => {
        const id = watchView().id;
        for (let i = 0; i < 20; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
        await showCharts(p.page, '#watch-charts');
        await waitForPoints(p.page, 'spinlocks', 20);
        await p.page.locator('#section-watch').screenshot({ path: path.join(ARTIFACTS, `watch-${theme}.png`) });
      }, theme));
  }
});
