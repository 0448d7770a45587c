// Runs you can tell apart, in Chromium: a preset's runs carry their arm's name in the results and the Compare pickers;
// the comparison defaults to the experiment's own (arm A against arm B at the same sessions), not to a run of another
// experiment opened from the history; a pair the user picks across workloads says so and gives no verdict.
import assert from 'node:assert/strict';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import type { PanelState } from '../../src/shared/protocol';
import * as b from '../helpers/builders';
import { answer, waitForRequest, usePanels, showView } from './harness';

describe('comparing runs in the panel, in Chromium', () => {
  const { withPanel } = usePanels();
  const ARMS = [
    { id: 'lw-node', label: "workers on the log writer's node", factor: 1 },
    { id: 'other-node', label: 'workers on the other node', factor: 1.4 },
  ];

  function armRun(index: number, threads: number, arm: (typeof ARMS)[number]): RunRecord {
    const r = b.runRecord(index, threads, { ticks: 6, seed: 5 });
    r.arm = { ...r.arm, id: arm.id, label: arm.label };
    r.totals = { ...r.totals, rows: Math.round(r.totals.rows * arm.factor) };
    r.derived = { ...r.derived, rowsPerSec: r.derived.rowsPerSec * arm.factor };
    r.timeline = r.timeline.map((t) => ({ ...t, rowsPerSec: t.rowsPerSec * arm.factor }));
    return r;
  }
  const runs = [armRun(0, 4, ARMS[0]), armRun(1, 4, ARMS[1]), armRun(2, 10, ARMS[0]), armRun(3, 10, ARMS[1])];

  /** An earlier experiment of another scenario (in-memory), in the history. */
  const inmem: Experiment = (() => {
    const e = b.experiment('exp-inmem', [1, 32], { ticks: 6, title: 'inmem-insert 1,32 threads' });
    e.scenario = { id: 'inmem-insert', parameters: {} };
    e.runs = e.runs.map((r) => ({ ...r, arm: { ...r.arm, label: 'inmem-insert', scenarioId: 'inmem-insert', parameters: {} } }));
    return e;
  })();

  function state(): PanelState {
    return b.connectedState({
      active: {
        experimentId: 'exp-numa',
        title: 'NUMA: the log writer’s node',
        scenarioId: 'disk-insert',
        simulated: true,
        status: 'completed',
        message: '',
        events: [],
        majorVersion: 16,
        preset: {
          id: 'numa',
          name: 'NUMA',
          post: 'writelog-at-scale',
          question: 'Does the log writer’s node matter?',
          notes: [],
          views: ['ab'],
          watch: [],
          arms: ARMS.map((a) => ({ id: a.id, label: a.label })),
          comparisons: [{ a: ARMS[0].id, b: ARMS[1].id, label: 'log writer’s node (A) against the other (B)' }],
        },
        runs: runs.map((r) => ({
          index: r.index,
          threads: r.threads,
          status: r.status,
          ticks: r.timeline,
          arm: { id: r.arm.id, label: r.arm.label },
        })),
      },
      history: [b.summaryOf(inmem)],
    });
  }

  /** The live preset's records, and the in-memory experiment opened from the history (its runs come last). */
  async function load(p: Parameters<Parameters<typeof withPanel>[1]>[0]): Promise<void> {
    for (const record of runs) await p.send({ type: 'runEnd', payload: { experimentId: 'exp-numa', record } });
    await showView(p.page, 'history');
    await p.page.click('[data-open="exp-inmem"]');
    await answer(p, await waitForRequest(p, 'experimentOpen'), { experiment: inmem, preset: null });
    await showView(p.page, 'results');
    await p.page.waitForSelector('#compare-a option[value="exp-inmem#1"]', { state: 'attached' });
  }

  const selected = (p: Parameters<Parameters<typeof withPanel>[1]>[0], id: string) =>
    p.page.$eval(`${id}`, (s) => {
      const sel = s as unknown as { value: string; selectedOptions: { textContent: string }[] };
      return { value: sel.value, text: sel.selectedOptions[0]?.textContent?.trim() ?? '' };
    });

  it('defaults to arm A against arm B of the live preset at the same sessions, every run named by its arm', () =>
    withPanel(state(), async (p) => {
      await load(p);
      const a = await selected(p, '#compare-a');
      const bb = await selected(p, '#compare-b');
      console.log(`      default pair: "${a.text}" against "${bb.text}"`);
      assert.deepEqual([a.value, bb.value], ['active#2', 'active#3'], 'A and B of the preset at 10 sessions, not the in-memory run');
      assert.equal(a.text, "A: workers on the log writer's node · run 3 · 10 sessions");
      assert.equal(bb.text, 'B: workers on the other node · run 4 · 10 sessions');
      assert.match((await p.page.textContent('#compare-default')) ?? '', /arm A against arm B of the same experiment at 10 sessions/);
      assert.equal(await p.page.locator('#compare-different').count(), 0);
      assert.match((await p.page.textContent('#compare-summary')) ?? '', /higher in run B/);
      // The pickers group the runs by experiment, and the other experiment's runs carry their own workload's name.
      const groups = await p.page.$$eval('#compare-a optgroup', (els) => els.map((e) => e.getAttribute('label')));
      assert.deepEqual(groups, ['NUMA: the log writer’s node', 'inmem-insert 1,32 threads']);
      assert.equal((await p.page.textContent('#compare-a option[value="exp-inmem#1"]'))?.trim(), 'inmem-insert · run 2 · 32 sessions');
      // The results name each run's arm by its letter.
      const arms = await p.page.$$eval('#results-table tbody tr', (rows) => rows.map((r) => r.children[1].textContent?.trim()));
      assert.deepEqual(arms, [
        "A: workers on the log writer's node",
        'B: workers on the other node',
        "A: workers on the log writer's node",
        'B: workers on the other node',
      ]);
    }));

  it('a pair picked across workloads says it compares different things and gives only the figures', () =>
    withPanel(state(), async (p) => {
      await load(p);
      await p.page.selectOption('#compare-b', 'exp-inmem#1');
      await p.page.waitForSelector('#compare-different');
      const note = (await p.page.textContent('#compare-different')) ?? '';
      console.log(`      ${note.replace(/\s+/g, ' ').trim()}`);
      assert.match(note, /A ran scenario disk-insert .*, B scenario inmem-insert: this compares different workloads\./);
      assert.match(note, /no verdict/);
      assert.equal(await p.page.locator('#compare-summary').count(), 0, 'no "higher in run B"');
      const heads = await p.page.$$eval('#compare-table thead th', (els) => els.map((e) => e.textContent?.trim()));
      assert.deepEqual(heads, ['Figure', 'A', 'B'], 'no Change column');
      assert.match((await p.page.textContent('#compare-experiments')) ?? '', /A from NUMA.*B from inmem-insert/);
      // Back to two runs of the preset: the verdict returns.
      await p.page.selectOption('#compare-b', 'active#1');
      await p.page.waitForSelector('#compare-summary');
      assert.equal(await p.page.locator('#compare-different').count(), 0);
    }));
});
