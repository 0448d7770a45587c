// Repetitions in the panel's webview (Chromium, real CSP): the Repetitions field of the run and preset forms sends
// repeat and says how long the experiment will take; a repeated two-arm experiment's A/B view gives the verdict with
// its interval first and each figure as gmean [low, high], its scaling chart draws an interval band around each arm,
// its results show each cell with its interval, spread and run count; an old record (one run per cell, opened from
// the history) shows "1 run: no interval". Screenshot: test-artifacts/browser/repeats-{dark,hc}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import type { PanelState } from '../../src/shared/protocol';
import { SINGLE_RUN } from '../../src/shared/repeats';
import { presetPlanView } from '../../src/host/presetPlans';
import * as b from '../helpers/builders';
import { answer, fill, root, waitForPosted, waitForRequest, type Theme, usePanels, showView } from './harness';

describe('repetitions in the panel, in Chromium', () => {
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  const panels = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  const ARMS = [
    { id: 'dd-disabled', label: 'delayed durability DISABLED', factor: 1 },
    { id: 'dd-forced', label: 'delayed durability FORCED', factor: 1.3 },
  ];
  /** Run-to-run noise of each repetition: a few percent, so B's 30% stands out. */
  const NOISE = [1, 1.03, 0.97];

  /** A run of `arm` scaled to its throughput, as the engine records a repetition. */
  function armRun(index: number, threads: number, arm: (typeof ARMS)[number], repetition: number | null): RunRecord {
    const r = b.runRecord(index, threads, { ticks: 8, seed: 3 });
    const f = arm.factor * (repetition === null ? 1 : NOISE[repetition - 1]);
    r.arm = { ...r.arm, id: arm.id, label: arm.label };
    r.rows = Math.round(r.rows * f);
    r.totals = { ...r.totals, rows: Math.round(r.totals.rows * f) };
    r.derived = { ...r.derived, rowsPerSec: r.derived.rowsPerSec * f };
    r.timeline = r.timeline.map((t) => ({ ...t, rowsPerSec: t.rowsPerSec * f }));
    if (repetition !== null) r.repetition = repetition;
    return r;
  }

  /** Each repetition runs both thread counts with the arms alternating (A B, then B A), as the engine orders them. */
  function repeated(reps: number): RunRecord[] {
    const out: RunRecord[] = [];
    for (let rep = 1; rep <= reps; rep++)
      for (const threads of [4, 8])
        for (const arm of rep % 2 ? ARMS : [...ARMS].reverse()) out.push(armRun(out.length, threads, arm, reps > 1 ? rep : null));
    return out;
  }

  function state(runs: RunRecord[], over: Partial<PanelState> = {}): PanelState {
    const s = b.connectedState();
    const facts = { identity: s.server!.identity, topology: s.server!.topology, knobs: s.server!.knobs, labDatabase: 'SpinlockLab' };
    const blank = { mode: 'server-loop' as const, threads: '', duration: '', rows: '', warmup: '', interval: '' };
    return b.connectedState({
      presetPlans: s.presets.map((p) => presetPlanView(p.id, {}, blank, facts)),
      active: {
        experimentId: 'exp-rep',
        title: 'WRITELOG, repeated',
        scenarioId: 'disk-insert',
        simulated: true,
        status: 'completed',
        message: '',
        events: [],
        majorVersion: 16,
        preset: {
          id: 'writelog',
          name: 'WRITELOG',
          post: 'writelog-at-scale',
          question: 'How much of the commit time is WRITELOG?',
          notes: [],
          views: ['ab'],
          watch: ['WRITELOG'],
          arms: ARMS.map((a) => ({ id: a.id, label: a.label })),
          comparisons: [{ a: ARMS[0].id, b: ARMS[1].id, label: 'DISABLED (A) against FORCED (B)' }],
        },
        runs: runs.map((r) => ({
          index: r.index,
          threads: r.threads,
          status: r.status,
          ticks: r.timeline,
          arm: { id: r.arm.id, label: r.arm.label },
          derived: r.derived,
          ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
        })),
      },
      ...over,
    });
  }

  it('the run form: Repetitions says how long the experiment takes and Run sends repeat; a wrong count blocks Run', () =>
    panels.withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#run-repeat');
      assert.equal(await p.page.textContent('label[for="run-repeat"]'), 'Repetitions', 'the field has a label');
      await fill(p.page, '#run-threads', '1,2');
      await fill(p.page, '#run-duration', '10s');
      await fill(p.page, '#run-warmup', '0s');
      await fill(p.page, '#run-repeat', '0');
      await p.page.waitForSelector('#run-repeat-error');
      assert.match((await p.page.textContent('#run-repeat-error')) ?? '', /whole number from 1 to 100/);
      assert.equal(await p.page.getAttribute('#btn-run', 'disabled'), '');
      await fill(p.page, '#run-repeat', '3');
      await p.page.waitForSelector('#run-time');
      assert.match((await p.page.textContent('#run-time')) ?? '', /^6 runs \(2 thread counts x 3 repetitions\): about 60 s/);
      await p.page.locator('#btn-run:not([disabled])').waitFor();
      await p.page.locator('#btn-run').focus();
      await p.page.keyboard.press('Enter');
      const run = await waitForPosted(p, 'experimentRun');
      assert.equal(run.payload.repeat, 3);
      assert.equal(run.payload.run.threads, '1,2');
    }));

  it("the preset form: Repetitions defaults to the preset's own, the time counts every arm, Run preset sends repeat", () =>
    panels.withPanel(state([]), async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      assert.equal(await p.page.getAttribute('#preset-repeat', 'placeholder'), '3');
      assert.match((await p.page.textContent('#preset-time')) ?? '', /runs \(.*x 3 repetitions\)/);
      await p.page.locator('#btn-run-preset:not([disabled])').waitFor();
      await p.page.click('#btn-run-preset');
      assert.equal((await waitForPosted(p, 'presetRun')).payload.repeat, 3);
      const n = (await p.posted()).length;
      await p.page.click('#preset-settings > summary');
      await fill(p.page, '#preset-repeat', '2');
      await p.page.waitForFunction(() =>
        /x 2 repetitions/.test(
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(
            '#preset-time',
          )?.textContent ?? '',
        ),
      );
      await p.page.click('#btn-run-preset');
      const later = (await p.posted()).slice(n).find((m) => m.type === 'presetRun');
      assert.ok(later && later.type === 'presetRun' && later.payload.repeat === 2, JSON.stringify(later));
    }));

  const views = (theme: Theme) => async (p: Parameters<Parameters<typeof panels.withPanel>[1]>[0]) => {
    const runs = repeated(3);
    for (const record of runs) await p.send({ type: 'runEnd', payload: { experimentId: 'exp-rep', record } });
    // The A/B view: the verdict first, with its interval; B is about 30% faster.
    await showView(p.page, 'results');
    await p.page.waitForSelector('#ab-compare .ab-verdict');
    const verdict = (await p.page.textContent('#ab-compare .ab-verdict')) ?? '';
    assert.match(verdict, /At 8 threads: B is faster by (2\d|3\d)% \(95% interval \d+% to \d+%\)\./);
    assert.equal(await p.page.getAttribute('#ab-compare .ab-verdict', 'data-kind'), 'higher');
    const row = await p.page.$$eval('#ab-compare tr[data-figure="rowsPerSec"] td', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    assert.match(row[3], /^[\d,]+ \[[\d,]+, [\d,]+\]$/, 'A at 8 threads: gmean [low, high]');
    assert.match(row[5], /^\+\d+\.\d%\s*\[\+\d+(\.\d)?% to \+\d+(\.\d)?%\]$/, 'B/A with its interval');
    assert.match((await p.page.textContent('#ab-compare .ab-method')) ?? '', /geometric mean of 3 runs \[95% interval\]/);
    // The scaling chart: one band (two datasets, the high edge filled to the low) around each arm's line.
    assert.equal(await p.page.getAttribute('[data-chart="scaling"]', 'data-bands'), '2');
    assert.equal(await p.page.getAttribute('[data-chart="scaling"]', 'data-points'), '12', '2 arms x 2 thread counts x 3 measures');
    // The results: each cell with its interval, spread and run count; each run named by arm and repetition.
    const cells = await p.page.$$eval('#results-cells tbody tr', (rs) =>
      rs.map((r) => ({
        n: r.getAttribute('data-n'),
        tp: r.querySelector('[data-figure="rowsPerSec"]')?.textContent,
        cv: r.querySelector('.spread')?.textContent,
      })),
    );
    assert.equal(cells.length, 4);
    for (const c of cells) {
      assert.equal(c.n, '3');
      assert.match(c.tp ?? '', /^[\d,]+ \[[\d,]+, [\d,]+\]$/);
      assert.match(c.cv ?? '', /^\d+\.\d%$/);
    }
    const heads = await p.page.$$eval('#results-table thead th', (hs) => hs.map((h) => h.textContent?.trim()));
    assert.deepEqual(heads.slice(0, 4), ['Run', 'Arm', 'Rep.', 'Threads']);
    assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
    assert.deepEqual(p.errors, [], 'no console error');
    await p.page.locator('#ab-compare').screenshot({ path: path.join(ARTIFACTS, `repeats-${theme}.png`) });
    await p.page.locator('#section-scaling').screenshot({ path: path.join(ARTIFACTS, `repeats-scaling-${theme}.png`) });
  };

  it('a repeated experiment: the A/B verdict with its interval, interval bands on the scaling chart, cells with n and spread', () =>
    panels.withPanel(state(repeated(3)), views('dark'), 'dark'));

  it('the same in high contrast: the bands are drawn and named', () => panels.withPanel(state(repeated(3)), views('hc'), 'hc'));

  it('an old record opened from the history (one run per cell) shows "1 run: no interval"', () => {
    const old: Experiment = { ...b.experiment('exp-old', [4, 8], { ticks: 6 }), title: 'an experiment from before repetitions' };
    return panels.withPanel(b.connectedState({ history: [b.summaryOf(old)] }), async (p) => {
      await showView(p.page, 'history');
      await p.page.click('[data-open="exp-old"]');
      const open = await waitForRequest(p, 'experimentOpen');
      await answer(p, open, { experiment: old, preset: null });
      await showView(p.page, 'results');
      await p.page.waitForSelector('#results-experiment option[value="exp-old"]', { state: 'attached' });
      await p.page.selectOption('#results-experiment', 'exp-old');
      await p.page.waitForSelector('#results-cells tbody tr');
      const spreads = await p.page.$$eval('#results-cells .spread', (els) => els.map((e) => e.textContent?.trim()));
      assert.deepEqual(spreads, [SINGLE_RUN, SINGLE_RUN]);
      assert.match((await p.page.textContent('#results-cells')) ?? '', /Each figure: 1 run: no interval\./);
      assert.equal(await p.page.getAttribute('[data-chart="scaling"]', 'data-bands'), '0', 'no band without repetitions');
    });
  });
});
