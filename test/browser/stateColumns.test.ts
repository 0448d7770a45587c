// The state message's tick columns (shared/stateSnapshot.ts) in the real panel: a full snapshot as the host posts it
// draws every live chart pixel for pixel as the same ticks sent as objects do, with the same notes, spinlock rows and
// status; and a snapshot whose columns are malformed draws none of its ticks (the panel, having nothing yet, draws the
// state without them and says so) until the next good one.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import { fullStatePayload } from '../../src/shared/stateSnapshot';
import * as b from '../helpers/builders';
import { points, showCharts, waitForPoints, type Panel, usePanels } from './harness';

const CHARTS = ['throughput', 'spinlocks', 'waits', 'latches', 'log', 'cpu'];
const TICKS = 900;

function state(): PanelState {
  const active: ActiveExperimentView = {
    experimentId: 'exp-1',
    title: 'disk-insert sweep',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'running',
    message: '',
    events: [],
    runs: [{ index: 0, threads: 16, status: 'running', ticks: b.ticks(TICKS, { threads: 16 }) }],
  };
  return b.connectedState({ active });
}

/** What the panel shows of the live run: each chart's canvas and note, the spinlock rows, the run status. */
async function shown(p: Panel) {
  const out: Record<string, string | null> = {};
  for (const c of CHARTS) {
    const chart = p.page.locator(`#section-charts [data-chart="${c}"]`);
    out[`${c} canvas`] = await chart.locator('canvas').evaluate((el) => (el as unknown as { toDataURL(): string }).toDataURL());
    out[`${c} note`] = await chart.locator('.chart-note').textContent();
  }
  out.spinRows = await p.page.locator('#live-spin-rows').textContent();
  out.status = await p.page.locator('#run-status').textContent();
  return out;
}

describe('the state message with tick columns', () => {
  const panels = usePanels();

  it('draws what the same ticks as objects draw', async () => {
    let objects: Record<string, string | null> = {};
    await panels.withPanel(null, async (p) => {
      await showCharts(p.page);
      await p.send({ type: 'state', payload: { state: state() } });
      for (const c of CHARTS) await waitForPoints(p.page, c, TICKS);
      await p.page.waitForTimeout(300);
      objects = await shown(p);
    });
    await panels.withPanel(null, async (p) => {
      await showCharts(p.page);
      const payload = fullStatePayload(state());
      assert.deepEqual(payload.state.active?.runs[0].ticks, [], 'the ticks go as columns only');
      await p.send({ type: 'state', payload });
      for (const c of CHARTS) await waitForPoints(p.page, c, TICKS);
      await p.page.waitForTimeout(300);
      assert.deepEqual(await shown(p), objects);
    });
  });

  it('draws none of the ticks of a snapshot whose columns are malformed, and draws the next good one', () =>
    panels.withPanel(null, async (p) => {
      await showCharts(p.page);
      const bad = fullStatePayload(state());
      const cols = bad.ticks![0].columns.columns;
      cols[3] = { ...cols[3], values: cols[3].values.subarray(1) };
      const warnings: string[] = [];
      p.page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      await p.send({ type: 'state', payload: bad });
      await p.page.waitForTimeout(500);
      for (const c of CHARTS) assert.equal(await points(p.page, c), 0, `${c}: no tick drawn from a malformed snapshot`);
      assert.equal(await p.page.locator('.panel-header .muted').textContent(), 'SIMBOX (simulator)', 'the state without its ticks');
      assert.equal(await p.page.locator('#state-notice').getAttribute('data-kind'), 'refused', 'the panel says so');
      assert.match(warnings.join('\n'), /dropped a state message: tick columns: column 3's values are not 900 numbers in a typed array/);
      await p.send({ type: 'state', payload: fullStatePayload(state()) });
      for (const c of CHARTS) await waitForPoints(p.page, c, TICKS);
    }));
});
