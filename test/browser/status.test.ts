// Status that is true, in Chromium: one run count in the run's header (the host's, every arm and repetition), the
// affinity the running experiment holds (not the one before it), a preset plan that says why it is not updated (wrong
// settings, a failed planning) and is asked again when the server's plans change, blockers that name their fields, a
// stopped watch said "stopped", and the Custom workload form as typed after the panel is hidden and shown (a reload).
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState, WatchView } from '../../src/shared/protocol';
import { presetPlanView } from '../../src/host/presetPlans';
import * as b from '../helpers/builders';
import { answer, answerFailure, fill, usePanels, waitForRequest, showView } from './harness';

function running(over: Partial<ActiveExperimentView> = {}): ActiveExperimentView {
  return {
    experimentId: 'exp-1',
    title: 'a preset',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'running',
    message: '',
    runs: [],
    events: [],
    ...over,
  };
}

/** Connected, with the host's default plan of every preset for this server. */
function withPlans(): PanelState {
  const s = b.connectedState();
  const facts = { identity: s.server!.identity, topology: s.server!.topology, knobs: s.server!.knobs, labDatabase: 'SpinlockLab' };
  const load = { mode: 'server-loop' as const, threads: '', duration: '', rows: '', warmup: '', interval: '' };
  return { ...s, presetPlans: s.presets.map((p) => presetPlanView(p.id, {}, load, facts)) };
}

