// The panel's Watch section in Chromium under the real CSP: fed the host's state and watchTick messages as the
// extension posts them, it charts the ticks, shows what stands out and who is waiting, and posts its intents.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { WatchView } from '../../src/shared/protocol';
import type { WatchTick } from '../../src/shared/watch';
import * as b from '../helpers/builders';
import { axeFindings, describeFindings } from './axe';
import { answer, answerFailure, root, showCharts, waitForPoints, waitForPosted, waitForRequest, usePanels, showView } from './harness';
import type { WatchWindowComparison } from '../../src/shared/watchWindows';

const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');

function watchTick(i: number): WatchTick {
  const t = b.tick(i);
  return {
    ...t,
    all: { spins: 5e5, backoffs: 200, collisions: 900, waitMs: 340, waitCount: 80, latchMs: 25, latchCount: 40 },
    logByDb: {},
    cpuByScheduler: { 0: 40, 1: 55 },
    pendingIo: 1,
    requests: [
      {
        sessionId: 61,
        status: 'suspended',
        command: 'INSERT',
        database: 'Sales',
        waitType: 'WRITELOG',
        waitMs: 3,
        lastWaitType: 'WRITELOG',
        blockingSessionId: 0,
        schedulerId: 1,
        cpuMs: 10,
        elapsedMs: 12,
        queryHash: '0x1A2B3C4D5E6F7081',
        text: 'INSERT INTO dbo.Orders (',
        nodeId: 0,
      },
    ],
    waitingNow: [{ waitType: 'WRITELOG', tasks: 8, maxWaitMs: 4, totalWaitMs: 20 }],
  };
}

function watchView(over: Partial<WatchView> = {}): WatchView {
  return {
    id: '2026-11-24T00-00-00-000Z-watch',
    title: 'Watch of SIM01',
    serverName: 'SIM01',
    simulated: true,
    status: 'running',
    intervalMs: 250,
    showBenign: false,
    ticks: 0,
    marks: [],
    diagnosis: ['WRITELOG 12 ms per wait is above the log write stall of 2 ms (threshold: 2x)'],
    requests: [],
    recent: [],
    message: 'watching SIM01 every 250 ms',
    ...over,
  };
}

/** An answer to watchCompare whose summary is `summary`. */
function comparison(summary: string): WatchWindowComparison {
  return {
    a: { label: 'Window A', described: 'from 0.5 s to 1.5 s', fromT: 0, toT: 1000, ticks: 1, seconds: 1 },
    b: { label: 'Window B', described: 'from "index rebuilt" (2.0 s) to now', fromT: 2000, toT: 20000, ticks: 18, seconds: 18 },
    figures: [
      { key: 'waitMsPerSec:WRITELOG', label: 'WRITELOG wait', unit: 'ms/s', a: 50, b: 500, changePct: 900, direction: 'lower-better' },
    ],
    summary: [summary],
  };
}

