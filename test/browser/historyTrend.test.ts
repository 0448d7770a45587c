// The History view's trend in Chromium: opened from the keyboard, it asks the host, and draws the host's answer (the
// figures shared/regressionHistory.ts computes, as `spinlab history` prints them) as a chart and a table with the
// change point marked, in the light, dark and high-contrast themes (test-artifacts/browser/history-trend-*.png), with
// no axe finding; the workload and cell pickers and each experiment's row are reached by Tab, and a row opens its
// experiment. A new saved experiment while it is open asks again.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as b from '../helpers/builders';
import type { Experiment } from '../../src/shared/experiment';
import { workloadHistory } from '../../src/shared/regressionHistory';
import type { HistoryTrend } from '../../src/shared/historyMessages';
import { axeFindings, describeFindings } from './axe';
import { answer, root, useBrowser, waitForRequest, type Panel, type Theme, showView } from './harness';

describe('the History view over time: change points in the panel (Chromium)', () => {
  const ui = useBrowser();
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  // Twelve daily experiments at 8 threads, two runs each; from the seventh on, 20% slower. Seeded noise.
  const noise = [1.01, 0.98, 1.02, 0.99, 1.0, 1.015, 0.985, 1.0, 1.02, 0.99, 1.005, 0.995];
  const days: Experiment[] = noise.map((k, i) => {
    const e = b.experiment(`exp-day${String(i).padStart(2, '0')}`, [8, 8], { seed: i + 1, title: `disk-insert day ${i + 1}` });
    const level = (i < 6 ? 1 : 0.8) * k;
    const at = Date.parse('2026-11-01T09:00:00Z') + i * 86_400_000;
    e.createdAt = new Date(at).toISOString();
    e.runs = e.runs.map((r, j) => ({
      ...r,
      startedAt: new Date(at + j * 60_000).toISOString(),
      rows: Math.round(r.rows * level),
      totals: { ...r.totals, rows: Math.round(r.totals.rows * level) },
      derived: { ...r.derived, rowsPerSec: r.derived.rowsPerSec * level },
    }));
    return e;
  });
  const trend: HistoryTrend = { histories: [workloadHistory(days)], skipped: ['exp-broken: not readable JSON'] };

  const focusedId = (p: Panel) =>
    p.page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { id: string; textContent: string | null } | null } }).document
        .activeElement;
      return el ? el.id || (el.textContent ?? '').trim() : '';
    });

  /** Connected, with the history listed; the trend opened from the keyboard and the host's answer given. */
  async function openTrend(p: Panel): Promise<void> {
    await p.send({ type: 'state', payload: { state: b.connectedState({ history: [...days].reverse().map(b.summaryOf) }) } });
    await showView(p.page, 'history');
    await p.page.waitForSelector('#history-trend-toggle');
    await p.page.focus('#history-trend-toggle');
    await p.page.keyboard.press('Enter');
    await answer(p, await waitForRequest(p, 'historyTrend'), trend);
    await p.page.waitForSelector('#history-trend-chart');
  }

  for (const theme of ['light', 'dark', 'hc'] as Theme[]) {
    it(`draws the history with its change point in the ${theme} theme, no axe finding`, async () => {
      const p = await ui.open(theme, { width: 1100, height: 900 });
      try {
        await openTrend(p);
        assert.equal(await p.page.getAttribute('#history-trend-toggle', 'aria-expanded'), 'true');
        const summary = (await p.page.textContent('#history-trend-summary')) ?? '';
        console.log(`      ${theme}: ${summary}`);
        assert.match(summary, /^1 change point: exp-day06 slower -\d+(\.\d)?% \[-\d+(\.\d)?%, -\d+(\.\d)?%\]$/);
        assert.equal(await p.page.locator('#history-trend-chart .trend-point').count(), 12);
        assert.equal(await p.page.locator('#history-trend-chart [data-change="exp-day06"]').count(), 1);
        assert.match((await p.page.getAttribute('#history-trend-chart', 'aria-label')) ?? '', /Change points: at exp-day06, slower/);
        const rows = await p.page.$$eval('#history-trend-table tbody tr', (trs) =>
          trs.map((tr) => [...(tr as unknown as { children: { textContent: string }[] }).children].map((td) => td.textContent.trim())),
        );
        assert.equal(rows.length, 12);
        assert.deepEqual(
          rows.map((r) => r[1]),
          days.map((e) => e.id),
          'oldest first',
        );
        assert.deepEqual(
          rows.map((r, i) => [i, r[4] !== '']).filter(([, marked]) => marked),
          [[6, true]],
        );
        assert.match(rows[6][4], /^▼ slower -\d+(\.\d)?% \[.*\] from here \(6 before, 6 after\)$/);
        assert.equal(rows[0][3], '2');
        assert.match((await p.page.textContent('#history-trend-skipped')) ?? '', /exp-broken: not readable JSON/);
        const file = path.join(ARTIFACTS, `history-trend-${theme}.png`);
        await p.page.locator('#section-history').screenshot({ path: file });
        assert.ok(fs.statSync(file).size > 10_000, `${file} is a real screenshot`);
        const findings = await axeFindings(p.page, '#section-history');
        assert.deepEqual(findings, [], describeFindings(findings));
        assert.deepEqual(await p.violations(), []);
        assert.deepEqual(p.errors, []);
      } finally {
        await p.close();
      }
    });
  }

  it('the keyboard reaches the pickers and every row; a row opens its experiment; a new saved experiment asks again', async () => {
    const p = await ui.open('dark');
    try {
      await openTrend(p);
      await p.page.focus('#history-trend-toggle');
      await p.page.keyboard.press('Tab');
      assert.equal(await focusedId(p), 'history-trend-workload');
      await p.page.keyboard.press('Tab');
      assert.equal(await focusedId(p), 'history-trend-cell');
      await p.page.keyboard.press('Tab');
      assert.equal(await focusedId(p), 'exp-day00', 'the first row after the pickers (the chart is a picture, not a stop)');
      for (let i = 0; i < 6; i++) await p.page.keyboard.press('Tab');
      assert.equal(await focusedId(p), 'exp-day06');
      const before = (await p.posted()).length;
      await p.page.keyboard.press('Enter');
      const asked = await waitForRequest(p, 'experimentOpen', before);
      assert.deepEqual(asked.params, { id: 'exp-day06' });
      // A run saved a new experiment: the host's new state lists it, and the open trend asks again.
      const since = (await p.posted()).length;
      const extra = b.experiment('exp-day12', [8], { title: 'disk-insert day 13' });
      await p.send({ type: 'state', payload: { state: b.connectedState({ history: [extra, ...[...days].reverse()].map(b.summaryOf) }) } });
      await waitForRequest(p, 'historyTrend', since);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
