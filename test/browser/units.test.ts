// Numbers in their units and charts like a dashboard, in Chromium under the real CSP: the results table of runs with
// per-row figures from nanoseconds to kilobytes (a table of inputs and the text each cell must show), the comparison's
// change coloured only past the noise and never for the thread count a sweep varies, "No data yet" on empty charts,
// round x ticks, and a watch's charts on the time of day with its marks drawn on them.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { RunRecord } from '../../src/shared/experiment';
import type { WatchView } from '../../src/shared/protocol';
import type { WatchTick } from '../../src/shared/watch';
import * as b from '../helpers/builders';
import { root, showCharts, usePanels, waitForPoints, type Panel, showView } from './harness';

const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
const ROWS = 1_000_000;

/** A finished run of a million rows whose per-row figures are the inputs of the table below. */
function run(index: number, threads: number, totals: { cpuMs: number; logBytes: number; writelogMs: number }): RunRecord {
  const r = b.runRecord(index, threads, { ticks: 12, seed: index + 1 });
  r.rows = ROWS;
  r.totals = { ...r.totals, rows: ROWS, cpuMs: totals.cpuMs, logBytesFlushed: totals.logBytes };
  r.totals.waits = { ...r.totals.waits, WRITELOG: { waitMs: totals.writelogMs, count: 10, signalMs: 0 } };
  return r;
}

// Per-row inputs (as each view holds them: ms and bytes per row) and the text each must read.
const RUN0 = { cpuMs: 2.9, logBytes: 1536 * ROWS, writelogMs: 730 }; // 0.0000029 ms, 1536 B, 0.00073 ms per row
const RUN1 = { cpuMs: 12_940, logBytes: 3_407_872 * ROWS, writelogMs: 2_500_000 }; // 0.01294 ms, 3.25 MB, 2.5 ms per row
const EXPECTED: { column: string; run0: string; run1: string }[] = [
  { column: 'Rows', run0: '1,000,000', run1: '1,000,000' },
  { column: 'CPU/row', run0: '2.9 ns', run1: '12.9 µs' },
  { column: 'Log/row', run0: '1.5 KB', run1: '3.25 MB' },
  { column: 'WRITELOG wait/row', run0: '730 ns', run1: '2.5 ms' },
];

function watchTick(i: number): WatchTick {
  return {
    ...b.tick(i),
    all: { spins: 5e5, backoffs: 200, collisions: 900, waitMs: 340, waitCount: 80, latchMs: 25, latchCount: 40 },
    logByDb: {},
    cpuByScheduler: { 0: 40, 1: 55 },
    pendingIo: 1,
    requests: [],
    waitingNow: [],
  };
}

function watchView(over: Partial<WatchView> = {}): WatchView {
  return {
    id: '2026-11-24T00-00-00-000Z-watch',
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
    message: 'watching SIM01 every 1 s',
    ...over,
  };
}

const canvasOf = (chart: string, prefix = '') => `${prefix ? '#watch-charts ' : '#section-charts '}[data-chart="${chart}"] canvas`;