describe('the Watch section of the panel webview', () => {
  const { withPanel } = usePanels();

  it('starts a watch with the interval picked', () =>
    withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'watch');
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
      assert.match((await p.page.textContent('#watch-diagnosis')) ?? '', /WRITELOG 12 ms per wait/);
      assert.match((await p.page.textContent('#watch-requests')) ?? '', /INSERT INTO dbo\.Orders/);
      await p.page.locator('#watch-mark-name input').fill('index rebuilt');
      await p.page.click('#btn-watch-mark');
      const m = await waitForPosted(p, 'watchMark');
      assert.deepEqual(m.payload, { name: 'index rebuilt' });
      await p.page.click('#btn-watch-stop');
      await waitForPosted(p, 'watchStop');
    }));

  it("shows what the watch costs the server, beside the server's totals and its budget", () =>
    withPanel(
      b.connectedState({
        watch: watchView({
          cost: {
            ticks: 30,
            cpuMsPerTick: 3.4,
            logicalReadsPerTick: 109,
            writesPerTick: 26,
            scheduledMsPerTick: 3.9,
            recompilesPerTick: 0,
            cpuMsPerSec: 13.6,
            serverCpuMsPerTick: 420,
            batchRequestsPerTick: 1,
            shareOfServerCpu: 0.0081,
            budgetMsPerSec: 10,
            finalIntervalMs: 500,
          },
        }),
      }),
      async (p) => {
        await showView(p.page, 'watch');
        await p.page.waitForSelector('#watch-cost');
        const text = (await p.page.textContent('#watch-cost')) ?? '';
        assert.match(text, /3\.40 ms CPU, 109 logical reads, 26\.0 page writes and 3\.90 ms scheduled per tick over 30 ticks/);
        assert.match(text, /server's 420 ms CPU \(0\.81% of it\)/);
        assert.match(text, /recompiled 0\.00 statements per tick/);
        assert.match(text, /budget of 10 ms\/s, ending at a 0\.5 s interval \(synthetic: the simulator\)/);
      },
    ));

  it("lists the gaps, the watch's time and its warnings as the CLI says them (each once, repeats counted)", () =>
    withPanel(
      b.connectedState({
        watch: watchView({
          status: 'completed',
          gaps: [
            {
              reason: 'connection-lost',
              fromT: 3000,
              toT: 21_500,
              from: '2026-11-25T12:00:03.000Z',
              to: '2026-11-25T12:00:21.500Z',
              failedTicks: 6,
              detail: 'ECONNRESET',
              recovered: true,
            },
          ],
          coverage:
            'watched 60.0 s; 18.5 s lost in 1 gap: connection lost 12:00:03-12:00:21 UTC (18.5 s, 6 failed ticks), reconnected; rates are per second of the 41.5 s the ticks cover',
          warnings: [
            'monitor sample failed: ECONNREFUSED; reconnecting',
            '(repeated 14 times) monitor sample failed: ECONNREFUSED; reconnecting',
          ],
        }),
      }),
      async (p) => {
        await showView(p.page, 'watch');
        await p.page.waitForSelector('#watch-gaps');
        assert.equal(
          (await p.page.textContent('#watch-gaps li'))?.replace(/\s+/g, ' ').trim(),
          '3.0-21.5 s: connection lost 12:00:03-12:00:21 UTC (18.5 s, 6 failed ticks), reconnected (ECONNRESET)',
        );
        assert.match(
          (await p.page.textContent('#watch-coverage')) ?? '',
          /^Watched 60\.0 s; 18\.5 s lost in 1 gap: .* the 41\.5 s the ticks cover\.$/,
        );
        await p.page.click('#watch-warnings summary');
        const items = await p.page.locator('#watch-warnings li').allTextContents();
        assert.deepEqual(items, [
          'monitor sample failed: ECONNREFUSED; reconnecting',
          '(repeated 14 times) monitor sample failed: ECONNREFUSED; reconnecting',
        ]);
      },
    ));

  it('a reloaded webview charts the recent ticks the host sends in its snapshot', () =>
    withPanel(b.connectedState({ watch: watchView({ recent: [0, 1, 2, 3].map(watchTick), ticks: 4 }) }), async (p) => {
      await showCharts(p.page, '#watch-charts');
      await waitForPoints(p.page, 'spinlocks', 4);
    }));

  for (const theme of ['light', 'dark', 'hc'] as const) {
    it(`screenshot of the Watch section in the ${theme} theme, every element's contrast checked (axe-core)`, () =>
      withPanel(
        b.connectedState({ watch: watchView({ marks: [{ id: 'm1', name: 'index rebuilt', t: 1000, at: '2026-11-24T00:00:01Z' }] }) }),
        async (p) => {
          const id = watchView().id;
          for (let i = 0; i < 20; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
          await showCharts(p.page, '#watch-charts');
          await waitForPoints(p.page, 'spinlocks', 20);
          await p.page.locator('#section-watch').screenshot({ path: path.join(ARTIFACTS, `watch-${theme}.png`) });
          const findings = await axeFindings(p.page);
          assert.deepEqual(findings, [], describeFindings(findings));
        },
        theme,
      ));
  }

  it('compares two windows: marks by default, times typed with the keyboard, a range dragged on the timeline, and the answer in words and figures', () =>
    withPanel(
      b.connectedState({
        watch: watchView({
          status: 'completed',
          ticks: 20,
          marks: [{ id: 'm1', name: 'index rebuilt', t: 2000, at: '2026-11-24T00:00:02Z' }],
        }),
      }),
      async (p) => {
        const id = watchView().id;
        for (let i = 0; i < 20; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
        await showView(p.page, 'watch');
        await p.page.waitForSelector('#watch-compare');
        // Until edited, the first mark splits the watch: before it, and after it.
        assert.equal(await p.page.inputValue('#watch-cmp-a-from'), 'start');
        assert.equal(await p.page.inputValue('#watch-cmp-a-to'), 'mark:m1');
        assert.equal(await p.page.inputValue('#watch-cmp-b-from'), 'mark:m1');
        assert.equal(await p.page.inputValue('#watch-cmp-b-to'), 'now');

        // Window A by times, with the keyboard only: End picks "A time…", Tab reaches its field.
        await p.page.focus('#watch-cmp-a-from');
        await p.page.keyboard.press('End');
        await p.page.waitForSelector('#watch-cmp-a-from-time');
        await p.page.keyboard.press('Tab');
        await p.page.keyboard.type('soon');
        await p.page.waitForSelector('#watch-cmp-a-from-error');
        assert.match((await p.page.textContent('#watch-cmp-a-from-error')) ?? '', /not a duration/);
        assert.equal(await p.page.getAttribute('#btn-watch-compare', 'disabled'), '', 'Compare waits for valid windows');
        await p.page.fill('#watch-cmp-a-from-time', '');
        await p.page.focus('#watch-cmp-a-from-time');
        await p.page.keyboard.type('0.5');
        await p.page.focus('#watch-cmp-a-to');
        await p.page.keyboard.press('End');
        await p.page.waitForSelector('#watch-cmp-a-to-time');
        await p.page.keyboard.press('Tab');
        await p.page.keyboard.type('0.2');
        await p.page.waitForSelector('#watch-cmp-a-range');
        assert.match((await p.page.textContent('#watch-cmp-a-range')) ?? '', /Window A ends \(0\.2 s\) before it starts \(0\.5 s\)/);
        for (let i = 0; i < 3; i++) await p.page.keyboard.press('Backspace');
        await p.page.keyboard.type('1.5');
        await showView(p.page, 'watch');
        await p.page.waitForSelector('#btn-watch-compare:not([disabled])');
        await p.page.focus('#btn-watch-compare');
        await p.page.keyboard.press('Enter');
        const m = await waitForRequest(p, 'watchCompare');
        assert.deepEqual(m.params, {
          watchId: id,
          a: { from: { kind: 'time', t: 500 }, to: { kind: 'time', t: 1500 } },
          b: { from: { kind: 'mark', id: 'm1' }, to: { kind: 'now' } },
        });
        await p.page.waitForSelector('#watch-compare-status:has-text("Reading the ticks")');

        await answer(p, m, comparison('WRITELOG wait 10.0x higher in window B (500 vs 50 ms/s).'));
        await p.page.waitForSelector('#watch-compare-summary');
        assert.match((await p.page.textContent('#watch-compare-summary')) ?? '', /WRITELOG wait 10\.0x higher in window B/);
        assert.match((await p.page.textContent('#watch-compare-table')) ?? '', /WRITELOG wait.*ms\/s.*50.*500.*\+900\.0%/s);
        assert.match((await p.page.innerText('#watch-compare-spans')) ?? '', /B: from "index rebuilt" \(2\.0 s\) to now \(18 ticks/);
        assert.equal(await p.page.textContent('#watch-compare-status'), '');

        // A drag on the timeline sets window B's times (the watch is 20 s long: a quarter to three quarters is 5-15 s).
        await p.page.check('#watch-brush-b');
        const box = (await p.page.locator('#watch-timeline').boundingBox())!;
        await p.page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
        await p.page.mouse.down();
        await p.page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
        await p.page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 4 });
        await p.page.mouse.up();
        await p.page.waitForSelector('#watch-cmp-b-from-time');
        const from = Number(await p.page.inputValue('#watch-cmp-b-from-time'));
        const to = Number(await p.page.inputValue('#watch-cmp-b-to-time'));
        assert.ok(Math.abs(from - 5) <= 0.2 && Math.abs(to - 15) <= 0.2, `dragged 5-15 s, got ${from}-${to}`);
        const n = (await p.posted()).length;
        await p.page.click('#btn-watch-compare');
        const again = await waitForRequest(p, 'watchCompare', n);
        assert.equal(again.params.b.from.kind, 'time');
        assert.deepEqual(again.params.a, m.params.a, 'window A is left as typed');

        await answerFailure(p, again, 'Window B (from 5.0 s to 15.0 s) holds no tick of this watch: widen it.');
        await p.page.waitForSelector('#watch-compare-error');
        assert.match((await p.page.textContent('#watch-compare-error')) ?? '', /holds no tick/);
        await p.page.locator('#watch-compare').screenshot({ path: path.join(ARTIFACTS, 'watch-compare.png') });
      },
    ));

  it('a slow answer to an earlier comparison never replaces the answer to the newer one', () =>
    withPanel(
      b.connectedState({
        watch: watchView({
          status: 'completed',
          ticks: 20,
          marks: [{ id: 'm1', name: 'index rebuilt', t: 2000, at: '2026-11-24T00:00:02Z' }],
        }),
      }),
      async (p) => {
        const id = watchView().id;
        for (let i = 0; i < 20; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
        await showView(p.page, 'watch');
        await p.page.waitForSelector('#btn-watch-compare:not([disabled])');
        await p.page.click('#btn-watch-compare');
        const first = await waitForRequest(p, 'watchCompare');
        // The user changes window B (to end at 10 s) and asks again before the first answer came.
        await p.page.selectOption('#watch-cmp-b-to', 'time');
        await p.page.fill('#watch-cmp-b-to-time', '10');
        const n = (await p.posted()).length;
        await p.page.click('#btn-watch-compare');
        const second = await waitForRequest(p, 'watchCompare', n);
        assert.notEqual(second.id, first.id);
        assert.deepEqual(second.params.b.to, { kind: 'time', t: 10_000 });
        // The newer question is answered first; the earlier one's answer arrives after it and must not replace it.
        await answer(p, second, comparison('The answer to the second question.'));
        await p.page.waitForSelector('#watch-compare-summary:has-text("second question")');
        await answer(p, first, comparison('The answer to the first question.'));
        // Messages are handled in order: once a toast sent after it shows, the first answer was handled and drawn.
        await p.send({ type: 'toast', payload: { message: 'after the first answer' } });
        await p.page.waitForSelector('#toast:has-text("after the first answer")');
        assert.match((await p.page.textContent('#watch-compare-summary')) ?? '', /second question/);
        assert.equal(await p.page.textContent('#watch-compare-status'), '', 'nothing is pending');
      },
    ));
});
