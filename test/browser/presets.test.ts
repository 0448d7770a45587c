// The Presets section and the analysis views in Chromium under the real CSP, fed a preset's plan and a finished
// two-arm experiment (writelog: delayed durability DISABLED against FORCED) as the host posts them. The A/B summary
// cites numbers that are in the data; doing the math shows its inputs; the WRITELOG diagnosis puts each figure beside
// the WRITELOG post's. Screenshots: test-artifacts/browser/presets-{dark,light}.png and analysis-{dark,light}.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import type { PanelState, PresetPlanView } from '../../src/shared/protocol';
import { runFigures, formatNumber } from '../../src/shared/analysis';
import { quantityText } from '../../src/shared/units';
import { presetPlanView } from '../../src/host/presetPlans';
import * as b from '../helpers/builders';
import { cpuCountFor } from '../../src/engine/totals';
import { axeFindings, describeFindings } from './axe';
import { answer, fill, root, waitForPosted, waitForRequest, type Panel, type Theme, usePanels, showView } from './harness';

// One suite per file: its before/after hooks start and stop this file's browser and harness only.
describe('the Presets section and analysis views in Chromium', () => {
  const ARTIFACTS = path.join(root, 'test-artifacts', 'browser');
  const panels = usePanels();
  before(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

  const ARMS = [
    { id: 'dd-disabled', label: 'delayed durability DISABLED (every commit waits for its flush)', dd: 'DISABLED' as const, contention: 1 },
    { id: 'dd-forced', label: 'delayed durability FORCED', dd: 'FORCED' as const, contention: 0.35 },
  ];
  const CLOCK_HZ = 2_400_000_000;

  function armRun(index: number, threads: number, arm: (typeof ARMS)[number]): RunRecord {
    const r = b.runRecord(index, threads, { ticks: 12, contention: arm.contention, seed: index + 3 });
    r.arm = {
      ...r.arm,
      id: arm.id,
      label: arm.label,
      knobs: { delayedDurability: arm.dd, affinity: { spec: 'exclude-core0', cpus: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] } },
    };
    if (arm.dd === 'FORCED') {
      // Under FORCED commits do not wait for the log: a few stragglers only.
      for (const t of r.timeline) t.waits.WRITELOG = { waitMs: 1, count: 1, signalMs: 0 };
      r.totals.waits.WRITELOG = { waitMs: r.timeline.length, count: r.timeline.length, signalMs: 0 };
    }
    const ms = r.totals.elapsedMs;
    // As the engine derives them: the run's sessions on the 14 CPUs exclude-core0 leaves (2 per core).
    r.derived = {
      ...r.derived,
      clockHz: CLOCK_HZ,
      clock: { cpuTicksDelta: (CLOCK_HZ * ms) / 1000, msTicksDelta: ms },
      cpusUsed: Math.min(threads, 14),
      cpuCount: cpuCountFor(threads, 14, 2),
      elapsedSec: ms / 1000,
    };
    return r;
  }

  const experiment: Experiment = {
    ...b.experiment('exp-wl', [4, 8]),
    title: 'WRITELOG: full against delayed durability (preset writelog)',
    preset: {
      id: 'writelog',
      post: 'writelog-at-scale',
      question: 'How much of the commit time is WRITELOG?',
      notes: ['The server with this affinity has 14 CPUs: 16 threads left out there.'],
    },
    runs: [armRun(0, 4, ARMS[0]), armRun(1, 8, ARMS[0]), armRun(2, 4, ARMS[1]), armRun(3, 8, ARMS[1])],
  };

  function factsOf(s: PanelState) {
    return { identity: s.server!.identity, topology: s.server!.topology, knobs: s.server!.knobs, labDatabase: 'SpinlockLab' };
  }

  function state(plans: PresetPlanView[]): PanelState {
    const s = b.connectedState();
    const facts = { identity: s.server!.identity, topology: s.server!.topology, knobs: s.server!.knobs, labDatabase: 'SpinlockLab' };
    const presetPlans = plans.length
      ? plans
      : s.presets.map((p) =>
          presetPlanView(p.id, {}, { mode: 'server-loop', threads: '', duration: '', rows: '', warmup: '', interval: '' }, facts),
        );
    return {
      ...s,
      presetPlans,
      active: {
        experimentId: experiment.id,
        title: experiment.title,
        scenarioId: 'disk-insert',
        simulated: true,
        status: 'completed',
        message: '',
        events: [],
        majorVersion: 16,
        preset: {
          id: 'writelog',
          name: 'WRITELOG: full against delayed durability',
          post: experiment.preset!.post,
          question: experiment.preset!.question,
          notes: experiment.preset!.notes,
          views: ['ab', 'writelog'],
          watch: ['WRITELOG', 'LOGCACHE_ACCESS', 'LOGFLUSHQ'],
          arms: ARMS.map((a) => ({ id: a.id, label: a.label })),
          comparisons: [{ a: 'dd-disabled', b: 'dd-forced', label: 'DISABLED (A) against FORCED (B)' }],
        },
        runs: experiment.runs.map((r) => ({
          index: r.index,
          threads: r.threads,
          status: r.status,
          ticks: r.timeline,
          arm: { id: r.arm.id, label: r.arm.label },
          derived: r.derived,
        })),
      },
    };
  }

  const withPanel = (theme: Theme, fn: (p: Panel) => Promise<void>) => panels.withPanel(state([]), fn, theme);

  it('Presets: pick one, read the post it cites, its question and plan for this server, change settings as typed, Run posts runPreset', () =>
    withPanel('dark', async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      const about = (await p.page.innerText('#preset-about')) ?? '';
      assert.match(
        about,
        /Reproduces Chris Adkin, NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads \(2015, chrisadkin\.io\)/,
      );
      assert.doesNotMatch(about, /\d{3}_[0-9a-f]{16}|[Ss]eed/, 'the post by title and author, never our file name');
      assert.equal(
        await p.page.textContent('#preset-post cite'),
        'NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads',
      );
      // Pick writelog with the keyboard-reachable picker: the post it cites, its question and arms.
      await p.page.selectOption('#preset', 'writelog');
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document
            .querySelector('#preset-post')
            ?.textContent?.includes('WRITELOG At Scale: Going Beyond') === true,
      );
      assert.match((await p.page.textContent('#preset-about')) ?? '', /How much of the commit time is WRITELOG/);
      const plan = (await p.page.textContent('#preset-plan')) ?? '';
      assert.match(plan, /delayed durability DISABLED \(every commit waits for its flush\)/);
      assert.match(plan, /delayed durability FORCED; CPU affinity exclude-core0 \(CPUs 2-15\)/);
      assert.equal(await p.page.locator('#preset-plan tr[data-arm]').count(), 2);
      // A bad setting is named under its field and blocks Run; a good one is previewed on the host. The settings are
      // on demand: opened first.
      await p.page.click('#preset-settings > summary');
      await fill(p.page, '[data-preset-setting="batch_size"]', '0');
      await p.page.waitForSelector('#preset-setting-batch_size-error');
      assert.match((await p.page.textContent('#preset-setting-batch_size-error')) ?? '', /batch_size.*0 is too small/);
      assert.equal(await p.page.getAttribute('#btn-run-preset', 'disabled'), '');
      await fill(p.page, '[data-preset-setting="batch_size"]', '4');
      await fill(p.page, '#preset-duration', '1s');
      await fill(p.page, '#preset-interval', '100ms');
      await p.page.waitForSelector('#preset-interval-error');
      await fill(p.page, '#preset-interval', '250ms');
      await fill(p.page, '#preset-warmup', '0s');
      await fill(p.page, '#preset-threads', '2');
      const preview = await waitForRequest(p, 'presetPreview');
      assert.equal(preview.params.presetId, 'writelog');
      assert.equal(await p.page.getAttribute('#preset-plan', 'data-state'), 'updating', 'the plan shown was made with other settings');
      await p.page.locator('#btn-run-preset:not([disabled])').waitFor();
      await p.page.locator('#btn-run-preset').focus();
      await p.page.keyboard.press('Enter');
      const run = await waitForPosted(p, 'presetRun');
      assert.deepEqual(run.payload, {
        presetId: 'writelog',
        settings: { batch_size: '4' },
        load: { mode: 'server-loop', threads: '2', duration: '1s', rows: '', warmup: '0s', interval: '250ms' },
        repeat: 3,
      });
      await p.page.locator('#section-presets').screenshot({ path: path.join(ARTIFACTS, 'presets-dark.png') });
    }));

  it('Presets: a slow plan for earlier settings never replaces the plan for the settings typed now', () =>
    withPanel('dark', async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      const presetId = await p.page.evaluate(() =>
        String(
          (globalThis as unknown as { document: { querySelector(s: string): { value: string } } }).document.querySelector('#preset').value,
        ),
      );
      const load = (threads: string) => ({ mode: 'server-loop' as const, threads, duration: '', rows: '', warmup: '', interval: '' });
      const planFor = (threads: string) => presetPlanView(presetId, {}, load(threads), factsOf(b.connectedState()));
      await p.page.click('#preset-settings > summary');
      await fill(p.page, '#preset-threads', '2');
      const first = await waitForRequest(p, 'presetPreview');
      assert.deepEqual(first.params.load, load('2'));
      const n = (await p.posted()).length;
      await fill(p.page, '#preset-threads', '3');
      const second = await waitForRequest(p, 'presetPreview', n);
      assert.deepEqual(second.params.load, load('3'));
      // The newer question is answered first: its plan is shown, made with the settings in the form.
      await answer(p, second, planFor('3'));
      await p.page.waitForSelector('#preset-plan[data-state="current"]');
      assert.deepEqual(
        await p.page.$$eval('#preset-plan tr[data-arm] td.num', (els) => els.map((e) => e.textContent?.trim())),
        planFor('3').arms.map(() => '3'),
      );
      // The earlier question's answer arrives last and is dropped (messages are handled in order: the toast after it
      // shows once it was).
      await answer(p, first, planFor('2'));
      await p.send({ type: 'toast', payload: { message: 'after the first answer' } });
      await p.page.waitForSelector('#toast:has-text("after the first answer")');
      assert.equal(await p.page.getAttribute('#preset-plan', 'data-state'), 'current');
      assert.deepEqual(
        await p.page.$$eval('#preset-plan tr[data-arm] td.num', (els) => els.map((e) => e.textContent?.trim())),
        planFor('3').arms.map(() => '3'),
      );
    }));

  it('the analysis views of a two-arm preset experiment: A/B figures and a summary from the numbers, doing the math, WRITELOG diagnosis', () =>
    withPanel('dark', async (p) => {
      for (const record of experiment.runs) await p.send({ type: 'runEnd', payload: { experimentId: experiment.id, record } });
      await showView(p.page, 'results');
      await p.page.waitForSelector('#ab-compare .ab-summary li');
      // The figures per thread count: A, B and the change, for both thread counts.
      const heads = await p.page.$$eval('#ab-compare .ab-table th[scope="colgroup"]', (els) => els.map((e) => e.textContent?.trim()));
      assert.deepEqual(heads, ['4 threads', '8 threads']);
      const a8 = runFigures(experiment.runs[1]);
      const b8 = runFigures(experiment.runs[3]);
      const row = await p.page.$$eval('#ab-compare tr[data-figure="rowsPerSec"] td', (els) => els.map((e) => e.textContent?.trim()));
      assert.equal(row[3], formatNumber(a8.rowsPerSec));
      assert.equal(row[4], formatNumber(b8.rowsPerSec));
      assert.equal(
        row[5],
        `${b8.rowsPerSec > a8.rowsPerSec ? '+' : ''}${(((b8.rowsPerSec - a8.rowsPerSec) / a8.rowsPerSec) * 100).toFixed(1)}%`,
      );
      // Every number the summary cites is one of the compared figures (B vs A), formatted as the table prints them.
      const sentences = await p.page.$$eval('#ab-compare .ab-summary li', (els) => els.map((e) => e.textContent ?? ''));
      assert.ok(sentences.length >= 2, sentences.join('\n'));
      const wl = sentences.find((x) => x.startsWith('WRITELOG wait time per row'));
      assert.ok(wl, sentences.join('\n'));
      // A time per row in the unit that reads best, never "0.0000261" or an exponent.
      const perRow = (v: number) => quantityText(v, 'ms/row', { inTable: true });
      assert.ok(wl.includes(`(${perRow(b8.waitMsPerRow.WRITELOG)} vs ${perRow(a8.waitMsPerRow.WRITELOG)})`), wl);
      assert.match(wl, /\((\d[\d.,]*) (ns|µs|ms|s) vs (\d[\d.,]*) (ns|µs|ms|s)\)/, wl);
      const lc = sentences.find((x) => x.startsWith('LOGCACHE_ACCESS spins per row'));
      assert.ok(
        lc && lc.includes(`(${formatNumber(b8.spinsPerRow.LOGCACHE_ACCESS)} vs ${formatNumber(a8.spinsPerRow.LOGCACHE_ACCESS)})`),
        lc,
      );
      assert.ok(!sentences.some((x) => /\d{5,}\.\dx/.test(x)), 'no absurd ratio');
      assert.ok(
        Number(await p.page.getAttribute('[data-chart="ab-throughput"]', 'data-points')) >= 24,
        'both arms on the throughput chart',
      );
      // The scaling chart overlays the two arms, wait ms per row included.
      assert.equal(await p.page.getAttribute('[data-chart="scaling"]', 'data-curves'), '2');
      assert.equal(Number(await p.page.getAttribute('[data-chart="scaling"]', 'data-points')), 12, '2 arms x 2 thread counts x 3 measures');

      // Doing the math: the inputs and the sum written out.
      const math = (await p.page.textContent('#cycle-math')) ?? '';
      const r0 = experiment.runs[0];
      assert.match(math, /2\.40 GHz/);
      // The CPUs the run's 4 sessions could use (of the 14 the affinity leaves), and the 2 cores they sit on.
      assert.ok(
        math.includes(
          `${Number((r0.totals.elapsedMs / 1000).toFixed(3))} s x 4 logical CPUs (4 threads; 14 online schedulers) x 2.40 GHz = `,
        ),
        math,
      );
      assert.match(math, /On physical cores, as the post counts them: .* x 2 physical cores x 2\.40 GHz/);
      assert.match(math, /Measured, from the schedulers' busy time: [\d,]+ ms of scheduler CPU/);
      assert.match(math, /LOGCACHE_ACCESS: [\d,]+ spins,\s+[\d.,]+ cycles per spin/);
      assert.equal(await p.page.locator('#cycle-math .math-run').count(), 4);

      // The WRITELOG diagnosis: each figure beside the WRITELOG post's, and the verdicts.
      const diag = (await p.page.textContent('#writelog-diagnosis')) ?? '';
      assert.match(diag, /Log flushes/);
      assert.match(diag, /the WRITELOG post: about 15,000\/s/);
      assert.match(diag, /Average WRITELOG wait vs log write stall/);
      assert.match(diag, /is [\d.]+x the log write stall/);
      assert.match(diag, /WRITELOG waits are rare/, 'the FORCED arm');
      assert.equal(await p.page.locator('#writelog-diagnosis tr[data-line="pendingLogIo"]').count(), 4);
    }));

  for (const theme of ['dark', 'light', 'hc'] as Theme[]) {
    it(`screenshot of the analysis views in the ${theme} theme, every element's contrast checked (axe-core)`, () =>
      withPanel(theme, async (p) => {
        for (const record of experiment.runs) await p.send({ type: 'runEnd', payload: { experimentId: experiment.id, record } });
        await showView(p.page, 'results');
        await p.page.waitForSelector('#writelog-diagnosis');
        await p.page.waitForTimeout(200);
        const file = path.join(ARTIFACTS, `analysis-${theme}.png`);
        await p.page.locator('#section-analysis').screenshot({ path: file });
        assert.ok(fs.statSync(file).size > 20_000);
        await showView(p.page, 'experiment');
        await p.page.locator('#section-presets').screenshot({ path: path.join(ARTIFACTS, `presets-${theme}.png`) });
        await showView(p.page, 'results');
        // The formulas of doing the math, black on black in Dark High Contrast before.
        await p.page
          .locator('#cycle-math .math-run')
          .first()
          .screenshot({ path: path.join(ARTIFACTS, `doing-the-math-${theme}.png`) });
        await p.page
          .locator('#ab-compare .ab-table')
          .first()
          .screenshot({ path: path.join(ARTIFACTS, `ab-table-${theme}.png`) });
        const findings = await axeFindings(p.page);
        assert.deepEqual(findings, [], describeFindings(findings));
      }));
  }
});