describe('numbers in their units and charts like a dashboard (Chromium)', () => {
  const panels = usePanels();

  async function showRuns(p: Panel, records: RunRecord[]): Promise<void> {
    await p.send({
      type: 'state',
      payload: {
        state: b.connectedState({
          active: {
            experimentId: 'exp-u',
            title: 'units',
            scenarioId: 'disk-insert',
            simulated: true,
            status: 'completed',
            message: '',
            events: [],
            runs: records.map((r) => ({ index: r.index, threads: r.threads, status: r.status, ticks: r.timeline })),
          },
        }),
      },
    });
    for (const record of records) await p.send({ type: 'runEnd', payload: { experimentId: 'exp-u', record } });
  }

  it('the results table writes each figure in its unit: a table of inputs and the text each cell shows', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showRuns(p, [run(0, 1, RUN0), run(1, 8, RUN1)]);
      await showView(p.page, 'results');
      await p.page.waitForSelector('#results-table tbody tr[data-run="1"]');
      // Every column, ticked in the chooser (8 show by default).
      await p.page.click('#results-columns > summary');
      const boxes = p.page.locator('#results-columns input[data-column]:not(:checked)');
      while ((await boxes.count()) > 0) await boxes.first().check();
      // The table is drawn on the next frame after the last tick: wait until it has every column.
      await p.page.waitForFunction(() => {
        const d = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document;
        return d.querySelectorAll('#results-table thead th').length === d.querySelectorAll('#results-columns input[data-column]').length;
      });
      const table = await p.page.$$eval('#results-table', ([t]) => {
        const el = t as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
        const heads = Array.from(el.querySelectorAll('thead th')).map((h) => (h.textContent ?? '').replace(/[▲▼]/g, '').trim());
        const rows = Array.from(el.querySelectorAll('tbody tr')).map((r) =>
          Array.from((r as unknown as typeof el).querySelectorAll('td')).map((c) => (c.textContent ?? '').trim()),
        );
        return { heads, rows };
      });
      for (const e of EXPECTED) {
        const i = table.heads.indexOf(e.column);
        assert.ok(i >= 0, `a column "${e.column}" in ${table.heads.join(' | ')}`);
        assert.deepEqual([table.rows[0][i], table.rows[1][i]], [e.run0, e.run1], e.column);
      }
      for (const cell of table.rows.flat()) assert.doesNotMatch(cell, /\de[+-]?\d/, `no scientific notation: ${cell}`);
      assert.ok(!table.heads.some((h) => /ms\/row|spins spins|ms per wait ms/.test(h)), `each unit once: ${table.heads.join(' | ')}`);

      // The comparison of the two runs: the same figures in the same words; the thread count (the sweep's knob)
      // changes without a colour, and a figure within 5% is neutral.
      const compare = await p.page.$$eval('#compare-table tbody tr', (rows) =>
        rows.map((r) => {
          const el = r as unknown as {
            dataset: { figure: string };
            querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
          };
          const cells = Array.from(el.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim());
          const change = (r as unknown as { querySelector(s: string): { dataset: { meaning: string } } }).querySelector('td.change');
          return { key: el.dataset.figure, cells, meaning: change.dataset.meaning };
        }),
      );
      const row = (key: string) => compare.find((r) => r.key === key)!;
      assert.deepEqual(row('cpuMsPerRow').cells.slice(0, 3), ['CPU per row', '2.9 ns', '12.9 µs']);
      assert.deepEqual(row('logBytesPerRow').cells.slice(0, 3), ['Log bytes per row', '1.5 KB', '3.25 MB']);
      assert.deepEqual(row('waitMsPerRow:WRITELOG').cells.slice(0, 3), ['WRITELOG wait time per row', '730 ns', '2.5 ms']);
      assert.equal(row('threads').cells[3], '+700.0%');
      assert.equal(row('threads').meaning, 'neutral', 'the thread count is the input of a sweep, not a result');
      assert.equal(row('cpuMsPerRow').meaning, 'worse');
      await p.page.locator('#section-results').screenshot({ path: path.join(ARTIFACTS, 'units-results.png') });
    }));

  it('two repetitions of the same settings are compared as the noise: no red or green, and a note saying so', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      const slower = run(1, 8, { cpuMs: RUN0.cpuMs * 1.3, logBytes: RUN0.logBytes, writelogMs: RUN0.writelogMs * 1.4 });
      slower.derived = { ...slower.derived, rowsPerSec: slower.derived.rowsPerSec * 0.79 };
      await showRuns(p, [run(0, 8, RUN0), slower]);
      await showView(p.page, 'results');
      await p.page.waitForSelector('#compare-table tbody tr[data-figure="rowsPerSec"]');
      const meanings = await p.page.$$eval('#compare-table td.change', (cells) =>
        cells.map((c) => (c as unknown as { dataset: { meaning: string } }).dataset.meaning),
      );
      assert.ok(meanings.length > 3, 'changes shown');
      assert.deepEqual([...new Set(meanings)], ['neutral'], `no change of the same settings is coloured: ${meanings.join(' ')}`);
      const note = await p.page.locator('#compare-noise').getAttribute('data-same-settings');
      assert.equal(note, 'true');
      assert.match((await p.page.textContent('#compare-noise')) ?? '', /Same settings: .*run-to-run noise/);
    }));

  it('an empty chart says "No data yet" instead of drawing 0-1 axes; a run then draws round x ticks between its bounds', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showCharts(p.page);
      await p.page.waitForSelector(`${canvasOf('throughput')}[data-empty="true"]`);
      // The first sample 1.437 s in: not a tick of its own.
      const r = run(0, 4, RUN1);
      r.timeline = r.timeline.map((t) => ({ ...t, t: t.t + 437 }));
      await showRuns(p, [r]);
      await showCharts(p.page);
      await waitForPoints(p.page, 'throughput', 12);
      await p.page.waitForSelector(`${canvasOf('throughput')}[data-empty="false"]`);
      const ticks = (await p.page.getAttribute(canvasOf('throughput'), 'data-x-ticks'))!.split(' ').map(Number);
      assert.ok(ticks.length >= 3, String(ticks));
      // Between the data's own bounds (the first and last sample's times, kept as ticks: the live charts' data-only
      // redraw must draw exactly what a full update draws), every tick is a round step.
      const inner = ticks.slice(1, -1);
      const step = inner[1] - inner[0];
      assert.ok(
        inner.every((t) => Math.abs(t / step - Math.round(t / step)) < 1e-9),
        `every x tick between the bounds a multiple of its step: ${ticks.join(', ')}`,
      );
    }));

  it('a chart of one sample says "one sample", and an all-zero chart "nothing moved", instead of empty or 0-1 axes', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showCharts(p.page);
      const r = run(0, 4, RUN1);
      // One tick, in which nothing was written to the log: the log chart has nothing but zeros to draw.
      r.timeline = r.timeline.slice(0, 1).map((t) => ({
        ...t,
        log: Object.fromEntries(Object.entries(t.log).map(([k, v]) => [k, typeof v === 'number' ? 0 : v])) as typeof t.log,
      }));
      await showRuns(p, [r]);
      await showCharts(p.page);
      await waitForPoints(p.page, 'throughput', 1);
      await p.page.waitForSelector(`${canvasOf('throughput')}[data-says="one-sample"]`);
      assert.equal(await p.page.getAttribute(canvasOf('throughput'), 'data-empty'), 'false');
      await p.page.locator('#section-charts [data-chart="throughput"]').screenshot({ path: path.join(ARTIFACTS, 'one-sample.png') });
      const two = run(0, 4, RUN1);
      two.timeline = two.timeline.slice(0, 4).map((t) => ({
        ...t,
        log: Object.fromEntries(Object.entries(t.log).map(([k, v]) => [k, typeof v === 'number' ? 0 : v])) as typeof t.log,
      }));
      await showRuns(p, [two]);
      await showCharts(p.page);
      await waitForPoints(p.page, 'throughput', 4);
      await p.page.waitForSelector(`${canvasOf('throughput')}[data-says=""]`);
      await p.page.waitForSelector(`${canvasOf('log')}[data-says="flat"]`);
      await p.page.locator('#section-charts [data-chart="log"]').screenshot({ path: path.join(ARTIFACTS, 'nothing-moved.png') });
    }));

  it('a scaling chart of one run draws its point (a marker, not a line of one point)', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showRuns(p, [run(0, 4, RUN1)]);
      await showView(p.page, 'results');
      const canvas = '[data-chart="scaling"] canvas';
      await p.page.waitForSelector(`${canvas}[data-empty="false"]`);
      assert.equal(await p.page.getAttribute('[data-chart="scaling"]', 'data-points'), '2', 'rows/s and spins/row at 4 threads');
      await p.page.locator('[data-chart="scaling"]').screenshot({ path: path.join(ARTIFACTS, 'scaling-one-point.png') });
    }));

  it("a watch's charts read the time of day, round, with its marks drawn on them as named lines", () =>
    panels.withPanel(b.connectedState(), async (p) => {
      const startedAt = '2026-11-24T10:00:07.400Z';
      const marks = [{ id: 'm1', name: 'index rebuilt', t: 5000, at: '2026-11-24T10:00:12.400Z' }];
      await p.send({ type: 'state', payload: { state: b.connectedState({ watch: watchView({ startedAt, marks }) }) } });
      const id = watchView().id;
      for (let i = 0; i < 20; i++) await p.send({ type: 'watchTick', payload: { watchId: id, tick: watchTick(i) } });
      await showCharts(p.page, '#watch-charts');
      await waitForPoints(p.page, 'spinlocks', 20);
      const canvas = canvasOf('spinlocks', 'watch');
      await p.page.waitForSelector(`${canvas}[data-marks="1"]`);
      const values = (await p.page.getAttribute(canvas, 'data-x-ticks'))!.split(' ').map(Number);
      // Ticks on round seconds of the clock: the start is at :07.4, so each tick's time of day is a whole multiple.
      const start = Date.parse(startedAt) / 1000;
      const step = values[1] - values[0];
      assert.ok(step >= 1 && values.length >= 3, String(values));
      for (const v of values) assert.ok(Math.abs(((start + v) / step) % 1) < 1e-6, `${v} s in is a round time of day`);
      const at = (s: number) => {
        const d = new Date(s * 1000);
        return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
      };
      assert.match((await p.page.textContent('#watch-marks')) ?? '', new RegExp(`index rebuilt \\(${at(start + 5)}, 5\\.0 s in\\)`));
      await p.page.locator('#watch-charts').screenshot({ path: path.join(ARTIFACTS, 'watch-clock-marks.png') });
    }));
});
