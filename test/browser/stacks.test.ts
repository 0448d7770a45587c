// "Why is it spinning?" in Chromium under the real CSP: picked with the keyboard on a spinlock under the live charts,
// the panel says what a capture does, posts the request with the length picked, shows the host's progress, then the
// capture: simulated label, notes, top stacks and the flame view (bars proportional, arrow keys between them). Also
// the watch's spinlocks, the GRANT on a permission error, and the flame view in the three themes (screenshots in
// test-artifacts/browser/stacks-{light,dark,hc}.png).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { PanelState } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { axeFindings, describeFindings } from './axe';
import { root, waitForPosted, type Theme, usePanels, showView } from './harness';

const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');

function runningState(): PanelState {
  return b.connectedState({
    active: {
      experimentId: 'exp-9',
      title: 'disk-insert, 8 threads',
      scenarioId: 'disk-insert',
      simulated: true,
      status: 'running',
      message: 'running',
      events: [],
      runs: [{ index: 0, threads: 8, status: 'running', ticks: b.ticks(10) }],
    },
  });
}

/** What has the keyboard focus: its id, or the data-bar of the flame bar it is. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      document: { activeElement: { id: string; parentElement: { getAttribute(n: string): string | null } | null } | null };
    };
    const el = g.document.activeElement;
    if (!el) return '';
    const bar = el.parentElement?.getAttribute('data-bar');
    return bar !== null && bar !== undefined ? `bar:${bar}` : el.id;
  });
}

describe('"Why is it spinning?" in the panel webview (Chromium)', () => {
  const { withPanel } = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  it('asks about a spinlock of the live run with the keyboard, posts the capture, and shows the flame view it gets back', () =>
    withPanel(runningState(), async (p) => {
      await showView(p.page, 'experiment');
      const why = p.page.locator('#live-spin-rows button[data-why="LOCK_HASH"]');
      await why.waitFor();
      const offered = await p.page
        .locator('#live-spin-rows tbody tr')
        .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { spinlock: string } }).dataset.spinlock));
      assert.equal(offered[0], 'LOGCACHE_ACCESS', 'most backoffs first');
      await why.focus();
      await p.page.keyboard.press('Enter');
      await p.page.locator('#stacks-confirm').waitFor();
      const what = (await p.page.textContent('#stacks-what')) ?? '';
      for (const s of [
        'SpinlockLab_',
        'ALTER ANY EVENT SESSION',
        'CREATE ANY EVENT SESSION',
        'a call stack per backoff event',
        'drops the session afterwards',
      ]) {
        assert.ok(what.includes(s), `the statement names: ${s}`);
      }
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ===
          'stacks-duration',
      );
      await p.page.selectOption('#stacks-duration', '5000');
      await p.page.locator('#section-stacks').screenshot({ path: path.join(ARTIFACTS, 'stacks-confirm-dark.png') });
      assert.equal(
        (await p.posted()).some((m) => m.type === 'stacksCapture'),
        false,
        'nothing is captured before the user confirms',
      );
      await p.page.keyboard.press('Tab');
      assert.equal(await focused(p.page), 'btn-stacks-capture');
      await p.page.keyboard.press('Enter');
      const req = await waitForPosted(p, 'stacksCapture');
      assert.deepEqual(req.payload, { spinlock: 'LOCK_HASH', durationMs: 5000 });

      await p.send({ type: 'stacksProgress', payload: { spinlock: 'LOCK_HASH', elapsedMs: 2000, durationMs: 5000 } });
      // The running view is there since the click; wait for the frame that renders the progress, then read it.
      await p.page
        .locator('#stacks-running', { hasText: /LOCK_HASH: 2 of 5 s/ })
        .waitFor({ timeout: 5000 })
        .catch(() => undefined);
      assert.match((await p.page.innerText('#stacks-running')) ?? '', /LOCK_HASH: 2 of 5 s/);
      await p.page.click('#btn-stacks-cancel');
      await waitForPosted(p, 'stacksCancel');

      const capture = b.stackCapture();
      await p.send({ type: 'stacksResult', payload: { capture } });
      await p.page.locator('#stacks-flame svg').waitFor();
      assert.match((await p.page.textContent('#stacks-simulated')) ?? '', /SIMULATED/);
      assert.match((await p.page.textContent('#stacks-notes')) ?? '', /fired for every backoff/);
      assert.equal(await p.page.locator('#stacks-loss').count(), 0, 'a capture without drop counters (saved before them) shows none');
      assert.equal(await p.page.locator('#stacks-top > li').count(), 3);
      assert.match((await p.page.textContent('#stacks-top > li:first-child summary')) ?? '', /600 events \(60%\)/);
      // The answer first: the top stacks and the flame view come before the notes on reading the counts.
      const order = await p.page.$$eval('#stacks-result #stacks-top, #stacks-result #stacks-flame, #stacks-result #stacks-notes', (els) =>
        els.map((e) => e.id),
      );
      assert.deepEqual(order, ['stacks-top', 'stacks-flame', 'stacks-notes']);
      assert.match((await p.page.textContent('#stacks-flame-help')) ?? '', /Outermost frame .* at the bottom/);

      // Widths: the two towers over the shared caller are 600 and 300 events wide, the bars' widths 2:1.
      const widthOf = async (frame: string) =>
        Number(await p.page.locator(`#stacks-flame g:has(rect[aria-label^="${frame}:"]) rect`).first().getAttribute('width'));
      const w600 = await widthOf('sqlmin.dll+0x22AA10');
      const w300 = await widthOf('sqlmin.dll+0x77BB20');
      assert.ok(Math.abs(w600 / w300 - 2) < 0.02, `600 vs 300 events: ${w600} vs ${w300}`);

      // One tab stop on the graph, then the arrow keys.
      await p.page.focus('#stacks-flame rect[tabindex="0"]');
      assert.equal(await focused(p.page), 'bar:0');
      await p.page.keyboard.press('ArrowUp');
      await p.page.waitForFunction(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { parentElement: { getAttribute(n: string): string | null } } | null } }
          ).document.activeElement?.parentElement.getAttribute('data-bar') === '1',
      );
      assert.match((await p.page.textContent('#stacks-detail')) ?? '', /^sqldk.dll\+0x004400: 1,000 backoff events, 100% of all$/);
      assert.equal(await p.page.locator('#stacks-flame rect[tabindex="0"]').count(), 1, 'a single tab stop');

      await p.send({ type: 'stacksResult', payload: { capture } });
      await p.page.waitForTimeout(100);
      assert.match(
        (await p.page.textContent('#stacks-detail')) ?? '',
        /^sqldk/,
        'the same capture again (the panel shown again) keeps the bar in focus',
      );
      await p.page.click('#btn-stacks-resolver');
      assert.deepEqual((await waitForPosted(p, 'stacksExport')).payload, { to: 'clipboard' });

      // The session's losses beside the counts: a warning when it dropped events, a plain line when it dropped none.
      const options = {
        partition: 'NONE' as const,
        maxMemoryKb: 4096,
        retention: 'ALLOW_SINGLE_EVENT_LOSS' as const,
        dispatchLatencyS: 1,
        maxDurationS: null,
        cpus: 256,
        numaNodes: 8,
        regularBuffers: 3,
        regularBufferBytes: 1_398_101,
      };
      await p.send({
        type: 'stacksResult',
        payload: {
          capture: b.stackCapture({
            session: 'SpinlockLab_LOCK_HASH_lost',
            droppedEvents: 2547,
            droppedBuffers: 0,
            sessionOptions: options,
          }),
        },
      });
      await p.page.locator('#stacks-loss[data-lost="true"]').waitFor({ timeout: 5000 });
      assert.match(
        (await p.page.textContent('#stacks-loss')) ?? '',
        /Events were lost: 2547 events and 0 buffers dropped for full buffers \(sys\.dm_xe_sessions; MEMORY_PARTITION_MODE = NONE, MAX_MEMORY = 4 MB\)/,
      );
      assert.equal(await p.page.getAttribute('#stacks-loss', 'role'), 'alert');
      await p.send({
        type: 'stacksResult',
        payload: {
          capture: b.stackCapture({
            session: 'SpinlockLab_LOCK_HASH_none',
            droppedEvents: 0,
            droppedBuffers: 0,
            sessionOptions: { ...options, partition: 'PER_CPU', maxMemoryKb: 262144 },
          }),
        },
      });
      await p.page.locator('#stacks-loss[data-lost="false"]').waitFor({ timeout: 5000 });
      assert.match(
        (await p.page.textContent('#stacks-loss')) ?? '',
        /^0 events and 0 buffers dropped for full buffers \(sys\.dm_xe_sessions; MEMORY_PARTITION_MODE = PER_CPU, MAX_MEMORY = 256 MB\)\.$/,
      );
    }));

  it("offers the watch's spinlocks too, and shows the GRANT when a permission is missing", () =>
    withPanel(
      b.connectedState({
        watch: {
          id: 'w1',
          title: 'Watch of SIM01',
          serverName: 'SIM01',
          simulated: true,
          status: 'running',
          intervalMs: 1000,
          showBenign: false,
          ticks: 0,
          marks: [],
          diagnosis: [],
          requests: [],
          recent: [],
          message: 'watching',
        },
      }),
      async (p) => {
        const t = b.tick(0);
        await p.send({
          type: 'watchTick',
          payload: {
            watchId: 'w1',
            tick: {
              ...t,
              all: { spins: 1, backoffs: 1, collisions: 1, waitMs: 1, waitCount: 1, latchMs: 1, latchCount: 1 },
              logByDb: {},
              cpuByScheduler: {},
              pendingIo: 0,
              requests: [],
              waitingNow: [],
            },
          },
        });
        await showView(p.page, 'watch');
        await p.page.click('#watch-spin-rows button[data-why="XDESMGR"]');
        await p.page.click('#btn-stacks-capture');
        assert.deepEqual((await waitForPosted(p, 'stacksCapture')).payload, {
          spinlock: 'XDESMGR',
          durationMs: 10_000,
          experimentId: null,
        });
        await p.send({
          type: 'stacksError',
          payload: {
            spinlock: 'XDESMGR',
            message: 'Creating the event session failed: permission denied.',
            grant: 'USE master; GRANT ALTER ANY EVENT SESSION TO [watcher];',
          },
        });
        await p.page.locator('#stacks-grant').waitFor();
        assert.equal(await p.page.textContent('#stacks-grant'), 'USE master; GRANT ALTER ANY EVENT SESSION TO [watcher];');
        assert.equal(await p.page.getAttribute('#stacks-error', 'role'), 'alert');
        assert.equal(await p.page.getAttribute('#stacks-grant', 'tabindex'), '0', 'the GRANT is reachable by keyboard');
        await p.page.click('#btn-stacks-copy-grant');
        assert.equal((await waitForPosted(p, 'clipboardCopy')).payload.text, 'USE master; GRANT ALTER ANY EVENT SESSION TO [watcher];');
      },
    ));

  for (const theme of ['light', 'dark', 'hc'] as Theme[]) {
    it(`draws the flame view in the ${theme} theme from the theme's colours`, () =>
      withPanel(
        runningState(),
        async (p) => {
          await p.send({ type: 'stacksResult', payload: { capture: b.stackCapture() } });
          await showView(p.page, 'stacks');
          const bar = p.page.locator('#stacks-flame rect').first();
          await bar.waitFor();
          const colours = await bar.evaluate((el) => {
            const g = globalThis as unknown as {
              getComputedStyle(e: unknown): { fill: string; stroke: string; backgroundColor: string };
              document: { body: unknown };
            };
            const cs = g.getComputedStyle(el);
            return { fill: cs.fill, stroke: cs.stroke, background: g.getComputedStyle(g.document.body).backgroundColor };
          });
          const text = await p.page
            .locator('#stacks-flame text')
            .first()
            .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(el).fill);
          if (theme === 'hc') {
            assert.equal(colours.fill, colours.background, 'high contrast: outlined bars on the editor background');
            assert.notEqual(colours.stroke, colours.background);
          } else {
            assert.notEqual(colours.fill, colours.background, 'the bars stand out from the background');
            assert.notEqual(colours.fill, 'rgb(0, 0, 0)', 'a theme colour, not the SVG default');
          }
          assert.notEqual(text, colours.fill, "the label is not drawn in the bar's colour");
          const file = path.join(ARTIFACTS, `stacks-${theme}.png`);
          await p.page.locator('#section-stacks').screenshot({ path: file });
          assert.ok(fs.statSync(file).size > 5_000, `${file} is a real screenshot`);
          const findings = await axeFindings(p.page);
          assert.deepEqual(findings, [], describeFindings(findings));
        },
        theme,
      ));
  }
});
