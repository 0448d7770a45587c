// The run status line in Chromium, said once and about one run: the figures and the phase belong to the same run (the
// next run's warm-up is not hung on the last run's figures), the end said once ("Completed: 9 of 9 runs", not
// "completed" three times), a search bounded by time counts trials against its budget (it cannot know a run count),
// and after a deploy the line says what to do next instead of asking for the deploy again.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { showView, usePanels, type Panel } from './harness';

function active(over: Partial<ActiveExperimentView> = {}): ActiveExperimentView {
  return {
    experimentId: 'exp-1',
    title: 'disk-insert sweep',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'running',
    message: '',
    runs: [],
    events: [],
    ...over,
  };
}

const completedRuns = (n: number, threads = 4) =>
  Array.from({ length: n }, (_, i) => ({ index: i, threads, status: 'completed' as const, ticks: b.ticks(3) }));

async function statusText(p: Panel, status: string): Promise<string> {
  await showView(p.page, 'experiment');
  await p.page.waitForSelector(`#run-status[data-status="${status}"]`);
  return ((await p.page.textContent('#run-status')) ?? '').replace(/\s+/g, ' ').trim();
}

describe('the run status line in Chromium', () => {
  const { withPanel } = usePanels();

  it("the next run's warm-up is said with that run, not with the last run's figures", () => {
    // Run 4 has ended; the host says run 5 is warming up (its runStart comes only when it measures).
    const state: PanelState = b.connectedState({
      active: active({ runCount: 9, message: 'run 5: warming up for 1000 ms', runs: completedRuns(4) }),
    });
    return withPanel(state, async (p) => {
      const text = await statusText(p, 'running');
      assert.match(text, /^Run 5 of 9: warming up for 1000 ms$/, text);
      assert.doesNotMatch(text, /rows\/s/, `no figure of run 4 beside run 5's warm-up: "${text}"`);
    });
  });

  it('a finished experiment says its end once', () => {
    const state: PanelState = b.connectedState({
      active: active({
        status: 'completed',
        runCount: 9,
        message: 'completed: 9 of 9 runs; saved /tmp/exp-1/experiment.json',
        runs: completedRuns(9),
      }),
    });
    return withPanel(state, async (p) => {
      const text = await statusText(p, 'completed');
      assert.equal(text.match(/complete/gi)?.length, 1, `"completed" once in "${text}"`);
      assert.equal(text.match(/\b9\b/g)?.length, 2, `the count once in "${text}"`);
      assert.match(text, /^Completed: 9 of 9 runs · saved \/tmp\/exp-1\/experiment\.json$/);
    });
  });

  it('a search bounded by time counts trials against its budget, never "run 4 of N"', () => {
    const state: PanelState = b.connectedState({
      active: active({
        title: 'Find the best settings: disk-insert',
        budgetMs: 600_000,
        message: "trial 4: log writer's node, 8 threads · 3m 10s of 10m budget used",
        runs: [...completedRuns(3), { index: 3, threads: 8, status: 'running', ticks: b.ticks(2) }],
      }),
    });
    return withPanel(state, async (p) => {
      const text = await statusText(p, 'running');
      assert.match(text, /^Trial 4: 8 threads, /, text);
      assert.match(text, / · 3m 10s of 10m budget used$/, text);
      assert.doesNotMatch(text, /\bof \d+:|Run \d/, `no run count: "${text}"`);
    });
  });

  it('after a deploy the line says the scenario is deployed and to run it', () =>
    withPanel(b.connectedState(), async (p) => {
      const text = await statusText(p, 'idle');
      assert.match(text, /^No runs yet: disk-insert is deployed; press Run/, text);
      assert.doesNotMatch(text, /deploy the scenario/);
    }));

  it("a custom workload's line counts calls of its batch, not rows", () => {
    const state: PanelState = b.connectedState({
      active: active({
        title: 'custom: SELECT 1',
        scenarioId: 'custom',
        runCount: 2,
        runs: [{ index: 0, threads: 2, status: 'running', ticks: b.ticks(3) }],
      }),
    });
    return withPanel(state, async (p) => {
      const text = await statusText(p, 'running');
      assert.match(text, /^Run 1 of 2: 2 threads, .* calls\/s$/, text);
      assert.doesNotMatch(text, /rows\/s/, text);
    });
  });
});