describe('status that is true, in Chromium', () => {
  const { withPanel } = usePanels();

  it("the run header says one count: the host's, not the Run form's sweep", () => {
    const base = b.connectedState();
    const state: PanelState = {
      ...base,
      // The Run form sweeps three thread counts; the experiment running (a preset) plans four runs.
      selection: { ...base.selection, run: { ...base.selection.run, threads: '1,2,4' } },
      active: running({
        runCount: 4,
        message: 'run 3 of 4: 8 threads, repetition 1',
        runs: [
          { index: 0, threads: 8, status: 'completed', ticks: [b.tick(0)] },
          { index: 1, threads: 8, status: 'completed', ticks: [b.tick(0)] },
          { index: 2, threads: 8, status: 'running', ticks: [b.tick(0)] },
        ],
      }),
    };
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#run-status[data-status="running"]');
      const text = (await p.page.textContent('#run-status')) ?? '';
      assert.match(text, /^Run 3 of 4: /);
      assert.equal(text.match(/\bof \d/g)?.length, 1, `one count in "${text}"`);
      assert.doesNotMatch(text, /run 3 of 4/, "the host's run-start words are not said again");
    });
  });

  it('the Knobs section says the affinity the run holds, and that the run set it', () => {
    const topo = b.topology({ offline: [0, 1] });
    const base = b.connectedState();
    const state: PanelState = {
      ...base,
      server: {
        ...base.server!,
        topology: topo,
        knobs: {
          delayedDurability: 'DISABLED',
          affinity: { type: 'MANUAL', cpus: topo.schedulers.filter((s) => s.isOnline).map((s) => s.cpuId) },
        },
      },
      runJournal: {
        serverAddress: '127.0.0.1,14330',
        changes: ['affinity'],
        createdAt: '2026-11-25T10:00:00Z',
        pid: 1,
        original: 'CPU affinity AUTO',
      },
      active: running({ runs: [{ index: 0, threads: 4, status: 'running', ticks: [] }] }),
    };
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#knobs-now');
      const text = (await p.page.textContent('#knobs-now')) ?? '';
      assert.match(text, /Now: affinity CPUs 2-15, 14 CPUs online, set by this run/);
      assert.doesNotMatch(text, /AUTO/);
    });
  });

  it('a preset plan never sits on "Updating": a failed planning says why, wrong settings name the field', () =>
    withPanel(withPlans(), async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      await p.page.click('#preset-settings > summary');
      await fill(p.page, '#preset-threads', '2');
      const asked = await waitForRequest(p, 'presetPreview');
      await answerFailure(p, asked, 'the server went away while planning');
      await p.page.waitForSelector('#preset-plan[data-state="error"]');
      assert.match((await p.page.textContent('#preset-plan-note')) ?? '', /Could not plan these settings: the server went away/);
      await fill(p.page, '#preset-interval', '100ms');
      await p.page.waitForSelector('#preset-plan[data-state="invalid"]');
      assert.match((await p.page.textContent('#preset-plan-note')) ?? '', /Fix Sample every first/);
      assert.match(
        (await p.page.textContent('#section-presets')) ?? '',
        /Fix Sample every first \(marked in red\)/,
        'the Run blocker names it',
      );
    }));

  it("the plan is asked again when the server's plans change under settings already typed", () => {
    const state = withPlans();
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      await p.page.click('#preset-settings > summary');
      await fill(p.page, '#preset-threads', '2');
      const first = await waitForRequest(p, 'presetPreview');
      await answerFailure(p, first, 'not now');
      await p.page.waitForSelector('#preset-plan[data-state="error"]');
      // The server is read again (new default plans): the typed settings are planned again without another keystroke.
      const n = (await p.posted()).length;
      const plans = state.presetPlans.map((x) => ({ ...x, notes: [...x.notes, 'read again'] }));
      await p.send({ type: 'state', payload: { state: { ...state, presetPlans: plans } } });
      const again = await waitForRequest(p, 'presetPreview', n);
      assert.deepEqual(again.params, first.params);
      await answer(p, again, {
        ...plans.find((x) => x.presetId === again.params.presetId)!,
        settings: again.params.settings,
        load: again.params.load,
      });
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
    });
  });

  it('the Run blocker names a wrong field of another section', () => {
    const base = b.connectedState();
    const state: PanelState = { ...base, selection: { ...base.selection, knobs: { ...base.selection.knobs, affinity: 'numa:9' } } };
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#btn-run');
      await p.page.waitForFunction(() =>
        /Fix CPU affinity \(Knobs section\) first/.test(
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }).document.querySelector(
            '#section-run',
          ).textContent,
        ),
      );
    });
  });

  it('a watch the user stopped is "stopped", not "cancelled"', () => {
    const watch: WatchView = {
      id: '2026-11-24T00-00-00-000Z-watch',
      title: 'Watch of SIM01',
      serverName: 'SIM01',
      simulated: true,
      status: 'cancelled',
      intervalMs: 250,
      showBenign: false,
      ticks: 12,
      marks: [],
      diagnosis: [],
      requests: [],
      recent: [],
      message: 'Stopped: Stop was pressed.',
    };
    return withPanel(b.connectedState({ watch }), async (p) => {
      await showView(p.page, 'watch');
      await p.page.waitForSelector('#watch-status');
      const text = (await p.page.textContent('#watch-status')) ?? '';
      assert.match(text, /: stopped, 12 ticks/);
      assert.doesNotMatch(text, /cancelled/);
    });
  });

  it('the Custom workload form keeps its edits when the panel is hidden and shown (the webview reloaded)', () => {
    const base = b.connectedState();
    const state: PanelState = { ...base, selection: { ...base.selection, scenarioId: 'custom' } };
    return withPanel(state, async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#custom-workload');
      await p.page.fill('#custom-sql', 'SELECT 42');
      await fill(p.page, '#custom-threads', '3');
      await fill(p.page, '#custom-database', 'Sales');
      await p.page.reload();
      await p.page.waitForFunction(() => (globalThis as unknown as { __posted: unknown[] }).__posted.length > 0);
      await p.send({ type: 'state', payload: { state } });
      await p.page.waitForSelector('#custom-workload');
      assert.equal(await p.page.inputValue('#custom-sql'), 'SELECT 42');
      assert.equal(await p.page.locator('#custom-threads input').inputValue(), '3');
      assert.equal(await p.page.locator('#custom-database input').inputValue(), 'Sales');
    });
  });
});
